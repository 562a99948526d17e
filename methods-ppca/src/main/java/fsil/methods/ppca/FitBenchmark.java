package fsil.methods.ppca;

import fsil.api.LabeledData;
import fsil.core.bench.Benchmark;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * {@code ppca-fit}: time to fit one class (600 samples, d = 640, q = 20 by default) with the default solver
 * ({@code auto}: randomized block Krylov here) against the full d x d eigen decomposition and the exact Gram path,
 * measured in the same run, and against the paper's 20 s per class. The fast and full models of the classes fitted
 * both ways are compared on held-out queries (max relative score difference).
 */
public final class FitBenchmark implements Benchmark {
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("classes", "1000");
        d.put("per_class", "600");
        d.put("dim", "640");
        d.put("q", "20");
        d.put("exact_classes", "20");
        d.put("chunk", "10");
        d.put("threads", "1");
        d.put("queries", "50");
        d.put("warmup", "4");
        d.put("model", "power-law");
        d.put("rank", "64");
        d.put("alpha", "1.0");
        d.put("scale", "1.0");
        d.put("sep", "1.0");
        d.put("noise", "0.05");
        d.put("seed", "1");
        return d;
    }

    /** The paper's training time per class (RTX 3080 laptop GPU, Sec. IV-C). */
    static final double PAPER_SECONDS_PER_CLASS = 20.0;

    @Override
    public String id() {
        return "ppca-fit";
    }

    @Override
    public String description() {
        return "PPCA fit time per class: auto (randomized Krylov) vs full d x d eigen decomposition and Gram, "
                + "vs the paper's 20 s/class (default 1,000 classes x 600 x d = 640)";
    }

    @Override
    public void run(Map<String, String> options, PrintStream out) {
        BenchSupport o = BenchSupport.options(id(), DEFAULTS, options);
        int classes = o.integer("classes", 1);
        int perClass = o.integer("per_class", 2);
        int exactClasses = Math.min(classes, o.integer("exact_classes", 1));
        int chunk = o.integer("chunk", 1);
        int threads = o.integer("threads", 1);
        int queries = o.integer("queries", 1);
        int warmup = o.integer("warmup", 0);
        String q = Integer.toString(o.integer("q", 0));
        SyntheticClasses gen = o.generator();
        int dim = gen.dimension();
        out.println("# " + id() + ": " + o);
        ExecutorService pool = BenchSupport.pool(threads);
        try {
            java.util.concurrent.Executor ex = BenchSupport.executor(pool);
            Map<String, String> fast = Map.of("q", q);
            Map<String, String> full = Map.of("q", q, "solver", "full");
            Map<String, String> gram = Map.of("q", q, "solver", "gram");
            if (warmup > 0) {
                // JIT warm-up on classes outside the measured range
                for (Map<String, String> p : java.util.List.of(fast, full, gram)) {
                    fit(p, gen, classes, classes + warmup, perClass, chunk, dim, ex);
                }
            }
            Fit a = fit(fast, gen, 0, classes, perClass, chunk, dim, ex);
            Fit f = fit(full, gen, 0, exactClasses, perClass, chunk, dim, ex);
            Fit g = fit(gram, gen, 0, exactClasses, perClass, chunk, dim, ex);
            double perFast = a.seconds / classes;
            double perFull = f.seconds / exactClasses;
            double perGram = g.seconds / exactClasses;
            out.printf(Locale.ROOT, "# %d classes x %d samples, d = %d, q = %s, %d thread(s); exact paths on the "
                    + "first %d classes%n", classes, perClass, dim, q, threads, exactClasses);
            out.printf(Locale.ROOT, "%-34s %8s %12s %12s %14s%n", "path", "classes", "ms/class", "full/path",
                    "paper/path");
            row(out, "auto (" + a.describe() + ")", classes, perFast, perFull);
            row(out, "full d x d eigen decomposition", exactClasses, perFull, perFull);
            row(out, "gram (exact, n x n)", exactClasses, perGram, perFull);
            out.printf(Locale.ROOT, "%-34s %8s %12.1f %12.4f %14.1f%n", "paper (RTX 3080m GPU)", "-",
                    PAPER_SECONDS_PER_CLASS * 1e3, perFull / PAPER_SECONDS_PER_CLASS, 1.0);
            LabeledData test = gen.classes(0, exactClasses, queries, 1);
            double diff = Math.max(maxRelativeDifference(a.session, f.session, test),
                    maxRelativeDifference(g.session, f.session, test));
            out.printf(Locale.ROOT, "# auto vs full: %.1fx faster; %.0fx faster than the paper; max relative score "
                    + "difference to full (auto and gram, %d queries x %d classes): %.2e%n", perFull / perFast,
                    PAPER_SECONDS_PER_CLASS / perFast, test.size(), exactClasses, diff);
            out.printf(Locale.ROOT, "# all %d classes fitted in %.1f s; model memory %s%n", classes, a.seconds,
                    BenchSupport.mib(a.session.memoryBytes()));
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    private static void row(PrintStream out, String name, int classes, double perClass, double perFull) {
        out.printf(Locale.ROOT, "%-34s %8d %12.2f %12.2f %14.0f%n", name, classes, perClass * 1e3,
                perFull / perClass, PAPER_SECONDS_PER_CLASS / perClass);
    }

    /** A session fitted on classes [from, to), learn() time only, and the solver counts. */
    private record Fit(PpcaSession session, double seconds, double randomized, double fallbacks, double gram,
                       double full, double krylovDim) {
        String describe() {
            return String.format(Locale.ROOT, "%.0f rand, %.0f fallback, %.0f gram, %.0f full, m=%.0f", randomized,
                    fallbacks, gram, full, krylovDim);
        }
    }

    private static Fit fit(Map<String, String> params, SyntheticClasses gen, int from, int to, int perClass, int chunk,
                           int dim, java.util.concurrent.Executor ex) {
        PpcaSession s = BenchSupport.session(params, dim, 1, ex);
        double seconds = 0;
        double rand = 0;
        double fallbacks = 0;
        double gram = 0;
        double full = 0;
        double mSum = 0;
        for (int c = from; c < to; c += chunk) {
            LabeledData data = gen.classes(c, Math.min(to, c + chunk), perClass, 0);
            long t0 = System.nanoTime();
            s.learn(data);
            seconds += (System.nanoTime() - t0) * 1e-9;
            Map<String, Double> d = s.diagnostics();
            rand += d.get("fit_randomized");
            fallbacks += d.get("randomized_fallbacks");
            gram += d.get("fit_gram");
            full += d.get("fit_full");
            mSum += d.get("krylov_dim_mean") * d.get("fit_randomized");
        }
        return new Fit(s, seconds, rand, fallbacks, gram, full, rand == 0 ? 0 : mSum / rand);
    }

    /** Max over the test queries and the classes of {@code ref} of |score_a - score_ref| / score_ref. */
    static double maxRelativeDifference(PpcaSession a, PpcaSession ref, LabeledData test) {
        double worst = 0;
        int d = test.dimension();
        double[] x = new double[test.size() * d];
        float[] src = test.features().rawData();
        for (int i = 0; i < x.length; i++) {
            x[i] = src[i];
        }
        double[] sa = new double[test.size()];
        double[] sr = new double[test.size()];
        double[] buf = new double[2 * d];
        for (int c : ref.classes()) {
            a.model(c).scoreBlock(x, test.size(), buf, false, sa, 0, 1);
            ref.model(c).scoreBlock(x, test.size(), buf, false, sr, 0, 1);
            for (int i = 0; i < sa.length; i++) {
                worst = Math.max(worst, Math.abs(sa[i] - sr[i]) / Math.abs(sr[i]));
            }
        }
        return worst;
    }
}
