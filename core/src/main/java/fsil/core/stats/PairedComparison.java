package fsil.core.stats;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Summary of two methods measured on the same units (episodes, seeds, data sets): the mean paired difference
 * d = x - y with its confidence interval, and win/tie/loss counts. Pair it with {@link Wilcoxon} for a test.
 *
 * <p>The Student-t interval mean +- t_{1-a/2, n-1} s/sqrt(n) is the one to report; the normal interval
 * mean +- z_{1-a/2} s/sqrt(n) (the familiar 1.96 s/sqrt(n) at 95%, with z computed to full precision) is exposed
 * because many papers report it. s is the sample standard deviation (n - 1 denominator); with n = 1 it and both
 * intervals are NaN.
 *
 * @param n            number of pairs
 * @param mean         mean of d = x - y
 * @param std          sample standard deviation of d (n - 1 denominator), NaN when n = 1
 * @param confidence   two-sided confidence level of the intervals, e.g. 0.95
 * @param tLow         lower end of the Student-t interval (n - 1 degrees of freedom)
 * @param tHigh        upper end of the Student-t interval
 * @param normalLow    lower end of the normal interval
 * @param normalHigh   upper end of the normal interval
 * @param tolerance    |x - y| &lt;= tolerance counts as a tie (0: only exactly equal values tie)
 * @param wins         units where x is better than y by more than the tolerance
 * @param ties         units within the tolerance
 * @param losses       units where y is better than x by more than the tolerance
 */
public record PairedComparison(int n, double mean, double std, double confidence, double tLow, double tHigh,
                               double normalLow, double normalHigh, double tolerance, int wins, int ties,
                               int losses) {

    /** 95% intervals, ties only for exactly equal values, higher values better. */
    public static PairedComparison of(double[] x, double[] y) {
        return of(x, y, 0.95, 0.0, false);
    }

    /**
     * @param confidence     two-sided level in (0, 1)
     * @param tolerance      non-negative tie tolerance on |x - y|
     * @param lowerIsBetter  whether smaller metric values are better (decides wins vs losses only)
     */
    public static PairedComparison of(double[] x, double[] y, double confidence, double tolerance,
                                      boolean lowerIsBetter) {
        Checks.paired(x, y);
        Checks.probability("confidence", confidence);
        if (!(tolerance >= 0.0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("tolerance must be finite and >= 0, got " + tolerance);
        }
        int n = x.length;
        double sum = 0.0;
        int greater = 0;
        int less = 0;
        for (int i = 0; i < n; i++) {
            double d = x[i] - y[i];
            sum += d;
            if (d > tolerance) {
                greater++;
            } else if (d < -tolerance) {
                less++;
            }
        }
        double mean = sum / n;
        double std = Double.NaN;
        double tLow = Double.NaN;
        double tHigh = Double.NaN;
        double normalLow = Double.NaN;
        double normalHigh = Double.NaN;
        if (n > 1) {
            double ss = 0.0;
            for (int i = 0; i < n; i++) {
                double e = (x[i] - y[i]) - mean;
                ss += e * e;
            }
            std = Math.sqrt(ss / (n - 1));
            double se = std / Math.sqrt(n);
            double tail = (1.0 - confidence) / 2.0;
            double t = TDistribution.of(n - 1).inverseSurvivalProbability(tail);
            double z = NormalDistribution.of(0.0, 1.0).inverseSurvivalProbability(tail);
            tLow = mean - t * se;
            tHigh = mean + t * se;
            normalLow = mean - z * se;
            normalHigh = mean + z * se;
        }
        int wins = lowerIsBetter ? less : greater;
        int losses = lowerIsBetter ? greater : less;
        return new PairedComparison(n, mean, std, confidence, tLow, tHigh, normalLow, normalHigh, tolerance, wins,
                n - greater - less, losses);
    }

    /** Standard error s/sqrt(n) of the mean difference (NaN when n = 1). */
    public double standardError() {
        return std / Math.sqrt(n);
    }
}
