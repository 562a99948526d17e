package fsil.eval.compare;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.api.FsilException;
import fsil.core.stats.BlockComparison;
import fsil.core.stats.Holm;
import fsil.core.stats.Wilcoxon;
import fsil.eval.metrics.Metric;
import fsil.eval.run.Runner;
import fsil.eval.run.RunnerTest;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import fsil.eval.testing.TestPlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonTest {
    static final List<Metric> METRICS = TestPlugins.metrics().all();
    static final int QUERIES = 75;

    /** One unit of episodes with the given numbers of correct queries (of 75). */
    static UnitRecord unit(String method, String dataset, int unit, long orderSeed, int... correct) {
        ObjectNode acc = JsonNodeFactory.instance.objectNode();
        for (int c : correct) {
            acc.withArray("correct").add(c);
            acc.withArray("queries").add(QUERIES);
        }
        ObjectNode metrics = JsonNodeFactory.instance.objectNode();
        metrics.set("episode_acc", acc);
        return new UnitRecord(method, method, dataset, "fewshot", "5-way 5-shot", unit, unit * correct.length,
                correct.length, orderSeed, 100 + unit, UnitRecord.OK, "", 0.1, obj(metrics));
    }

    /** A JSON object as the metrics of a row. */
    static fsil.eval.metrics.Value.Obj obj(ObjectNode metrics) {
        return (fsil.eval.metrics.Value.Obj) fsil.eval.store.ValueJson.parse(metrics.toString());
    }

    /** Three methods on two datasets, two units of 12 episodes each; "strong" beats "base" which beats "weak". */
    static List<UnitRecord> threeMethods(long orderSeedOfWeak) {
        SplittableRandom r = new SplittableRandom(5);
        List<UnitRecord> rows = new ArrayList<>();
        for (String dataset : List.of("d1", "d2")) {
            for (int u = 0; u < 2; u++) {
                int[] base = new int[12];
                int[] strong = new int[12];
                int[] weak = new int[12];
                for (int e = 0; e < 12; e++) {
                    base[e] = 40 + r.nextInt(20);
                    strong[e] = Math.min(QUERIES, base[e] + r.nextInt(-2, 8));
                    weak[e] = base[e] - r.nextInt(-1, 5);
                }
                rows.add(unit("strong", dataset, u, 7, strong));
                rows.add(unit("weak", dataset, u, orderSeedOfWeak, weak));
                rows.add(unit("base", dataset, u, 7, base));
            }
        }
        return rows;
    }

    static double[] accuracies(List<UnitRecord> rows, String method, String dataset) {
        return rows.stream().filter(x -> x.method().equals(method) && x.dataset().equals(dataset))
                .sorted((a, b) -> Integer.compare(a.unit(), b.unit()))
                .flatMapToDouble(x -> java.util.Arrays.stream(fsil.eval.metrics.BuiltinMetrics.EpisodeAccuracy
                        .accuracies(x.value("episode_acc")))).toArray();
    }

    @Test
    void pairsAreTheCoreStatisticsOfTheEpisodeAccuraciesWithHolmOverAllPairs() {
        List<UnitRecord> rows = threeMethods(7);
        Comparison c = Comparison.of(rows, METRICS, null, "base");
        assertEquals("episode_acc", c.metric());
        assertEquals(4, c.pairs().size());
        double[] p = new double[4];
        int i = 0;
        for (Comparison.Pair pair : c.pairs()) {
            double[] a = accuracies(rows, pair.method(), pair.dataset());
            double[] b = accuracies(rows, "base", pair.dataset());
            assertEquals(24, pair.diff().n());
            double mean = 0;
            int wins = 0;
            for (int k = 0; k < a.length; k++) {
                mean += (a[k] - b[k]) / a.length;
                wins += a[k] > b[k] ? 1 : 0;
            }
            assertEquals(mean, pair.diff().mean(), 1e-15);
            assertEquals(wins, pair.diff().wins());
            Wilcoxon.Result w = Wilcoxon.test(a, b);
            assertEquals(w.pValue(), pair.p(), 0);
            assertEquals(w.statistic(), pair.statistic(), 0);
            p[i++] = pair.p();
        }
        double[] holm = Holm.adjust(p);
        for (int k = 0; k < 4; k++) {
            assertEquals(holm[k], c.pairs().get(k).pHolm(), 0);
        }
        // strong > base > weak in both blocks: ranks 1, 2, 3 and the Friedman statistic of a perfect agreement
        assertEquals(List.of("base", "strong", "weak"), c.rankedMethods());
        assertArrayEquals(new double[]{2, 1, 3}, c.blocks().averageRanks(), 0);
        BlockComparison direct = BlockComparison.of(new double[][]{{2, 3, 1}, {2, 3, 1}});
        assertEquals(direct.friedmanChiSquare(), c.blocks().friedmanChiSquare(), 1e-12);
        assertTrue(c.pairs().stream().filter(x -> x.method().equals("strong")).allMatch(x -> x.diff().mean() > 0));
    }

    @Test
    void everyPairWithoutBaselineAndTidyTables() {
        Comparison c = Comparison.of(threeMethods(7), METRICS, "episode_acc", null);
        assertEquals(6, c.pairs().size());
        Table pairs = c.pairsTable();
        assertEquals(6, pairs.rowCount());
        assertEquals(List.of("dataset", "setting", "metric", "method", "baseline", "n", "mean_diff", "ci95_low",
                "ci95_high", "wins", "ties", "losses", "wilcoxon_statistic", "p", "p_holm", "test"), pairs.columnNames());
        Table ranks = c.ranksTable();
        assertEquals(6, ranks.rowCount());
        assertTrue(c.friedmanLine().startsWith("Friedman over 2 blocks and 3 methods"), c.friedmanLine());
        assertTrue(c.criticalDifference().cd() > 0);
    }

    @Test
    void refusesUnitsWithOtherSeedsNamingTheMismatch() {
        FsilException e = assertThrows(FsilException.class, () -> Comparison.of(threeMethods(8), METRICS, null, null));
        assertTrue(e.getMessage().contains("not run on identical units"), e.getMessage());
        assertTrue(e.getMessage().contains("order seed 7") && e.getMessage().contains("order seed 8"), e.getMessage());
    }

    @Test
    void refusesMissingUnitsFailedUnitsAndUnknownNames() {
        List<UnitRecord> rows = new ArrayList<>(threeMethods(7));
        rows.removeIf(x -> x.method().equals("weak") && x.dataset().equals("d2") && x.unit() == 1);
        FsilException missing = assertThrows(FsilException.class, () -> Comparison.of(rows, METRICS, null, null));
        assertTrue(missing.getMessage().contains("where weak has nothing"), missing.getMessage());

        List<UnitRecord> failed = new ArrayList<>(threeMethods(7));
        UnitRecord f = failed.remove(0);
        failed.add(new UnitRecord(f.method(), f.methodId(), f.dataset(), f.protocol(), f.setting(), f.unit(),
                f.firstTask(), f.tasks(), f.orderSeed(), f.trainSeed(), UnitRecord.FAILED, "out of memory", 1, null));
        FsilException e = assertThrows(FsilException.class, () -> Comparison.of(failed, METRICS, null, null));
        assertTrue(e.getMessage().contains("failed on unit 0") && e.getMessage().contains("out of memory"),
                e.getMessage());

        FsilException base = assertThrows(FsilException.class, () -> Comparison.of(threeMethods(7), METRICS, null,
                "bsae"));
        assertTrue(base.getMessage().contains("did you mean 'base'"), base.getMessage());
        FsilException metric = assertThrows(FsilException.class, () -> Comparison.of(threeMethods(7), METRICS,
                "final_acc", null));
        assertTrue(metric.getMessage().contains("no per-task 'final_acc'"), metric.getMessage());
    }

    @Test
    void lowerIsBetterMetricsRankTheSmallestFirst() {
        // memory per task: "strong" uses the least memory
        List<UnitRecord> rows = new ArrayList<>();
        for (String dataset : List.of("d1", "d2", "d3")) {
            for (String m : List.of("small", "large")) {
                ObjectNode metrics = JsonNodeFactory.instance.objectNode();
                metrics.putArray("memory_bytes").add(m.equals("small") ? 100 : 1000).add(m.equals("small") ? 90 : 900);
                rows.add(new UnitRecord(m, m, dataset, "fewshot", "s", 0, 0, 2, 1, 2, UnitRecord.OK, "", 0, obj(metrics)));
            }
        }
        Comparison c = Comparison.of(rows, METRICS, "memory_bytes", "large");
        assertEquals(List.of("large", "small"), c.rankedMethods());
        assertArrayEquals(new double[]{2, 1}, c.blocks().averageRanks(), 0);
        assertTrue(c.pairs().stream().allMatch(p -> p.diff().wins() == 2 && p.diff().mean() < 0));
    }

    @Test
    void runSetReadsRunsAndNamesClashingLabelsByRun(@TempDir Path tmp) throws IOException {
        Map<String, List<String>> options = Map.of("episodes", List.of("12"), "queries", List.of("20"), "ways",
                List.of("4"), "shots", List.of("1"), "episodes-per-unit", List.of("5"));
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        Runner.Outcome oa = RunnerTest.runner(RunnerTest.TOY).run(RunnerTest.spec("ncm,knn", "fewshot", options, 2), a);
        RunnerTest.runner(RunnerTest.TOY).run(RunnerTest.spec("ncm,near:ncm[scale=2]", "fewshot", options, 1), b);
        List<UnitRecord> rows = RunSet.load(List.of(a, b));
        assertEquals(List.of("a/ncm", "b/ncm", "knn", "near"), rows.stream().map(UnitRecord::method).distinct()
                .sorted().toList());
        Comparison c = Comparison.of(rows, METRICS, null, "a/ncm");
        // the toy methods are all the same nearest-mean classifier: every difference is 0
        assertEquals(3, c.pairs().size());
        assertTrue(c.pairs().stream().allMatch(p -> p.diff().ties() == 12 && p.p() == 1));
        assertEquals(oa.tasks() / 2, rows.stream().filter(r -> r.method().equals("a/ncm")).mapToInt(UnitRecord::tasks)
                .sum());
        assertEquals(List.of(2.5, 2.5, 2.5, 2.5), c.ranksTable().doubleColumn("rank").asList());
        assertTrue(c.friedmanLine().contains("needs at least two blocks"), c.friedmanLine());

        FsilException notRun = assertThrows(FsilException.class, () -> RunSet.load(List.of(a, tmp)));
        assertTrue(notRun.getMessage().contains("is not a run; it holds the runs a/, b/"), notRun.getMessage());
        FsilException twice = assertThrows(FsilException.class, () -> RunSet.load(List.of(a, a)));
        assertTrue(twice.getMessage().contains("named twice"), twice.getMessage());

        // a damaged row refuses the comparison rather than dropping a task
        Path units = a.resolve(UnitStore.FILE);
        List<String> lines = new ArrayList<>(Files.readAllLines(units));
        lines.set(2, lines.get(2).replaceFirst(",ok,", ",okay,"));
        Files.write(units, lines);
        FsilException bad = assertThrows(FsilException.class, () -> RunSet.load(List.of(a, b)));
        assertTrue(bad.getMessage().contains("invalid row") && bad.getMessage().contains("--resume"),
                bad.getMessage());
    }
}
