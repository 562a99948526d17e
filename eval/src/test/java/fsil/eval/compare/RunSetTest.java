package fsil.eval.compare;

import fsil.api.FsilException;
import fsil.api.FeatureMatrix;
import fsil.data.FeatureSet;
import fsil.api.LabeledData;
import fsil.eval.report.Report;
import fsil.eval.run.Runner;
import fsil.eval.run.RunnerTest;
import fsil.eval.store.RunDirectory;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What RunSet refuses to read as a comparison's runs, each with one line naming the cause. Real runs of toy data. */
class RunSetTest {
    static final Map<String, List<String>> OPTIONS = Map.of("episodes", List.of("12"), "queries", List.of("20"),
            "ways", List.of("4"), "shots", List.of("1"), "episodes-per-unit", List.of("4"));

    static Path run(FeatureSet data, String methods, Path dir) {
        RunnerTest.runner(data).run(RunnerTest.spec(methods, "fewshot", OPTIONS, 1), dir);
        return dir;
    }

    static FsilException refused(List<Path> dirs) {
        return assertThrows(FsilException.class, () -> RunSet.load(dirs));
    }

    static void oneLine(FsilException e) {
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    /** The same run named twice, also through a symbolic link or a path with "..", is refused as the same run. */
    @Test
    void refusesARunComparedWithItselfThroughALink(@TempDir Path tmp) throws IOException {
        Path a = run(RunnerTest.TOY, "ncm", tmp.resolve("a"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), a);
        FsilException e = refused(List.of(a, link));
        assertTrue(e.getMessage().contains("are the same run") && e.getMessage().contains(a.toRealPath().toString()),
                e.getMessage());
        oneLine(e);
        FsilException dotted = refused(List.of(a, a.resolve("..").resolve("a")));
        assertTrue(dotted.getMessage().contains("are the same run"), dotted.getMessage());
    }

    /** A directory that holds runs (as the demo's) is not one; the message lists the runs in it. */
    @Test
    void namesTheRunsOfADirectoryThatHoldsRuns(@TempDir Path tmp) throws IOException {
        Path demo = tmp.resolve("demo-x");
        run(RunnerTest.TOY, "ncm", demo.resolve("fewshot"));
        run(RunnerTest.TOY, "knn", demo.resolve("cil"));
        Files.createDirectories(demo.resolve("notes"));
        FsilException e = refused(List.of(demo));
        assertEquals(demo + " is not a run; it holds the runs fewshot/, cil/: compare one of them", e.getMessage());
        FsilException empty = refused(List.of(demo.resolve("notes")));
        assertTrue(empty.getMessage().contains("is not a run directory (no spec.json)"), empty.getMessage());
    }

    /** A run another process holds (its lock) is still running; one that stopped before its end is unfinished. */
    @Test
    void refusesRunsStillRunningOrUnfinished(@TempDir Path tmp) throws IOException {
        Path a = run(RunnerTest.TOY, "ncm,knn", tmp.resolve("a"));
        try (RunDirectory held = RunDirectory.open(a)) {
            FsilException e = refused(List.of(a));
            assertTrue(e.getMessage().startsWith(a + " is still running: fsil process (pid "
                    + ProcessHandle.current().pid() + ") holds it"), e.getMessage());
            oneLine(e);
        }
        assertFalse(RunSet.load(List.of(a)).isEmpty(), "free again once the process lets go");

        // a crash before the end: rows of the first units only, and no summary (the runner writes it last)
        Path b = run(RunnerTest.TOY, "ncm,knn", tmp.resolve("b"));
        Path units = b.resolve(UnitStore.FILE);
        List<String> lines = Files.readAllLines(units);
        Files.write(units, lines.subList(0, lines.size() - 3));
        Files.delete(b.resolve(Report.SUMMARY));
        FsilException cut = refused(List.of(b));
        assertTrue(cut.getMessage().startsWith(b + " is unfinished") && cut.getMessage().contains(
                "fsil run --resume " + b), cut.getMessage());
        oneLine(cut);

        // rebuilding its summaries (fsil report) does not make it finished: the methods hold different units
        Report.rebuild(b, ComparisonTest.METRICS);
        FsilException rebuilt = refused(List.of(b));
        assertTrue(rebuilt.getMessage().startsWith(b + " is unfinished"), rebuilt.getMessage());

        Runner.Outcome resumed = RunnerTest.runner(RunnerTest.TOY).resume(b, 1);
        assertEquals(3, resumed.ranNow());
        assertEquals(RunSet.load(List.of(a)).size(), RunSet.load(List.of(b)).size());

        // a run that stored nothing yet
        Path c = run(RunnerTest.TOY, "ncm", tmp.resolve("c"));
        Files.delete(c.resolve(UnitStore.FILE));
        Files.delete(c.resolve(Report.SUMMARY));
        FsilException nothing = refused(List.of(c));
        assertTrue(nothing.getMessage().startsWith(c + " is unfinished"), nothing.getMessage());
    }

    /** Runs of one spec on data whose fingerprints differ pair the same episodes of other numbers: refused. */
    @Test
    void refusesRunsOfDifferentData(@TempDir Path tmp) throws IOException {
        FeatureSet toy = RunnerTest.TOY;
        float[] x = toy.train().features().rawData().clone();
        for (int i = 0; i < x.length; i++) {
            x[i] *= 3; // other features of the same dataset name, say from another backbone
        }
        FeatureSet other = new FeatureSet(toy.dataset(), toy.backbone(), toy.key(), toy.classes(),
                new LabeledData(FeatureMatrix.wrap(toy.train().size(), toy.dimension(), x), toy.train().labels()),
                toy.test(), toy.splits());
        Path a = run(toy, "ncm", tmp.resolve("a"));
        Path b = run(other, "knn", tmp.resolve("b"));
        Path c = run(toy, "knn", tmp.resolve("c"));
        FsilException e = refused(List.of(a, b));
        assertTrue(e.getMessage().startsWith("runs " + a + " and " + b + " ran on different data for dataset toy"),
                e.getMessage());
        assertTrue(e.getMessage().contains(toy.fingerprint().substring(0, 12))
                && e.getMessage().contains(other.fingerprint().substring(0, 12)), e.getMessage());
        oneLine(e);
        List<UnitRecord> same = RunSet.load(List.of(a, c));
        assertEquals(List.of("knn", "ncm"), same.stream().map(UnitRecord::method).distinct().sorted().toList());
    }
}
