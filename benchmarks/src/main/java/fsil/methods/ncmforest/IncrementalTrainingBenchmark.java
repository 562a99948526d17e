package fsil.methods.ncmforest;

import fsil.api.LabeledData;
import fsil.core.bench.BenchResult;
import fsil.core.bench.Benchmark;
import fsil.core.random.RandomStreams;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ncmf-incremental}: training time of ULS, IGT, RTST and RUST relative to retraining from scratch, per
 * added class, on synthetic Gaussian classes (paper Fig. 5 setting: k = 3 initial classes, then one at a time up
 * to 50). One row per strategy plus the retrain reference: the comparison-count ratio (a deterministic work
 * measure), the final and mean relative accuracy and the test cost next to the time ratio, so one run shows both
 * sides of the trade-off; checkpoint tables and the NCM reference accuracy are in the notes.
 */
public final class IncrementalTrainingBenchmark implements Benchmark {
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("classes", "50");
        d.put("dim", "64");
        d.put("rank", "16");
        d.put("spread", "1.2");
        d.put("noise", "1.0");
        d.put("modes", "3");
        d.put("per_class", "50");
        d.put("test_per_class", "30");
        d.put("initial", "3");
        d.put("chunk", "1");
        d.put("trees", "50");
        d.put("strategies", "uls,igt,rtst,rust");
        d.put("pi", "0.8");
        d.put("selection", "nodes");
        d.put("rust_insertion", "add-only");
        d.put("rust_nodes", "selected");
        d.put("min_leaf", "10");
        d.put("warmup", "1");
        d.put("seed", "1");
        return d;
    }

    @Override
    public String id() {
        return "ncmf-incremental";
    }

    @Override
    public String description() {
        return "NCM forest: training time of ULS/IGT/RTST/RUST per added class relative to retraining from scratch "
                + "(synthetic Gaussian classes, k initial classes then one at a time)";
    }

    @Override
    public BenchResult run(Map<String, String> options) {
        BenchOptions o = new BenchOptions(id(), DEFAULTS, options);
        int classes = o.integer("classes", 2);
        int initial = o.integer("initial", 1);
        long seed = o.integer("seed", 0);
        SyntheticClasses gen = new SyntheticClasses(o.integer("dim", 1), o.integer("rank", 1), o.real("spread", 0),
                o.real("noise", 0), o.integer("modes", 1), seed);
        int[] all = classIds(classes);
        LabeledData train = gen.sample(all, o.integer("per_class", 1), 0);
        LabeledData test = gen.sample(all, o.integer("test_per_class", 1), 1);
        int[] order = RandomStreams.permutation(classes, RandomStreams.create(RandomStreams.derive(seed, "order")));
        Map<String, String> params = new LinkedHashMap<>();
        for (String k : new String[]{"trees", "pi", "selection", "rust_insertion", "rust_nodes", "min_leaf"}) {
            params.put(k, o.text(k));
        }
        List<String> strategies = new ArrayList<>(Arrays.asList(o.text("strategies").split(",")));
        for (int w = 0; w < o.integer("warmup", 0); w++) {
            // JIT warm-up: one untimed pass of the whole run. Without it the strategies that run first, and the
            // rarely called RUST code, are timed partly in the interpreter and their learn() times come out too high
            // (compare with warmup=0).
            IncrementalComparison.run(strategies, params, train, test, order, initial, o.integer("chunk", 1), seed);
        }
        Map<String, IncrementalComparison.Curve> curves = IncrementalComparison.run(strategies, params, train, test,
                order, initial, o.integer("chunk", 1), seed);
        IncrementalComparison.Curve ref = curves.get("retrain");
        List<List<Object>> rows = new ArrayList<>();
        for (IncrementalComparison.Curve c : curves.values()) {
            rows.add(IncrementalComparison.summaryRow(c, ref));
        }
        float[] means = NearestClassMean.classMeans(train, classes, train.dimension());
        int[] ncm = new int[test.size()];
        NearestClassMean.predict(test.features(), means, classes, ncm);
        List<String> notes = new ArrayList<>();
        notes.add("one session per strategy, single thread, after " + o.text("warmup") + " untimed warm-up pass(es); "
                + "time = wall time of learn() for the added classes (initial training excluded); cmp = "
                + "sample-centroid distance evaluations (deterministic work); /retr and rel_ = relative to the "
                + "retrain row of the same run");
        notes.add(String.format(Locale.ROOT, "reference: nearest class mean on all %d classes, accuracy %.4f", classes,
                NearestClassMean.accuracy(ncm, test.labels())));
        notes.add("relative accuracy (accuracy / retrain accuracy) by number of classes seen:");
        notes.addAll(IncrementalComparison.checkpoints(curves, 10).lines().toList());
        notes.add("learn() time relative to retrain's learn() at the same steps, by number of classes seen:");
        notes.addAll(timeCheckpoints(curves, 10).lines().toList());
        return new BenchResult(id() + ": " + o, IncrementalComparison.SUMMARY_COLUMNS, rows, notes);
    }

    static String timeCheckpoints(Map<String, IncrementalComparison.Curve> curves, int every) {
        IncrementalComparison.Curve ref = curves.get("retrain");
        int[] seen = ref.classesSeen();
        List<Integer> ends = new ArrayList<>();
        for (int t = 1; t < seen.length; t++) {
            if (seen[t] % every == 0 || t == seen.length - 1) {
                ends.add(t);
            }
        }
        StringBuilder sb = new StringBuilder(String.format("%-8s", "classes"));
        for (int t : ends) {
            sb.append(String.format(" %7d", seen[t]));
        }
        sb.append('\n');
        for (IncrementalComparison.Curve c : curves.values()) {
            sb.append(String.format("%-8s", c.strategy()));
            int start = 1;
            for (int t : ends) {
                double a = 0;
                double b = 0;
                for (int i = start; i <= t; i++) {
                    a += c.trainSeconds()[i];
                    b += ref.trainSeconds()[i];
                }
                sb.append(String.format(" %7.4f", a / b));
                start = t + 1;
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The class ids 0..n-1. */
    static int[] classIds(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}
