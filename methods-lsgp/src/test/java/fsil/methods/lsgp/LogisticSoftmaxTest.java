package fsil.methods.lsgp;

import fsil.core.math.Stable;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogisticSoftmaxTest {

    static double maxAbsDiff(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    /** Theorem 3.1, first case: all logits negative, tau -> 0+ gives the one-hot vector of the argmax. */
    @Test
    void theorem31AllNegativeLogitsBecomeOneHotAtTheArgmax() {
        double[] f = {-0.3, -2.0, -0.31, -5.0};
        double[] onehot = {1, 0, 0, 0};
        double previous = Double.POSITIVE_INFINITY;
        for (double tau : new double[]{1, 0.1, 0.01, 1e-3, 1e-4}) {
            double err = maxAbsDiff(LogisticSoftmax.probabilities(f, tau), onehot);
            assertTrue(err < previous, "the distance to the limit must shrink as tau decreases");
            previous = err;
        }
        assertTrue(previous < 1e-12, "at tau = 1e-4: " + previous);
    }

    /** Theorem 3.1, second case: some logits positive, tau -> 0+ gives the uniform vector over the positive ones. */
    @Test
    void theorem31PositiveLogitsShareTheMassUniformly() {
        double[] f = {0.5, -1.0, 3.0, 0.01, -0.2};
        double[] limit = {1.0 / 3, 0, 1.0 / 3, 1.0 / 3, 0};
        double previous = Double.POSITIVE_INFINITY;
        for (double tau : new double[]{1, 0.1, 0.01, 1e-3, 1e-4}) {
            double err = maxAbsDiff(LogisticSoftmax.probabilities(f, tau), limit);
            assertTrue(err < previous);
            previous = err;
        }
        assertTrue(previous < 1e-12, "at tau = 1e-4: " + previous);
        // softmax with temperature has the other limit: one-hot at the argmax
        assertArrayEquals(new double[]{0, 0, 1, 0, 0}, LogisticSoftmax.softmax(f, 1e-3), 1e-12);
    }

    /** Theorem 3.2: LS(f - C', tau) -> softmax(f / tau) as C' -> +inf, for any tau, and softmax is shift invariant. */
    @Test
    void theorem32NegativeShiftTurnsLogisticSoftmaxIntoSoftmax() {
        double[] f = {0.7, -0.4, 1.3, 0.0, 2.2};
        for (double tau : new double[]{0.2, 1.0, 3.0}) {
            double[] softmax = LogisticSoftmax.softmax(f, tau);
            double previous = Double.POSITIVE_INFINITY;
            for (double shift : new double[]{0, 1, 2, 5, 10, 20, 40}) {
                double[] g = new double[f.length];
                for (int i = 0; i < f.length; i++) {
                    g[i] = f[i] - shift * tau;
                }
                double err = maxAbsDiff(LogisticSoftmax.probabilities(g, tau), softmax);
                assertTrue(err < previous, "tau " + tau + " shift " + shift);
                previous = err;
                double[] shifted = LogisticSoftmax.softmax(g, tau);
                assertArrayEquals(softmax, shifted, 1e-12, "softmax is translation invariant");
            }
            // the error decays like e^{-C'/tau}: at C'/tau = 40 it is at the rounding level
            assertTrue(previous < 1e-14, "tau " + tau + ": " + previous);
        }
        // the paper's "C' = 5 is accurate if f is near 0" (tau = 1)
        double[] near0 = {0.1, -0.2, 0.05};
        double[] g = {0.1 - 5, -0.2 - 5, 0.05 - 5};
        assertTrue(maxAbsDiff(LogisticSoftmax.probabilities(g, 1), LogisticSoftmax.softmax(near0, 1)) < 5e-3);
    }

    @Test
    void logisticSoftmaxIsNotTranslationInvariant() {
        double[] f = {1.0, 2.0};
        double[] g = {11.0, 12.0};
        assertTrue(maxAbsDiff(LogisticSoftmax.probabilities(f, 1), LogisticSoftmax.probabilities(g, 1)) > 0.04);
    }

    @Test
    void extremeLogitsAndTemperaturesGiveValidProbabilities() {
        double[][] cases = {{-1e4, -1e4 - 1, -2e4}, {1e4, 1e4, -1e4}, {1e300, -1e300, 0}, {-745, -746, -800}};
        for (double[] f : cases) {
            for (double tau : new double[]{1e-3, 0.2, 1, 1e3}) {
                double[] p = LogisticSoftmax.probabilities(f, tau);
                double s = 0;
                for (double v : p) {
                    assertTrue(Double.isFinite(v) && v >= 0);
                    s += v;
                }
                assertEquals(1, s, 1e-12);
            }
        }
        // all sigmas underflow in double: the log-space form still ranks them (plain sigma/sum would be 0/0)
        double[] p = LogisticSoftmax.probabilities(new double[]{-1e4, -1e4 - 1}, 0.01);
        assertEquals(1.0, p[0], 1e-12);
    }

    @Test
    void gradientOfLogProbabilityMatchesFiniteDifferences() {
        double[] f = {0.3, -1.2, 2.0, -0.1};
        double tau = 0.4;
        int label = 2;
        double[] lp = new double[4];
        double[] grad = new double[4];
        LogisticSoftmax.logProbabilities(f, 0, 4, tau, lp);
        LogisticSoftmax.gradientOfLogProbability(f, 0, 4, tau, label, lp, grad);
        double h = 1e-6;
        for (int c = 0; c < 4; c++) {
            double[] a = f.clone();
            double[] b = f.clone();
            a[c] += h;
            b[c] -= h;
            double[] la = new double[4];
            double[] lb = new double[4];
            LogisticSoftmax.logProbabilities(a, 0, 4, tau, la);
            LogisticSoftmax.logProbabilities(b, 0, 4, tau, lb);
            assertEquals((la[label] - lb[label]) / (2 * h), grad[c], 1e-8);
        }
    }

    @Test
    void stableHelpersAtExtremeArguments() {
        // log(2 cosh x): no overflow at 1e4, exact x^2/2 + ln 2 behaviour near 0
        assertEquals(1e4, MeanField.logTwoCosh(1e4), 1e-9);
        assertEquals(Stable.LN_2 + 0.5e-20, MeanField.logTwoCosh(1e-10), 1e-25);
        // d/dc tanh(c/2)/(2c): the series and the closed form agree across the switch point and match FD
        for (double c : new double[]{1e-8, 1e-3, 0.049, 0.05, 0.051, 0.5, 3, 40, 800, -2}) {
            double h = 1e-5 * Math.max(1, Math.abs(c));
            double fd = (Stable.tanhHalfOver2c(c + h) - Stable.tanhHalfOver2c(c - h)) / (2 * h);
            assertEquals(fd, MeanField.tanhHalfOver2cDerivative(c), 1e-7 * Math.max(1e-3, Math.abs(fd)) + 1e-12,
                    "c = " + c);
        }
        assertEquals(0.0, MeanField.tanhHalfOver2cDerivative(0.0), 0.0);
        assertTrue(Double.isFinite(MeanField.tanhHalfOver2cDerivative(1e308)));
    }
}
