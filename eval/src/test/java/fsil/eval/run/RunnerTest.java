package fsil.eval.run;

import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitsCsv;
import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.data.FeatureSet;
import fsil.data.SplitSet;
import fsil.eval.report.Report;
import fsil.eval.report.Summary;
import fsil.eval.testing.FlakyMethod;
import fsil.eval.testing.TestData;
import fsil.eval.testing.TestPlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunnerTest {
    static final FeatureSet TOY = TestData.clusters(12, 30, 10, 8, 1.2, 3);

    static Runner runner(FeatureSet fs) {
        return new Runner(TestPlugins.methods(), TestPlugins.protocols(), (name, backbone, seed, cache) -> {
            if (!name.equals("toy")) {
                throw new FsilException("unknown dataset " + name);
            }
            return fs;
        }, Path.of("target", "test-cache"));
    }

    static RunSpec spec(String methods, String protocol, Map<String, List<String>> options, int threads) {
        return new RunSpec(VariantSpec.parseList(methods), List.of("toy"), "identity", protocol, options, 1993, 0, 1,
                threads);
    }

    /** Summary rows without the timing metrics, which are measurements and legitimately vary. */
    static String stableSummary(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(dir.resolve(Report.SUMMARY))) {
            if (!line.contains(",fit_s,") && !line.contains(",predict_s,") && !line.contains("_fit_s")) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void fewShotRunWritesAllFilesAndSensibleNumbers(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        Runner.Outcome o = runner(TOY).run(spec("ncm,knn,soft-kmeans", "fewshot",
                Map.of("episodes", List.of("40"), "shots", List.of("1", "5"), "queries", List.of("20"), "ways", List.of("4")), 2), dir);
        assertEquals(3 * 2 * 40, o.records().size());
        assertEquals(0, o.failed());
        assertTrue(o.reportSeconds() > 0, "the runner times its report");
        assertEquals(o.records().size(), UnitsCsv.read(dir.resolve(Runner.UNITS)).rows().size(),
                "every unit's row is in units.csv when the run returns");
        for (String f : List.of(Runner.SPEC, Runner.CONFIG, Runner.ENVIRONMENT, Runner.UNITS, Report.SUMMARY,
                Report.A_MATRIX, Report.RELIABILITY, Report.HTML, Report.PLOTLY)) {
            assertTrue(Files.exists(dir.resolve(f)), f);
        }
        Table s = Summary.summarize(o.records());
        double ncm1 = value(s, "ncm", "4-way 1-shot Q20 balanced", "episode_acc");
        double ncm5 = value(s, "ncm", "4-way 5-shot Q20 balanced", "episode_acc");
        assertTrue(ncm1 > 0.4 && ncm5 > ncm1, "5-shot beats 1-shot and both beat chance: " + ncm1 + " " + ncm5);
        assertTrue(value(s, "ncm", "4-way 1-shot Q20 balanced", "ece") >= 0);
        String html = Files.readString(dir.resolve(Report.HTML));
        assertTrue(html.contains("Plotly.newPlot") && html.contains("<table>"), "report has plots and tables");
        String config = Files.readString(dir.resolve(Runner.CONFIG));
        assertTrue(config.contains("\"scale\"") && config.contains("\"query-allocation\""),
                "resolved config lists defaults of methods and protocol");
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
    void identicalResultsForOneOrSeveralThreads(@TempDir Path tmp) throws IOException {
        Map<String, List<String>> o = Map.of("episodes", List.of("60"), "shots", List.of("2"), "queries", List.of("20"),
                "ways", List.of("4"), "query-allocation", List.of("dirichlet"));
        runner(TOY).run(spec("ncm,knn[scale=3],soft-kmeans", "fewshot", o, 1), tmp.resolve("a"));
        runner(TOY).run(spec("ncm,knn[scale=3],soft-kmeans", "fewshot", o, 3), tmp.resolve("b"));
        assertEquals(stableSummary(tmp.resolve("a")), stableSummary(tmp.resolve("b")));
        Map<String, List<String>> cil = Map.of("steps", List.of("3"), "runs", List.of("3"));
        runner(TOY).run(spec("ncm,knn", "cil", cil, 1), tmp.resolve("c"));
        runner(TOY).run(spec("ncm,knn", "cil", cil, 4), tmp.resolve("d"));
        assertEquals(stableSummary(tmp.resolve("c")), stableSummary(tmp.resolve("d")));
        assertEquals(Files.readString(tmp.resolve("c").resolve(Report.A_MATRIX)),
                Files.readString(tmp.resolve("d").resolve(Report.A_MATRIX)));
    }

    @Test
    void resumeAfterTornAndMissingRowsGivesTheSameSummary(@TempDir Path tmp) throws IOException {
        Map<String, List<String>> o = Map.of("episodes", List.of("50"), "queries", List.of("20"), "ways", List.of("4"));
        Path full = tmp.resolve("full");
        runner(TOY).run(spec("ncm,knn", "fewshot", o, 2), full);
        Path cut = tmp.resolve("cut");
        runner(TOY).run(spec("ncm,knn", "fewshot", o, 2), cut);
        // Simulate a crash: keep the first 37 rows and half of the 38th, delete the summaries.
        Path units = cut.resolve(Runner.UNITS);
        List<String> lines = Files.readAllLines(units);
        String torn = lines.get(38).substring(0, lines.get(38).length() / 2);
        Files.writeString(units, String.join("\n", lines.subList(0, 38)) + "\n" + torn);
        Files.delete(cut.resolve(Report.SUMMARY));
        Runner.Outcome o2 = runner(TOY).resume(cut, 1);
        assertEquals(100 - 37, o2.ranNow());
        assertEquals(stableSummary(full), stableSummary(cut));
        assertEquals(101, Files.readAllLines(units).size(), "header + one row per unit, the torn row replaced");
    }

    @Test
    void failingUnitsAreRecordedAndTheRunContinues(@TempDir Path tmp) throws IOException {
        Runner.Outcome o = runner(TOY).run(spec("flaky[fail-mod=3],ncm", "fewshot",
                Map.of("episodes", List.of("30"), "queries", List.of("20"), "ways", List.of("4")), 2), tmp.resolve("f"));
        long failed = o.records().stream().filter(r -> !r.ok()).count();
        assertTrue(failed > 0 && failed < 30, "some but not all flaky units fail: " + failed);
        assertEquals(failed, o.failed());
        assertTrue(o.records().stream().filter(r -> !r.ok()).allMatch(r -> r.error().contains("deliberate failure")));
        assertTrue(o.records().stream().filter(r -> r.method().equals("ncm")).allMatch(UnitRecord::ok));
        Table s = Summary.summarize(o.records());
        assertEquals(failed, (long) value(s, "flaky[fail-mod=3]", "4-way 1-shot Q20 balanced", "failed_units"));
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
        assertEquals(4, u.accSeen().length);
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
            assertEquals(fiveSeen ? (seenSamples - 6) / (double) seenSamples : 1.0, u.accSeen()[t], 1e-12, "a_" + t);
            for (int k = 0; k <= t; k++) {
                int nk = 0;
                for (int c = 0; c < 6; c++) {
                    nk += stepOfClass[c] == k ? c + 1 : 0;
                }
                assertEquals(k == stepOfClass[5] ? (nk - 6) / (double) nk : 1.0, u.aMatrix()[t][k], 1e-12, "A[" + t + "][" + k + "]");
            }
        }
        // Micro a_T: class 5 holds 6 of the 21 test samples.
        assertEquals(15 / 21.0, u.accSeen()[3], 1e-12);
        Table s = Summary.summarize(o.records());
        assertEquals(15 / 21.0, value(s, "flaky", "B3 S3", "final_acc"), 1e-12);
        double avg = 0;
        for (double a : u.accSeen()) {
            avg += a / 4;
        }
        assertEquals(avg, value(s, "flaky", "B3 S3", "avg_incremental_acc"), 1e-12);
        assertEquals(0.0, value(s, "flaky", "B3 S3", "forgetting_max"), 1e-12);
    }
}
