package fsil.eval.metrics;

/**
 * Summary metrics of one incremental run, computed from the accuracy matrix exactly as named in README.md,
 * <i>Protocols and metrics</i>, and defined below. A[t][k] is the accuracy after step t on the test data of the
 * classes introduced at step k (defined for k &lt;= t); a[t] the micro accuracy on all classes seen up to t.
 * T = last step.
 *
 * @param avgIncrementalAcc mean over t of a_t, step 0 included
 * @param finalAcc          a_T
 * @param forgettingMax     mean over k &lt; T of (max_{k &lt;= t &lt; T} A[t][k] - A[T][k]) (Chaudhry); NaN if T = 0
 * @param forgettingFirst   mean over k &lt; T of (A[k][k] - A[T][k]) (Avalanche); NaN if T = 0
 * @param bwt               -forgettingFirst (Lopez-Paz)
 */
public record IncrementalMetrics(double avgIncrementalAcc, double finalAcc, double forgettingMax,
                                 double forgettingFirst, double bwt) {

    /** All five from the accuracy matrix and a_t of one stream. */
    public static IncrementalMetrics of(double[][] a, double[] seen) {
        if (seen.length == 0 || a.length != seen.length) {
            throw new IllegalArgumentException("need one accuracy-matrix row per step");
        }
        IncrementalMetrics f = ofMatrix(a);
        IncrementalMetrics s = ofSeen(seen);
        return new IncrementalMetrics(s.avgIncrementalAcc(), s.finalAcc(), f.forgettingMax(), f.forgettingFirst(),
                f.bwt());
    }

    /** The metrics that need only a_t: average incremental and final accuracy (forgetting left NaN). */
    public static IncrementalMetrics ofSeen(double[] seen) {
        double avg = 0;
        for (double v : seen) {
            avg += v;
        }
        avg /= seen.length;
        return new IncrementalMetrics(avg, seen[seen.length - 1], Double.NaN, Double.NaN, Double.NaN);
    }

    /** The forgetting metrics, which need only the accuracy matrix (average and final accuracy left NaN). */
    public static IncrementalMetrics ofMatrix(double[][] a) {
        int last = a.length - 1;
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
        return new IncrementalMetrics(Double.NaN, Double.NaN, fMax, fFirst, -fFirst);
    }
}
