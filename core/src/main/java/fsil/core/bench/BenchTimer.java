package fsil.core.bench;

import java.util.function.LongSupplier;

/**
 * Minimal wall-clock measurement for {@link Benchmark}s: warm-up runs, then the median of timed repetitions.
 * Ratios between two measurements taken in the same run are what benchmarks report.
 */
public final class BenchTimer {
    private BenchTimer() {
    }

    /**
     * @param warmups     untimed runs first (JIT warm-up)
     * @param repetitions timed runs
     * @param body        the work; returns any value so the JIT cannot drop it
     * @return median seconds per run
     */
    public static double medianSeconds(int warmups, int repetitions, LongSupplier body) {
        long sink = 0;
        for (int i = 0; i < warmups; i++) {
            sink += body.getAsLong();
        }
        double[] t = new double[repetitions];
        for (int i = 0; i < repetitions; i++) {
            long t0 = System.nanoTime();
            sink += body.getAsLong();
            t[i] = (System.nanoTime() - t0) * 1e-9;
        }
        java.util.Arrays.sort(t);
        if (sink == 42) {
            System.out.print("");
        }
        return repetitions % 2 == 1 ? t[repetitions / 2] : 0.5 * (t[repetitions / 2 - 1] + t[repetitions / 2]);
    }
}
