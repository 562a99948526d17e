package fsil.methods.ppca;

import fsil.api.Background;
import fsil.api.FsilException;
import fsil.api.SessionContext;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Helpers shared by the PPCA benchmarks: validated key=value options, sessions, threads and heap peaks. */
final class BenchSupport {
    private final String bench;
    private final Map<String, String> values;

    private BenchSupport(String bench, Map<String, String> values) {
        this.bench = bench;
        this.values = values;
    }

    /** Defaults overridden by the given options; an unknown key is an error that lists the valid ones. */
    static BenchSupport options(String bench, Map<String, String> defaults, Map<String, String> given) {
        Map<String, String> v = new LinkedHashMap<>(defaults);
        for (Map.Entry<String, String> e : given.entrySet()) {
            if (!defaults.containsKey(e.getKey())) {
                throw new FsilException("benchmark " + bench + " has no option '" + e.getKey()
                        + "'. Options and defaults: " + defaults);
            }
            v.put(e.getKey(), e.getValue());
        }
        return new BenchSupport(bench, v);
    }

    int integer(String key, int min) {
        String s = values.get(key).trim();
        try {
            int v = Integer.parseInt(s);
            if (v >= min) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new FsilException("benchmark " + bench + ": " + key + "=" + s + " must be an integer >= " + min);
    }

    double real(String key, double min) {
        String s = values.get(key).trim();
        try {
            double v = Double.parseDouble(s);
            if (v >= min && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new FsilException("benchmark " + bench + ": " + key + "=" + s + " must be a finite number >= " + min);
    }

    String text(String key) {
        return values.get(key).trim();
    }

    /** A synthetic class generator from the options model, dim, rank, sep, noise, alpha, scale, seed. */
    SyntheticClasses generator() {
        SyntheticClasses.Model model = switch (text("model")) {
            case "shared" -> SyntheticClasses.Model.SHARED;
            case "power-law" -> SyntheticClasses.Model.POWER_LAW;
            default -> throw new FsilException("benchmark " + bench + ": model=" + text("model")
                    + " must be shared or power-law");
        };
        return new SyntheticClasses(model, integer("dim", 1), integer("rank", 1), real("sep", 0), real("noise", 0),
                real("alpha", 0), real("scale", 0), integer("seed", 0));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
        return sb.toString().trim();
    }

    /** A PPCA session with the given parameters, dimension and executor. */
    static PpcaSession session(Map<String, String> params, int dim, long seed, java.util.concurrent.Executor ex) {
        PpcaMethod m = new PpcaMethod();
        return (PpcaSession) m.learner(m.params(params), Background.none(dim))
                .newSession(SessionContext.incremental(dim, seed).withExecutor(ex));
    }

    /** A fixed pool for {@code threads} > 1, else null (run in the caller). */
    static ExecutorService pool(int threads) {
        return threads > 1 ? Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "ppca-bench");
            t.setDaemon(true);
            return t;
        }) : null;
    }

    static java.util.concurrent.Executor executor(ExecutorService pool) {
        return pool == null ? SessionContext.DIRECT : pool;
    }

    /** Resets the peak usage of every heap memory pool. */
    static void resetHeapPeak() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /** Sum over the heap pools of their peak usage since the last reset (an upper bound on the heap peak). */
    static long heapPeak() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /** Heap in use after a full collection. */
    static long heapUsedAfterGc() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
