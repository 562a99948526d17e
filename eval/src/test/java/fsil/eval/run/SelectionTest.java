package fsil.eval.run;

import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.data.FeatureSet;
import fsil.data.SplitSet;
import fsil.eval.report.Report;
import fsil.eval.store.UnitRecord;
import fsil.eval.testing.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SelectionTest {
    /**
     * 15 classes: base 0-4, validation 5-9, novel 10-14. With {@code poisonNovel} every feature of the novel
     * classes is NaN: a method that touches one throws (the toy methods check their inputs), so a selection that
     * drew an evaluation class would fail loudly.
     */
    static FeatureSet data(boolean poisonNovel) {
        FeatureSet fs = TestData.clusters(15, 20, 10, 6, 1.0, 11);
        LabeledData train = poisonNovel ? poison(fs.train()) : fs.train();
        LabeledData test = poisonNovel ? poison(fs.test()) : fs.test();
        return new FeatureSet(fs.dataset(), fs.backbone(), fs.key() + (poisonNovel ? "-poisoned" : ""), fs.classes(),
                train, test, new SplitSet(new int[]{0, 1, 2, 3, 4}, new int[]{5, 6, 7, 8, 9},
                new int[]{10, 11, 12, 13, 14}, Optional.empty()));
    }

    private static LabeledData poison(LabeledData d) {
        float[] x = d.features().rawData().clone();
        int dim = d.dimension();
        for (int i = 0; i < d.size(); i++) {
            if (d.labels()[i] >= 10) {
                Arrays.fill(x, i * dim, (i + 1) * dim, Float.NaN);
            }
        }
        return new LabeledData(fsil.api.FeatureMatrix.wrap(d.size(), dim, x), d.labels());
    }

    static RunSpec spec(String methods, Map<String, List<String>> select, String metric) {
        return new RunSpec(fsil.eval.run.VariantSpec.parseList(methods), List.of("toy"), "identity", "fewshot",
                Map.of("episodes", List.of("12"), "ways", List.of("4"), "queries", List.of("20"), "shots",
                        List.of("1", "3"), "episodes-per-unit", List.of("6")), 1993, 0, 1, 2, select, metric);
    }

    @Test
    void selectionRecordsItsChoiceAndNeverDrawsEvaluationClasses(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        Runner.Outcome o = RunnerTest.runner(data(true)).run(spec("ncm,knn", Map.of("ncm.scale", List.of("0.1", "1",
                "10")), "ece"), dir);
        // the selection ran on the validation classes only, so it finished ...
        Table sel = Table.read().csv(dir.resolve(Selection.TABLE).toFile());
        assertEquals(2 * 3, sel.rowCount(), "two settings x three candidates");
        for (String setting : List.of("4-way 1-shot Q20 balanced", "4-way 3-shot Q20 balanced")) {
            Table t = sel.where(sel.stringColumn("setting").isEqualTo(setting));
            double best = t.doubleColumn("value").min();
            assertTrue(Double.isFinite(best));
            assertEquals(1, t.booleanColumn("chosen").countTrue());
            Table chosen = t.where(t.booleanColumn("chosen").isTrue());
            assertEquals(best, chosen.doubleColumn("value").get(0), 0, "ece: the lowest wins");
            assertEquals(12 * 20, chosen.intColumn("n").get(0), "ece pools every query of the 12 validation episodes");
        }
        Table validation = Table.read().csv(dir.resolve(Selection.DIR).resolve(Report.SUMMARY).toFile());
        assertTrue(validation.stringColumn("classes_from").asList().stream().allMatch("validation"::equals));
        assertEquals(0, validation.where(validation.stringColumn("metric").isEqualTo("failed_units"))
                .doubleColumn("value").sum(), "no selection unit failed");
        // ... and the run proper drew the poisoned novel classes, where every unit fails loudly
        assertEquals(o.tasks(), o.failedTasks());
        assertTrue(o.failureReasons().get(0).contains("NaN") || o.failureReasons().get(0).contains("finite"),
                o.failureReasons().toString());
        String config = Files.readString(dir.resolve(Runner.CONFIG));
        assertTrue(config.contains("\"selected\""), config);
    }

    @Test
    void theChosenParametersRunAndResumeKeepsTheChoice(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        RunSpec spec = spec("ncm,knn", Map.of("ncm.scale", List.of("0.1", "10")), "ece");
        Runner.Outcome o = RunnerTest.runner(data(false)).run(spec, dir);
        assertEquals(0, o.failedTasks());
        Table sel = Table.read().csv(dir.resolve(Selection.TABLE).toFile());
        // the run proper of the chosen scale gives the numbers of a plain run with that scale
        String chosen1 = sel.where(sel.stringColumn("setting").isEqualTo("4-way 1-shot Q20 balanced")
                .and(sel.booleanColumn("chosen").isTrue())).stringColumn("candidate").get(0);
        Path plain = tmp.resolve("plain");
        RunnerTest.runner(data(false)).run(new RunSpec(fsil.eval.run.VariantSpec.parseList("ncm[" + chosen1 + "]"),
                List.of("toy"), "identity", "fewshot", Map.of("episodes", List.of("12"), "ways", List.of("4"),
                "queries", List.of("20"), "shots", List.of("1"), "episodes-per-unit", List.of("6")), 1993, 0, 1, 1),
                plain);
        assertEquals(metricsOf(UnitRecordsOf(plain), "4-way 1-shot Q20 balanced"),
                metricsOf(o.records().stream().filter(r -> r.method().equals("ncm")).toList(),
                        "4-way 1-shot Q20 balanced"));
        // resume after losing the run's rows: the selection is read back, not rerun, and the numbers are the same
        String before = RunnerTest.stableSummary(dir);
        Files.delete(dir.resolve(Runner.UNITS));
        Runner.Outcome resumed = RunnerTest.runner(data(false)).resume(dir, 1);
        assertEquals(o.records().size(), resumed.ranNow());
        assertEquals(before, RunnerTest.stableSummary(dir));
    }

    private static List<UnitRecord> UnitRecordsOf(Path dir) {
        return fsil.eval.store.UnitStore.read(dir.resolve(Runner.UNITS)).rows();
    }

    private static List<String> metricsOf(List<UnitRecord> rows, String setting) {
        return rows.stream().filter(r -> r.setting().equals(setting))
                .sorted((a, b) -> Integer.compare(a.unit(), b.unit()))
                .map(r -> r.value("episode_acc").toString() + r.value("calibration")).toList();
    }

    /**
     * The selection metric is checked before any work: an unknown name, a cost (time, memory) rather than a score,
     * or a score the protocol does not measure would otherwise end a whole selection run with an error and leave a
     * directory that cannot be resumed.
     */
    @Test
    void aSelectionMetricThatIsNoScoreIsRefusedBeforeAnyWork(@TempDir Path tmp) {
        Runner runner = RunnerTest.runner(data(false));
        Map<String, String> bad = Map.of("fit_s", "not a score", "predict_s", "not a score", "memory_bytes",
                "not a score", "accuracy", "unknown", "final_acc", "not measured by protocol fewshot");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Path dir = tmp.resolve(e.getKey());
            FsilException ex = assertThrows(FsilException.class, () -> runner.run(spec("ncm,knn",
                    Map.of("ncm.scale", List.of("1", "2")), e.getKey()), dir));
            assertTrue(ex.getMessage().contains(e.getValue()) && ex.getMessage().contains("episode_acc, ece"),
                    ex.getMessage());
            assertFalse(Files.exists(dir), "nothing was written for " + e.getKey());
        }
    }

    /**
     * Candidates with identical scores are a tie, reported with the rule that chose (the first in --select order);
     * the outcome carries every choice (the terminal table shows it).
     */
    @Test
    void tiesAreReportedWithTheRuleThatChose(@TempDir Path tmp) {
        // knn's scale changes no label: every candidate has the same accuracy
        Runner.Outcome o = RunnerTest.runner(data(false)).run(spec("ncm,knn", Map.of("knn.scale", List.of("4", "1",
                "2")), "episode_acc"), tmp.resolve("run"));
        assertEquals(Map.of("scale", "4"), o.choices().get(new Selection.Key("knn", "toy",
                "4-way 1-shot Q20 balanced")));
        List<String> ties = o.notes().stream().filter(n -> n.contains("tie")).toList();
        assertEquals(2, ties.size(), o.notes().toString());
        assertTrue(ties.get(0).contains("knn on toy / 4-way 1-shot Q20 balanced: scale = 4, 1, 2 tie")
                && ties.get(0).contains("chose scale=4, the first in --select order"), ties.get(0));
    }

    @Test
    void badSelectionsAreRefusedBeforeAnyWork(@TempDir Path tmp) {
        Runner runner = RunnerTest.runner(data(false));
        Map<String, String> bad = Map.of(
                "ncm.scael", "has no parameter 'scael' (did you mean 'scale'?)",
                "scale", "must name method.parameter",
                "ppca.q", "no variant of method 'ppca'",
                "ncm.scale=x", "");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            FsilException ex = assertThrows(FsilException.class, () -> runner.run(spec("ncm,knn",
                    Map.of(e.getKey(), List.of("1", "2")), null), tmp.resolve("x")));
            assertTrue(ex.getMessage().contains(e.getValue()), ex.getMessage());
        }
        FsilException value = assertThrows(FsilException.class, () -> runner.run(spec("ncm",
                Map.of("ncm.scale", List.of("1", "-3")), null), tmp.resolve("x")));
        assertTrue(value.getMessage().contains("scale"), value.getMessage());
        FsilException twice = assertThrows(FsilException.class, () -> runner.run(spec("ncm[scale=2]",
                Map.of("ncm.scale", List.of("1", "3")), null), tmp.resolve("x")));
        assertTrue(twice.getMessage().contains("sets scale itself"), twice.getMessage());
        // evaluating on all classes would include the validation classes
        RunSpec all = new RunSpec(fsil.eval.run.VariantSpec.parseList("ncm"), List.of("toy"), "identity", "fewshot",
                Map.of("classes-from", List.of("all")), 1993, 0, 1, 1, Map.of("ncm.scale", List.of("1", "2")), null);
        FsilException pool = assertThrows(FsilException.class, () -> runner.run(all, tmp.resolve("x")));
        assertTrue(pool.getMessage().contains("classes-from=all"), pool.getMessage());
        // a dataset without validation classes
        FsilException none = assertThrows(FsilException.class, () -> RunnerTest.runner(RunnerTest.TOY).run(
                spec("ncm", Map.of("ncm.scale", List.of("1", "2")), null), tmp.resolve("x")));
        assertTrue(none.getMessage().contains("has none"), none.getMessage());
        assertFalse(Files.exists(tmp.resolve("x")), "nothing was written");
    }
}
