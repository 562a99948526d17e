package fsil.core.calibration;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.DirichletSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TemperatureScalingTest {
    private static final int C = 5;
    private static final int N = 20_000;

    /** Logits z ~ N(0, 1) per class, labels drawn from softmax(z); returns {z, labels as doubles}. */
    private static Object[] wellSpecified(long seed) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] z = new double[N * C];
        for (int i = 0; i < z.length; i++) {
            z[i] = normal.sample();
        }
        double[] q = z.clone();
        fsil.core.math.Softmax.inPlaceRows(q, N, C);
        return new Object[]{z, sample(q, C, rng)};
    }

    private static int[] sample(double[] q, int classes, UniformRandomProvider rng) {
        int n = q.length / classes;
        int[] labels = new int[n];
        for (int j = 0; j < n; j++) {
            double u = rng.nextDouble();
            int c = 0;
            double cdf = q[j * classes];
            while (u > cdf && c < classes - 1) {
                c++;
                cdf += q[j * classes + c];
            }
            labels[j] = c;
        }
        return labels;
    }

    private static double[] softmaxScaled(double[] z, double factor) {
        double[] p = new double[z.length];
        for (int i = 0; i < z.length; i++) {
            p[i] = factor * z[i];
        }
        fsil.core.math.Softmax.inPlaceRows(p, z.length / C, C);
        return p;
    }

    /**
     * Four standard errors of the maximum-likelihood T: se(beta) = 1 / sqrt(n f''(beta)) from the observed Fisher
     * information (f'' = mean variance of log p under the scaled softmax), and se(T) = se(beta) / beta^2 by the delta
     * method. With C = 5, z ~ N(0, 1) and n = 20,000, se(T) is about 1% of T (0.031 at T = 3, 0.010 at T = 1), so the
     * tolerance is about 4% (0.125 at T = 3, 0.042 at T = 1): a wrong fit (or a wrong gradient of the objective) is off
     * by far more, and a correct one fails this fixed-seed test only with probability ~6e-5 over seeds.
     */
    private static double tolerance(double[] probs, int[] labels, TemperatureFit fit) {
        double beta = fit.inverseTemperature();
        double info = TemperatureScaling.nllDerivatives(probs, labels, C, beta)[2];
        double seBeta = 1 / Math.sqrt(labels.length * info);
        return 4 * seBeta / (beta * beta);
    }

    @Test
    void recoversTemperatureThreeFromOverConfidentLogits() {
        Object[] data = wellSpecified(2017);
        double[] z = (double[]) data[0];
        int[] labels = (int[]) data[1];
        double[] probs = softmaxScaled(z, 3);
        TemperatureFit fit = TemperatureScaling.fit(probs, labels, C);
        double tol = tolerance(probs, labels, fit);
        assertTrue(tol < 0.2 && tol > 0.02, "tolerance " + tol);
        assertEquals(3.0, fit.temperature(), tol);
        assertFalse(fit.atBound());
        assertTrue(fit.nllAfter() < fit.nllBefore());
        assertEquals(1.0, fit.temperature() * fit.inverseTemperature(), 1e-15);
        assertTrue(fit.iterations() >= 38 && fit.iterations() <= TemperatureScaling.MAX_ITERATIONS);
        // the scaled probabilities are those of the true model, softmax(z), up to the fitting error
        double[] calibrated = probs.clone();
        TemperatureScaling.apply(calibrated, C, fit.temperature());
        assertEquals(ScoringRules.nllMean(softmaxScaled(z, 1), labels, C), ScoringRules.nllMean(calibrated, labels, C), 1e-3);
        assertEquals(fit.nllAfter(), ScoringRules.nllMean(calibrated, labels, C), 1e-12);
    }

    @Test
    void trueProbabilitiesGiveTemperatureOne() {
        Object[] data = wellSpecified(2018);
        int[] labels = (int[]) data[1];
        double[] probs = softmaxScaled((double[]) data[0], 1);
        TemperatureFit fit = TemperatureScaling.fit(probs, labels, C);
        assertEquals(1.0, fit.temperature(), tolerance(probs, labels, fit));
    }

    /** Labels drawn from softmax(log p / T*) for Dirichlet(1) probabilities p: the fit recovers T*. */
    @Test
    void recoversTheTemperatureThatGeneratedTheLabels() {
        for (double truth : new double[]{0.5, 1.0, 2.5}) {
            UniformRandomProvider rng = RandomStreams.create(7);
            DirichletSampler dir = DirichletSampler.symmetric(rng, 4, 1.0);
            int n = 40_000;
            double[] probs = new double[n * 4];
            for (int j = 0; j < n; j++) {
                System.arraycopy(dir.sample(), 0, probs, j * 4, 4);
            }
            double[] q = probs.clone();
            TemperatureScaling.apply(q, 4, truth);
            int[] labels = sample(q, 4, rng);
            assertEquals(truth, TemperatureScaling.fit(probs, labels, 4).temperature(), 0.06 * truth, "T*");
        }
    }

    /** The golden section's answer is within its tolerance of the stationary point of the closed-form derivative. */
    @Test
    void fitIsAStationaryPoint() {
        Object[] data = wellSpecified(2019);
        int[] labels = (int[]) data[1];
        double[] probs = softmaxScaled((double[]) data[0], 2);
        TemperatureFit fit = TemperatureScaling.fit(probs, labels, C);
        double beta = fit.inverseTemperature();
        double[] d = TemperatureScaling.nllDerivatives(probs, labels, C, beta);
        double newtonStep = d[1] / d[2];
        assertTrue(Math.abs(newtonStep) < 1e-7 * beta, "Newton step " + newtonStep + " at beta " + beta);
        assertEquals(fit.nllAfter(), d[0], 1e-13);
    }

    @Test
    void analyticDerivativesMatchCentralDifferences() {
        Object[] data = wellSpecified(2020);
        int[] labels = Arrays.copyOf((int[]) data[1], 500);
        double[] probs = Arrays.copyOf(softmaxScaled((double[]) data[0], 3), 500 * C);
        probs[7] = 0; // a floored entry: the objective still has the closed-form derivatives
        for (double beta : new double[]{0.05, 0.3, 1.0, 2.5, 10}) {
            double h = 1e-5 * beta;
            double[] d = TemperatureScaling.nllDerivatives(probs, labels, C, beta);
            assertEquals(TemperatureScaling.nll(probs, labels, C, beta), d[0], 1e-13);
            double fd1 = (TemperatureScaling.nll(probs, labels, C, beta + h)
                    - TemperatureScaling.nll(probs, labels, C, beta - h)) / (2 * h);
            double fd2 = (TemperatureScaling.nllDerivatives(probs, labels, C, beta + h)[1]
                    - TemperatureScaling.nllDerivatives(probs, labels, C, beta - h)[1]) / (2 * h);
            assertEquals(fd1, d[1], 1e-6 * Math.max(1, Math.abs(d[1])), "f' at beta " + beta);
            assertEquals(fd2, d[2], 1e-6 * Math.max(1, Math.abs(d[2])), "f'' at beta " + beta);
            assertTrue(d[2] >= 0);
        }
    }

    @Test
    void applyKeepsTheArgmaxAndNormalises() {
        Object[] data = wellSpecified(2021);
        double[] probs = softmaxScaled((double[]) data[0], 3);
        for (double t : new double[]{1.0 / 50, 0.3, 1, 3, 50}) {
            double[] scaled = probs.clone();
            TemperatureScaling.apply(scaled, C, t);
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < C; k++) {
                    s += scaled[j * C + k];
                }
                assertEquals(1.0, s, 1e-12);
                assertEquals(argmax(probs, j), argmax(scaled, j), "row " + j + " at T=" + t);
            }
        }
        double[] p = {0.1, 0.6, 0.3, 0.0};
        TemperatureScaling.applyRow(p, 0, 4, 3.0);
        assertEquals(1.0, p[0] + p[1] + p[2] + p[3], 1e-12);
        assertTrue(p[1] > p[2] && p[2] > p[0] && p[3] >= 0);
        assertTrue(p[1] < 0.6, "T > 1 softens");
        double[] same = {0.1, 0.6, 0.3};
        TemperatureScaling.apply(same, 3, 1.0);
        assertArrayEquals(new double[]{0.1, 0.6, 0.3}, same, 1e-15);
    }

    private static int argmax(double[] p, int row) {
        int best = 0;
        for (int k = 1; k < C; k++) {
            if (p[row * C + k] > p[row * C + best]) {
                best = k;
            }
        }
        return best;
    }

    @Test
    void allCorrectWithConfidenceOneSharpensToTheBound() {
        double[] p = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        int[] y = {0, 1, 2};
        TemperatureFit fit = TemperatureScaling.fit(p, y, 3);
        assertEquals(new TemperatureFit(1.0 / 50, 50, 0, 0, 0, true), fit);
        assertEquals(0.0, fit.nllAfter(), 0);
        double[] q = p.clone();
        TemperatureScaling.apply(q, 3, fit.temperature());
        assertArrayEquals(p, q);
    }

    @Test
    void singleRow() {
        // correct: sharpening always helps, T stops at 1/50
        TemperatureFit correct = TemperatureScaling.fit(new double[]{0.5, 0.3, 0.2}, new int[]{0}, 3);
        assertTrue(correct.atBound());
        assertEquals(1.0 / 50, correct.temperature(), 0);
        assertEquals(0, correct.iterations());
        // log p_y below the row's mean log p (label less likely than the geometric mean): softening always helps,
        // T stops at 50
        TemperatureFit worst = TemperatureScaling.fit(new double[]{0.5, 0.3, 0.2}, new int[]{2}, 3);
        assertTrue(worst.atBound());
        assertEquals(50, worst.temperature(), 1e-5);
        // log p_y between the row's mean and max log p: an interior minimum where E_q[log p] = log p_y
        double[] p = {0.6, 0.35, 0.05};
        int[] y = {1};
        TemperatureFit mid = TemperatureScaling.fit(p, y, 3);
        assertFalse(mid.atBound());
        assertEquals(0.0, TemperatureScaling.nllDerivatives(p, y, 3, mid.inverseTemperature())[1], 1e-7);
    }

    @Test
    void flatObjectiveKeepsTemperatureOne() {
        TemperatureFit one = TemperatureScaling.fit(new double[]{1, 1, 1}, new int[]{0, 0, 0}, 1);
        assertEquals(new TemperatureFit(1, 1, 0, 0, 0, false), one);
        double[] uniform = new double[8];
        Arrays.fill(uniform, 0.25);
        TemperatureFit u = TemperatureScaling.fit(uniform, new int[]{0, 3}, 4);
        assertEquals(1.0, u.temperature());
        assertEquals(0, u.iterations());
        assertEquals(Math.log(4), u.nllBefore(), 1e-15);
        assertEquals(u.nllBefore(), u.nllAfter());
    }

    @Test
    void noRows() {
        TemperatureFit fit = TemperatureScaling.fit(new double[0], new int[0], 3);
        assertEquals(1.0, fit.temperature());
        assertEquals(Double.NaN, fit.nllBefore());
        assertEquals(0, fit.iterations());
    }

    @Test
    void rejectsMalformedInput() {
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.fit(new double[3], new int[2], 2));
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.fit(new double[]{0.5, 0.5}, new int[]{2}, 2));
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.fit(new double[]{Double.NaN, 1}, new int[]{0}, 2));
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.fit(new double[]{-0.5, 1.5}, new int[]{0}, 2));
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.apply(new double[]{0.5, 0.5}, 2, 0));
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.apply(new double[]{0.5, 0.5}, 2, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.applyRow(new double[]{0.5, 0.5}, 0, 2, -1));
        assertThrows(IllegalArgumentException.class, () -> TemperatureScaling.apply(new double[]{0.5, 0.5, 0.5}, 2, 2));
    }
}
