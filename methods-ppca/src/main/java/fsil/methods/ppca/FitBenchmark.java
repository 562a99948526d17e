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
        d.put("exact_classes", "40");
        d.put("chunk", "10");
        d.put("threads", "1");
        d.put("queries", "50");
        d.put("warmup", "10");
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
            Path[] paths = {new Path("auto", Map.of("q", q), dim, ex), new Path("full", Map.of("q", q, "solver", "full"),
                    dim, ex), new Path("gram", Map.of("q", q, "solver", "gram"), dim, ex)};
            if (warmup > 0) {
                // JIT warm-up on classes outside the measured range, in throw-away sessions
                for (Path p : paths) {
                    new Path(p.name, p.params, dim, ex).learn(gen, classes, classes + warmup, perClass, chunk, 0);
                }
            }
            // the paths take turns on every chunk (rotating who goes first), so load changes on a shared machine hit
            // all of them alike; then auto alone fits the remaining classes
            int turn = 0;
            for (int c = 0; c < exactClasses; c += chunk, turn++) {
                int to = Math.min(exactClasses, c + chunk);
                for (int i = 0; i < paths.length; i++) {
                    paths[(i + turn) % paths.length].learn(gen, c, to, perClass, to - c, 0);
                }
            }
            Path auto = paths[0];
            double[] exactPart = {auto.wall, auto.cpu};
            auto.learn(gen, exactClasses, classes, perClass, chunk, 0);
            boolean cpuTimes = threads == 1 && auto.cpu > 0;
            out.printf(Locale.ROOT, "# %d classes x %d samples, d = %d, q = %s, %d thread(s); the three paths take turns "
                    + "on the first %d classes; times are %s%n", classes, perClass, dim, q, threads, exactClasses,
                    cpuTimes ? "CPU time of the fitting thread (wall time in brackets)" : "wall time");
            out.printf(Locale.ROOT, "%-44s %8s %20s %10s %11s%n", "path", "classes", "ms/class", "full/path",
                    "paper/path");
            double full = (cpuTimes ? paths[1].cpu : paths[1].wall) / exactClasses;
            double autoSame = (cpuTimes ? exactPart[1] : exactPart[0]) / exactClasses;
            row(out, "auto (randomized block Krylov)", exactClasses, autoSame, exactPart[0] / exactClasses, full);
            row(out, "full d x d eigen decomposition", exactClasses, full, paths[1].wall / exactClasses, full);
            row(out, "gram (exact, n x n)", exactClasses, (cpuTimes ? paths[2].cpu : paths[2].wall) / exactClasses,
                    paths[2].wall / exactClasses, full);
            row(out, "auto, all classes", classes, (cpuTimes ? auto.cpu : auto.wall) / classes, auto.wall / classes,
                    full);
            out.printf(Locale.ROOT, "%-44s %8s %20.1f %10.4f %11.1f%n", "paper (RTX 3080m GPU, wall)", "-",
                    PAPER_SECONDS_PER_CLASS * 1e3, full / PAPER_SECONDS_PER_CLASS, 1.0);
            LabeledData test = gen.classes(0, exactClasses, queries, 1);
            double diff = Math.max(maxRelativeDifference(auto.session, paths[1].session, test),
                    maxRelativeDifference(paths[2].session, paths[1].session, test));
            out.printf(Locale.ROOT, "# auto vs full on the same classes: %.1fx faster; all %d classes: %.0fx faster than "
                    + "the paper's 20 s; max relative score difference to full (auto and gram, %d queries x %d "
                    + "classes): %.2e%n", full / autoSame, classes,
                    PAPER_SECONDS_PER_CLASS / ((cpuTimes ? auto.cpu : auto.wall) / classes), test.size(),
                    exactClasses, diff);
            out.printf(Locale.ROOT, "# all %d classes fitted in %.1f s wall (%s); model memory %s%n", classes,
                    auto.wall, auto.describe(), BenchSupport.mib(auto.session.memoryBytes()));
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    private static void row(PrintStream out, String name, int classes, double perClass, double wallPerClass,
                            double fullPerClass) {
        out.printf(Locale.ROOT, "%-44s %8d %20s %10.2f %11.0f%n", name, classes,
                String.format(Locale.ROOT, "%.2f (%.2f)", perClass * 1e3, wallPerClass * 1e3),
                fullPerClass / perClass, PAPER_SECONDS_PER_CLASS / perClass);
    }

    /** One solver's session with its learn() times (wall, and CPU of the calling thread) and solver counts. */
    private static final class Path {
        private static final java.lang.management.ThreadMXBean THREADS =
                java.lang.management.ManagementFactory.getThreadMXBean();
        final String name;
        final Map<String, String> params;
        final PpcaSession session;
        double wall;
        double cpu;
        double randomized;
        double fallbacks;
        double gram;
        double full;
        double krylovVectors;

        Path(String name, Map<String, String> params, int dim, java.util.concurrent.Executor ex) {
            this.name = name;
            this.params = params;
            this.session = BenchSupport.session(params, dim, 1, ex);
        }

        /** Learns classes [from, to) in chunks; data generation is not timed. */
        void learn(SyntheticClasses gen, int from, int to, int perClass, int chunk, int part) {
            boolean cpuClock = THREADS.isCurrentThreadCpuTimeSupported();
            for (int c = from; c < to; c += chunk) {
                LabeledData data = gen.classes(c, Math.min(to, c + chunk), perClass, part);
                long c0 = cpuClock ? THREADS.getCurrentThreadCpuTime() : 0;
                long t0 = System.nanoTime();
                session.learn(data);
                wall += (System.nanoTime() - t0) * 1e-9;
                cpu += cpuClock ? (THREADS.getCurrentThreadCpuTime() - c0) * 1e-9 : 0;
                Map<String, Double> d = session.diagnostics();
                randomized += d.get("fit_randomized");
                fallbacks += d.get("randomized_fallbacks");
                gram += d.get("fit_gram");
                full += d.get("fit_full");
                krylovVectors += d.get("krylov_dim_mean") * d.get("fit_randomized");
            }
        }

        String describe() {
            return String.format(Locale.ROOT, "%.0f randomized, %.0f exact fallbacks, %.0f gram, %.0f full, %.1f Krylov "
                    + "vectors on average", randomized, fallbacks, gram, full, randomized == 0 ? 0 : krylovVectors / randomized);
        }
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
