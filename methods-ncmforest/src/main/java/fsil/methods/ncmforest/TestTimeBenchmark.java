package fsil.methods.ncmforest;

import fsil.core.linalg.Distances;

import fsil.api.Background;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.bench.BenchTimer;
import fsil.core.bench.Benchmark;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code ncmf-test-time}: NCM forest test time per sample per tree on a synthetic set of 1,000 classes in
 * d = 1,000 (the paper reports 0.47 ms per tree per image on ILSVRC10), against plain nearest-class-mean scoring of
 * the same test samples (all class means, the same distance kernel) measured in the same run.
 */
public final class TestTimeBenchmark implements Benchmark {
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("classes", "1000");
        d.put("dim", "1000");
        d.put("rank", "64");
        d.put("spread", "1.0");
        d.put("noise", "1.0");
        d.put("per_class", "20");
        d.put("test", "1000");
        d.put("trees", "5");
        d.put("threads", "1");
        d.put("reps", "3");
        d.put("seed", "1");
        return d;
    }

    @Override
    public String id() {
        return "ncmf-test-time";
    }

    @Override
    public String description() {
        return "NCM forest: test time per sample per tree versus nearest-class-mean scoring of the same data "
                + "(default 1,000 classes, d = 1,000)";
    }

    @Override
    public void run(Map<String, String> options, PrintStream out) {
        BenchOptions o = new BenchOptions(id(), DEFAULTS, options);
        int classes = o.integer("classes", 2);
        int dim = o.integer("dim", 1);
        int trees = o.integer("trees", 1);
        int threads = o.integer("threads", 1);
        int reps = o.integer("reps", 1);
        long seed = o.integer("seed", 0);
        SyntheticClasses gen = new SyntheticClasses(dim, o.integer("rank", 1), o.real("spread", 0), o.real("noise", 0),
                seed);
        int[] all = IncrementalTrainingBenchmark.classIds(classes);
        LabeledData train = gen.sample(all, o.integer("per_class", 1), 0);
        int perClassTest = Math.max(1, (o.integer("test", 1) + classes - 1) / classes);
        LabeledData test = gen.sample(all, perClassTest, 1);
        out.println("# " + id() + ": " + o);
        out.println("# " + train.size() + " training and " + test.size() + " test samples");

        ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
        try {
            SessionContext ctx = SessionContext.incremental(dim, seed);
            if (pool != null) {
                ctx = ctx.withExecutor(pool);
            }
            NcmForestMethod m = new NcmForestMethod();
            Session s = m.learner(m.params(Map.of("trees", Integer.toString(trees))), Background.none(dim))
                    .newSession(ctx);
            long t0 = System.nanoTime();
            s.learn(train);
            double trainSeconds = (System.nanoTime() - t0) * 1e-9;
            Map<String, Double> diag = s.diagnostics();
            out.printf("# trained %d trees in %.1f s (%d thread(s)); leaf depth mean %.1f, max %.0f; %.0f leaves per tree%n",
                    trees, trainSeconds, threads, diag.get("leaf_depth_mean"), diag.get("leaf_depth_max"),
                    diag.get("leaves_per_tree"));

            FeatureMatrix q = test.features();
            Prediction[] last = new Prediction[1];
            double forestSeconds = BenchTimer.medianSeconds(1, reps, () -> {
                last[0] = s.predict(q);
                return last[0].size();
            });
            double testCost = s.diagnostics().get("test_cost");
            double forestAcc = IncrementalComparison.accuracy(last[0], test.labels());

            float[] means = classMeans(train, classes, dim);
            int[] ncmLabels = new int[q.rows()];
            double ncmSeconds = BenchTimer.medianSeconds(1, reps, () -> {
                nearestMean(q, means, classes, ncmLabels);
                return ncmLabels[0];
            });
            int ok = 0;
            for (int i = 0; i < ncmLabels.length; i++) {
                ok += ncmLabels[i] == test.labels()[i] ? 1 : 0;
            }
            double ncmAcc = ok / (double) ncmLabels.length;

            int n = q.rows();
            double ncmMs = 1000 * ncmSeconds / n;
            double perTreeMs = 1000 * forestSeconds / n / trees;
            out.printf("%-26s %14s %20s %14s %9s%n", "scorer", "ms_per_sample", "comparisons/sample", "time/ncm", "accuracy");
            out.printf("%-26s %14.4f %20d %14.4f %9.4f%n", "ncm (all class means)", ncmMs, classes, 1.0, ncmAcc);
            out.printf("%-26s %14.4f %20.1f %14.4f %9s%n", "ncmf, per tree", perTreeMs, testCost, perTreeMs / ncmMs, "");
            out.printf("%-26s %14.4f %20.1f %14.4f %9.4f%n", "ncmf, forest of " + trees, perTreeMs * trees,
                    testCost * trees, perTreeMs * trees / ncmMs, forestAcc);
            out.println("# paper (ILSVRC10 BoW, 1k classes, 1000-d, 1.2M training images): NCMF 0.47 ms per tree per image");
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    /** Class means (float32) computed in float64. */
    static float[] classMeans(LabeledData data, int classes, int dim) {
        double[] sum = new double[classes * dim];
        int[] cnt = new int[classes];
        float[] x = data.features().rawData();
        for (int i = 0; i < data.size(); i++) {
            int c = data.labels()[i];
            cnt[c]++;
            for (int j = 0; j < dim; j++) {
                sum[c * dim + j] += x[i * dim + j];
            }
        }
        float[] m = new float[classes * dim];
        for (int c = 0; c < classes; c++) {
            for (int j = 0; j < dim; j++) {
                m[c * dim + j] = (float) (sum[c * dim + j] / Math.max(1, cnt[c]));
            }
        }
        return m;
    }

    /** Nearest class mean of every query (the reference scorer: |C| distance evaluations per sample). */
    static void nearestMean(FeatureMatrix q, float[] means, int classes, int[] out) {
        int d = q.cols();
        float[] x = q.rawData();
        for (int i = 0; i < q.rows(); i++) {
            int best = 0;
            double bestD = Double.POSITIVE_INFINITY;
            for (int c = 0; c < classes; c++) {
                double dist = Distances.squared(x, i * d, means, c * d, d);
                if (dist < bestD) {
                    bestD = dist;
                    best = c;
                }
            }
            out[i] = best;
        }
    }
}
