package fsil.core.stats;

import java.util.Arrays;

/**
 * Holm-Bonferroni step-down adjustment (Holm 1979), for the family of pairwise tests of one comparison. Same values
 * as statsmodels' {@code multipletests(p, method='holm')[1]}: with the m p-values sorted ascending,
 * p_(i) is adjusted to max_{j &lt;= i} min(1, (m - j + 1) p_(j)), and the results are returned in input order.
 * Adjusted values are at least the raw ones, monotone in the raw ones, and at most 1; equal raw p-values get equal
 * adjusted values. Reject H_i at level a when its adjusted p-value is &lt;= a.
 */
public final class Holm {
    private Holm() {
    }

    /** Adjusted p-values, in the order of {@code p}; each p must lie in [0, 1]. */
    public static double[] adjust(double[] p) {
        Checks.nonEmptyFinite("p", p);
        int m = p.length;
        for (int i = 0; i < m; i++) {
            if (p[i] < 0.0 || p[i] > 1.0) {
                throw new IllegalArgumentException("p[" + i + "] is not a probability: " + p[i]);
            }
        }
        double[] sorted = new double[m];
        for (int i = 0; i < m; i++) {
            sorted[i] = p[i] + 0.0;
        }
        Arrays.sort(sorted);
        double[] stepDown = new double[m];
        double running = 0.0;
        for (int r = 0; r < m; r++) {
            running = Math.max(running, (m - r) * sorted[r]);
            stepDown[r] = Math.min(1.0, running);
        }
        // Tied raw p-values all take the value at the last sorted position of their group.
        double[] adjusted = new double[m];
        for (int i = 0; i < m; i++) {
            adjusted[i] = stepDown[Ranks.upperBound(sorted, p[i] + 0.0) - 1];
        }
        return adjusted;
    }
}
