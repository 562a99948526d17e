package fsil.methods.gptree;

import fsil.api.Background;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.bench.BenchResult;
import fsil.core.bench.EndToEndBenchmark;
import fsil.core.synthetic.GaussianClasses;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A full {@code gp-classes} unit (one learn() with all classes, one predict()) on synthetic Gaussian classes: the
 * GP-Tree k-means tree against the stick-breaking chain (SBM-GP) and the random tree, and M chains against one chain,
 * as ratios to the k-means tree with the default chains measured in the same run (one row per variant).
 */
public final class ClassesSweepBenchmark extends EndToEndBenchmark {
    private static final int REPS = 3;
    static final Param<Integer> CLASSES = Param.integer("classes", 30, 2, 100_000, "classes (C)");
    static final Param<Integer> PER_CLASS = Param.integer("per_class", 15, 1, 1_000_000, "training samples per class");
    static final Param<Integer> D = Param.integer("d", 128, 1, 1_000_000, "feature dimension");
    static final Param<Integer> CHAINS = Param.integer("chains", 4, 1, 10_000, "Gibbs chains of the M-chain variants");
    static final Param<Integer> STEPS = Param.integer("steps", 2, 1, 1_000_000, "Gibbs steps per prediction");
    static final Param<Integer> SEED = Param.integer("seed", 1, 0, Integer.MAX_VALUE, "data seed");

    public ClassesSweepBenchmark() {
        super("gptree-classes-sweep", "GP-Tree gp-classes unit (fit + predict) at C = 30, 15 samples per class: "
                + "kmeans vs stick-break vs random tree, M chains vs 1", List.of(CLASSES, PER_CLASS, D, CHAINS, STEPS,
                SEED));
    }

    @Override
    public BenchResult run(Params o) {
        int c = o.get(CLASSES);
        int per = o.get(PER_CLASS);
        int d = o.get(D);
        String chains = o.text(CHAINS.name());
        String steps = o.text(STEPS.name());
        long seed = o.get(SEED);
        // class centres N(0, I_d), noise 0.7; test rows from each class's second stream
        GaussianClasses model = GaussianClasses.builder(d, seed).means(d, 1.0).subspaceNoise(0).noise(0.7).build();
        LabeledData train = model.classes(0, c, per, 0);
        LabeledData test = model.classes(0, c, 5, 1);
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        variants.put("kmeans tree, chains=" + chains + " (reference)", Map.of("chains", chains, "steps", steps));
        variants.put("stick-break chain (SBM-GP)", Map.of("tree", "stick-break", "chains", chains, "steps", steps));
        variants.put("random balanced tree (GP-Tree Rnd)", Map.of("tree", "random", "chains", chains, "steps", steps));
        variants.put("kmeans tree, chains=1", Map.of("chains", "1", "steps", steps));
        variants.put("kmeans tree, plug-in predictive", Map.of("chains", chains, "steps", steps, "predictive", "plug-in"));
        BenchResult.Builder table = BenchResult.builder(String.format(Locale.ROOT, "gptree-classes-sweep: C = %d, %d "
                + "train + 5 test per class, d = %d, T = %s, one thread", c, per, d, steps), "variant", "s",
                "time/ref", "accuracy");
        double ref = Double.NaN;
        GpTreeMethod m = new GpTreeMethod();
        for (Map.Entry<String, Map<String, String>> v : variants.entrySet()) {
            Learner l = m.learner(m.params(v.getValue()), Background.none(d));
            // one untimed full-size run first (the JIT compiles the large-matrix code paths), then the median of 3
            double[] t = new double[REPS + 1];
            int[] predicted = null;
            for (int r = 0; r < t.length; r++) {
                long t0 = System.nanoTime();
                Session s = l.newSession(SessionContext.incremental(d, 5));
                s.learn(train);
                predicted = s.predict(test.features()).labels();
                t[r] = (System.nanoTime() - t0) * 1e-9;
            }
            double seconds = median(Arrays.copyOfRange(t, 1, t.length));
            if (Double.isNaN(ref)) {
                ref = seconds;
            }
            int ok = 0;
            for (int i = 0; i < predicted.length; i++) {
                ok += predicted[i] == test.labels()[i] ? 1 : 0;
            }
            table.row(v.getKey(), seconds, seconds / ref, ok / (double) predicted.length);
        }
        return table.note("s = median wall time of " + REPS + " units (fit + predict) after one untimed unit; "
                + "time/ref = relative to the first row, measured in the same run; accuracy on the 5 test samples "
                + "per class is a sanity column").build();
    }

}
