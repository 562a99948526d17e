package fsil.core.pg;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.numbers.gamma.Erfcx;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact sampler for the Polya-Gamma distribution PG(b, c), integer b &gt;= 0, written from the description in
 * Polson, Scott and Windle (2013, JASA 108:1339, section 4 "Simulating Polya-Gamma random variables"), which adapts
 * Devroye's (2009) alternating-series method for Jacobi-type distributions. No code from the GPL implementations
 * (BayesLogit, pypolyagamma) was read or used.
 *
 * <p>PG(1, c) = J*(1, z)/4 with z = |c|/2, where J*(1, z) has density cosh(z) e^{-z^2 x/2} sum_{n&gt;=0}
 * (-1)^n a_n(x) with two equivalent coefficient sequences
 * <ul>
 *   <li>a_n(x) = pi (n+1/2) (2/(pi x))^{3/2} exp(-2 (n+1/2)^2 / x), used for x &lt;= t;</li>
 *   <li>a_n(x) = pi (n+1/2) exp(-(n+1/2)^2 pi^2 x / 2), used for x &gt; t,</li>
 * </ul>
 * and t = 0.64 (the paper's choice, inside the range where both sequences decrease in n, so the partial sums
 * bracket the density). One draw:
 * <ol>
 *   <li>propose from g(x) proportional to e^{-z^2 x/2} a_0(x): with probability p/(p+q) an exponential with rate
 *   K = pi^2/8 + z^2/2 shifted to x &gt; t (mass p = pi/(2K) e^{-Kt}), otherwise an inverse Gaussian
 *   IG(1/z, 1) truncated to (0, t) (mass q = 2 e^{-z} P_IG(X &lt; t)); q uses erfc/erfcx so neither e^{z} nor
 *   e^{-z} over- or underflows, and the mixture probability is computed in log space;</li>
 *   <li>accept if U &lt;= sum_n (-1)^n a_n(X)/a_0(X), deciding from the alternating partial sums (the series is
 *   evaluated only as far as needed; a_n/a_0 = (2n+1) exp(-2n(n+1)/x) or (2n+1) exp(-n(n+1) pi^2 x/2)).</li>
 * </ol>
 * The truncated inverse Gaussian: for z &lt; 1/t the Levy proposal X = t/(1 + tE)^2 (E from Devroye's exponential
 * normal-tail method, accepting E^2 &lt;= 2E'/t) accepted with probability e^{-z^2 X/2}; for z &gt;= 1/t an
 * untruncated IG draw (Michael, Schucany and Haas 1976, in a cancellation-free form) repeated until X &lt; t.
 * Overall acceptance is above 99.9% for every c (paper, section 4.3).
 *
 * <p>Integer b: a sum of b independent PG(1, c) draws (cost proportional to b). Not thread-safe (it owns the
 * generator's state); use one sampler per stream. The same generator state gives bit-identical draws.
 */
public final class PolyaGammaSampler {
    /** The truncation point t of the paper. */
    static final double T = 0.64;
    private static final double PI2_OVER_8 = Math.PI * Math.PI / 8.0;
    private static final double HALF_PI2 = Math.PI * Math.PI / 2.0;
    private static final double SQRT_2T = Math.sqrt(2.0 * T);
    private static final double INV_2T = 1.0 / (2.0 * T);
    private static final double LOG_HALF_PI = Math.log(Math.PI / 2.0);

    private final UniformRandomProvider rng;
    private final ContinuousSampler exponential;
    private final ContinuousSampler gaussian;

    // proposal constants of the last z (recomputed only when z changes: sums and repeated tilts are cheap)
    private double cachedZ = Double.NaN;
    private double cachedK;
    private double cachedProbRight;

    public PolyaGammaSampler(UniformRandomProvider rng) {
        this.rng = rng;
        this.exponential = ZigguratSampler.Exponential.of(rng);
        this.gaussian = ZigguratSampler.NormalizedGaussian.of(rng);
    }

    /** One draw of PG(1, c). */
    public double sample(double c) {
        prepare(c);
        return 0.25 * drawJStar();
    }

    /** One draw of PG(b, c), b &gt;= 0 (PG(0, c) is the point mass at 0): the sum of b PG(1, c) draws. */
    public double sample(int b, double c) {
        if (b < 0) {
            throw new IllegalArgumentException("PG shape b must be >= 0, got " + b);
        }
        prepare(c);
        double s = 0;
        for (int i = 0; i < b; i++) {
            s += drawJStar();
        }
        return 0.25 * s;
    }

    /** out[i] ~ PG(1, c[i]), drawn in index order; out may alias c. */
    public void sample(double[] c, double[] out) {
        if (out.length != c.length) {
            throw new IllegalArgumentException("c and out must have the same length, got " + c.length + " and " + out.length);
        }
        for (int i = 0; i < c.length; i++) {
            out[i] = sample(c[i]);
        }
    }

    /** out[i] ~ PG(b[i], c[i]), drawn in index order; out may alias c. */
    public void sample(int[] b, double[] c, double[] out) {
        if (out.length != c.length || b.length != c.length) {
            throw new IllegalArgumentException("b, c and out must have the same length, got "
                    + b.length + ", " + c.length + " and " + out.length);
        }
        for (int i = 0; i < c.length; i++) {
            out[i] = sample(b[i], c[i]);
        }
    }

    private void prepare(double c) {
        if (!Double.isFinite(c)) {
            throw new IllegalArgumentException("PG tilt c must be finite, got " + c);
        }
        double z = 0.5 * Math.abs(c);
        if (z == cachedZ) {
            return;
        }
        double k = PI2_OVER_8 + 0.5 * z * z;
        double logP = LOG_HALF_PI - Math.log(k) - k * T;
        // q = 2 e^{-z} Phi_IG(t | 1/z, 1) = e^{-z} [erfc((1 - tz)/sqrt(2t)) + erfcx((tz + 1)/sqrt(2t)) e^{z - tz^2/2 - 1/(2t)}]
        // (the exponent is <= 0 for all z, so nothing overflows; at z = 0 it is the Levy mass 2 erfc(1/sqrt(2t)))
        double logQ = -z + Math.log(Erfc.value((1.0 - T * z) / SQRT_2T)
                + Erfcx.value((T * z + 1.0) / SQRT_2T) * Math.exp(z - 0.5 * T * z * z - INV_2T));
        cachedZ = z;
        cachedK = k;
        cachedProbRight = 1.0 / (1.0 + Math.exp(logQ - logP));
    }

    /** One draw of J*(1, z) for the prepared z. */
    private double drawJStar() {
        final double z = cachedZ;
        while (true) {
            double x;
            if (rng.nextDouble() < cachedProbRight) {
                x = T + exponential.sample() / cachedK;
            } else {
                x = truncatedInverseGaussian(z);
            }
            // accept if U <= sum_n (-1)^n a_n(x) / a_0(x); partial sums S_1 <= S_3 <= ... <= f <= ... <= S_2 <= S_0 = 1
            double u = rng.nextDouble();
            double s = 1.0;
            boolean left = x <= T;
            for (int n = 1; ; n++) {
                double ratio = left
                        ? (2 * n + 1) * Math.exp(-2.0 * n * (n + 1) / x)
                        : (2 * n + 1) * Math.exp(-HALF_PI2 * n * (n + 1) * x);
                if ((n & 1) == 1) {
                    s -= ratio;
                    if (u <= s) {
                        return x;
                    }
                } else {
                    s += ratio;
                    if (u > s) {
                        break;
                    }
                }
            }
        }
    }

    /** IG(mu = 1/z, shape 1) truncated to (0, t). */
    private double truncatedInverseGaussian(double z) {
        if (z < 1.0 / T) {
            // Levy proposal truncated to (0, t): X = 1/N^2 with |N| > 1/sqrt(t), N from the exponential tail method
            while (true) {
                double e1;
                double e2;
                do {
                    e1 = exponential.sample();
                    e2 = exponential.sample();
                } while (e1 * e1 > 2.0 * e2 / T);
                double one = 1.0 + T * e1;
                double x = T / (one * one);
                if (z == 0.0 || rng.nextDouble() <= Math.exp(-0.5 * z * z * x)) {
                    return x;
                }
            }
        }
        double mu = 1.0 / z;
        while (true) {
            double n = gaussian.sample();
            double r = 0.5 * mu * n * n;
            // smaller root mu (1 + r - sqrt(r (2 + r))) written without cancellation
            double x = mu / (1.0 + r + Math.sqrt(r * (2.0 + r)));
            if (rng.nextDouble() > mu / (mu + x)) {
                x = mu * mu / x;
            }
            if (x < T) {
                return x;
            }
        }
    }
}
