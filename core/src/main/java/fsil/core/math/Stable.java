package fsil.core.math;

/**
 * Numerically stable scalar special functions used by the Gaussian-process, Polya-Gamma and variational code.
 *
 * <p>Every function is accurate to a few ulps over the whole double range, including the arguments where the
 * textbook formula overflows ({@code log(1 + e^x)} at x = 1000), underflows to a wrong 0 ({@code log sigmoid(-1000)})
 * or cancels catastrophically ({@code log cosh(1e-10)}, {@code tanh(c/2)/(2c)} at c = 0). The unit tests check
 * each one against 60-digit reference values.
 */
public final class Stable {
    /** ln 2. */
    public static final double LN_2 = 0.6931471805599453;

    private Stable() {
    }

    /** The logistic function 1 / (1 + e^-x), without overflow for any x; exactly 0 or 1 only when it rounds so. */
    public static double sigmoid(double x) {
        if (x >= 0) {
            return 1.0 / (1.0 + Math.exp(-x));
        }
        double e = Math.exp(x);
        return e / (1.0 + e);
    }

    /**
     * log(1 + e^x) (softplus), also called log1pexp: max(x, 0) + log1p(e^{-|x|}). Equals x for large x and e^x
     * (not 0) for very negative x.
     */
    public static double softplus(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        return Math.max(x, 0.0) + Math.log1p(Math.exp(-Math.abs(x)));
    }

    /** Alias of {@link #softplus(double)}: log(1 + e^x). */
    public static double log1pexp(double x) {
        return softplus(x);
    }

    /** log sigmoid(x) = -softplus(-x); equals x (not -inf) for very negative x. */
    public static double logSigmoid(double x) {
        return -softplus(-x);
    }

    /**
     * log(1 - e^{-a}) for a &gt; 0 (Maechler 2012: log(-expm1(-a)) for a &lt;= ln 2, log1p(-e^{-a}) otherwise).
     * Returns -inf at a = 0 and NaN for a &lt; 0.
     */
    public static double log1mexp(double a) {
        if (a < 0 || Double.isNaN(a)) {
            return Double.NaN;
        }
        return a <= LN_2 ? Math.log(-Math.expm1(-a)) : Math.log1p(-Math.exp(-a));
    }

    /**
     * log cosh(x) without overflow or cancellation: log1p(2 sinh^2(x/2)) for |x| &lt; 1 (no cancellation near 0,
     * where it equals x^2/2), and |x| + log1p(e^{-2|x|}) - ln 2 otherwise (no overflow for large |x|).
     */
    public static double logCosh(double x) {
        double a = Math.abs(x);
        if (a < 1.0) {
            double s = Math.sinh(0.5 * a);
            return Math.log1p(2.0 * s * s);
        }
        return a + Math.log1p(Math.exp(-2.0 * a)) - LN_2;
    }

    /**
     * tanh(c/2) / (2c), the mean of PG(1, c); even in c, equal to 1/4 at c = 0. Near 0 the Taylor series
     * 1/4 (1 - x^2/3 + 2x^4/15 - 17x^6/315) with x = c/2 replaces the 0/0 form; for large |c| it is 1/(2|c|).
     */
    public static double tanhHalfOver2c(double c) {
        double x = 0.5 * Math.abs(c);
        if (x < 1e-3) {
            double x2 = x * x;
            return 0.25 * (1.0 - x2 * (1.0 / 3.0 - x2 * (2.0 / 15.0 - x2 * (17.0 / 315.0))));
        }
        return 0.25 * Math.tanh(x) / x;
    }

    /** log(e^a + e^b) without overflow; -inf if both are -inf. */
    public static double logAddExp(double a, double b) {
        double m = Math.max(a, b);
        if (m == Double.NEGATIVE_INFINITY || m == Double.POSITIVE_INFINITY) {
            return m;
        }
        return m + Math.log1p(Math.exp(-Math.abs(a - b)));
    }

    /** x log x with the continuous extension 0 at x = 0 (entropy and Poisson-KL terms); NaN for x &lt; 0. */
    public static double xLogX(double x) {
        if (x == 0) {
            return 0;
        }
        return x < 0 ? Double.NaN : x * Math.log(x);
    }

    /** log(p / (1 - p)), the inverse of {@link #sigmoid(double)}, accurate for p near 0 and near 1. */
    public static double logit(double p) {
        if (p < 0 || p > 1 || Double.isNaN(p)) {
            return Double.NaN;
        }
        return p < 0.5 ? Math.log(p) - Math.log1p(-p) : Math.log(p / (1 - p));
    }
}
