package fsil.methods.ncmforest;

import fsil.api.LabeledData;
import fsil.core.bench.BenchResult;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.bench.EndToEndBenchmark;
import fsil.core.random.RandomStreams;
import fsil.core.synthetic.GaussianClasses;

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
public final class IncrementalTrainingBenchmark extends EndToEndBenchmark {
    static final Param<Integer> CLASSES = Param.integer("classes", 50, 2, 1_000_000, "synthetic classes");
    static final Param<Integer> DIM = Param.integer("dim", 64, 1, 1_000_000, "feature dimension");
    static final Param<Integer> RANK = Param.integer("rank", 16, 1, 1_000_000, "rank of each class's covariance");
    static final Param<Double> SPREAD = Param.real("spread", 1.2, 0, 1e6, "spread of the class means");
    static final Param<Double> NOISE = Param.real("noise", 1.0, 0, 1e6, "isotropic noise");
    static final Param<Integer> MODES = Param.integer("modes", 3, 1, 1_000, "Gaussian modes per class");
    static final Param<Integer> PER_CLASS = Param.integer("per_class", 50, 1, 1_000_000, "training samples per class");
    static final Param<Integer> TEST_PER_CLASS = Param.integer("test_per_class", 30, 1, 1_000_000,
            "test samples per class");
    static final Param<Integer> INITIAL = Param.integer("initial", 3, 1, 1_000_000, "classes of the initial training");
    static final Param<Integer> CHUNK = Param.integer("chunk", 1, 1, 1_000_000, "classes added at a time");
    static final Param<String> STRATEGIES = Param.text("strategies", "uls,igt,rtst,rust",
            "incremental strategies compared with retraining, comma-separated");
    static final Param<Integer> WARMUP = Param.integer("warmup", 1, 0, 100, "untimed warm-up passes of the whole run");
    static final Param<Integer> SEED = Param.integer("seed", 1, 0, Integer.MAX_VALUE, "data and class-order seed");
    /** The forest's own parameters, given to every strategy (checked again by the method). */
    private static final List<Param<?>> FOREST = List.of(NcmForestMethod.TREES, NcmForestMethod.PI,
            NcmForestMethod.SELECTION, NcmForestMethod.RUST_INSERTION, NcmForestMethod.RUST_NODES,
            NcmForestMethod.MIN_LEAF);

    public IncrementalTrainingBenchmark() {
        super("ncmf-incremental", "NCM forest: training time of ULS/IGT/RTST/RUST per added class relative to "
                + "retraining from scratch (synthetic Gaussian classes, k initial classes then one at a time)",
                parameterList());
    }

    private static List<Param<?>> parameterList() {
        List<Param<?>> all = new ArrayList<>(List.of(CLASSES, DIM, RANK, SPREAD, NOISE, MODES, PER_CLASS,
                TEST_PER_CLASS, INITIAL, CHUNK));
        all.addAll(FOREST);
        all.addAll(List.of(STRATEGIES, WARMUP, SEED));
        return all;
    }

    @Override
    public BenchResult run(Params o) {
        int classes = o.get(CLASSES);
        int initial = o.get(INITIAL);
        long seed = o.get(SEED);
        GaussianClasses gen = GaussianClasses.builder(o.get(DIM), seed).means(Math.min(o.get(RANK), o.get(DIM)),
                o.get(SPREAD)).modes(o.get(MODES)).subspaceNoise(0).noise(o.get(NOISE)).build();
        int[] all = classIds(classes);
        LabeledData train = gen.sample(all, o.get(PER_CLASS), 0);
        LabeledData test = gen.sample(all, o.get(TEST_PER_CLASS), 1);
        int[] order = RandomStreams.permutation(classes, RandomStreams.create(RandomStreams.derive(seed, "order")));
        Map<String, String> params = new LinkedHashMap<>();
        for (Param<?> p : FOREST) {
            params.put(p.name(), o.text(p.name()));
        }
        List<String> strategies = new ArrayList<>(Arrays.asList(o.get(STRATEGIES).split(",")));
        for (int w = 0; w < o.get(WARMUP); w++) {
            // JIT warm-up: one untimed pass of the whole run. Without it the strategies that run first, and the
            // rarely called RUST code, are timed partly in the interpreter and their learn() times come out too high
            // (compare with warmup=0).
            IncrementalComparison.run(strategies, params, train, test, order, initial, o.get(CHUNK), seed);
        }
        Map<String, IncrementalComparison.Curve> curves = IncrementalComparison.run(strategies, params, train, test,
                order, initial, o.get(CHUNK), seed);
        IncrementalComparison.Curve ref = curves.get("retrain");
        List<List<Object>> rows = new ArrayList<>();
        for (IncrementalComparison.Curve c : curves.values()) {
            rows.add(IncrementalComparison.summaryRow(c, ref));
        }
        float[] means = NearestClassMean.classMeans(train, classes, train.dimension());
        int[] ncm = new int[test.size()];
        NearestClassMean.predict(test.features(), means, classes, ncm);
        List<String> notes = new ArrayList<>();
        notes.add("one session per strategy, single thread, after " + o.get(WARMUP) + " untimed warm-up pass(es); "
                + "time = wall time of learn() for the added classes (initial training excluded); cmp = "
                + "sample-centroid distance evaluations (deterministic work); /retr and rel_ = relative to the "
                + "retrain row of the same run");
        notes.add(String.format(Locale.ROOT, "reference: nearest class mean on all %d classes, accuracy %.4f", classes,
                NearestClassMean.accuracy(ncm, test.labels())));
        notes.add("relative accuracy (accuracy / retrain accuracy) by number of classes seen:");
        notes.addAll(IncrementalComparison.checkpoints(curves, 10).lines().toList());
        notes.add("learn() time relative to retrain's learn() at the same steps, by number of classes seen:");
        notes.addAll(timeCheckpoints(curves, 10).lines().toList());
        return new BenchResult(title(o), IncrementalComparison.SUMMARY_COLUMNS, rows, notes);
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
