package fsil.eval.compare;

import fsil.api.FsilException;
import fsil.core.stats.BlockComparison;
import fsil.core.stats.CriticalDifference;
import fsil.core.stats.Holm;
import fsil.core.stats.PairedComparison;
import fsil.core.stats.Ranks;
import fsil.core.stats.Wilcoxon;
import fsil.eval.metrics.Metric;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Comparative statistics of methods run on identical tasks (the same units with the same seeds): per pair of
 * methods in each block (dataset x setting), the mean paired difference with its 95% interval, win/tie/loss counts
 * and the Wilcoxon signed-rank test, Holm-corrected over all pairs; across blocks, average ranks, the Friedman
 * test with its Iman-Davenport form, and the Nemenyi critical difference of Demšar's CD diagram (JMLR 2006).
 */
public final class Comparison {
    /** Metrics where smaller is better. */
    static final Set<String> LOWER_IS_BETTER = Set.of("forgetting_max", "forgetting_first", "memory_bytes",
            "fit_s", "predict_s", "ece", "mce", "nll", "brier");
    public static final double ALPHA = 0.05;

    /** Whether smaller values of a metric are better (forgetting, memory, times, calibration errors). */
    public static boolean lowerIsBetter(String metric) {
        return LOWER_IS_BETTER.contains(metric);
    }

    /** One method's per-task values in one block, with the identity of each of its units. */
    record Series(String method, double[] values, List<String> units) {
    }

    /**
     * One pair of methods in one block.
     *
     * @param diff   paired differences method − baseline
     * @param p      two-sided Wilcoxon signed-rank p-value (1 when every difference is 0)
     * @param pHolm  p Holm-adjusted over every pair of the comparison
     */
    public record Pair(String dataset, String setting, String method, String baseline, PairedComparison diff,
                       double statistic, double p, String test, double pHolm) {
    }

    /** A block's score (mean of the metric) of each method. */
    public record BlockScore(String dataset, String setting, String method, double value, double rank) {
    }

    private final String metric;
    private final List<Pair> pairs;
    private final List<BlockScore> scores;
    private final List<String> methods;
    private final BlockComparison blocks;
    private final CriticalDifference cd;

    private Comparison(String metric, List<Pair> pairs, List<BlockScore> scores, List<String> methods,
                       BlockComparison blocks, CriticalDifference cd) {
        this.metric = metric;
        this.pairs = pairs;
        this.scores = scores;
        this.methods = methods;
        this.blocks = blocks;
        this.cd = cd;
    }

    /**
     * Compares the methods of the given store rows.
     *
     * @param metric   a per-task number (e.g. {@code episode_acc}, {@code final_acc}); null: episode_acc for episodes,
     *                 final_acc for incremental runs
     * @param baseline a method label to compare every other method with; null: every pair
     * @throws FsilException when methods were not run on identical units, a unit failed, or names are unknown
     */
    public static Comparison of(List<UnitRecord> rows, List<Metric> metrics, String metric, String baseline) {
        if (rows.isEmpty()) {
            throw new FsilException("nothing to compare: no rows");
        }
        String m = metric != null ? metric : rows.stream().anyMatch(r -> r.value("episode_acc") != null)
                ? "episode_acc" : "final_acc";
        // block (dataset | setting) -> method -> rows, in the summary's order (not the order units finished in)
        List<UnitRecord> sorted = new ArrayList<>(rows);
        sorted.sort(java.util.Comparator.comparing(UnitRecord::dataset).thenComparing(UnitRecord::setting)
                .thenComparing(UnitRecord::method));
        Map<List<String>, Map<String, List<UnitRecord>>> byBlock = new LinkedHashMap<>();
        for (UnitRecord r : sorted) {
            byBlock.computeIfAbsent(List.of(r.dataset(), r.setting()), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
        }
        Set<String> allMethods = new LinkedHashSet<>();
        Map<List<String>, List<Series>> series = new LinkedHashMap<>();
        for (Map.Entry<List<String>, Map<String, List<UnitRecord>>> b : byBlock.entrySet()) {
            List<Series> list = new ArrayList<>();
            for (Map.Entry<String, List<UnitRecord>> e : b.getValue().entrySet()) {
                list.add(series(e.getKey(), b.getKey(), e.getValue(), metrics, m));
                allMethods.add(e.getKey());
            }
            checkIdentical(b.getKey(), list);
            series.put(b.getKey(), list);
        }
        if (baseline != null && !allMethods.contains(baseline)) {
            String close = fsil.api.Registry.closest(baseline, allMethods);
            throw new FsilException("no method '" + baseline + "' in these runs" + (close == null ? "" : " (did you "
                    + "mean '" + close + "'?)") + "; methods: " + String.join(", ", allMethods));
        }
        boolean lower = LOWER_IS_BETTER.contains(m);
        List<Pair> raw = new ArrayList<>();
        for (Map.Entry<List<String>, List<Series>> b : series.entrySet()) {
            List<Series> list = b.getValue();
            for (int i = 0; i < list.size(); i++) {
                for (int j = 0; j < list.size(); j++) {
                    Series a = list.get(i);
                    Series c = list.get(j);
                    boolean wanted = baseline != null ? c.method().equals(baseline) && !a.method().equals(baseline)
                            : i > j;
                    if (wanted) {
                        raw.add(pair(b.getKey(), a, c, lower));
                    }
                }
            }
        }
        double[] p = raw.stream().mapToDouble(Pair::p).toArray();
        double[] adjusted = p.length == 0 ? p : Holm.adjust(p);
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            Pair r = raw.get(i);
            pairs.add(new Pair(r.dataset(), r.setting(), r.method(), r.baseline(), r.diff(), r.statistic(), r.p(),
                    r.test(), adjusted[i]));
        }
        return ranked(m, pairs, series, lower);
    }

    private static Series series(String method, List<String> block, List<UnitRecord> units, List<Metric> metrics,
                                 String metric) {
        List<UnitRecord> sorted = new ArrayList<>(units);
        sorted.sort(java.util.Comparator.comparingLong(UnitRecord::orderSeed).thenComparingInt(UnitRecord::unit));
        List<Double> values = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (UnitRecord u : sorted) {
            if (!u.ok()) {
                throw new FsilException(method + " failed on unit " + u.unit() + " of " + block.get(0) + " / "
                        + block.get(1) + " (" + u.error() + "): a paired comparison needs every task; resume or "
                        + "rerun it");
            }
            double[] v = null;
            for (Metric mm : metrics) {
                fsil.eval.metrics.Value stored = u.value(mm.id());
                if (stored != null && mm.perTask(stored).containsKey(metric)) {
                    v = mm.perTask(stored).get(metric);
                }
            }
            if (v == null) {
                throw new FsilException("no per-task '" + metric + "' for " + method + " on " + block.get(0) + " / "
                        + block.get(1) + "; use e.g. --metric episode_acc (episodes) or final_acc, avg_incremental_acc, "
                        + "forgetting_max (incremental runs)");
            }
            for (int i = 0; i < v.length; i++) {
                if (Double.isNaN(v[i])) {
                    throw new FsilException(method + " has no " + metric + " for task " + (u.firstTask() + i)
                            + " of " + block.get(0) + " / " + block.get(1) + " (an empty query set or a failed "
                            + "task): a paired comparison needs every task");
                }
                values.add(v[i]);
            }
            ids.add("unit " + u.unit() + " (tasks " + u.firstTask() + "-" + (u.firstTask() + u.tasks() - 1)
                    + ", order seed " + u.orderSeed() + ", train seed " + u.trainSeed() + ")");
        }
        return new Series(method, values.stream().mapToDouble(Double::doubleValue).toArray(), ids);
    }

    /** Every method of a block must have run the same units with the same seeds. */
    private static void checkIdentical(List<String> block, List<Series> list) {
        Series first = list.get(0);
        for (Series s : list.subList(1, list.size())) {
            if (!s.units().equals(first.units())) {
                String diff = "";
                for (int i = 0; i < Math.max(s.units().size(), first.units().size()); i++) {
                    String a = i < first.units().size() ? first.units().get(i) : "nothing";
                    String b = i < s.units().size() ? s.units().get(i) : "nothing";
                    if (!Objects.equals(a, b)) {
                        diff = first.method() + " has " + a + " where " + s.method() + " has " + b;
                        break;
                    }
                }
                throw new FsilException("methods " + first.method() + " and " + s.method() + " were not run on "
                        + "identical units in " + block.get(0) + " / " + block.get(1) + ": " + diff
                        + ". Compare runs of the same spec (episodes, seeds)");
            }
        }
    }

    private static Pair pair(List<String> block, Series a, Series base, boolean lower) {
        PairedComparison d = PairedComparison.of(a.values(), base.values(), 0.95, 0, lower);
        double stat;
        double p;
        String test;
        try {
            Wilcoxon.Result w = Wilcoxon.test(a.values(), base.values());
            stat = w.statistic();
            p = w.pValue();
            test = w.method().name().toLowerCase(java.util.Locale.ROOT);
        } catch (IllegalArgumentException allZero) {
            stat = 0;
            p = 1;
            test = "no differences";
        }
        return new Pair(block.get(0), block.get(1), a.method(), base.method(), d, stat, p, test, Double.NaN);
    }

    private static Comparison ranked(String metric, List<Pair> pairs, Map<List<String>, List<Series>> series,
                                     boolean lower) {
        // methods present in every block take part in the ranks
        List<String> common = null;
        for (List<Series> list : series.values()) {
            List<String> names = list.stream().map(Series::method).toList();
            common = common == null ? new ArrayList<>(names) : new ArrayList<>(common.stream().filter(names::contains)
                    .toList());
        }
        List<BlockScore> scores = new ArrayList<>();
        BlockComparison bc = null;
        CriticalDifference cd = null;
        if (common != null && common.size() >= 2) {
            double[][] s = new double[series.size()][common.size()];
            int b = 0;
            for (List<Series> list : series.values()) {
                for (int k = 0; k < common.size(); k++) {
                    String name = common.get(k);
                    s[b][k] = mean(list.stream().filter(x -> x.method().equals(name)).findFirst().orElseThrow()
                            .values());
                }
                b++;
            }
            b = 0;
            for (List<String> block : series.keySet()) {
                double[] ranks = lower ? Ranks.ascending(s[b]) : Ranks.descending(s[b]);
                for (int k = 0; k < common.size(); k++) {
                    scores.add(new BlockScore(block.get(0), block.get(1), common.get(k), s[b][k], ranks[k]));
                }
                b++;
            }
            if (series.size() >= 2) {
                bc = BlockComparison.of(s, lower);
                cd = bc.nemenyi(ALPHA);
            }
        }
        return new Comparison(metric, pairs, scores, common == null ? List.of() : common, bc, cd);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    public String metric() {
        return metric;
    }

    public List<Pair> pairs() {
        return pairs;
    }

    /** Methods present in every block (those the ranks are over), in first-seen order. */
    public List<String> rankedMethods() {
        return methods;
    }

    /** Friedman / Iman-Davenport over the blocks; null with fewer than two blocks. */
    public BlockComparison blocks() {
        return blocks;
    }

    /** Nemenyi critical difference at alpha 0.05; null with fewer than two blocks. */
    public CriticalDifference criticalDifference() {
        return cd;
    }

    /** pairs.csv: one row per pair of methods per block. */
    public Table pairsTable() {
        Table t = Table.create("pairs", StringColumn.create("dataset"), StringColumn.create("setting"),
                StringColumn.create("metric"), StringColumn.create("method"), StringColumn.create("baseline"),
                IntColumn.create("n"), DoubleColumn.create("mean_diff"), DoubleColumn.create("ci95_low"),
                DoubleColumn.create("ci95_high"), IntColumn.create("wins"), IntColumn.create("ties"),
                IntColumn.create("losses"), DoubleColumn.create("wilcoxon_statistic"), DoubleColumn.create("p"),
                DoubleColumn.create("p_holm"), StringColumn.create("test"));
        for (Pair p : pairs) {
            t.stringColumn("dataset").append(p.dataset());
            t.stringColumn("setting").append(p.setting());
            t.stringColumn("metric").append(metric);
            t.stringColumn("method").append(p.method());
            t.stringColumn("baseline").append(p.baseline());
            t.intColumn("n").append(p.diff().n());
            t.doubleColumn("mean_diff").append(p.diff().mean());
            t.doubleColumn("ci95_low").append(p.diff().tLow());
            t.doubleColumn("ci95_high").append(p.diff().tHigh());
            t.intColumn("wins").append(p.diff().wins());
            t.intColumn("ties").append(p.diff().ties());
            t.intColumn("losses").append(p.diff().losses());
            t.doubleColumn("wilcoxon_statistic").append(p.statistic());
            t.doubleColumn("p").append(p.p());
            t.doubleColumn("p_holm").append(p.pHolm());
            t.stringColumn("test").append(p.test());
        }
        return t;
    }

    /** ranks.csv: each method's score (the metric's mean) and rank in each block, and its average rank. */
    public Table ranksTable() {
        Table t = Table.create("ranks", StringColumn.create("dataset"), StringColumn.create("setting"),
                StringColumn.create("method"), DoubleColumn.create("value"), DoubleColumn.create("rank"),
                DoubleColumn.create("average_rank"));
        for (BlockScore s : scores) {
            t.stringColumn("dataset").append(s.dataset());
            t.stringColumn("setting").append(s.setting());
            t.stringColumn("method").append(s.method());
            t.doubleColumn("value").append(s.value());
            t.doubleColumn("rank").append(s.rank());
            double avg = 0;
            int n = 0;
            for (BlockScore o : scores) {
                if (o.method().equals(s.method())) {
                    avg += o.rank();
                    n++;
                }
            }
            t.doubleColumn("average_rank").append(avg / n);
        }
        return t;
    }

    /** One line on the Friedman test over the blocks, or why there is none. */
    public String friedmanLine() {
        if (blocks == null) {
            return "Friedman test: needs at least two blocks (datasets x settings) with the same methods";
        }
        return String.format(java.util.Locale.ROOT, "Friedman over %d blocks and %d methods: chi2 = %.4f, p = %.4g; "
                        + "Iman-Davenport F = %.4f, p = %.4g; Nemenyi CD (alpha %.2f) = %.4f", blocks.blocks(),
                blocks.methods(), blocks.friedmanChiSquare(), blocks.friedmanPValue(), blocks.imanDavenportF(),
                blocks.imanDavenportPValue(), ALPHA, cd == null ? Double.NaN : cd.cd());
    }
}
