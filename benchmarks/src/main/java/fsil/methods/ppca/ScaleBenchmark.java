package fsil.methods.ppca;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.core.bench.BenchResult;
import fsil.core.bench.Benchmark;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * {@code ppca-scale}: 10,000 synthetic classes (eval's {@code synthetic} model, d = 640, 50 samples per class) learned
 * as a stream of chunks, then queries scored against every class; time per class, scoring throughput
 * (queries x classes per second), the session's model memory and the JVM heap peak. The Euclidean nearest-mean
 * model ({@code q = 0}) of the same data is the reference measured in the same run.
 */
public final class ScaleBenchmark implements Benchmark {
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("classes", "10000");
        d.put("per_class", "50");
        d.put("dim", "640");
        d.put("q", "20");
        d.put("lambda", "0.01");
        d.put("chunk", "500");
        d.put("queries", "1000");
        d.put("batch", "250");
        d.put("threads", "2");
        d.put("model", "shared");
        d.put("rank", "16");
        d.put("sep", "2.0");
        d.put("noise", "0.5");
        d.put("alpha", "1.0");
        d.put("scale", "1.0");
        d.put("seed", "1");
        return d;
    }

    /** The paper's training time per class (RTX 3080 laptop GPU, Sec. IV-C). */
    static final double PAPER_SECONDS_PER_CLASS = 20.0;

    @Override
    public String id() {
        return "ppca-scale";
    }

    @Override
    public String description() {
        return "PPCA at scale: fit time per class, scoring throughput, model memory and heap peak on 10,000 "
                + "synthetic classes (d = 640), against q = 0 (nearest mean) in the same run";
    }

    @Override
    public BenchResult run(Map<String, String> options) {
        BenchSupport o = BenchSupport.options(id(), DEFAULTS, options);
        int classes = o.integer("classes", 1);
        int perClass = o.integer("per_class", 1);
        int chunk = o.integer("chunk", 1);
        int queries = o.integer("queries", 1);
        int batch = o.integer("batch", 1);
        int threads = o.integer("threads", 1);
        String q = Integer.toString(o.integer("q", 0));
        String lambda = Double.toString(o.real("lambda", 1e-12));
        SyntheticClasses gen = o.generator();
        int dim = gen.dimension();
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
            BenchResult.Builder t = BenchResult.builder(id() + ": " + o, "model", "fit_s", "ms/class", "fit/ref",
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

    /** Queries spread evenly over the classes (one independent sample each). */
    private static LabeledData testQueries(SyntheticClasses gen, int classes, int queries) {
        int n = queries;
        int d = gen.dimension();
        float[] x = new float[n * d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            int c = (int) ((long) i * classes / n);
            float[] one = new float[d];
            gen.sample(c, 1, 1 + i, one, 0);
            System.arraycopy(one, 0, x, i * d, d);
            y[i] = c;
        }
        return new LabeledData(FeatureMatrix.wrap(n, d, x), y);
    }

    private record Result(double fitSeconds, double scoreSeconds, double accuracy, long memory, long heapAfterFit) {
    }

    private static Result run(Map<String, String> params, SyntheticClasses gen, int classes, int perClass, int chunk,
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
