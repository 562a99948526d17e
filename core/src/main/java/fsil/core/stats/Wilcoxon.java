package fsil.core.stats;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * Two-sided Wilcoxon signed-rank test on paired values, reproducing {@code scipy.stats.wilcoxon} of scipy 1.10
 * ({@code alternative='two-sided'}): statistic, p-value, method choice and zero handling all follow
 * {@code scipy/stats/_morestats.py} of that release. The differences are d = x - y, computed in double exactly as
 * numpy does; ties and zeros are exact {@code ==} comparisons.
 *
 * <p>Conventions taken from scipy 1.10:
 * <ul>
 *   <li>Statistic: T = min(W+, W-), W+ (W-) the sum of the ranks of |d| over positive (negative) d. With
 *       {@link ZeroMethod#ZSPLIT} half the rank sum of the zeros is added to each of W+ and W-.</li>
 *   <li>{@link Method#AUTO}: exact when there are at most {@value #AUTO_EXACT_MAX_N} differences (zeros counted),
 *       none of them zero and no two |d| tied; otherwise the normal approximation. scipy 1.10 decides on n and
 *       zeros only, so this is the one deliberate difference: on tied data without zeros (n &lt;= 50) scipy 1.10
 *       evaluates the untied exact table at int(W+), a value that is not a valid p-value under ties and even
 *       changes when x and y are swapped (d = [1, -1, 2, 3, 4, 5, 6, 7] gives 0.0234375, -d gives 0.015625);
 *       here those cases get the tie-corrected approximation, which is what scipy gives for method='approx'.</li>
 *   <li>{@link Method#EXACT} with a zero difference falls back to the approximation, as scipy does (with a warning
 *       there). With ties it reproduces scipy 1.10 literally, int(W+) included ({@link Result#tiedRanks()} flags
 *       it). The exact p-value is 2 min(P(W+ &lt;= w), P(W+ &gt;= w)), capped at 1, and exactly 1 when w is the
 *       lower centre floor(n(n+1)/4) of the distribution.</li>
 *   <li>Approximation: mean n(n+1)/4 and variance [n(n+1)(2n+1) - sum t(t^2-1)/2]/24 over the n ranked
 *       differences, t the sizes of groups of tied |d|; {@link ZeroMethod#WILCOX} first drops the zeros,
 *       {@link ZeroMethod#PRATT} ranks them and then subtracts their n0(n0+1)/4 from the mean and
 *       n0(n0+1)(2n0+1)/24 from the variance (Cureton 1967), {@link ZeroMethod#ZSPLIT} keeps them in both.
 *       z = (T - mean - c)/sd with continuity correction c = 0.5 sign(T - mean) when requested, else 0;
 *       p = 2 P(Z &gt; |z|).</li>
 *   <li>WILCOX and PRATT with every difference zero are undefined in the approximation: scipy raises, so this
 *       class throws {@link IllegalArgumentException}. ZSPLIT then gives T = mean, z = 0, p = 1.</li>
 * </ul>
 * Deliberate differences: an empty input throws instead of returning NaN; {@link Result#z()} is reported whenever
 * the approximation was used (scipy only exposes {@code zstatistic} when {@code method='approx'} was requested),
 * and is NaN for the exact method; scipy's warning for fewer than 10 ranked differences is not reproduced.
 */
public final class Wilcoxon {
    /** scipy 1.10's 'auto' threshold: exact for {@code len(d) <= 50}. */
    public static final int AUTO_EXACT_MAX_N = 50;
    /** Largest n for which {@link Method#EXACT} is computed: the null distribution costs O(n^3) operations. */
    public static final int EXACT_MAX_N = 1000;

    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0.0, 1.0);

    /** How zero differences are treated (scipy's {@code zero_method}). */
    public enum ZeroMethod {
        /** Drop zero differences before ranking (scipy's default, Wilcoxon 1945). */
        WILCOX,
        /** Rank zeros with the others, then drop their ranks (Pratt 1959). */
        PRATT,
        /** Rank zeros and split their rank sum equally between W+ and W-. */
        ZSPLIT
    }

    /** How the p-value is computed (scipy's {@code method}). */
    public enum Method {
        /** Exact if n &lt;= 50 with no zero and no tied |d|, otherwise approximate (see the class notes). */
        AUTO,
        /** Exact null distribution of W+ (falls back to APPROX when a difference is zero). */
        EXACT,
        /** Normal approximation with tie and zero corrections. */
        APPROX
    }

    /**
     * Outcome of the two-sided test.
     *
     * @param statistic  scipy's two-sided statistic T = min(W+, W-)
     * @param wPlus      sum of ranks of positive differences (plus half the zero ranks for ZSPLIT)
     * @param wMinus     sum of ranks of negative differences (plus half the zero ranks for ZSPLIT)
     * @param pValue     two-sided p-value in [0, 1]
     * @param z          normal-approximation z = (T - mean - c)/sd (at most 0 without correction); NaN if exact
     * @param method     the method actually used: {@link Method#EXACT} or {@link Method#APPROX}, never AUTO
     * @param nRanked    number of ranked differences (n minus the zeros for WILCOX in the approximation)
     * @param nZero      number of zero differences in the input
     * @param tiedRanks  whether some non-zero |d| are tied (an EXACT p-value is then scipy 1.10's truncated one)
     */
    public record Result(double statistic, double wPlus, double wMinus, double pValue, double z, Method method,
                         int nRanked, int nZero, boolean tiedRanks) {
    }

    private Wilcoxon() {
    }

    /** scipy's defaults: zero_method 'wilcox', method 'auto', no continuity correction. */
    public static Result test(double[] x, double[] y) {
        return test(x, y, ZeroMethod.WILCOX, Method.AUTO, false);
    }

    /** Test on d = x - y; x and y must have the same non-zero length and finite values. */
    public static Result test(double[] x, double[] y, ZeroMethod zeroMethod, Method method, boolean correction) {
        Checks.paired(x, y);
        double[] d = new double[x.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = x[i] - y[i];
        }
        return testDifferences(d, zeroMethod, method, correction);
    }

    /** Test on given differences d (scipy's one-sample form {@code wilcoxon(d)}). */
    public static Result testDifferences(double[] d, ZeroMethod zeroMethod, Method method, boolean correction) {
        Checks.nonEmptyFinite("d", d);
        if (zeroMethod == null || method == null) {
            throw new IllegalArgumentException("zeroMethod and method must not be null");
        }
        int n = d.length;
        int nZero = 0;
        for (double v : d) {
            if (v == 0.0) {
                nZero++;
            }
        }
        double[] nonZeroAbs = new double[n - nZero];
        for (int i = 0, j = 0; i < n; i++) {
            if (d[i] != 0.0) {
                nonZeroAbs[j++] = Math.abs(d[i]);
            }
        }
        boolean tied = Ranks.tieTerm(nonZeroAbs) > 0.0;
        Method used = method;
        if (method == Method.AUTO) {
            used = n <= AUTO_EXACT_MAX_N && !tied ? Method.EXACT : Method.APPROX;
        }
        if (nZero > 0 && used == Method.EXACT) {
            used = Method.APPROX;
        }
        if (used == Method.APPROX && nZero == n && zeroMethod != ZeroMethod.ZSPLIT) {
            throw new IllegalArgumentException("all " + n + " differences are zero: zero method " + zeroMethod
                    + " is undefined (use ZSPLIT)");
        }
        if (used == Method.EXACT && n > EXACT_MAX_N) {
            throw new IllegalArgumentException("exact signed-rank distribution supported up to n = " + EXACT_MAX_N
                    + ", got " + n + " (use APPROX)");
        }

        double[] kept = d;
        if (used == Method.APPROX && zeroMethod == ZeroMethod.WILCOX && nZero > 0) {
            kept = new double[n - nZero];
            int j = 0;
            for (double v : d) {
                if (v != 0.0) {
                    kept[j++] = v;
                }
            }
        }
        int count = kept.length;
        double[] abs = new double[count];
        for (int i = 0; i < count; i++) {
            abs[i] = Math.abs(kept[i]);
        }
        double[] r = Ranks.ascending(abs);
        double wPlus = 0.0;
        double wMinus = 0.0;
        double rZero = 0.0;
        for (int i = 0; i < count; i++) {
            if (kept[i] > 0) {
                wPlus += r[i];
            } else if (kept[i] < 0) {
                wMinus += r[i];
            } else {
                rZero += r[i];
            }
        }
        if (zeroMethod == ZeroMethod.ZSPLIT) {
            wPlus += rZero / 2.0;
            wMinus += rZero / 2.0;
        }
        double t = Math.min(wPlus, wMinus);

        if (used == Method.EXACT) {
            return new Result(t, wPlus, wMinus, exactTwoSided(wPlus, count), Double.NaN, Method.EXACT, count, nZero,
                    tied);
        }

        double mean = count * (count + 1.0) * 0.25;
        double var = count * (count + 1.0) * (2.0 * count + 1.0);
        // scipy's replist/repnum step: ties among the ranks entering the variance (PRATT leaves the zeros out).
        // Ties among ranks are ties among |d|, so the term is taken on the values themselves.
        double[] tiedValues = abs;
        if (zeroMethod == ZeroMethod.PRATT) {
            mean -= nZero * (nZero + 1.0) * 0.25;
            var -= nZero * (nZero + 1.0) * (2.0 * nZero + 1.0);
            tiedValues = nonZeroAbs;
        }
        var -= 0.5 * Ranks.tieTerm(tiedValues);
        double sd = Math.sqrt(var / 24.0);
        double c = correction ? 0.5 * Math.signum(t - mean) : 0.0;
        double z = (t - mean - c) / sd;
        double p = 2.0 * STANDARD_NORMAL.survivalProbability(Math.abs(z));
        return new Result(t, wPlus, wMinus, Math.min(1.0, p), z, Method.APPROX, count, nZero, tied);
    }

    /**
     * Exact null distribution of W+ for n untied, non-zero differences: element w is P(W+ = w), w = 0 .. n(n+1)/2.
     * Built by the recurrence of scipy's {@code _get_wilcoxon_distr}: adding rank k either leaves W+ or adds k,
     * each with probability 1/2. Every entry is a multiple of 2^-n, so the table is exact in double up to n = 53.
     */
    public static double[] nullDistribution(int n) {
        if (n < 0 || n > EXACT_MAX_N) {
            throw new IllegalArgumentException("n must be in [0, " + EXACT_MAX_N + "], got " + n);
        }
        int total = n * (n + 1) / 2;
        double[] c = new double[total + 1];
        c[0] = 1.0;
        int top = 0;
        for (int k = 1; k <= n; k++) {
            top += k;
            for (int s = top; s >= 0; s--) {
                double stay = c[s] * 0.5;
                double moved = s >= k ? c[s - k] * 0.5 : 0.0;
                c[s] = stay + moved;
            }
        }
        return c;
    }

    /** scipy 1.10's exact two-sided p-value, including its int() truncation of a non-integer W+. */
    private static double exactTwoSided(double wPlus, int n) {
        double[] pmf = nullDistribution(n);
        int w = (int) wPlus;
        int total = pmf.length - 1;
        if (w == total / 2) {
            return 1.0;
        }
        double less = 0.0;
        for (int i = 0; i <= w; i++) {
            less += pmf[i];
        }
        double greater = 0.0;
        for (int i = w; i <= total; i++) {
            greater += pmf[i];
        }
        return Math.max(0.0, Math.min(1.0, 2.0 * Math.min(less, greater)));
    }
}
