package fsil.core.quad;

import fsil.core.math.Stable;
import org.apache.commons.numbers.gamma.Gamma;
import org.junit.jupiter.api.Test;

import java.util.function.DoubleUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GaussHermiteTest {

    /** int e^{-x^2} x^k dx: 0 for odd k, Gamma((k+1)/2) for even k. */
    private static double hermiteMoment(int k) {
        return k % 2 == 1 ? 0.0 : Gamma.value((k + 1) / 2.0);
    }

    private static double rule(GaussHermite gh, int k) {
        double[] x = gh.nodes();
        double[] w = gh.weights();
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += w[i] * Math.pow(x[i], k);
        }
        return s;
    }

    @Test
    void exactForPolynomialsUpToDegree2nMinus1() {
        for (int n : new int[]{1, 2, 3, 5, 8, 13, 20, 40, 100}) {
            GaussHermite gh = GaussHermite.of(n);
            for (int k = 0; k <= 2 * n - 1; k++) {
                double exact = hermiteMoment(k);
                double got = rule(gh, k);
                // scale for odd moments: the size of the terms that cancel
                double scale = Math.max(Math.abs(exact), hermiteMoment(k + (k % 2)));
                assertEquals(exact, got, 1e-12 * scale, "n=" + n + ", degree " + k);
            }
            // degree 2n is not integrated exactly: remainder n! sqrt(pi) / 2^n
            double remainder = hermiteMoment(2 * n) - rule(gh, 2 * n);
            double expected = Gamma.value(n + 1.0) * Math.sqrt(Math.PI) / Math.pow(2, n);
            assertEquals(expected, remainder, 1e-9 * expected + 1e-13 * hermiteMoment(2 * n),
                    "degree 2n remainder for n=" + n);
        }
    }

    @Test
    void fivePointRuleInClosedForm() {
        // H_5(x) = 32x^5 - 160x^3 + 120x has roots 0, +-sqrt((5 -+ sqrt 10)/2);
        // w_i = 2^{n-1} n! sqrt(pi) / (n^2 H_4(x_i)^2), H_4(x) = 16x^4 - 48x^2 + 12
        double a = Math.sqrt((5 - Math.sqrt(10)) / 2);
        double b = Math.sqrt((5 + Math.sqrt(10)) / 2);
        double[] expectedNodes = {-b, -a, 0, a, b};
        GaussHermite gh = GaussHermite.of(5);
        double[] x = gh.nodes();
        double[] w = gh.weights();
        for (int i = 0; i < 5; i++) {
            assertEquals(expectedNodes[i], x[i], 4e-16 * Math.max(1, Math.abs(x[i])));
            double h4 = 16 * Math.pow(x[i], 4) - 48 * x[i] * x[i] + 12;
            double wi = 16 * 120 * Math.sqrt(Math.PI) / (25 * h4 * h4);
            assertEquals(wi, w[i], 1e-14 * wi);
        }
    }

    @Test
    void twentyPointRuleMatchesPublishedTable() {
        // Abramowitz & Stegun Table 25.10, n = 20: largest node and its weight
        GaussHermite gh = GaussHermite.standard();
        assertEquals(20, gh.size());
        double[] x = gh.nodes();
        double[] w = gh.weights();
        assertEquals(5.387480890011233, x[19], 1e-14);
        assertEquals(2.229393645534151e-13, w[19], 1e-24);
        assertEquals(-x[19], x[0], 0);
        double sum = 0;
        for (double v : w) {
            sum += v;
        }
        assertEquals(Math.sqrt(Math.PI), sum, 1e-14);
        assertSame(gh, GaussHermite.of(20), "cached");
    }

    @Test
    void gaussianMoments() {
        GaussHermite gh = GaussHermite.standard();
        double mu = 1.7;
        double v = 2.3;
        assertEquals(1.0, gh.expectation(f -> 1.0, mu, v), 1e-14);
        assertEquals(mu, gh.expectation(f -> f, mu, v), 1e-14);
        assertEquals(mu * mu + v, gh.expectation(f -> f * f, mu, v), 1e-13);
        assertEquals(3 * v * v, gh.expectation(f -> Math.pow(f - mu, 4), mu, v), 1e-12);
        // E[e^f] = e^{mu + v/2} (not a polynomial: 20 points reach ~1e-13 here)
        assertEquals(Math.exp(mu + v / 2), gh.expectation(Math::exp, mu, v), 1e-11 * Math.exp(mu + v / 2));
    }

    /** Trapezoid rule on [mean - 40 sd, mean + 40 sd] with 2^14 intervals: exponentially accurate here. */
    private static double referenceExpectation(DoubleUnaryOperator g, double mean, double variance) {
        double sd = Math.sqrt(variance);
        int m = 1 << 14;
        double lo = mean - 40 * sd;
        double h = 80 * sd / m;
        double s = 0;
        for (int i = 0; i <= m; i++) {
            double f = lo + i * h;
            double z = (f - mean) / sd;
            double wgt = (i == 0 || i == m) ? 0.5 : 1.0;
            s += wgt * g.applyAsDouble(f) * Math.exp(-0.5 * z * z);
        }
        return s * h / (sd * Math.sqrt(2 * Math.PI));
    }

    @Test
    void expectedSigmoidAgainstNumericalIntegral() {
        GaussHermite gh = GaussHermite.standard();
        double[][] cases = {{0, 1}, {1, 0.5}, {-2, 2}, {3, 0.1}, {0.5, 4}, {-8, 1}, {10, 9}, {-0.3, 0.01}};
        for (double[] c : cases) {
            double ref = referenceExpectation(Stable::sigmoid, c[0], c[1]);
            double got = gh.expectedSigmoid(c[0], c[1]);
            // 20 points: the sigmoid's poles at +-i pi limit the accuracy as the variance grows
            double tol = c[1] <= 1 ? 1e-8 : 1e-5;
            assertEquals(ref, got, tol, "E[sigmoid] for mean " + c[0] + ", variance " + c[1]);
            assertEquals(ref, GaussHermite.of(100).expectedSigmoid(c[0], c[1]), 1e-9, "100 points");
            assertEquals(referenceExpectation(Stable::logSigmoid, c[0], c[1]), gh.expectedLogSigmoid(c[0], c[1]),
                    1e-5 * Math.max(1, Math.abs(c[0])));
        }
        // symmetry: E[sigmoid(f)] = 1/2 at mean 0, and E[s(f)] + E[s(-f)] = 1
        assertEquals(0.5, gh.expectedSigmoid(0, 7.5), 1e-15);
        assertEquals(1.0, gh.expectedSigmoid(1.3, 2) + gh.expectedSigmoid(-1.3, 2), 1e-15);
        double[] mu = {0, 1, -2};
        double[] var = {1, 0.5, 2};
        double[] out = new double[3];
        gh.expectedSigmoid(mu, var, out);
        for (int i = 0; i < 3; i++) {
            assertEquals(gh.expectedSigmoid(mu[i], var[i]), out[i], 0);
        }
    }

    @Test
    void zeroVarianceLimit() {
        GaussHermite gh = GaussHermite.standard();
        for (double mu : new double[]{-700, -3, 0, 0.7, 40}) {
            assertEquals(Stable.sigmoid(mu), gh.expectedSigmoid(mu, 0), 1e-15 * Math.max(Stable.sigmoid(mu), 1e-300));
            double small = gh.expectedSigmoid(mu, 1e-12);
            // first-order: E[s(f)] = s(mu) + v/2 s''(mu) + O(v^2)
            assertEquals(Stable.sigmoid(mu), small, 1e-12);
            assertEquals(Stable.logSigmoid(mu), gh.expectedLogSigmoid(mu, 0), 1e-15 * Math.max(1, Math.abs(mu)));
        }
        // the expectation moves smoothly: s(mu) + v/2 s''(mu) for small v
        double mu = 0.8;
        double v = 1e-4;
        double s = Stable.sigmoid(mu);
        double s2 = s * (1 - s) * (1 - 2 * s);
        assertEquals(s + 0.5 * v * s2, gh.expectedSigmoid(mu, v), 1e-9);
    }

    @Test
    void invalidArguments() {
        assertThrows(IllegalArgumentException.class, () -> GaussHermite.of(0));
        assertThrows(IllegalArgumentException.class, () -> GaussHermite.of(GaussHermite.MAX_POINTS + 1));
        GaussHermite gh = GaussHermite.standard();
        assertThrows(IllegalArgumentException.class, () -> gh.expectedSigmoid(0, -1e-18));
        assertThrows(IllegalArgumentException.class, () -> gh.expectedSigmoid(0, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> gh.expectedSigmoid(new double[2], new double[3], new double[2]));
        assertTrue(GaussHermite.of(GaussHermite.MAX_POINTS).size() == GaussHermite.MAX_POINTS);
    }
}
