package fsil.notebook;

import fsil.api.Capability;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.eval.metrics.BuiltinMetrics;
import fsil.eval.store.UnitRecord;
import fsil.api.Background;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;
import fsil.eval.report.Plot;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The notebook entry point on a small synthetic dataset (generated in a temporary cache). */
class ExperimentTest {
    static final String DATA = "synthetic:classes=12,dim=16,per_class=30,test_per_class=10,rank=8";

    @TempDir
    static Path cache;
    /** Where runs without out(...) go during these tests (-Dfsil.runs), instead of runs/ in the module. */
    @TempDir
    static Path runs;
    static Fsil fsil;

    /** Uniform probabilities over the classes learned so far: a valid method at chance level. */
    static final class Uniform implements Method {
        private final String id;
        private final boolean fail;

        Uniform(String id, boolean fail) {
            this.id = id;
            this.fail = fail;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String description() {
            return "uniform over the learned classes" + (fail ? ", failing in learn" : "");
        }

        @Override
        public Set<Capability> capabilities() {
            return EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL);
        }

        @Override
        public List<Param<?>> parameters() {
            return List.of();
        }

        @Override
        public Learner learner(Params params, Background background) {
            return context -> new Session() {
                int[] classes = new int[0];

                @Override
                public void learn(LabeledData data) {
                    if (fail) {
                        throw new FsilException("this method always fails");
                    }
                    classes = java.util.stream.IntStream.concat(Arrays.stream(classes), Arrays.stream(data.classes()))
                            .distinct().sorted().toArray();
                }

                @Override
                public Prediction predict(FeatureMatrix queries) {
                    double[] p = new double[queries.rows() * classes.length];
                    Arrays.fill(p, 1.0 / classes.length);
                    return Prediction.of(classes, p);
                }

                @Override
                public long memoryBytes() {
                    return 4L * classes.length;
                }
            };
        }
    }

    @BeforeAll
    static void toolkit() {
        System.setProperty(Experiment.RUNS_PROPERTY, runs.toString());
        fsil = Fsil.create(null, cache, new Uniform("uniform", false));
    }

    @AfterAll
    static void forgetRunsRoot() {
        System.clearProperty(Experiment.RUNS_PROPERTY);
    }

    private static Results fewshot(int threads) {
        return fsil.experiment("fewshot").dataset(DATA).methods("ncm", "knn").option("shots", 1, 5)
                .option("episodes", 30).option("queries", 20).threads(threads).log(null).run();
    }

    @Test
    void fewShotTablesFollowTheOrderGivenAndMatchTheUnits() {
        Results r = fewshot(2);
        assertEquals(List.of("ncm", "knn"), r.methods());
        assertEquals(List.of("5-way 1-shot Q20 balanced", "5-way 5-shot Q20 balanced"), r.settings());
        assertEquals(2 * 2 * 30, r.units().stream().mapToInt(UnitRecord::tasks).sum());
        Table h = r.headline();
        assertEquals(4, h.rowCount());
        assertEquals(List.of("ncm", "knn", "ncm", "knn"), h.stringColumn("method").asList());
        assertFalse(h.columnNames().contains("dataset"), "one dataset: no dataset column");

        double[] acc = r.units().stream().filter(u -> u.method().equals("knn") && u.setting().contains("5-shot"))
                .flatMapToDouble(u -> java.util.Arrays.stream(BuiltinMetrics.EpisodeAccuracy.accuracies(u.value("episode_acc"))))
                .toArray();
        Results.Estimate e = r.value("knn", "5-shot", "episode_acc");
        assertEquals(Arrays.stream(acc).average().orElseThrow(), e.value(), 1e-12);
        assertEquals(30, e.n());
        double sd = Math.sqrt(Arrays.stream(acc).map(a -> (a - e.value()) * (a - e.value())).sum() / acc.length);
        assertEquals(1.96 * sd / Math.sqrt(acc.length), e.ci95(), 1e-12);
        assertEquals(String.format(java.util.Locale.ROOT, "%.2f ± %.2f", 100 * e.value(), 100 * e.ci95()),
                e.format("episode_acc"));

        Table p = r.pivot("episode_acc");
        assertEquals(List.of("method", "5-way 1-shot Q20 balanced", "5-way 5-shot Q20 balanced"), p.columnNames());
        assertEquals(e.format("episode_acc"), p.stringColumn(2).get(1));
        assertEquals(2 * 2, r.metric("episode_acc").rowCount());
        assertTrue(r.report().toFile().isFile(), "the run directory has its report");
    }

    @Test
    void sameNumbersForAnyThreadCount() {
        Results a = fewshot(1);
        Results b = fewshot(2);
        for (String m : a.methods()) {
            for (String s : a.settings()) {
                assertEquals(a.value(m, s, "episode_acc").value(), b.value(m, s, "episode_acc").value(), 0.0);
            }
        }
    }

    /** The notebook API reaches the same comparison and selection as fsil compare and fsil run --select. */
    @Test
    void compareAndSelectFromTheNotebookApi() {
        Results r = fewshot(2);
        fsil.eval.compare.Comparison c = r.compare("ncm", null);
        assertEquals(2, c.pairs().size(), "knn vs ncm in each of the two settings");
        assertEquals("episode_acc", c.metric());
        assertEquals(2 * 2, c.ranksTable().rowCount());
        assertTrue(c.friedmanLine().startsWith("Friedman over 2 blocks"), c.friedmanLine());
        assertEquals(0, r.selection().rowCount(), "nothing selected");

        Results s = fsil.experiment("fewshot").dataset("glyphs").methods("ncm", "ppca").option("shots", 5)
                .option("episodes", 10).select("ppca.q", 0, 4).threads(2).log(null).run();
        Table sel = s.selection();
        assertEquals(List.of("q=0", "q=4"), sel.stringColumn("candidate").asList());
        assertEquals(1, sel.booleanColumn("chosen").countTrue());
    }

    @Test
    void settingsAreFoundByTheirWords() {
        Results r = fewshot(2);
        assertEquals("5-way 1-shot Q20 balanced", r.setting("1-shot"));
        assertEquals("5-way 5-shot Q20 balanced", r.setting("5-shot balanced"));
        assertTrue(assertThrows(FsilException.class, () -> r.setting("balanced")).getMessage()
                .contains("several settings match"));
        assertTrue(assertThrows(FsilException.class, () -> r.setting("20-shot")).getMessage()
                .contains("no setting matches '20-shot'. Settings of this run"));
        assertTrue(assertThrows(FsilException.class, () -> r.value("ppcax", "1-shot", "episode_acc")).getMessage()
                .contains("no method 'ppcax'"));
        assertTrue(assertThrows(FsilException.class, () -> r.value("ncm", "1-shot", "final_acc")).getMessage()
                .contains("metrics: "));
    }

    @Test
    void figures() {
        Results r = fewshot(2);
        Plot grouped = r.bars("episode_acc");
        assertEquals(2, grouped.traces(), "one bar series per method");
        Plot rel = r.reliability("1-shot");
        assertEquals(5, rel.traces(), "diagonal + per method a line and its bin counts");
        Results one = fsil.experiment("fewshot").dataset(DATA).methods("ncm").option("episodes", 5).log(null).run();
        assertTrue(one.bars("episode_acc").data().get(0).has("error_y"), "bars with CI error bars");
    }

    @Test
    void allMethodsPicksUpRegisteredPluginsThatFitTheProtocol() {
        assertTrue(fsil.methodsFor("cil").contains("uniform"));
        assertFalse(fsil.methodsFor("fscil").contains("uniform"), "not few-shot class-incremental");
        var spec = fsil.experiment("cil").allMethods().except("knn").spec();
        List<String> ids = spec.methods().stream().map(v -> v.method()).toList();
        assertTrue(ids.contains("uniform") && ids.contains("ncm"), ids.toString());
        assertFalse(ids.contains("knn"));
        for (String id : ids) {
            assertTrue(fsil.methodsFor("cil").contains(id), id);
        }
        assertEquals("digits", spec.datasets().get(0), "default dataset");
        Table methods = fsil.methodsTable();
        assertTrue(methods.stringColumn("method").asList().contains("uniform"));
        Table datasets = fsil.datasetsTable();
        assertEquals("yes", datasets.where(datasets.stringColumn("dataset").isEqualTo("digits")).getString(0, "available"));
        assertTrue(fsil.protocolsTable().stringColumn("protocol").asList().containsAll(List.of("fewshot", "cil", "ncmf")));
    }

    @Test
    void incrementalCurvesAndLastSteps() {
        Results r = fsil.experiment("ncmf").dataset(DATA).methods("ncm", "uniform")
                .option("initial-classes", 3).option("num-classes", 6).option("runs", 2).log(null).run();
        Plot curve = r.curve("acc_seen");
        assertTrue(curve.traces() >= 2);
        Results.Estimate rel = r.last("ncm", r.settings().get(0), "relative_acc");
        assertEquals(1.0, rel.value(), 1e-12, "NCM is its own retrained-from-scratch model");
        assertEquals(2, rel.n());
        Results single = fsil.experiment("ncmf").dataset(DATA).methods("ncm").option("initial-classes", 3)
                .option("num-classes", 5).log(null).run();
        assertEquals("100.00", single.last("ncm", single.settings().get(0), "relative_acc").format("relative_acc"),
                "no interval from one unit");
        double[] finals = r.units().stream().filter(u -> u.method().equals("uniform")).mapToDouble(u -> {
            double[] seen = u.value("acc_seen").get(0).get("acc").doubles();
            return seen[seen.length - 1];
        }).toArray();
        assertArrayEquals(new double[]{1.0 / 6, 1.0 / 6}, finals, 0.05, "uniform is at chance");
        assertTrue(assertThrows(FsilException.class, () -> r.curve("episode_acc")).getMessage().contains("per-step"));
    }

    @Test
    void failedUnitsStopTheRunUnlessAllowed() {
        Fsil withFailing = Fsil.create(null, cache, new Uniform("broken", true));
        FsilException e = assertThrows(FsilException.class, () -> withFailing.experiment("fewshot").dataset(DATA)
                .methods("broken").option("episodes", 3).log(null).run());
        assertTrue(e.getMessage().contains("3 of 3 tasks failed") && e.getMessage().contains("this method always fails"),
                e.getMessage());
        Results r = withFailing.experiment("fewshot").dataset(DATA).methods("broken").option("episodes", 3)
                .allowFailures().log(null).run();
        assertEquals(3, r.failed());
        assertEquals(List.of("broken: task 0: this method always fails"), r.errors());
    }

    @Test
    void mistakesAreReportedBeforeAnythingRuns() {
        assertTrue(assertThrows(FsilException.class, () -> fsil.experiment("fewshot").run()).getMessage()
                .contains("has no method"));
        assertTrue(assertThrows(FsilException.class, () -> fsil.experiment("fewshots")).getMessage()
                .contains("unknown protocol"));
        assertTrue(assertThrows(FsilException.class, () -> fsil.experiment("fewshot").methods("ncm")
                .option("shot", 1).log(null).run()).getMessage().contains("shot"));
        assertThrows(FsilException.class, () -> fsil.experiment("fewshot").option("shots"));
        assertTrue(assertThrows(FsilException.class, () -> fsil.register(new Uniform("uniform", false))).getMessage()
                .contains("already registered"));
    }

    /** Without out(...), each run gets its own kept directory runs/<protocol>-<time> under the runs root. */
    @Test
    void runsWithoutAnOutputDirectoryAreKeptUnderTheRunsRoot() throws Exception {
        assertEquals(runs.toAbsolutePath().normalize(), Experiment.runsRoot());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Results a = fsil.experiment("fewshot").dataset(DATA).methods("ncm").option("episodes", 3)
                .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run();
        Results b = fsil.experiment("fewshot").dataset(DATA).methods("ncm").option("episodes", 3).log(null).run();
        for (Results r : List.of(a, b)) {
            assertEquals(runs.toAbsolutePath().normalize(), r.dir().getParent());
            assertTrue(r.dir().getFileName().toString().matches("fewshot-\\d{8}-\\d{6}(-\\d+)?"), r.dir().toString());
            assertTrue(Files.isRegularFile(r.dir().resolve("units.csv")), "a complete run directory");
        }
        assertFalse(a.dir().equals(b.dir()), "two runs, two directories");
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("run directory: " + a.dir()),
                "the run directory is printed: " + log);
    }

    @Test
    void aRunRejectedBeforeItStartsLeavesNoDirectory() throws Exception {
        Path root = Files.createDirectories(Experiment.runsRoot());
        long before;
        try (var entries = Files.list(root)) {
            before = entries.count();
        }
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertThrows(FsilException.class, () -> fsil.experiment("fewshot").dataset(DATA).methods("knn[k=-3]")
                .log(new PrintStream(log, true, StandardCharsets.UTF_8)).run());
        try (var entries = Files.list(root)) {
            assertEquals(before, entries.count(), "no directory left behind");
        }
        assertFalse(log.toString(StandardCharsets.UTF_8).contains("run directory"), log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void runDirectoriesOfTheSameSecondGetASuffix() throws Exception {
        LocalDateTime t = LocalDateTime.of(2026, 11, 26, 9, 30, 5);
        Path root = runs.resolve("same-second");
        assertEquals(root.resolve("cil-20261126-093005"), Experiment.newRunDir(root, "cil", t));
        assertEquals(root.resolve("cil-20261126-093005-2"), Experiment.newRunDir(root, "cil", t));
        assertEquals(root.resolve("cil-20261126-093005-3"), Experiment.newRunDir(root, "cil", t));
    }
}
