package fsil.eval.metrics;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Mean of per-unit values with both 95% intervals used in the literature: the normal one 1.96 * std / sqrt(n)
 * with the population std (ddof 0, the CloserLook/DKT convention) and the Student-t one t_{0.975, n-1} * SEM
 * with SEM from the sample std (ddof 1, the LibFewShot convention).
 *
 * @param mean  mean
 * @param std   population standard deviation (ddof 0)
 * @param ci95  1.96 * std / sqrt(n)
 * @param ci95t t_{0.975, n-1} * std_(ddof 1) / sqrt(n) (NaN for n &lt; 2)
 * @param n     number of values
 */
public record MeanCi(double mean, double std, double ci95, double ci95t, int n) {

    /**
     * From moments (count, sum, sum of squares; one pass, for measurements such as times, where the last digits
     * of a two-pass mean do not matter).
     */
    public static MeanCi ofMoments(long n, double sum, double sumSquares) {
        if (n == 0) {
            return new MeanCi(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double mean = sum / n;
        double ss = Math.max(0, sumSquares - n * mean * mean);
        double std = Math.sqrt(ss / n);
        double cit = n >= 2 ? TDistribution.of(n - 1).inverseCumulativeProbability(0.975) * Math.sqrt(ss / (n - 1))
                / Math.sqrt(n) : Double.NaN;
        return new MeanCi(mean, std, 1.96 * std / Math.sqrt(n), cit, (int) n);
    }

    public static MeanCi of(double[] values) {
        return of(DoubleSource.of(values));
    }

    /**
     * Two passes over the values (the mean, then the squared deviations from it), each adding in the source's
     * order: the same doubles as over an array of the values, without holding them.
     */
    public static MeanCi of(DoubleSource values) {
        long[] count = {0};
        double[] sum = {0};
        values.forEach(v -> {
            count[0]++;
            sum[0] += v;
        });
        long n = count[0];
        if (n == 0) {
            return new MeanCi(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double mean = sum[0] / n;
        double[] ss = {0};
        values.forEach(v -> ss[0] += (v - mean) * (v - mean));
        double std = Math.sqrt(ss[0] / n);
        double ci = 1.96 * std / Math.sqrt(n);
        double cit = Double.NaN;
        if (n >= 2) {
            double sem = Math.sqrt(ss[0] / (n - 1)) / Math.sqrt(n);
            cit = TDistribution.of(n - 1).inverseCumulativeProbability(0.975) * sem;
        }
        return new MeanCi(mean, std, ci, cit, Math.toIntExact(n));
    }
}
