package fsil.methods.ppca;

import fsil.api.Background;
import fsil.api.SessionContext;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Helpers shared by the PPCA benchmarks: sessions, threads and heap peaks. */
final class BenchSupport {
    private BenchSupport() {
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
