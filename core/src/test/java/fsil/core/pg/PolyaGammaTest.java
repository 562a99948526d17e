package fsil.core.pg;

import fsil.core.testing.HighPrecision;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static fsil.core.testing.HighPrecision.add;
import static fsil.core.testing.HighPrecision.div;
import static fsil.core.testing.HighPrecision.expm1;
import static fsil.core.testing.HighPrecision.mul;
import static fsil.core.testing.HighPrecision.sub;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Closed-form moments and the exact CDF of PG(b, c). */
class PolyaGammaTest {

    /** sum_{k>=1} 1/((k-1/2)^2 + a^2)^r by direct summation to K plus the integral tail. */
    static double seriesSum(double a, int r) {
        int kmax = 200000;
        double s = 0;
        for (int k = kmax; k >= 1; k--) {
            double h = k - 0.5;
            s += Math.pow(h * h + a * a, -r);
        }
        // tail: int_K^inf x^{-2r} dx for large K (a << K)
        return s + Math.pow(kmax, 1 - 2 * r) / (2 * r - 1);
    }

    /** Cumulant r of PG(1, c) from the series: (r-1)! sum_k (2 pi^2 d_k)^{-r}. */
    static double cumulant(double c, int r) {
        double a = Math.abs(c) / (2 * Math.PI);
        double fact = 1;
        for (int i = 2; i < r; i++) {
            fact *= i;
        }
        return fact * seriesSum(a, r) / Math.pow(2 * Math.PI * Math.PI, r);
    }

    @Test
    void valuesFromTheSpec() {
        // the closed forms of Polson, Scott and Windle (JASA 2013): mean b tanh(c/2)/(2c),
        // variance b (sinh c - c) / (4 c^3 cosh^2(c/2)), evaluated in double precision and rounded
        assertEquals(0.244919, PolyaGamma.mean(1, 0.5), 5e-7);
        assertEquals(0.0396598, PolyaGamma.variance(1, 0.5), 5e-8);
        assertEquals(0.190399, PolyaGamma.mean(1, 2), 5e-7);
        assertEquals(0.0213512, PolyaGamma.variance(1, 2), 5e-8);
        assertEquals(0.0712984, PolyaGamma.mean(1, 7), 5e-8);
        assertEquals(0.00143649, PolyaGamma.variance(1, 7), 5e-9);
    }

    @Test
    void limitsAndSymmetry() {
        assertEquals(0.25, PolyaGamma.mean(1, 0), 0);
        assertEquals(3 / 4.0, PolyaGamma.mean(3, 0), 0);
        assertEquals(1 / 24.0, PolyaGamma.variance(1, 0), 1e-17);
        assertEquals(5 / 24.0, PolyaGamma.variance(5, 0), 1e-16);
        for (double c : new double[]{1e-300, 1e-8, 0.3, 1, 4, 60, 800}) {
            assertEquals(PolyaGamma.mean(1, c), PolyaGamma.mean(1, -c), 0);
            assertEquals(PolyaGamma.variance(1, c), PolyaGamma.variance(1, -c), 0);
            assertEquals(2 * PolyaGamma.variance(1, c), PolyaGamma.variance(2, c), 0);
        }
        // large |c|: mean -> 1/(2|c|), variance -> 1/(2|c|^3)
        assertEquals(1 / 2000.0, PolyaGamma.mean(1, 1000), 1e-18);
        assertEquals(1 / 2e9, PolyaGamma.variance(1, -1000), 1e-22);
        assertTrue(Double.isFinite(PolyaGamma.variance(1, 1e6)) && PolyaGamma.variance(1, 1e6) > 0);
    }

    @Test
    void varianceAgainstHighPrecision() {
        // (sinh c - c) / (4 c^3 cosh^2(c/2)) at 80 digits, sinh and cosh from expm1 (no cancellation)
        for (double c : new double[]{1e-8, 1e-3, 0.1, 0.5, 0.999999, 1.0, 1.000001, 1.5, 3, 10, 50, 300, 700}) {
            BigDecimal x = new BigDecimal(c);
            BigDecimal sinh = div(sub(expm1(x), expm1(x.negate())), BigDecimal.valueOf(2));
            BigDecimal half = x.multiply(new BigDecimal("0.5"));
            BigDecimal cosh = add(BigDecimal.ONE, div(add(expm1(half), expm1(half.negate())), BigDecimal.valueOf(2)));
            BigDecimal exact = div(sub(sinh, x), mul(mul(BigDecimal.valueOf(4), mul(x, mul(x, x))), mul(cosh, cosh)));
            double err = HighPrecision.relativeError(PolyaGamma.variance(1, c), exact);
            assertTrue(err < 1e-14, "variance at c=" + c + ": relative error " + err);
        }
    }

    @Test
    void momentsAgreeWithTheInfiniteSeries() {
        // E = (1/(2 pi^2)) sum 1/d_k, Var = (1/(4 pi^4)) sum 1/d_k^2 with d_k = (k-1/2)^2 + c^2/(4 pi^2)
        for (double c : new double[]{0, 0.1, 1, 2.5, 10, 50}) {
            assertEquals(cumulant(c, 1), PolyaGamma.mean(1, c), 1e-11);
            assertEquals(cumulant(c, 2), PolyaGamma.variance(1, c), 1e-12 * Math.max(1, PolyaGamma.variance(1, c)));
        }
    }

    @Test
    void cdfSeriesAgreeInTheirOverlap() {
        for (double z : new double[]{0, 0.05, 0.5, 1.25, 5, 25}) {
            for (double x : new double[]{0.2, 0.5, 0.8, 1, 1.5, 3}) {
                double left = PolyaGamma.cdfLeftSeries(z, x);
                double right = 1 - PolyaGamma.survivalRightSeries(z, x);
                assertEquals(left, right, 1e-13, "z=" + z + ", x=" + x);
            }
        }
    }

    @Test
    void cdfIsADistributionWithTheRightMean() {
        for (double c : new double[]{0, 1, -3, 10, 50}) {
            assertEquals(0.0, PolyaGamma.cdf(c, 0), 0);
            assertEquals(0.0, PolyaGamma.cdf(c, -1), 0);
            assertEquals(1.0, PolyaGamma.cdf(c, Double.POSITIVE_INFINITY), 0);
            // monotone, and E[omega] = int_0^inf (1 - F(w)) dw (Simpson on a fine grid up to the far tail)
            double mean = PolyaGamma.mean(1, c);
            double upper = 40 * mean + 10 * Math.sqrt(PolyaGamma.variance(1, c));
            int m = 20000;
            double h = upper / m;
            double s = 0;
            double prev = 0;
            for (int i = 0; i <= m; i++) {
                double f = PolyaGamma.cdf(c, i * h);
                assertTrue(f >= prev - 1e-15, "CDF must not decrease");
                prev = f;
                double wgt = (i == 0 || i == m) ? 1 : (i % 2 == 1 ? 4 : 2);
                s += wgt * (1 - f);
            }
            assertEquals(mean, s * h / 3, 1e-9 * mean, "mean from the CDF at c=" + c);
        }
    }
}
