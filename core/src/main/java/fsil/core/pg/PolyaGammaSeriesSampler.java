package fsil.core.pg;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Approximate PG(1, c) sampler from the truncated infinite-sum representation
 * omega = (1/(2 pi^2)) sum_{k=1}^{K} g_k / ((k - 1/2)^2 + c^2/(4 pi^2)), g_k ~ Exp(1) = Gamma(1, 1), plus the
 * expected value of the omitted tail, sum_{k&gt;K} 1/((k-1/2)^2 + a^2) ~ atan(a/K)/a (midpoint rule, error
 * O(K^-3)), so the mean is right to O(K^-3) and only the tail's variance, about 1/(12 pi^4 K^3), is missing.
 *
 * <p>A reference, not a production sampler: it is K times slower than {@link PolyaGammaSampler} and
 * approximate. The tests use it for a two-sample Kolmogorov-Smirnov check and the benchmark as the baseline.
 */
public final class PolyaGammaSeriesSampler {
    private static final double TWO_PI2 = 2.0 * Math.PI * Math.PI;
    private static final double FOUR_PI2 = 4.0 * Math.PI * Math.PI;
    private final ContinuousSampler exponential;
    private final int terms;

    public PolyaGammaSeriesSampler(UniformRandomProvider rng, int terms) {
        if (terms < 1) {
            throw new IllegalArgumentException("terms must be >= 1, got " + terms);
        }
        this.exponential = ZigguratSampler.Exponential.of(rng);
        this.terms = terms;
    }

    /** One approximate draw of PG(1, c). */
    public double sample(double c) {
        double a2 = c * c / FOUR_PI2;
        double s = 0;
        for (int k = 1; k <= terms; k++) {
            double h = k - 0.5;
            s += exponential.sample() / (h * h + a2);
        }
        double a = Math.sqrt(a2);
        double tail = a == 0 ? 1.0 / terms : Math.atan(a / terms) / a;
        return (s + tail) / TWO_PI2;
    }
}
