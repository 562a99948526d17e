package fsil.core.stats;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.apache.commons.statistics.distribution.FDistribution;

/**
 * k methods compared over N blocks (data sets, or episode groups), as in Demsar (JMLR 2006): ranks within each
 * block, average ranks, the Friedman test and the Iman-Davenport F form of it. Feed {@link #averageRanks()} to
 * {@link CriticalDifference} for the Nemenyi post-hoc test and the CD-diagram cliques.
 *
 * <p>Ranks: 1 = best in the block (highest score, or lowest with {@code lowerIsBetter}), exactly equal scores share
 * their average rank. Friedman: chi2 = 12/(N k (k+1)) sum_j (R_j - N(k+1)/2)^2 / C, R_j the rank sum of method j
 * and C = 1 - sum t(t^2 - 1) / (N k (k^2 - 1)) the tie correction over all groups of tied scores, which is
 * {@code scipy.stats.friedmanchisquare}'s statistic (there written 12/(N k (k+1)) sum R_j^2 - 3N(k+1), which
 * loses digits to cancellation; the ranking direction does not change it). p = P(chi2_{k-1} &gt;= chi2).
 * Iman-Davenport: F = (N - 1) chi2 / (N (k - 1) - chi2), p = P(F_{k-1,(k-1)(N-1)} &gt;= F).
 *
 * <p>Conventions where scipy has none: k = 2 is accepted (scipy requires 3); when every block is a complete tie
 * (C = 0, scipy returns NaN) chi2 = F = 0 and both p-values are 1; when chi2 reaches its maximum N (k - 1)
 * (every block ranks the methods identically) F is +infinity with p = 0.
 *
 * @param blocks               N, number of blocks (rows)
 * @param methods              k, number of methods (columns)
 * @param lowerIsBetter        whether lower scores rank first
 * @param ranks                ranks[block][method], 1 = best (accessor returns a copy)
 * @param averageRanks         mean rank of each method over blocks (accessor returns a copy)
 * @param friedmanChiSquare    tie-corrected Friedman statistic
 * @param friedmanPValue       its chi-square p-value, k - 1 degrees of freedom
 * @param imanDavenportF       Iman-Davenport statistic
 * @param imanDavenportPValue  its F(k - 1, (k - 1)(N - 1)) p-value
 */
public record BlockComparison(int blocks, int methods, boolean lowerIsBetter, double[][] ranks,
                              double[] averageRanks, double friedmanChiSquare, double friedmanPValue,
                              double imanDavenportF, double imanDavenportPValue) {

    public BlockComparison {
        ranks = deepCopy(ranks);
        averageRanks = averageRanks.clone();
    }

    /** Scores where higher is better. */
    public static BlockComparison of(double[][] scores) {
        return of(scores, false);
    }

    /**
     * @param scores         scores[block][method]: N &gt;= 2 rows of the same length k &gt;= 2, finite values
     * @param lowerIsBetter  whether lower scores are better (e.g. error rates)
     */
    public static BlockComparison of(double[][] scores, boolean lowerIsBetter) {
        if (scores == null || scores.length < 2) {
            throw new IllegalArgumentException("need at least 2 blocks (rows), got "
                    + (scores == null ? "null" : scores.length));
        }
        int n = scores.length;
        if (scores[0] == null) {
            throw new IllegalArgumentException("block 0 is null");
        }
        int k = scores[0].length;
        if (k < 2) {
            throw new IllegalArgumentException("need at least 2 methods (columns), got " + k);
        }
        double[][] ranks = new double[n][];
        double[] rankSums = new double[k];
        double tieSum = 0.0;
        for (int b = 0; b < n; b++) {
            double[] row = scores[b];
            if (row == null || row.length != k) {
                throw new IllegalArgumentException("ragged score matrix: block " + b + " has "
                        + (row == null ? "no" : String.valueOf(row.length)) + " values, block 0 has " + k);
            }
            Checks.nonEmptyFinite("scores[" + b + "]", row);
            ranks[b] = lowerIsBetter ? Ranks.ascending(row) : Ranks.descending(row);
            for (int j = 0; j < k; j++) {
                rankSums[j] += ranks[b][j];
            }
            tieSum += Ranks.tieTerm(row);
        }
        double[] average = new double[k];
        double centre = n * (k + 1) / 2.0;
        double ss = 0.0;
        for (int j = 0; j < k; j++) {
            average[j] = rankSums[j] / n;
            double dev = rankSums[j] - centre; // exact: rank sums are multiples of 1/2
            ss += dev * dev;
        }
        double c = 1.0 - tieSum / ((double) k * (k * (double) k - 1.0) * n);
        double chi2 = c > 0.0 ? 12.0 * ss / ((double) n * k * (k + 1.0)) / c : 0.0;
        double chi2P = chi2 > 0.0 ? ChiSquaredDistribution.of(k - 1).survivalProbability(chi2) : 1.0;
        double den = (double) n * (k - 1) - chi2;
        double f;
        double fP;
        if (chi2 == 0.0) {
            f = 0.0;
            fP = 1.0;
        } else if (den <= 0.0) {
            f = Double.POSITIVE_INFINITY;
            fP = 0.0;
        } else {
            f = (n - 1.0) * chi2 / den;
            fP = FDistribution.of(k - 1.0, (k - 1.0) * (n - 1.0)).survivalProbability(f);
        }
        return new BlockComparison(n, k, lowerIsBetter, ranks, average, chi2, chi2P, f, fP);
    }

    /** Nemenyi critical difference and CD-diagram cliques at level alpha for these average ranks. */
    public CriticalDifference nemenyi(double alpha) {
        return CriticalDifference.nemenyi(averageRanks, blocks, alpha);
    }

    @Override
    public double[][] ranks() {
        return deepCopy(ranks);
    }

    @Override
    public double[] averageRanks() {
        return averageRanks.clone();
    }

    /** Rank of method {@code method} in block {@code block} (no copy). */
    public double rank(int block, int method) {
        return ranks[block][method];
    }

    /** Average rank of method {@code method} (no copy). */
    public double averageRank(int method) {
        return averageRanks[method];
    }

    private static double[][] deepCopy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
