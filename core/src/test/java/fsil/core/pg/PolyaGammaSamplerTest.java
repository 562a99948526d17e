package fsil.core.pg;

import fsil.core.random.RandomStreams;
import fsil.core.testing.KolmogorovSmirnov;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statistical tests of the exact PG sampler with fixed seeds. Tolerances come from the sample size: 5 standard
 * errors for means and variances (the standard error of the sample variance uses the fourth cumulant from the
 * series representation), p &gt; 1e-3 for Kolmogorov-Smirnov tests. Each test also shows it can fail: the same
 * statistic rejects a slightly wrong distribution.
 */
class PolyaGammaSamplerTest {
    private static final double[] C_GRID = {0, 0.1, 1, 2.5, 10, 50, -3};

    private static double[] draws(long seed, int n, double c) {
        PolyaGammaSampler s = new PolyaGammaSampler(RandomStreams.create(seed));
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = s.sample(c);
        }
        return out;
    }

    private static double[] meanVar(double[] x) {
        double m = 0;
        for (double v : x) {
            m += v;
        }
        m /= x.length;
        double s2 = 0;
        for (double v : x) {
            s2 += (v - m) * (v - m);
        }
        return new double[]{m, s2 / (x.length - 1)};
    }

    @Test
    void meanAndVarianceMatchClosedFormsOverAGridOfC() {
        int n = 200_000;
        for (int i = 0; i < C_GRID.length; i++) {
            double c = C_GRID[i];
            double[] mv = meanVar(draws(100 + i, n, c));
            double mean = PolyaGamma.mean(1, c);
            double var = PolyaGamma.variance(1, c);
            double k4 = PolyaGammaTest.cumulant(c, 4);
            double seMean = Math.sqrt(var / n);
            double seVar = Math.sqrt((k4 + 2 * var * var) / n);
            assertEquals(mean, mv[0], 5 * seMean, "mean at c=" + c);
            assertEquals(var, mv[1], 5 * seVar, "variance at c=" + c);
            // power: a 2% error in the mean would be detected at this sample size
            assertTrue(0.02 * mean > 5 * seMean, "test too weak at c=" + c);
        }
    }

    @Test
    void integerBIsASumOfIndependentDraws() {
        int n = 100_000;
        PolyaGammaSampler s = new PolyaGammaSampler(RandomStreams.create(7));
        for (int b : new int[]{2, 3, 10}) {
            for (double c : new double[]{0, 1.5, -8}) {
                double[] x = new double[n];
                for (int i = 0; i < n; i++) {
                    x[i] = s.sample(b, c);
                }
                double[] mv = meanVar(x);
                double var = PolyaGamma.variance(b, c);
                double k4 = b * PolyaGammaTest.cumulant(c, 4);
                assertEquals(PolyaGamma.mean(b, c), mv[0], 5 * Math.sqrt(var / n), "mean b=" + b + " c=" + c);
                assertEquals(var, mv[1], 5 * Math.sqrt((k4 + 2 * var * var) / n), "var b=" + b + " c=" + c);
            }
        }
        assertEquals(0.0, s.sample(0, 3.0), 0);
        assertThrows(IllegalArgumentException.class, () -> s.sample(-1, 1.0));
    }

    @Test
    void kolmogorovSmirnovAgainstTheExactCdf() {
        int n = 20_000;
        for (int i = 0; i < C_GRID.length; i++) {
            double c = C_GRID[i];
            double[] x = draws(200 + i, n, c);
            double d = KolmogorovSmirnov.statistic(x, w -> PolyaGamma.cdf(c, w));
            double p = KolmogorovSmirnov.pValue(d, n);
            assertTrue(p > 1e-3, "KS against the exact CDF at c=" + c + ": D=" + d + ", p=" + p);
            // power: the same draws against the CDF of a nearby tilt are rejected
            double wrong = Math.abs(c) * 1.2 + 1.0;
            double dWrong = KolmogorovSmirnov.statistic(x, w -> PolyaGamma.cdf(wrong, w));
            assertTrue(KolmogorovSmirnov.pValue(dWrong, n) < 1e-6, "KS must reject c'=" + wrong + " for c=" + c);
        }
    }

    @Test
    void kolmogorovSmirnovAgainstTheTruncatedSeries() {
        int n = 20_000;
        for (double c : new double[]{0, 1, -3, 10}) {
            double[] exact = draws(300, n, c);
            PolyaGammaSeriesSampler series = new PolyaGammaSeriesSampler(RandomStreams.create(301), 200);
            double[] approx = new double[n];
            for (int i = 0; i < n; i++) {
                approx[i] = series.sample(c);
            }
            double d = KolmogorovSmirnov.statistic(exact, approx);
            double p = KolmogorovSmirnov.pValue(d, n, n);
            assertTrue(p > 1e-3, "two-sample KS against the 200-term series at c=" + c + ": D=" + d + ", p=" + p);
            // the series sampler itself matches the exact CDF (so the reference is sound)
            double ds = KolmogorovSmirnov.statistic(approx, w -> PolyaGamma.cdf(c, w));
            assertTrue(KolmogorovSmirnov.pValue(ds, n) > 1e-3, "series sampler vs exact CDF at c=" + c);
            // power: scaling the exact draws by 8% is detected
            double[] scaled = exact.clone();
            for (int i = 0; i < n; i++) {
                scaled[i] *= 1.08;
            }
            assertTrue(KolmogorovSmirnov.pValue(KolmogorovSmirnov.statistic(scaled, approx), n, n) < 1e-3);
        }
    }

    @Test
    void tiltingIdentityAndLaplaceTransform() {
        // exponential tilting (Polson, Scott and Windle 2013): PG(1, c) is proportional to exp(-c^2 w / 2) PG(1, 0).
        // With w_i ~ PG(1, 0):
        // E0[exp(-c^2 w/2)] = 1/cosh(c/2) and cosh(c/2) E0[w exp(-c^2 w/2)] = E_c[w] = tanh(c/2)/(2c)
        int n = 200_000;
        double[] w = draws(400, n, 0);
        for (double c : new double[]{0.5, 2, 4}) {
            double sw = 0;
            double swx = 0;
            double sw2 = 0;
            double swx2 = 0;
            for (double v : w) {
                double e = Math.exp(-0.5 * c * c * v);
                sw += e;
                sw2 += e * e;
                swx += e * v;
                swx2 += e * v * e * v;
            }
            double lt = sw / n;
            double seLt = Math.sqrt((sw2 / n - lt * lt) / n);
            assertEquals(1 / Math.cosh(c / 2), lt, 5 * seLt, "Laplace transform at c=" + c);
            double m = swx / n;
            double seM = Math.sqrt((swx2 / n - m * m) / n);
            assertEquals(PolyaGamma.mean(1, c), Math.cosh(c / 2) * m, 5 * Math.cosh(c / 2) * seM, "tilted mean c=" + c);
        }
    }

    @Test
    void deterministicForASeedAndValidatesInput() {
        double[] c = {0, 0.3, -2, 15, 1e-9, 700};
        double[] a = new double[c.length];
        double[] b = new double[c.length];
        new PolyaGammaSampler(RandomStreams.create(9)).sample(c, a);
        new PolyaGammaSampler(RandomStreams.create(9)).sample(c, b);
        assertArrayEquals(a, b, 0);
        for (double v : a) {
            assertTrue(v > 0 && Double.isFinite(v));
        }
        UniformRandomProvider rng = RandomStreams.create(1);
        PolyaGammaSampler s = new PolyaGammaSampler(rng);
        assertThrows(IllegalArgumentException.class, () -> s.sample(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> s.sample(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> s.sample(new double[2], new double[3]));
        // extreme tilts stay finite and positive, near the mean 1/(2|c|)
        double big = s.sample(1e8);
        assertTrue(big > 0 && big < 1e-7, "PG(1, 1e8) draw " + big);
    }
}
