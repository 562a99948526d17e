package fsil.core.stats;

import java.util.Arrays;

/**
 * Average ("mid") ranks, as {@code scipy.stats.rankdata(a, method='average')}: the smallest value gets rank 1 and
 * each group of exactly equal values shares the mean of the ranks it spans. Equality is {@code ==} on doubles, so
 * -0.0 and 0.0 tie (as in numpy). Shared by the signed-rank test and the block (Friedman) comparison.
 */
public final class Ranks {
    private Ranks() {
    }

    /** Ascending average ranks of {@code values} (1 = smallest); values must be finite (not checked here). */
    public static double[] ascending(double[] values) {
        int n = values.length;
        double[] sorted = new double[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = values[i] + 0.0; // turns -0.0 into 0.0, which Arrays.sort would otherwise order apart
        }
        Arrays.sort(sorted);
        double[] ranks = new double[n];
        for (int i = 0; i < n; i++) {
            double v = values[i] + 0.0;
            int lo = lowerBound(sorted, v);
            int hi = upperBound(sorted, v); // ranks lo+1 .. hi
            ranks[i] = 0.5 * (lo + 1 + hi);
        }
        return ranks;
    }

    /** Descending average ranks (1 = largest), i.e. the ranks of -values. */
    public static double[] descending(double[] values) {
        double[] neg = new double[values.length];
        for (int i = 0; i < neg.length; i++) {
            neg[i] = -values[i];
        }
        return ascending(neg);
    }

    /**
     * Sum over groups of tied values of t(t^2 - 1), t the group size: the quantity both the signed-rank variance
     * and the Friedman statistic subtract for ties. Zero when all values differ.
     */
    public static double tieTerm(double[] values) {
        double[] sorted = values.clone();
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] += 0.0;
        }
        Arrays.sort(sorted);
        double sum = 0.0;
        int i = 0;
        while (i < sorted.length) {
            int j = i + 1;
            while (j < sorted.length && sorted[j] == sorted[i]) {
                j++;
            }
            double t = j - i;
            sum += t * (t * t - 1.0);
            i = j;
        }
        return sum;
    }

    /** Index of the first element of ascending {@code sorted} that is &gt;= v. */
    static int lowerBound(double[] sorted, double v) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Index of the first element of ascending {@code sorted} that is &gt; v. */
    static int upperBound(double[] sorted, double v) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
