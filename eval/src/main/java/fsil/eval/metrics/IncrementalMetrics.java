package fsil.eval.metrics;

/**
 * Summary metrics of one incremental run, computed from the accuracy matrix exactly as named in DESIGN.md §5
 * (and specs/protocols.md §C.9). A[t][k] is the accuracy after step t on the test data of the classes introduced
 * at step k (defined for k &lt;= t); a[t] the micro accuracy on all classes seen up to t. T = last step.
 *
 * @param avgIncrementalAcc mean over t of a_t, step 0 included
 * @param finalAcc          a_T
 * @param forgettingMax     mean over k &lt; T of (max_{k &lt;= t &lt; T} A[t][k] - A[T][k]) (Chaudhry); NaN if T = 0
 * @param forgettingFirst   mean over k &lt; T of (A[k][k] - A[T][k]) (Avalanche); NaN if T = 0
 * @param bwt               -forgettingFirst (Lopez-Paz)
 */
public record IncrementalMetrics(double avgIncrementalAcc, double finalAcc, double forgettingMax,
                                 double forgettingFirst, double bwt) {

    public static IncrementalMetrics of(double[][] a, double[] seen) {
        int steps = seen.length;
        if (steps == 0 || a.length != steps) {
            throw new IllegalArgumentException("need one accuracy-matrix row per step");
        }
        double avg = 0;
        for (double v : seen) {
            avg += v;
        }
        avg /= steps;
        int last = steps - 1;
        double fMax = Double.NaN;
        double fFirst = Double.NaN;
        if (last > 0) {
            fMax = 0;
            fFirst = 0;
            for (int k = 0; k < last; k++) {
                double best = Double.NEGATIVE_INFINITY;
                for (int t = k; t < last; t++) {
                    best = Math.max(best, a[t][k]);
                }
                fMax += best - a[last][k];
                fFirst += a[k][k] - a[last][k];
            }
            fMax /= last;
            fFirst /= last;
        }
        return new IncrementalMetrics(avg, seen[last], fMax, fFirst, -fFirst);
    }
}
