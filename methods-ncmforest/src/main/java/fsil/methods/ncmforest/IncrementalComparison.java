package fsil.methods.ncmforest;

import fsil.api.Background;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The paper's incremental experiment (Sec. 5.3, Fig. 5) on given data: train on the first {@code initial}
 * classes of a class order, then add {@code chunk} classes per step; after every step record, for each strategy,
 * the accuracy on the test samples of the classes seen so far, the wall time and the comparison count of the
 * learn() call, and the test cost. Relative accuracy is the accuracy divided by that of {@code retrain} at the
 * same step. Every strategy starts from the same forest (same seed, the first learn() trains from scratch).
 * Runs sessions one after another in the calling thread (executor {@link SessionContext#DIRECT}).
 */
final class IncrementalComparison {

    /** Per-step measurements of one strategy; index 0 is the initial training. */
    record Curve(String strategy, int[] classesSeen, double[] accuracy, double[] trainSeconds,
                 double[] trainComparisons, double[] testCost) {

        /** Sum over the incremental steps (initial training excluded). */
        double incrementalSeconds() {
            return Arrays.stream(trainSeconds).skip(1).sum();
        }

        double incrementalComparisons() {
            return Arrays.stream(trainComparisons).skip(1).sum();
        }

        double finalAccuracy() {
            return accuracy[accuracy.length - 1];
        }
    }

    private IncrementalComparison() {
    }

    /**
     * @param strategies strategy words; "retrain" is added if missing (it is the reference)
     * @param params     method parameters shared by all strategies (strategy is set per run)
     */
    static Map<String, Curve> run(List<String> strategies, Map<String, String> params, LabeledData train,
                                  LabeledData test, int[] order, int initial, int chunk, long seed) {
        List<String> all = new ArrayList<>(strategies);
        if (!all.contains("retrain")) {
            all.add("retrain");
        }
        NcmForestMethod method = new NcmForestMethod();
        Map<String, Curve> out = new LinkedHashMap<>();
        for (String strategy : all) {
            Map<String, String> p = new HashMap<>(params);
            p.put("strategy", strategy);
            Params resolved = method.params(p);
            Learner learner = method.learner(resolved, Background.none(train.dimension()));
            Session s = learner.newSession(SessionContext.incremental(train.dimension(), seed));
            List<Double> acc = new ArrayList<>();
            List<Double> sec = new ArrayList<>();
            List<Double> cmp = new ArrayList<>();
            List<Double> cost = new ArrayList<>();
            List<Integer> seen = new ArrayList<>();
            int from = 0;
            int to = Math.min(initial, order.length);
            while (from < order.length) {
                int[] step = Arrays.copyOfRange(order, from, to);
                int[] seenClasses = Arrays.copyOfRange(order, 0, to);
                LabeledData chunkData = rowsOf(train, step);
                long t0 = System.nanoTime();
                s.learn(chunkData);
                double seconds = (System.nanoTime() - t0) * 1e-9;
                LabeledData testSeen = rowsOf(test, seenClasses);
                Prediction pr = s.predict(testSeen.features());
                acc.add(accuracy(pr, testSeen.labels()));
                sec.add(seconds);
                cmp.add(s.diagnostics().getOrDefault("train_comparisons", 0.0));
                cost.add(s.diagnostics().getOrDefault("test_cost", 0.0));
                seen.add(to);
                from = to;
                to = Math.min(order.length, to + chunk);
            }
            out.put(strategy, new Curve(strategy, seen.stream().mapToInt(Integer::intValue).toArray(), unbox(acc),
                    unbox(sec), unbox(cmp), unbox(cost)));
        }
        return out;
    }

    /** The rows of {@code data} whose label is in {@code classes}. */
    static LabeledData rowsOf(LabeledData data, int[] classes) {
        int[] sorted = classes.clone();
        Arrays.sort(sorted);
        int[] y = data.labels();
        int n = 0;
        for (int v : y) {
            n += Arrays.binarySearch(sorted, v) >= 0 ? 1 : 0;
        }
        int[] idx = new int[n];
        int k = 0;
        for (int i = 0; i < y.length; i++) {
            if (Arrays.binarySearch(sorted, y[i]) >= 0) {
                idx[k++] = i;
            }
        }
        return data.select(idx);
    }

    static double accuracy(Prediction p, int[] truth) {
        int[] lab = p.labels();
        int ok = 0;
        for (int i = 0; i < lab.length; i++) {
            ok += lab[i] == truth[i] ? 1 : 0;
        }
        return lab.length == 0 ? Double.NaN : ok / (double) lab.length;
    }

    private static double[] unbox(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The columns of {@link #summaryRow}. */
    static final List<String> SUMMARY_COLUMNS = List.of("strategy", "incr_train_s", "ms_per_step", "time/retr",
            "cmp/retrain", "final_acc", "rel_final", "rel_mean", "test_cost");

    /** Totals of a curve and its ratios to retrain's ({@code ref}): final and mean relative accuracy, test cost. */
    static List<Object> summaryRow(Curve c, Curve ref) {
        int steps = c.trainSeconds().length - 1;
        double relMean = 0;
        for (int t = 1; t <= steps; t++) {
            relMean += c.accuracy()[t] / ref.accuracy()[t];
        }
        relMean /= Math.max(1, steps);
        return List.of(c.strategy(), c.incrementalSeconds(), 1000 * c.incrementalSeconds() / Math.max(1, steps),
                c.incrementalSeconds() / ref.incrementalSeconds(),
                c.incrementalComparisons() / ref.incrementalComparisons(), c.finalAccuracy(),
                c.finalAccuracy() / ref.finalAccuracy(), relMean, c.testCost()[c.testCost().length - 1]);
    }

    /** {@link #summaryRow} of every curve as a fixed-width table. */
    static String summary(Map<String, Curve> curves) {
        Curve ref = curves.get("retrain");
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-8s %12s %12s %10s %12s %10s %10s %10s %10s%n", SUMMARY_COLUMNS.toArray()));
        for (Curve c : curves.values()) {
            sb.append(String.format("%-8s %12.3f %12.2f %10.4f %12.4f %10.4f %10.4f %10.4f %10.2f%n",
                    summaryRow(c, ref).toArray()));
        }
        return sb.toString();
    }

    /** Relative accuracy of every strategy at a few checkpoints (numbers of classes seen). */
    static String checkpoints(Map<String, Curve> curves, int every) {
        Curve ref = curves.get("retrain");
        StringBuilder sb = new StringBuilder(String.format("%-8s", "classes"));
        List<Integer> cols = new ArrayList<>();
        for (int t = 0; t < ref.classesSeen().length; t++) {
            int c = ref.classesSeen()[t];
            if (c % every == 0 || t == ref.classesSeen().length - 1) {
                cols.add(t);
                sb.append(String.format(" %7d", c));
            }
        }
        sb.append('\n');
        for (Curve c : curves.values()) {
            sb.append(String.format("%-8s", c.strategy()));
            for (int t : cols) {
                sb.append(String.format(" %7.3f", c.accuracy()[t] / ref.accuracy()[t]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
