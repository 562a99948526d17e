package fsil.methods.gptree;

import fsil.api.Background;
import fsil.api.FeatureMatrix;
import fsil.api.InvalidParameterException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.bench.BenchTimer;
import fsil.core.bench.Benchmark;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A full {@code gp-classes} unit (one learn() with all classes, one predict()) on synthetic Gaussian classes: the
 * GP-Tree k-means tree against the stick-breaking chain (SBM-GP) and the random tree, and M chains against one chain,
 * as ratios to the k-means tree with the default chains measured in the same run.
 */
public final class ClassesSweepBenchmark implements Benchmark {
    private static final Set<String> KEYS = Set.of("classes", "per_class", "d", "chains", "steps", "seed");

    @Override
    public String id() {
        return "gptree-classes-sweep";
    }

    @Override
    public String description() {
        return "GP-Tree gp-classes unit (fit + predict) at C = 30, 15 samples per class: kmeans vs stick-break vs random "
                + "tree, M chains vs 1 (options: classes, per_class, d, chains, steps, seed)";
    }

    @Override
    public void run(Map<String, String> options, PrintStream out) {
        for (String k : options.keySet()) {
            if (!KEYS.contains(k)) {
                throw new InvalidParameterException("gptree-classes-sweep: unknown option '" + k + "'; known: " + KEYS);
            }
        }
        int c = Integer.parseInt(options.getOrDefault("classes", "30"));
        int per = Integer.parseInt(options.getOrDefault("per_class", "15"));
        int d = Integer.parseInt(options.getOrDefault("d", "128"));
        String chains = options.getOrDefault("chains", "4");
        String steps = options.getOrDefault("steps", "2");
        long seed = Long.parseLong(options.getOrDefault("seed", "1"));
        if (c < 2 || per < 1 || d < 1) {
            throw new InvalidParameterException("gptree-classes-sweep: need classes >= 2, per_class >= 1, d >= 1");
        }
        LabeledData train = synthetic(c, per, d, seed);
        FeatureMatrix test = synthetic(c, 5, d, seed + 1).features();
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        variants.put("kmeans tree, chains=" + chains + " (reference)", Map.of("chains", chains, "steps", steps));
        variants.put("stick-break chain (SBM-GP)", Map.of("tree", "stick-break", "chains", chains, "steps", steps));
        variants.put("random balanced tree (GP-Tree Rnd)", Map.of("tree", "random", "chains", chains, "steps", steps));
        variants.put("kmeans tree, chains=1", Map.of("chains", "1", "steps", steps));
        variants.put("kmeans tree, plug-in predictive", Map.of("chains", chains, "steps", steps, "predictive", "plug-in"));
        out.printf(Locale.ROOT, "gptree-classes-sweep: C = %d, %d train + 5 test per class, d = %d, T = %s, one thread%n",
                c, per, d, steps);
        out.printf(Locale.ROOT, "%-44s %10s %12s%n", "variant", "s", "time ratio");
        double ref = Double.NaN;
        GpTreeMethod m = new GpTreeMethod();
        for (Map.Entry<String, Map<String, String>> v : variants.entrySet()) {
            Learner l = m.learner(m.params(v.getValue()), Background.none(d));
            // one untimed full-size run first (the JIT compiles the large-matrix code paths), then the median of 3
            double t = BenchTimer.medianSeconds(1, 3, () -> {
                Session s = l.newSession(SessionContext.incremental(d, 5));
                s.learn(train);
                return Double.doubleToLongBits(s.predict(test).rawProbabilities()[0]);
            });
            if (Double.isNaN(ref)) {
                ref = t;
            }
            out.printf(Locale.ROOT, "%-44s %10.2f %12.3f%n", v.getKey(), t, t / ref);
        }
    }

    static LabeledData synthetic(int c, int per, int d, long seed) {
        UniformRandomProvider centres = RandomStreams.create(42);
        ZigguratSampler.NormalizedGaussian gc = ZigguratSampler.NormalizedGaussian.of(centres);
        double[] mu = new double[c * d];
        for (int i = 0; i < mu.length; i++) {
            mu[i] = gc.sample();
        }
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(seed));
        float[] x = new float[c * per * d];
        int[] y = new int[c * per];
        for (int k = 0; k < c; k++) {
            for (int i = 0; i < per; i++) {
                int row = k * per + i;
                y[row] = k;
                for (int j = 0; j < d; j++) {
                    x[row * d + j] = (float) (mu[k * d + j] + 0.7 * g.sample());
                }
            }
        }
        return new LabeledData(FeatureMatrix.wrap(y.length, d, x), y);
    }
}
