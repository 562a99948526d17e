package fsil.methods.ppca;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.core.bench.BenchResult;
import fsil.api.Param;
import fsil.api.Params;
import fsil.core.bench.EndToEndBenchmark;
import fsil.core.synthetic.GaussianClasses;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * {@code ppca-scale}: 10,000 synthetic classes (the {@code synthetic} dataset's model, d = 640, 50 samples per
 * class) learned as a stream of chunks, then queries scored against every class; time per class, scoring throughput
 * (queries x classes per second), the session's model memory and the JVM heap peak. The Euclidean nearest-mean
 * model ({@code q = 0}) of the same data is the reference measured in the same run.
 */
public final class ScaleBenchmark extends EndToEndBenchmark {
    static final Param<Integer> CLASSES = Param.integer("classes", 10_000, 1, 10_000_000, "synthetic classes");
    static final Param<Integer> PER_CLASS = Param.integer("per_class", 50, 1, 1_000_000, "training samples per class");
    static final Param<Integer> DIM = Param.integer("dim", 640, 1, 1_000_000, "feature dimension");
    static final Param<Integer> Q = Param.integer("q", 20, 0, 100_000, "PPCA's latent dimension");
    static final Param<Double> LAMBDA = Param.real("lambda", 0.01, 1e-12, 1e12, "PPCA's regulariser");
    static final Param<Integer> CHUNK = Param.integer("chunk", 500, 1, 10_000_000, "classes learned at a time");
    static final Param<Integer> QUERIES = Param.integer("queries", 1000, 1, 10_000_000, "queries scored");
    static final Param<Integer> BATCH = Param.integer("batch", 250, 1, 10_000_000, "queries scored at a time");
    static final Param<Integer> THREADS = Param.integer("threads", 2, 1, 4096, "threads of the session");
    static final Param<Model> MODEL = Param.option("model", Model.SHARED,
            "shared: one covariance shape for all classes; power-law: eigenvalues falling as a power law");
    static final Param<Integer> RANK = Param.integer("rank", 16, 1, 1_000_000, "rank of the class covariances");
    static final Param<Double> SEP = Param.real("sep", 2.0, 0, 1e6, "separation of the class means");
    static final Param<Double> NOISE = Param.real("noise", 0.5, 0, 1e6, "isotropic noise");
    static final Param<Double> ALPHA = Param.real("alpha", 1.0, 0, 1e6, "power-law exponent (model=power-law)");
    static final Param<Double> SCALE = Param.real("scale", 1.0, 0, 1e6, "scale of the class covariances");
    static final Param<Integer> SEED = Param.integer("seed", 1, 0, Integer.MAX_VALUE, "data seed");

    /**
     * The two data models, both core's {@link GaussianClasses}: {@code shared} is the {@code synthetic} dataset's
     * (class centres sep * z_c in a shared orthonormal basis of {@code rank} columns, unit within-class spread in
     * it, isotropic noise); {@code power-law} gives every class a mean N(0, sep^2 I_d) and {@code rank} directions of
     * its own with variances scale * i^-alpha, plus isotropic noise: the decaying within-class spectra of real
     * features, which decide how hard the top-q eigenproblem is.
     */
    enum Model {
        SHARED, POWER_LAW;

        GaussianClasses build(int dim, int rank, double sep, double noise, double alpha, double scale, long seed) {
            GaussianClasses.Builder b = GaussianClasses.builder(dim, seed).noise(noise);
            int r = Math.min(rank, dim);
            return (this == SHARED ? b.means(r, sep)
                    : b.means(dim, sep).subspaceNoise(0).classDirections(r, scale, alpha)).build();
        }
    }

    /** The paper's training time per class (RTX 3080 laptop GPU, Sec. IV-C). */
    static final double PAPER_SECONDS_PER_CLASS = 20.0;

    public ScaleBenchmark() {
        super("ppca-scale", "PPCA at scale: fit time per class, scoring throughput, model memory and heap peak on "
                + "10,000 synthetic classes (d = 640), against q = 0 (nearest mean) in the same run", List.of(CLASSES,
                PER_CLASS, DIM, Q, LAMBDA, CHUNK, QUERIES, BATCH, THREADS, MODEL, RANK, SEP, NOISE, ALPHA, SCALE,
                SEED));
    }

    @Override
    public BenchResult run(Params o) {
        int classes = o.get(CLASSES);
        int perClass = o.get(PER_CLASS);
        int chunk = o.get(CHUNK);
        int queries = o.get(QUERIES);
        int batch = o.get(BATCH);
        int threads = o.get(THREADS);
        String q = o.text(Q.name());
        String lambda = o.text(LAMBDA.name());
        GaussianClasses gen = o.get(MODEL).build(o.get(DIM), o.get(RANK), o.get(SEP), o.get(NOISE), o.get(ALPHA),
                o.get(SCALE), o.get(SEED));
        int dim = gen.dim();
        LabeledData test = testQueries(gen, classes, queries);
        ExecutorService pool = BenchSupport.pool(threads);
        try {
            java.util.concurrent.Executor ex = BenchSupport.executor(pool);
            long heapBefore = BenchSupport.heapUsedAfterGc();
            BenchSupport.resetHeapPeak();
            Result ppca = run(Map.of("q", q, "lambda", lambda), gen, classes, perClass, chunk, test, batch, dim, ex);
            long peak = BenchSupport.heapPeak();
            Result ncm = run(Map.of("q", "0", "lambda", lambda), gen, classes, perClass, chunk, test, batch, dim, ex);
            double pairs = (double) test.size() * classes;
            BenchResult.Builder t = BenchResult.builder(title(o), "model", "fit_s", "ms/class", "fit/ref",
                    "pairs/s", "score/ref", "accuracy", "memory_MiB");
            row(t, "ppca q=" + q, ppca, ncm, classes, pairs);
            row(t, "q=0 (reference)", ncm, ncm, classes, pairs);
            return t.note(String.format(Locale.ROOT, "%d classes x %d samples, d = %d, %d thread(s); %d queries "
                            + "scored against all classes in batches of %d; ref = the q=0 row of the same run", classes,
                            perClass, dim, threads, test.size(), batch))
                    .note(String.format(Locale.ROOT, "model memory (memoryBytes) %s = %.1f KiB per class; JVM heap: "
                                    + "max %s, in use before %s, after the fit (session alive, after a GC) %s, peak "
                                    + "during fit and scoring %s (sum of the heap pools' peaks)",
                            BenchSupport.mib(ppca.memory), ppca.memory / 1024.0 / classes,
                            BenchSupport.mib(Runtime.getRuntime().maxMemory()), BenchSupport.mib(heapBefore),
                            BenchSupport.mib(ppca.heapAfterFit), BenchSupport.mib(peak)))
                    .note(String.format(Locale.ROOT, "paper: 20 s per class on a laptop GPU; here %.2f ms per class "
                            + "(%.0fx)", ppca.fitSeconds / classes * 1e3,
                            PAPER_SECONDS_PER_CLASS * classes / ppca.fitSeconds))
                    .build();
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    private static void row(BenchResult.Builder t, String name, Result r, Result ref, int classes, double pairs) {
        t.row(name, r.fitSeconds, r.fitSeconds / classes * 1e3, r.fitSeconds / ref.fitSeconds, pairs / r.scoreSeconds,
                r.scoreSeconds / ref.scoreSeconds, r.accuracy, r.memory / 1048576.0);
    }

    /** Queries spread evenly over the classes, from each class's test stream (part 1). */
    private static LabeledData testQueries(GaussianClasses gen, int classes, int queries) {
        int n = queries;
        int d = gen.dim();
        float[] x = new float[n * d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = (int) ((long) i * classes / n);
        }
        for (int i = 0; i < n; ) {
            int end = i;
            while (end < n && y[end] == y[i]) {
                end++;
            }
            gen.sample(y[i], 1, end - i, x, i);
            i = end;
        }
        return new LabeledData(FeatureMatrix.wrap(n, d, x), y);
    }

    private record Result(double fitSeconds, double scoreSeconds, double accuracy, long memory, long heapAfterFit) {
    }

    private static Result run(Map<String, String> params, GaussianClasses gen, int classes, int perClass, int chunk,
                              LabeledData test, int batch, int dim, java.util.concurrent.Executor ex) {
        PpcaSession s = BenchSupport.session(params, dim, 1, ex);
        double fit = 0;
        for (int c = 0; c < classes; c += chunk) {
            LabeledData data = gen.classes(c, Math.min(classes, c + chunk), perClass, 0);
            long t0 = System.nanoTime();
            s.learn(data);
            fit += (System.nanoTime() - t0) * 1e-9;
        }
        long heapAfterFit = BenchSupport.heapUsedAfterGc();
        double score = 0;
        int correct = 0;
        for (int from = 0; from < test.size(); from += batch) {
            int to = Math.min(test.size(), from + batch);
            int[] rows = new int[to - from];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = from + i;
            }
            FeatureMatrix qx = test.features().selectRows(rows);
            long t0 = System.nanoTime();
            Prediction p = s.predict(qx);
            score += (System.nanoTime() - t0) * 1e-9;
            int[] labels = p.labels();
            for (int i = 0; i < rows.length; i++) {
                correct += labels[i] == test.labels()[from + i] ? 1 : 0;
            }
        }
        return new Result(fit, score, correct / (double) test.size(), s.memoryBytes(), heapAfterFit);
    }
}
