package fsil.core.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Nemenyi post-hoc test after a Friedman test (Demsar, JMLR 2006, section 3.2.2) and the data of his critical
 * difference diagram. Two methods differ significantly when their average ranks differ by at least
 * CD = q_a sqrt(k (k + 1) / (6 N)), with q_a the upper-a quantile of the studentized range of k means with infinite
 * degrees of freedom divided by sqrt 2 ({@link StudentizedRange}); Demsar's Table 5 prints q_a to three decimals.
 *
 * <p>Cliques are the bars of the diagram: with the methods ordered by average rank, every maximal run of methods
 * whose average ranks all lie within less than CD of each other, keeping only runs of at least two methods and
 * dropping runs contained in another. A method in no clique differs from all others.
 *
 * @param methods       k
 * @param blocks        N
 * @param alpha         significance level
 * @param qAlpha        q_a = studentized range quantile / sqrt 2
 * @param cd            critical difference on the average-rank scale
 * @param averageRanks  average rank of each method (accessor returns a copy)
 * @param cliques       each clique as method indices in increasing average rank; cliques in increasing order of
 *                      their first method's rank (accessor returns a deep copy)
 */
public record CriticalDifference(int methods, int blocks, double alpha, double qAlpha, double cd,
                                 double[] averageRanks, int[][] cliques) {

    public CriticalDifference {
        averageRanks = averageRanks.clone();
        cliques = deepCopy(cliques);
    }

    /** Nemenyi CD at level alpha for the given average ranks (k = their number &gt;= 2) over N &gt;= 1 blocks. */
    public static CriticalDifference nemenyi(double[] averageRanks, int blocks, double alpha) {
        Checks.nonEmptyFinite("averageRanks", averageRanks);
        int k = averageRanks.length;
        if (blocks < 1) {
            throw new IllegalArgumentException("need at least 1 block, got " + blocks);
        }
        double q = qAlpha(k, alpha);
        double cd = q * Math.sqrt(k * (k + 1.0) / (6.0 * blocks));
        return new CriticalDifference(k, blocks, alpha, q, cd, averageRanks, cliques(averageRanks, cd));
    }

    /** q_a of Demsar's Table 5: the (1 - alpha) studentized range quantile for k means, df = infinity, / sqrt 2. */
    public static double qAlpha(int k, double alpha) {
        Checks.probability("alpha", alpha);
        return StudentizedRange.quantile(1.0 - alpha, k) / Math.sqrt(2.0);
    }

    /** CD = q_a sqrt(k (k + 1) / (6 N)). */
    public static double criticalDifference(int k, int blocks, double alpha) {
        if (blocks < 1) {
            throw new IllegalArgumentException("need at least 1 block, got " + blocks);
        }
        return qAlpha(k, alpha) * Math.sqrt(k * (k + 1.0) / (6.0 * blocks));
    }

    /** Maximal groups (size &gt;= 2) of methods whose average ranks differ by less than cd, as described above. */
    public static int[][] cliques(double[] averageRanks, double cd) {
        Checks.nonEmptyFinite("averageRanks", averageRanks);
        if (!(cd >= 0.0)) {
            throw new IllegalArgumentException("cd must be >= 0, got " + cd);
        }
        int k = averageRanks.length;
        int[] order = orderByRank(averageRanks);
        List<int[]> out = new ArrayList<>();
        int lastEnd = 0;
        for (int i = 0; i < k; i++) {
            int j = i;
            while (j + 1 < k && averageRanks[order[j + 1]] - averageRanks[order[i]] < cd) {
                j++;
            }
            if (j > i && j > lastEnd) {
                int[] clique = new int[j - i + 1];
                System.arraycopy(order, i, clique, 0, clique.length);
                out.add(clique);
                lastEnd = j;
            }
        }
        return out.toArray(new int[0][]);
    }

    /** Whether methods a and b differ significantly: |average rank difference| &gt;= CD. */
    public boolean differ(int a, int b) {
        return Math.abs(averageRanks[a] - averageRanks[b]) >= cd;
    }

    @Override
    public double[] averageRanks() {
        return averageRanks.clone();
    }

    @Override
    public int[][] cliques() {
        return deepCopy(cliques);
    }

    /** Method indices sorted by average rank, ties kept in index order (insertion sort: k is small). */
    private static int[] orderByRank(double[] r) {
        int[] order = new int[r.length];
        for (int i = 0; i < r.length; i++) {
            int j = i;
            while (j > 0 && r[order[j - 1]] > r[i]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
        return order;
    }

    private static int[][] deepCopy(int[][] a) {
        int[][] c = new int[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
