package fsil.eval.run;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.data.FeatureSet;
import fsil.data.SplitSet;
import fsil.eval.metrics.Metric;
import fsil.eval.report.Formats;
import fsil.eval.report.PlotlyAsset;
import fsil.eval.report.Report;
import fsil.eval.report.Summary;
import fsil.eval.store.RunDirectory;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import fsil.eval.testing.TestData;
import fsil.eval.testing.TestPlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class RunnerTest {
    public static final FeatureSet TOY = TestData.clusters(12, 30, 10, 8, 1.2, 3);

    public static Runner runner(FeatureSet fs) {
        return new Runner(TestPlugins.methods(), TestPlugins.protocols(), TestPlugins.metrics(),
                (name, backbone, seed, cache) -> {
                    if (!name.equals("toy")) {
                        throw new FsilException("unknown dataset " + name);
                    }
                    return fs;
                }, Path.of("target", "test-cache"));
    }

    public static RunSpec spec(String methods, String protocol, Map<String, List<String>> options, int threads) {
        return new RunSpec(VariantSpec.parseList(methods), List.of("toy"), "identity", protocol, options, 1993, 0, 1,
                threads);
    }

    static List<Metric> metrics() {
        return TestPlugins.metrics().all();
    }

    /** Summary rows without the timing metrics, which are measurements and legitimately vary. */
    public static String stableSummary(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(dir.resolve(Report.SUMMARY))) {
            if (!line.contains(",fit_s,") && !line.contains(",predict_s,") && !line.contains("_fit_s")) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    static Map<String, List<String>> episodes(int n, int perUnit) {
        return Map.of("episodes", List.of(Integer.toString(n)), "queries", List.of("20"), "ways", List.of("4"),
                "episodes-per-unit", List.of(Integer.toString(perUnit)));
    }

    @Test
    void fewShotRunWritesAllFilesAndSensibleNumbers(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        Runner.Outcome o = runner(TOY).run(spec("ncm,knn,soft-kmeans", "fewshot",
                Map.of("episodes", List.of("40"), "shots", List.of("1", "5"), "queries", List.of("20"),
                        "ways", List.of("4"), "episodes-per-unit", List.of("15")), 2), dir);
        assertEquals(3 * 2 * 3, o.records().size(), "40 episodes in blocks of 15: 3 units per method and setting");
        assertEquals(3 * 2 * 40, o.tasks());
        assertEquals(0, o.failedTasks());
        assertEquals(o.records().size(), UnitStore.read(dir.resolve(Runner.UNITS)).rows().size());
        for (String f : List.of(Runner.SPEC, Runner.CONFIG, Runner.ENVIRONMENT, Runner.UNITS, Report.SUMMARY,
                Report.A_MATRIX, Report.RELIABILITY, Report.HTML, PlotlyAsset.FILE)) {
            assertTrue(Files.exists(dir.resolve(f)), f);
        }
        Table s = Summary.summarize(o.records(), metrics());
        double ncm1 = value(s, "ncm", "4-way 1-shot Q20 balanced", "episode_acc");
        double ncm5 = value(s, "ncm", "4-way 5-shot Q20 balanced", "episode_acc");
        assertTrue(ncm1 > 0.4 && ncm5 > ncm1, "5-shot beats 1-shot and both beat chance: " + ncm1 + " " + ncm5);
        assertEquals(40, value(s, "ncm", "4-way 1-shot Q20 balanced", "units"), "units count episodes");
        assertTrue(value(s, "ncm", "4-way 1-shot Q20 balanced", "ece") >= 0);
        String html = Files.readString(dir.resolve(Report.HTML));
        assertTrue(html.contains("Plotly.newPlot") && html.contains("<table>"), "report has plots and tables");
        for (String setting : List.of("4-way 1-shot Q20 balanced", "4-way 5-shot Q20 balanced")) {
            for (String m : List.of("ncm", "soft-kmeans")) {
                Row r = s.row(rowOf(s, m, setting, "episode_acc"));
                String shown = "<td>" + Formats.format("episode_acc", r) + "</td>";
                assertTrue(html.contains(shown), "the report shows " + m + " / " + setting + " as " + shown);
            }
        }
        String config = Files.readString(dir.resolve(Runner.CONFIG));
        assertTrue(config.contains("\"scale\"") && config.contains("\"query-allocation\""),
                "resolved config lists defaults of methods and protocol");
        assertEquals(RunSpec.read(dir.resolve(Runner.SPEC)).toJson(), Files.readString(dir.resolve(Runner.SPEC)),
                "spec.json reads back as itself");

        // tidy setting columns: accuracy against shots without parsing the label, typed as read back by tablesaw
        String written = Files.readString(dir.resolve(Report.SUMMARY));
        Table tidy = Table.read().csv(dir.resolve(Report.SUMMARY).toFile());
        assertEquals(List.of("method", "dataset", "protocol", "setting", "ways", "shots", "queries",
                "query_allocation"), tidy.columnNames().subList(0, 8));
        Table acc = tidy.where(tidy.stringColumn("metric").isEqualTo("episode_acc")
                .and(tidy.stringColumn("method").isEqualTo("ncm")));
        assertEquals(List.of(1, 5), acc.intColumn("shots").asList());
        assertEquals(List.of(4, 4), acc.intColumn("ways").asList());
        assertEquals(ncm5, acc.where(acc.intColumn("shots").isEqualTo(5)).doubleColumn("value").get(0), 1e-12);
        Report.rebuild(dir, metrics());
        assertEquals(written, Files.readString(dir.resolve(Report.SUMMARY)), "rebuilt from config.json alike");
        try (var files = Files.list(dir)) {
            List<String> left = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".tmp")).toList();
            assertEquals(List.of(), left, "fsil report leaves no temporary file (plotly.min.js is linked already)");
        }
    }

    /** Progress lines of long preparation work (fsil.core.progress.TrainingLog) reach the run's progress display. */
    @Test
    void trainingLogLinesReachTheRunsProgress(@TempDir Path tmp) {
        List<String> messages = java.util.Collections.synchronizedList(new ArrayList<>());
        Progress capture = new Progress() {
            public void start(String protocol, long total) {
            }

            public void step(long tasks) {
            }

            public void message(String text) {
                messages.add(text);
            }

            public void close() {
            }
        };
        fsil.api.Method trained = new fsil.eval.testing.ToyNearestMeanMethod("trained",
                java.util.EnumSet.of(fsil.api.Capability.INDUCTIVE_FEWSHOT)) {
            @Override
            public fsil.api.Learner learner(fsil.api.Params params, fsil.api.Background background) {
                new fsil.core.progress.TrainingLog(fsil.api.ProgressSink.LOGGING, "toy meta-training", "epochs", 3).step(3, "loss 0.5");
                return super.learner(params, background);
            }
        };
        Runner r = new Runner(new fsil.api.Registry<>("method", fsil.api.Method::id).register(trained),
                TestPlugins.protocols(), TestPlugins.metrics(), (name, backbone, seed, cache) -> TOY,
                Path.of("target", "test-cache")).withProgress(capture);
        r.run(spec("trained", "fewshot", episodes(4, 4), 1), tmp.resolve("run"));
        assertTrue(messages.contains("toy meta-training: 3/3 epochs, loss 0.5, took 0s"), messages.toString());
    }

    /** One changed feature value under the same dataset name and key: the fingerprint refuses the resume. */
    @Test
    void resumeRefusesDataThatChanged(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        runner(TOY).run(spec("ncm", "fewshot", episodes(8, 4), 1), dir);
        Files.delete(dir.resolve(Runner.UNITS));
        float[] x = TOY.train().features().rawData().clone();
        x[5] += 1e-3f;
        FeatureSet changed = new FeatureSet(TOY.dataset(), TOY.backbone(), TOY.key(), TOY.classes(),
                new LabeledData(FeatureMatrix.wrap(TOY.train().size(), TOY.dimension(), x), TOY.train().labels()),
                TOY.test(), TOY.splits());
        FsilException e = assertThrows(FsilException.class, () -> runner(changed).resume(dir, 1));
        assertTrue(e.getMessage().contains("changed since the run started"), e.getMessage());
        assertTrue(Files.readString(dir.resolve(Runner.CONFIG)).contains("\"fingerprint\" : \"" + TOY.fingerprint()));
    }

    static int rowOf(Table s, String method, String setting, String metric) {
        for (int i = 0; i < s.rowCount(); i++) {
            if (s.stringColumn("method").get(i).equals(method) && s.stringColumn("setting").get(i).equals(setting)
                    && s.stringColumn("metric").get(i).equals(metric) && s.intColumn("step").isMissing(i)) {
                return i;
            }
        }
        throw new AssertionError("no " + metric + " for " + method + " / " + setting);
    }

    static double value(Table s, String method, String setting, String metric) {
        for (Row r : s) {
            if (r.getString("method").equals(method) && r.getString("setting").equals(setting)
                    && r.getString("metric").equals(metric) && r.isMissing("step")) {
                return r.getDouble("value");
            }
        }
        throw new AssertionError("no " + metric + " for " + method + " / " + setting);
    }

    @Test
    void identicalResultsForOneOrSeveralThreadsAndAnyBlockSize(@TempDir Path tmp) throws IOException {
        Map<String, List<String>> o = Map.of("episodes", List.of("60"), "shots", List.of("2"), "queries", List.of("20"),
                "ways", List.of("4"), "query-allocation", List.of("dirichlet"));
        runner(TOY).run(spec("ncm,knn[scale=3],soft-kmeans", "fewshot", o, 1), tmp.resolve("a"));
        runner(TOY).run(spec("ncm,knn[scale=3],soft-kmeans", "fewshot", o, 3), tmp.resolve("b"));
        assertEquals(stableSummary(tmp.resolve("a")), stableSummary(tmp.resolve("b")));
        Map<String, List<String>> blocks = new java.util.HashMap<>(o);
        blocks.put("episodes-per-unit", List.of("7"));
        runner(TOY).run(spec("ncm,knn[scale=3],soft-kmeans", "fewshot", blocks, 2), tmp.resolve("c"));
        assertEquals(stableSummary(tmp.resolve("a")).replace("episodes-per-unit", ""),
                stableSummary(tmp.resolve("c")).replace("episodes-per-unit", ""), "blocks do not change numbers");
        Map<String, List<String>> cil = Map.of("steps", List.of("3"), "runs", List.of("3"));
        runner(TOY).run(spec("ncm,knn", "cil", cil, 1), tmp.resolve("d"));
        runner(TOY).run(spec("ncm,knn", "cil", cil, 4), tmp.resolve("e"));
        assertEquals(stableSummary(tmp.resolve("d")), stableSummary(tmp.resolve("e")));
        assertEquals(Files.readString(tmp.resolve("d").resolve(Report.A_MATRIX)),
                Files.readString(tmp.resolve("e").resolve(Report.A_MATRIX)));
    }

    /**
     * Long runs take blocks of a 50th of their episodes (up to 1,000), and a run whose spec.json leaves the block to
     * the default resumes with the blocks config.json recorded when it started (200 before the default was sized).
     */
    @Test
    void longRunsTakeLargerBlocksAndAResumeKeepsTheBlocksItsRunStartedWith(@TempDir Path tmp) throws IOException {
        assertEquals(200, fsil.eval.protocol.FewShotProtocol.defaultPerUnit(1));
        assertEquals(200, fsil.eval.protocol.FewShotProtocol.defaultPerUnit(10_000));
        assertEquals(201, fsil.eval.protocol.FewShotProtocol.defaultPerUnit(10_001));
        assertEquals(1000, fsil.eval.protocol.FewShotProtocol.defaultPerUnit(50_000));
        assertEquals(1000, fsil.eval.protocol.FewShotProtocol.defaultPerUnit(100_000_000));
        Map<String, List<String>> auto = Map.of("episodes", List.of("12000"), "queries", List.of("20"), "ways",
                List.of("4"));
        Runner.Outcome fresh = runner(TOY).run(spec("ncm", "fewshot", auto, 2), tmp.resolve("auto"));
        assertEquals(50, fresh.records().size());
        assertTrue(fresh.records().stream().allMatch(r -> r.tasks() == 240), "blocks of 12,000 / 50");

        // a run as an earlier fsil wrote it: blocks of 200 in config.json, none in spec.json; 10 units lost
        Path old = tmp.resolve("old");
        Map<String, List<String>> blocks = new java.util.HashMap<>(auto);
        blocks.put("episodes-per-unit", List.of("200"));
        runner(TOY).run(spec("ncm", "fewshot", blocks, 2), old);
        fsil.data.io.AtomicFiles.writeString(old.resolve(Runner.SPEC), spec("ncm", "fewshot", auto, 2).toJson());
        List<UnitRecord> rows = UnitStore.read(old.resolve(Runner.UNITS)).rows();
        UnitStore.rewrite(old.resolve(Runner.UNITS), rows.subList(0, 50));
        Runner.Outcome resumed = runner(TOY).resume(old, 0);
        assertEquals(10, resumed.ranNow());
        assertEquals(60, resumed.records().size());
        assertTrue(resumed.records().stream().allMatch(r -> r.tasks() == 200), "the run's own blocks");
        assertEquals(stableSummary(tmp.resolve("auto")).replace("episodes-per-unit", ""),
                stableSummary(old).replace("episodes-per-unit", ""), "blocks do not change numbers");
    }

    /** A torn last row and a missing row are recomputed; a changed row in the middle is recomputed alone. */
    @Test
    void resumeRecomputesOnlyTheBadRows(@TempDir Path tmp) throws IOException {
        Map<String, List<String>> o = episodes(50, 5);
        Path full = tmp.resolve("full");
        runner(TOY).run(spec("ncm,knn", "fewshot", o, 2), full);
        Path cut = tmp.resolve("cut");
        runner(TOY).run(spec("ncm,knn", "fewshot", o, 2), cut);
        Path units = cut.resolve(Runner.UNITS);
        List<String> lines = new ArrayList<>(Files.readAllLines(units));
        assertEquals(21, lines.size(), "header + 2 methods x 10 units");
        lines.set(5, lines.get(5).replace(",0.", ",0.9")); // a changed number: the row's checksum fails
        String torn = lines.get(20).substring(0, lines.get(20).length() / 2);
        Files.writeString(units, String.join("\n", lines.subList(0, 19)) + "\n" + torn);
        Files.delete(cut.resolve(Report.SUMMARY));
        Runner.Outcome o2 = runner(TOY).resume(cut, 1);
        assertEquals(3, o2.ranNow(), "the changed row, the torn row and the missing row");
        assertEquals(List.of(6L, 20L), o2.dropped().stream().map(UnitStore.Invalid::line).toList());
        assertEquals(stableSummary(full), stableSummary(cut));
        assertEquals(21, Files.readAllLines(units).size(), "header + one row per unit");
        assertRebuildsIdentically(cut);
    }

    /** Rows that do not belong to the spec are refused with the reason, never mixed into the numbers. */
    @Test
    void resumeRefusesRowsOfAnotherPlan(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        runner(TOY).run(spec("ncm,knn", "fewshot", episodes(30, 5), 2), dir);
        Path specFile = dir.resolve(Runner.SPEC);
        String original = Files.readString(specFile);

        Files.writeString(specFile, original.replace("\"30\"", "\"20\""));
        FsilException fewer = assertThrows(FsilException.class, () -> runner(TOY).resume(dir, 1));
        assertTrue(fewer.getMessage().contains("not a unit of this run's plan"), fewer.getMessage());

        Files.writeString(specFile, original.replace("\"order_seed\" : 1993", "\"order_seed\" : 7"));
        FsilException seeds = assertThrows(FsilException.class, () -> runner(TOY).resume(dir, 1));
        assertTrue(seeds.getMessage().contains("other seeds"), seeds.getMessage());

        Files.writeString(specFile, original.replace("\"knn\"", "\"soft-kmeans\""));
        FsilException method = assertThrows(FsilException.class, () -> runner(TOY).resume(dir, 1));
        assertTrue(method.getMessage().contains("knn"), method.getMessage());

        Files.writeString(specFile, original);
        String before = Files.readString(dir.resolve(Runner.UNITS));
        Runner.Outcome again = runner(TOY).resume(dir, 1);
        assertEquals(0, again.ranNow(), "nothing to do for a complete run");
        assertEquals(before, Files.readString(dir.resolve(Runner.UNITS)), "the refused resumes changed nothing");
    }

    /**
     * A variant's resolved parameters are part of its rows: spec.json edited to other parameters under the same
     * label, or a default that changed between fsil versions (config.json records the parameters resolved when the
     * run started), is refused, naming the variant and the parameter, old value against new.
     */
    @Test
    void resumeRefusesRowsMadeWithOtherParametersUnderTheSameLabel(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        runner(TOY).run(spec("a:ncm[scale=2],knn", "fewshot", episodes(8, 4), 1), dir);
        Path specFile = dir.resolve(Runner.SPEC);
        Path configFile = dir.resolve(Runner.CONFIG);
        String spec = Files.readString(specFile);
        String config = Files.readString(configFile);
        String units = Files.readString(dir.resolve(Runner.UNITS));

        Files.writeString(specFile, spec.replace("a:ncm[scale=2]", "a:ncm[scale=3]"));
        FsilException edited = assertThrows(FsilException.class, () -> runner(TOY).resume(dir, 1));
        assertTrue(edited.getMessage().contains("variant 'a'") && edited.getMessage().contains("scale=2.0")
                && edited.getMessage().contains("scale=3.0"), edited.getMessage());
        assertFalse(edited.getMessage().contains("\n"), "one line");

        // as an earlier fsil whose knn defaulted to scale=0.5 wrote config.json: today's default is another number
        Files.writeString(specFile, spec);
        assertTrue(config.contains("\"scale\" : \"1.0\""), config);
        int knn = config.indexOf("\"label\" : \"knn\"");
        Files.writeString(configFile, config.substring(0, knn) + config.substring(knn)
                .replaceFirst("\"scale\" : \"1.0\"", "\"scale\" : \"0.5\""));
        FsilException changed = assertThrows(FsilException.class, () -> runner(TOY).resume(dir, 1));
        assertTrue(changed.getMessage().contains("variant 'knn'") && changed.getMessage().contains("scale=0.5")
                && changed.getMessage().contains("scale=1.0"), changed.getMessage());

        Files.writeString(configFile, config);
        assertEquals(0, runner(TOY).resume(dir, 1).ranNow());
        assertEquals(units, Files.readString(dir.resolve(Runner.UNITS)), "the refused resumes changed nothing");
    }

    /** A dataset name with a line break (a directory's name) is stored losslessly: resume takes the run's own rows. */
    @Test
    void aDatasetNameWithALineBreakIsStoredLosslesslyAndResumes(@TempDir Path tmp) throws IOException {
        String name = "dir:/data/my\nfeatures\r\nv2";
        Runner r = new Runner(TestPlugins.methods(), TestPlugins.protocols(), TestPlugins.metrics(),
                (n, backbone, seed, cache) -> TOY, Path.of("target", "test-cache"));
        Path dir = tmp.resolve("run");
        RunSpec spec = new RunSpec(VariantSpec.parseList("ncm,knn"), List.of(name), "identity", "fewshot",
                episodes(12, 4), 1993, 0, 1, 1);
        Runner.Outcome o = r.run(spec, dir);
        UnitStore.Contents c = UnitStore.read(dir.resolve(Runner.UNITS));
        assertEquals(List.of(), c.invalid());
        assertEquals(o.records().stream().map(UnitStore::encode).toList(),
                c.rows().stream().map(UnitStore::encode).toList(), "rows read back as written");
        assertTrue(c.rows().stream().allMatch(x -> x.dataset().equals(name)));
        Runner.Outcome again = r.resume(dir, 1);
        assertEquals(0, again.ranNow(), "the run's own rows are taken");
        assertEquals(List.of(), again.dropped());
        assertRebuildsIdentically(dir);
    }

    /**
     * units.csv emptied or cut off within its header (a crash before the first row reached the disk, or a machine
     * crash that left a block of zeros): resume and report recover what is valid and say what was dropped.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"empty", "header-cut", "header-without-newline",
            "zeros", "header-and-torn-row"})
    void anEmptyOrCutOffStoreIsRecomputed(String how, @TempDir Path tmp) throws IOException {
        Path full = tmp.resolve("full");
        runner(TOY).run(spec("ncm,knn", "fewshot", episodes(12, 4), 1), full);
        Path dir = tmp.resolve("cut");
        runner(TOY).run(spec("ncm,knn", "fewshot", episodes(12, 4), 1), dir);
        Path units = dir.resolve(Runner.UNITS);
        List<String> lines = Files.readAllLines(units);
        String header = lines.get(0);
        switch (how) {
            case "empty" -> Files.writeString(units, "");
            case "header-cut" -> Files.writeString(units, header.substring(0, 20));
            case "header-without-newline" -> Files.writeString(units, header);
            case "zeros" -> Files.write(units, new byte[4096]);
            default -> Files.writeString(units, header + "\n" + lines.get(1).substring(0, 30));
        }
        List<UnitStore.Invalid> invalid = Report.rebuild(dir, metrics());
        assertEquals(how.equals("empty") ? 0 : 1, invalid.size(), invalid.toString());
        Runner.Outcome o = runner(TOY).resume(dir, 1);
        assertEquals(6, o.ranNow());
        assertEquals(invalid, o.dropped());
        assertEquals(stableSummary(full), stableSummary(dir));
        UnitStore.Contents c = UnitStore.read(units);
        assertEquals(List.of(), c.invalid());
        assertEquals(6, c.rows().size());
        assertRebuildsIdentically(dir);
    }

    /** With --retry-failed, a resume runs the units recorded as failed again; without it, it keeps them. */
    @Test
    void retryFailedRunsTheFailedUnitsAgain(@TempDir Path tmp) throws IOException {
        java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean(true);
        fsil.api.Method fragile = new fsil.eval.testing.ToyNearestMeanMethod("fragile",
                java.util.EnumSet.of(fsil.api.Capability.INDUCTIVE_FEWSHOT)) {
            @Override
            public fsil.api.Learner learner(fsil.api.Params params, fsil.api.Background background) {
                if (broken.get()) {
                    throw new IllegalStateException("out of memory, say");
                }
                return super.learner(params, background);
            }
        };
        java.util.function.Supplier<Runner> runner = () -> new Runner(TestPlugins.methods().register(fragile),
                TestPlugins.protocols(), TestPlugins.metrics(), (name, backbone, seed, cache) -> TOY,
                Path.of("target", "test-cache"));
        Path dir = tmp.resolve("run");
        Runner.Outcome first = runner.get().run(spec("ncm,fragile", "fewshot", episodes(12, 4), 1), dir);
        assertEquals(12, first.failedTasks());
        broken.set(false);
        Runner.Outcome kept = runner.get().resume(dir, 1);
        assertEquals(0, kept.ranNow(), "a plain resume keeps failed units");
        assertEquals(12, kept.failedTasks());
        Runner.Outcome retried = runner.get().resume(dir, 1, true);
        assertEquals(3, retried.ranNow(), "the three failed units of fragile");
        assertEquals(0, retried.failedTasks());
        assertEquals(6, retried.records().size());
        UnitStore.Contents c = UnitStore.read(dir.resolve(Runner.UNITS));
        assertEquals(List.of(), c.invalid());
        assertTrue(c.rows().stream().allMatch(UnitRecord::ok));
        Path clean = tmp.resolve("clean");
        runner.get().run(spec("ncm,fragile", "fewshot", episodes(12, 4), 1), clean);
        assertEquals(stableSummary(clean), stableSummary(dir));
        assertRebuildsIdentically(dir);
    }

    /** Reasons that differ only in a number (negative, decimal, exponent) are one reason. */
    @Test
    void failureReasonsThatDifferOnlyInANumberAreOne() {
        List<UnitRecord> rows = new ArrayList<>();
        String[] errors = {"task 3: IllegalArgumentException: lambda must be positive, got -3",
                "IllegalArgumentException: lambda must be positive, got 4", "task 12: IllegalArgumentException: "
                + "lambda must be positive, got -0.25", "IllegalArgumentException: lambda must be positive, got 1e-9"};
        for (int i = 0; i < errors.length; i++) {
            rows.add(new UnitRecord("ppca", "ppca", "toy", "fewshot", "s", i, i, 1, 1993, 0, UnitRecord.FAILED,
                    errors[i], 0.1, null));
        }
        Runner.Outcome o = new Runner.Outcome(Path.of("x"), rows, 4, List.of());
        assertEquals(List.of("ppca: IllegalArgumentException: lambda must be positive, got -3 (4 tasks)"),
                o.failureReasons());
    }

    /** Duplicate rows (a second process, a copied line) are dropped once; n and the mean stay those of the plan. */
    @Test
    void duplicateRowsAreDroppedNotCounted(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        runner(TOY).run(spec("ncm", "fewshot", episodes(20, 5), 1), dir);
        String summary = stableSummary(dir);
        Path units = dir.resolve(Runner.UNITS);
        List<String> lines = Files.readAllLines(units);
        Files.writeString(units, String.join("\n", lines) + "\n" + String.join("\n", lines.subList(1, lines.size()))
                + "\n");
        Runner.Outcome o = runner(TOY).resume(dir, 1);
        assertEquals(0, o.ranNow());
        assertEquals(4, o.dropped().size());
        assertEquals(summary, stableSummary(dir));
        assertEquals(lines.size(), Files.readAllLines(units).size());
    }

    /** A run never writes into a user's directory, and one directory holds one process at a time. */
    @Test
    void runDirectoriesAreNewOrEmptyAndLocked(@TempDir Path tmp) throws Exception {
        Runner r = runner(TOY);
        RunSpec spec = spec("ncm", "fewshot", episodes(10, 5), 1);
        Path mine = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(mine.resolve("thesis.tex"), "precious");
        FsilException e = assertThrows(FsilException.class, () -> r.run(spec, mine));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        assertEquals("precious", Files.readString(mine.resolve("thesis.tex")));
        assertEquals(1, Files.list(mine).count(), "nothing written");
        assertTrue(assertThrows(FsilException.class, () -> r.run(spec, Path.of(""))).getMessage().contains("empty path"));
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        assertTrue(assertThrows(FsilException.class, () -> r.run(spec, file)).getMessage().contains("it is a file"));
        FsilException under = assertThrows(FsilException.class, () -> r.run(spec, file.resolve("run")));
        assertTrue(under.getMessage().startsWith("cannot create run directory"), under.getMessage());

        Path dir = tmp.resolve("run");
        r.run(spec, dir);
        FsilException again = assertThrows(FsilException.class, () -> r.run(spec, dir));
        assertTrue(again.getMessage().contains("already holds a run"), again.getMessage());
        try (RunDirectory held = RunDirectory.open(dir)) {
            FsilException busy = assertThrows(FsilException.class, () -> r.resume(dir, 1));
            assertTrue(busy.getMessage().contains("in use by another fsil process"), busy.getMessage());
        }
        r.resume(dir, 1); // released
    }

    /** Two resumes of one directory at once: one works, the other is refused; the store holds one row per unit. */
    @Test
    void concurrentResumesOfOneDirectory(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Runner slow = runner(TOY);
        RunSpec spec = spec("flaky[sleep-ms=3],ncm", "fewshot", episodes(40, 4), 1);
        slow.run(spec, dir);
        Path units = dir.resolve(Runner.UNITS);
        List<String> lines = Files.readAllLines(units);
        Files.write(units, lines.subList(0, 3)); // most units to do again
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<CompletableFuture<String>> both = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            both.add(CompletableFuture.supplyAsync(() -> {
                try {
                    go.await();
                    return "ran " + runner(TOY).resume(dir, 1).ranNow();
                } catch (FsilException e) {
                    return e.getMessage();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        go.countDown();
        List<String> results = new ArrayList<>();
        for (CompletableFuture<String> f : both) {
            results.add(f.get(60, TimeUnit.SECONDS));
        }
        assertEquals(1, results.stream().filter(r -> r.startsWith("ran ") && !r.equals("ran 0")).count(),
                "one resume did the work: " + results);
        assertTrue(results.stream().anyMatch(r -> r.contains("in use") || r.equals("ran 0")),
                "the other was refused, or found nothing left: " + results);
        UnitStore.Contents c = UnitStore.read(units);
        assertEquals(List.of(), c.invalid());
        assertEquals(lines.size() - 1, c.rows().size());
    }

    /** The files a run writes from its rows in memory, byte for byte as fsil report rebuilds them from units.csv. */
    public static void assertRebuildsIdentically(Path dir) throws IOException {
        List<String> files = List.of(Report.SUMMARY, Report.A_MATRIX, Report.RELIABILITY, Report.HTML);
        List<String> written = new ArrayList<>();
        for (String f : files) {
            written.add(Files.readString(dir.resolve(f)));
        }
        assertEquals(List.of(), Report.rebuild(dir, metrics()));
        for (int i = 0; i < files.size(); i++) {
            assertEquals(written.get(i), Files.readString(dir.resolve(files.get(i))), files.get(i) + " of " + dir);
        }
    }

    @Test
    void theRunsSummariesAreThoseRebuiltFromTheStore(@TempDir Path tmp) throws IOException {
        runner(TOY).run(spec("flaky[fail-mod=3],ncm,knn", "fewshot", episodes(30, 4), 2), tmp.resolve("f"));
        assertRebuildsIdentically(tmp.resolve("f"));
        Map<String, List<String>> cil = Map.of("steps", List.of("3"), "runs", List.of("2"));
        runner(TOY).run(spec("ncm,knn", "cil", cil, 2), tmp.resolve("c"));
        assertRebuildsIdentically(tmp.resolve("c"));
    }

    @Test
    void failingUnitsAreRecordedAndTheRunContinues(@TempDir Path tmp) throws IOException {
        Runner.Outcome o = runner(TOY).run(spec("flaky[fail-mod=3],ncm", "fewshot", episodes(30, 1), 2),
                tmp.resolve("f"));
        long failed = o.records().stream().filter(r -> !r.ok()).count();
        assertTrue(failed > 0 && failed < 30, "some but not all flaky units fail: " + failed);
        assertEquals(failed, o.failedTasks());
        assertTrue(o.records().stream().filter(r -> !r.ok()).allMatch(r -> r.error().contains("deliberate failure")));
        assertTrue(o.records().stream().filter(r -> r.method().equals("ncm")).allMatch(UnitRecord::ok));
        assertEquals(1, o.failureReasons().size(), "one distinct reason: " + o.failureReasons());
        assertTrue(o.failureReasons().get(0).startsWith("flaky[fail-mod=3]: IllegalStateException: deliberate failure"),
                o.failureReasons().toString());
        assertTrue(o.failureReasons().get(0).endsWith("(" + failed + " tasks)"), o.failureReasons().toString());
        Table s = Summary.summarize(o.records(), metrics());
        assertEquals(failed, (long) value(s, "flaky[fail-mod=3]", "4-way 1-shot Q20 balanced", "failed_units"));
    }

    /** A plugin metric: the number of each task's queries, in the order it sees them. */
    static final class QueriesSeen implements Metric {
        /** Where the metric throws: "" nowhere, "update" or "result". */
        final String failIn;

        QueriesSeen(String failIn) {
            this.failIn = failIn;
        }

        public String id() {
            return "queries_seen";
        }

        public String description() {
            return "each task's number of queries";
        }

        @Override
        public Accumulator accumulator() {
            Accumulator a = new fsil.eval.metrics.TaskValues(t -> fsil.eval.metrics.Value.of(t.truth().length));
            return new Accumulator() {
                public void update(fsil.eval.protocol.TaskOutcome task) {
                    if (failIn.equals("update")) {
                        throw new IllegalStateException("a bug in the metric");
                    }
                    a.update(task);
                }

                public void merge(Accumulator later) {
                    a.merge(later);
                }

                public fsil.eval.metrics.Value result() {
                    if (failIn.equals("result")) {
                        throw new IllegalStateException("a bug in the metric");
                    }
                    return a.result();
                }
            };
        }

        public void summarize(Iterable<fsil.eval.metrics.Value> units, fsil.eval.metrics.SummaryRows out) {
        }
    }

    static Runner withMetric(Metric extra) {
        fsil.api.Registry<Metric> m = new fsil.api.Registry<>("metric", Metric::id);
        metrics().forEach(m::register);
        m.register(extra);
        return new Runner(TestPlugins.methods(), TestPlugins.protocols(), m, (name, backbone, seed, cache) -> TOY,
                Path.of("target", "test-cache"));
    }

    @Test
    void aPluginMetricSeesEveryTaskOfItsUnitInOrder(@TempDir Path tmp) {
        Map<String, List<String>> o = new java.util.HashMap<>(episodes(23, 10));
        o.put("query-allocation", List.of("dirichlet"));
        Runner.Outcome out = withMetric(new QueriesSeen("")).run(spec("ncm", "fewshot", o, 2), tmp.resolve("m"));
        assertEquals(3, out.records().size());
        for (UnitRecord r : out.records()) {
            var seen = r.value("queries_seen");
            var acc = r.value("episode_acc").get("queries");
            assertEquals(r.tasks(), seen.size(), r.key().toString());
            assertEquals(acc, seen, "the unit's tasks in order: " + r.key());
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"update", "result"})
    void aMetricThatThrowsStopsTheRunInsteadOfFailingTheMethodsUnits(String failIn, @TempDir Path tmp) {
        FsilException e = assertThrows(FsilException.class, () -> withMetric(new QueriesSeen(failIn))
                .run(spec("ncm", "fewshot", episodes(20, 10), 1), tmp.resolve("t")));
        assertTrue(e.getMessage().contains("a bug in the metric") && e.getMessage().contains("--resume"),
                e.getMessage());
        assertTrue(UnitStore.read(tmp.resolve("t").resolve(Runner.UNITS)).rows().isEmpty(), "no unit recorded");
    }

    @Test
    void badConfigurationsFailBeforeAnyWork(@TempDir Path tmp) {
        Path dir = tmp.resolve("bad");
        Runner r = runner(TOY);
        FsilException e1 = assertThrows(FsilException.class, () -> r.run(spec("nope", "fewshot", Map.of(), 1), dir));
        assertTrue(e1.getMessage().contains("ncm"), "lists known methods: " + e1.getMessage());
        FsilException e2 = assertThrows(FsilException.class, () -> r.run(spec("soft-kmeans", "cil", Map.of(), 1), dir));
        assertTrue(e2.getMessage().contains("cannot run protocol cil"), e2.getMessage());
        FsilException e3 = assertThrows(FsilException.class, () -> r.run(spec("ncm", "fewshot",
                Map.of("shots", List.of("35")), 1), dir));
        assertTrue(e3.getMessage().contains("fewer than shots + queries/ways"), e3.getMessage());
        FsilException e4 = assertThrows(FsilException.class, () -> r.run(spec("ncm", "fewshot",
                Map.of("episodes", List.of("-3")), 1), dir));
        assertTrue(e4.getMessage().contains("episodes"), e4.getMessage());
        FsilException e5 = assertThrows(FsilException.class, () -> r.run(spec("ncm", "fewshot",
                Map.of("steps", List.of("3")), 1), dir));
        assertTrue(e5.getMessage().contains("no parameter 'steps'") && e5.getMessage().contains("episodes"), e5.getMessage());
        FsilException e6 = assertThrows(FsilException.class, () -> r.run(spec("ncm[sacle=2]", "fewshot", Map.of(), 1), dir));
        assertTrue(e6.getMessage().contains("did you mean 'scale'"), e6.getMessage());
        FsilException e7 = assertThrows(FsilException.class, () -> r.run(spec("ncm", "cil",
                Map.of("steps", List.of("40")), 1), dir));
        assertTrue(e7.getMessage().contains("fewer --steps"), e7.getMessage());
        assertFalse(Files.exists(dir), "nothing written for a rejected configuration");
    }

    /**
     * Oracle data: feature 0 is the class id, so the flaky method is always right; with a test set of unequal
     * class sizes the micro a_t and the A matrix are checked exactly.
     */
    @Test
    void classIncrementalAccuracyMatrixIsExact(@TempDir Path tmp) {
        int classes = 6;
        float[] trainX = new float[classes * 3];
        int[] trainY = new int[classes * 3];
        for (int i = 0; i < classes * 3; i++) {
            trainY[i] = i % classes;
            trainX[i] = trainY[i];
        }
        // Test: class c has c+1 samples; class 5's samples carry id 0 in the feature, so they are always wrong.
        int n = 0;
        for (int c = 0; c < classes; c++) {
            n += c + 1;
        }
        float[] testX = new float[n];
        int[] testY = new int[n];
        int at = 0;
        for (int c = 0; c < classes; c++) {
            for (int k = 0; k <= c; k++) {
                testY[at] = c;
                testX[at] = c == 5 ? 0 : c;
                at++;
            }
        }
        List<String> names = List.of("a", "b", "c", "d", "e", "f");
        FeatureSet fs = new FeatureSet("toy", "identity", "oracle", new ClassTable(names, List.of()),
                new LabeledData(FeatureMatrix.wrap(trainY.length, 1, trainX), trainY),
                new LabeledData(FeatureMatrix.wrap(n, 1, testX), testY),
                new SplitSet(new int[0], new int[0], new int[0], Optional.empty()));
        Runner.Outcome o = runner(fs).run(spec("flaky", "cil", Map.of("steps", List.of("3"), "base-classes", List.of("3")), 1),
                tmp.resolve("oracle"));
        UnitRecord u = o.records().get(0);
        double[] seen = u.value("acc_seen").get(0).get("acc").doubles();
        double[][] a = fsil.eval.metrics.BuiltinMetrics.AccuracyMatrix.read(u.value("a_matrix").get(0));
        assertEquals(4, seen.length);
        // Recompute the expectation from the run's class order: sizes 3 | 1 | 1 | 1.
        int[] order = fsil.eval.protocol.ClassIncrementalProtocol.order(new int[]{0, 1, 2, 3, 4, 5}, 1993);
        int[] stepOfClass = new int[6];
        int[] sizes = {3, 1, 1, 1};
        int pos = 0;
        for (int t = 0; t < 4; t++) {
            for (int k = 0; k < sizes[t]; k++) {
                stepOfClass[order[pos++]] = t;
            }
        }
        int seenSamples = 0;
        for (int t = 0; t < 4; t++) {
            int stepSamples = 0;
            for (int c = 0; c < 6; c++) {
                if (stepOfClass[c] == t) {
                    stepSamples += c + 1;
                }
            }
            seenSamples += stepSamples;
            boolean fiveSeen = stepOfClass[5] <= t;
            assertEquals(fiveSeen ? (seenSamples - 6) / (double) seenSamples : 1.0, seen[t], 1e-12, "a_" + t);
            for (int k = 0; k <= t; k++) {
                int nk = 0;
                for (int c = 0; c < 6; c++) {
                    nk += stepOfClass[c] == k ? c + 1 : 0;
                }
                assertEquals(k == stepOfClass[5] ? (nk - 6) / (double) nk : 1.0, a[t][k], 1e-12, "A[" + t + "][" + k + "]");
            }
        }
        // Micro a_T: class 5 holds 6 of the 21 test samples.
        assertEquals(15 / 21.0, seen[3], 1e-12);
        Table s = Summary.summarize(o.records(), metrics());
        assertEquals(15 / 21.0, value(s, "flaky", "B3 S3", "final_acc"), 1e-12);
        double avg = 0;
        for (double v : seen) {
            avg += v / 4;
        }
        assertEquals(avg, value(s, "flaky", "B3 S3", "avg_incremental_acc"), 1e-12);
        assertEquals(0.0, value(s, "flaky", "B3 S3", "forgetting_max"), 1e-12);
    }

    /**
     * Whatever an engine hands over twice (a task re-run after a lost executor, a speculative copy) is recorded once,
     * and a row that is no unit of the plan stops the run: the store stays the same as the local engine's.
     */
    @Test
    void anEngineThatHandsUnitsOverTwiceRecordsEachOnce(@TempDir Path tmp) throws IOException {
        RunSpec spec = spec("ncm,knn", "fewshot", episodes(40, 5), 2);
        runner(TOY).run(spec, tmp.resolve("local"));
        List<Boolean> accepted = java.util.Collections.synchronizedList(new ArrayList<>());
        Engine twice = new Engine() {
            @Override
            public String name() {
                return "twice";
            }

            @Override
            public void execute(Job job) throws InterruptedException {
                new LocalEngine().execute(new Job(job.plan(), job.todo(), r -> {
                    accepted.add(job.results().accept(r));
                    accepted.add(job.results().accept(r));
                    return true;
                }, job.metrics(), job.cacheDir(), job.progress()));
            }
        };
        Runner.Outcome o = runner(TOY).withEngine(twice).run(spec, tmp.resolve("twice"));
        assertEquals(2 * 8, o.records().size());
        assertEquals(2 * 2 * 8, accepted.size());
        assertEquals(2 * 8, accepted.stream().filter(b -> b).count(), "the second copy of each unit is dropped");
        assertTrue(UnitStore.read(tmp.resolve("twice").resolve(Runner.UNITS)).invalid().isEmpty());
        assertEquals(stableSummary(tmp.resolve("local")), stableSummary(tmp.resolve("twice")));

        Engine foreign = new Engine() {
            @Override
            public String name() {
                return "foreign";
            }

            @Override
            public void execute(Job job) {
                job.results().accept(new UnitRecord("ncm", "ncm", "toy", "fewshot", "nowhere", 0, 0, 5, 1993, 0,
                        UnitRecord.OK, "", 0.1, null));
            }
        };
        FsilException e = assertThrows(FsilException.class,
                () -> runner(TOY).withEngine(foreign).run(spec, tmp.resolve("foreign")));
        assertTrue(e.getMessage().contains("the foreign engine returned a row that is no unit of this plan"),
                e.getMessage());
    }

    /** An engine that returns without running every unit does not get a report: the run says what is missing. */
    @Test
    void anEngineThatSkipsUnitsStopsTheRun(@TempDir Path tmp) {
        Engine lazy = new Engine() {
            @Override
            public String name() {
                return "lazy";
            }

            @Override
            public void execute(Job job) {
            }
        };
        FsilException e = assertThrows(FsilException.class, () -> runner(TOY).withEngine(lazy)
                .run(spec("ncm", "fewshot", episodes(20, 5), 1), tmp.resolve("lazy")));
        assertTrue(e.getMessage().contains("the lazy engine ended without 4 of the 4 units"), e.getMessage());
    }
}
