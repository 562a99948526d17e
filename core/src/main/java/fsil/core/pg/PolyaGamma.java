package fsil.core.pg;

import fsil.core.math.Stable;
import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.numbers.gamma.Erfcx;

/**
 * Closed forms of the Polya-Gamma distribution PG(b, c) (Polson, Scott and Windle 2013, JASA 108:1339):
 * moments for any b &gt; 0 and the exact CDF of PG(1, c). All are even in c and stable for c near 0 and for
 * large |c|. Samplers: {@link PolyaGammaSampler} (exact) and {@link PolyaGammaSeriesSampler} (truncated series).
 *
 * <p>Definition used throughout: omega ~ PG(b, c) has Laplace transform E[e^{-t omega}] =
 * cosh^b(c/2) / cosh^b(sqrt(c^2/4 + t/2)); equivalently omega = (1/(2 pi^2)) sum_k g_k / ((k - 1/2)^2 + c^2/(4 pi^2))
 * with g_k ~ Gamma(b, 1) independent. PG(1, c) = J*(1, c/2) / 4 where J* is Devroye's Jacobi-type variable with
 * density cosh(z) e^{-z^2 x/2} sum_n (-1)^n a_n(x).
 */
public final class PolyaGamma {
    private PolyaGamma() {
    }

    /** E[omega] = b tanh(c/2) / (2c); b/4 at c = 0 (series near 0, see {@link Stable#tanhHalfOver2c}). */
    public static double mean(double b, double c) {
        return b * Stable.tanhHalfOver2c(c);
    }

    /**
     * Var[omega] = b (sinh c - c) / (4 c^3 cosh^2(c/2)); b/24 at c = 0. For |c| &lt;= 1 the Taylor series of
     * (sinh c - c)/c^3 avoids the cancellation; for |c| &gt; 1 the form b (1 - e^{-2|c|} - 2|c| e^{-|c|}) /
     * (2 |c|^3 (1 + e^{-|c|})^2) avoids the overflow of sinh and cosh.
     */
    public static double variance(double b, double c) {
        double a = Math.abs(c);
        if (a <= 1.0) {
            // (sinh a - a)/a^3 = sum_{k>=1} a^{2k-2} / (2k+1)!
            double a2 = a * a;
            double term = 1.0 / 6.0;
            double s = term;
            for (int k = 2; k <= 10; k++) {
                term *= a2 / ((2.0 * k) * (2.0 * k + 1.0));
                s += term;
            }
            double ch = Math.cosh(0.5 * a);
            return b * s / (4.0 * ch * ch);
        }
        double e = Math.exp(-a);
        double onePlusE = 1.0 + e;
        return b * (-Math.expm1(-2.0 * a) - 2.0 * a * e) / (2.0 * a * a * a * onePlusE * onePlusE);
    }

    /**
     * P(omega &lt;= w) for omega ~ PG(1, c), exact up to round-off (about 1e-15 absolute). With x = 4w and
     * z = |c|/2 (omega = J*(1, z)/4) it sums one of two alternating series of the Jacobi theta type, each where it
     * converges fast:
     * <ul>
     *   <li>x &lt;= 1: F = sum_n (-1)^n [cosh z e^{-mz} erfc((m - zx)/sqrt(2x)) + cosh z e^{-z^2x/2 - m^2/(2x)}
     *   erfcx((zx + m)/sqrt(2x))], m = 2n + 1 (each term is the tilted inverse-Gaussian CDF of the left-hand
     *   density series);</li>
     *   <li>x &gt; 1: F = 1 - sum_n (-1)^n cosh z pi (n + 1/2) e^{-l_n x} / l_n, l_n = ((n+1/2)^2 pi^2 + z^2)/2
     *   (the integrated right-hand series).</li>
     * </ul>
     */
    public static double cdf(double c, double w) {
        if (Double.isNaN(w) || Double.isNaN(c)) {
            return Double.NaN;
        }
        if (w <= 0) {
            return 0.0;
        }
        if (w == Double.POSITIVE_INFINITY) {
            return 1.0;
        }
        double x = 4.0 * w;
        double z = 0.5 * Math.abs(c);
        double f = x <= 1.0 ? cdfLeftSeries(z, x) : 1.0 - survivalRightSeries(z, x);
        return Math.min(1.0, Math.max(0.0, f));
    }

    /** F(x) of J*(1, z) by the small-x series (package-private so tests can compare both series). */
    static double cdfLeftSeries(double z, double x) {
        double logCoshZ = Stable.logCosh(z);
        double sqrt2x = Math.sqrt(2.0 * x);
        double s = 0;
        for (int n = 0; n < 200; n++) {
            double m = 2.0 * n + 1.0;
            double t1 = Math.exp(logCoshZ - m * z) * Erfc.value((m - z * x) / sqrt2x);
            double t2 = Erfcx.value((z * x + m) / sqrt2x) * Math.exp(logCoshZ - 0.5 * z * z * x - m * m / (2.0 * x));
            double term = t1 + t2;
            s += (n % 2 == 0) ? term : -term;
            if (term < 1e-18) {
                break;
            }
        }
        return s;
    }

    /** 1 - F(x) of J*(1, z) by the large-x series. */
    static double survivalRightSeries(double z, double x) {
        double logCoshZ = Stable.logCosh(z);
        double s = 0;
        for (int n = 0; n < 10000; n++) {
            double h = n + 0.5;
            double lambda = 0.5 * (h * h * Math.PI * Math.PI + z * z);
            double term = Math.PI * h / lambda * Math.exp(logCoshZ - lambda * x);
            s += (n % 2 == 0) ? term : -term;
            if (term < 1e-18) {
                break;
            }
        }
        return s;
    }
}
