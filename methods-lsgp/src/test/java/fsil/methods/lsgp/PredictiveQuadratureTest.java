package fsil.methods.lsgp;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PredictiveQuadratureTest {

    /** E[LS_k(x)], x_c ~ N(mean_c, sd_c^2) in logit units, by n plain Monte Carlo draws; [0] = mean, [1] = std error. */
    static double[][] monteCarlo(double[] mean, double[] sd, int n, long seed) {
        int c = mean.length;
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] x = new double[c];
        double[] lp = new double[c];
        double[] s1 = new double[c];
        double[] s2 = new double[c];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < c; k++) {
                x[k] = mean[k] + sd[k] * g.sample();
            }
            LogisticSoftmax.logProbabilities(x, 0, c, 1.0, lp);
            for (int k = 0; k < c; k++) {
                double p = Math.exp(lp[k]);
                s1[k] += p;
                s2[k] += p * p;
            }
        }
        double[][] out = new double[2][c];
        for (int k = 0; k < c; k++) {
            out[0][k] = s1[k] / n;
            out[1][k] = Math.sqrt(Math.max(0, s2[k] / n - out[0][k] * out[0][k]) / n);
        }
        return out;
    }

    private static double[] quadrature(double[] mean, double[] sd) {
        double[] out = new double[mean.length];
        assertTrue(new PredictiveQuadrature(mean.length).probabilities(mean, sd, out));
        return out;
    }

    /**
     * The default rule against 10^6-draw Monte Carlo on predictives like those of 5-shot episodes (prior mean 0 and
     * -5, tau = 0.2, logit sds 1.5-2.5), of 1-shot ones, and on 2- and 20-class and wide ones: every probability
     * within 4 standard errors of the Monte Carlo mean (the residual printed is dominated by that noise).
     */
    @Test
    void matchesLongMonteCarlo() {
        double[][][] cases = {
                {{3.6, 3.5, 3.4, 3.7, 3.3}, {2.2, 2.1, 2.3, 2.2, 2.0}},
                {{-0.6, -2.5, -3.0, -1.8, -2.2}, {1.7, 1.6, 1.8, 1.5, 1.9}},
                {{-10.0, -11.3, -10.8, -11.5, -11.0}, {2.5, 2.4, 2.6, 2.3, 2.5}},
                {{1.0, -2.0}, {3.0, 0.5}},
                {{5, -5, 0, 2, 1, -3, 4, 0.5, -1, 2.5, 3, -4, 1.5, 0, -2, 2, 1, -0.5, 3.5, -6},
                        {5, 4, 3, 5, 2, 1, 6, 3, 4, 5, 2, 3, 4, 1, 2, 3, 5, 4, 2, 3}},
        };
        double worst = 0;
        double worstSe = 0;
        for (int i = 0; i < cases.length; i++) {
            double[] q = quadrature(cases[i][0], cases[i][1]);
            double[][] mc = monteCarlo(cases[i][0], cases[i][1], 1_000_000, 11 + i);
            for (int k = 0; k < q.length; k++) {
                double d = Math.abs(q[k] - mc[0][k]);
                assertTrue(d <= 4 * mc[1][k] + 1e-6, "case " + i + " class " + k + ": quadrature " + q[k]
                        + ", Monte Carlo " + mc[0][k] + " +- " + mc[1][k]);
                worst = Math.max(worst, d);
                worstSe = Math.max(worstSe, mc[1][k]);
            }
        }
        System.out.printf(Locale.ROOT, "quadrature vs 1e6-draw Monte Carlo: largest |difference| %.2e, largest "
                + "Monte Carlo standard error %.2e%n", worst, worstSe);
    }

    /**
     * The default rule against the same integral with 6x finer z nodes, 5x finer lambda steps, |z| &lt;= 8.5 and tails
     * of 1e-14, on 300 random predictives (2, 5 and 20 classes, logit means from -25 to 10, sds 0.1-6):
     * discretisation error below 5e-5 per probability (1,000 Monte Carlo draws: up to 0.016 standard error).
     */
    @Test
    void discretisationErrorIsSmall() {
        Random r = new Random(5);
        double worst = 0;
        for (int i = 0; i < 300; i++) {
            int c = i % 7 == 0 ? 2 : (i % 11 == 0 ? 20 : 5);
            double base = -15 + 20 * r.nextDouble();
            double spread = 6 * r.nextDouble();
            double sd = 0.1 + 5 * r.nextDouble();
            double[] m = new double[c];
            double[] s = new double[c];
            for (int k = 0; k < c; k++) {
                m[k] = base + spread * r.nextGaussian();
                s[k] = sd * (0.7 + 0.6 * r.nextDouble());
            }
            double[] q = quadrature(m, s);
            double[] fine = new double[c];
            assertTrue(new PredictiveQuadrature(c, 0.25, 8.5, 6, 1e-14).probabilities(m, s, fine));
            for (int k = 0; k < c; k++) {
                worst = Math.max(worst, Math.abs(q[k] - fine[k]));
            }
        }
        System.out.printf(Locale.ROOT, "quadrature vs the fine rule on 300 predictives: largest error %.2e%n", worst);
        assertTrue(worst < 5e-5, "largest error " + worst);
    }

    /** Closed forms: point masses give the likelihood at the mean; exchangeable classes give 1/C; extreme logits. */
    @Test
    void closedFormsAndExtremes() {
        double[] m = {0.4 / 0.7, -0.9 / 0.7, 0.1};
        double[] exact = LogisticSoftmax.probabilities(m, 1.0);
        double[] q = quadrature(m, new double[3]);
        for (int k = 0; k < 3; k++) {
            assertEquals(exact[k], q[k], 1e-6);
        }
        double[] same = quadrature(new double[]{-3, -3, -3, -3}, new double[]{2, 2, 2, 2});
        for (double p : same) {
            assertEquals(0.25, p, 1e-12);
        }
        // logits of -1e4 (every sigma underflows unless rescaled) and one class far below the others
        double[] low = quadrature(new double[]{-1e4, -1e4 - 1, -1e4 + 0.5}, new double[]{1, 0.5, 2});
        double[] shifted = quadrature(new double[]{-40, -41, -39.5}, new double[]{1, 0.5, 2});
        double sum = 0;
        for (int k = 0; k < 3; k++) {
            assertTrue(low[k] > 0);
            assertEquals(shifted[k], low[k], 1e-9, "deep in the exponential tail LS is shift invariant");
            sum += low[k];
        }
        assertEquals(1.0, sum, 1e-12);
        double[] apart = quadrature(new double[]{2, -800}, new double[]{1, 1});
        assertEquals(1.0, apart[0], 1e-12);
        // too wide: the caller falls back to Monte Carlo
        assertFalse(new PredictiveQuadrature(2).probabilities(new double[]{0, 0},
                new double[]{1, PredictiveQuadrature.MAX_LOGIT_SD * 1.01}, new double[2]));
    }

    /** Through the predictor: deterministic, per query, and the Monte Carlo fallback for very wide predictives. */
    @Test
    void predictorUsesTheQuadratureForOneSiteSet() {
        double tau = 0.2;
        double[][][] means = {{{0.3, -1.0}, {-0.1, -1.2}, {0.0, -0.9}}};
        double[][][] vars = {{{0.5, 0.2}, {1.0, 0.3}, {0.2, 0.1}}};
        double[] a = new Predictor(3, tau, 10, 1, true).probabilities(means, vars, 2, 1.0);
        double[] b = new Predictor(3, tau, 10, 2, true).probabilities(means, vars, 2, 1.0);
        for (int j = 0; j < 2; j++) {
            double[] m = new double[3];
            double[] s = new double[3];
            for (int c = 0; c < 3; c++) {
                m[c] = means[0][c][j] * (1.0 / tau);
                s[c] = Math.sqrt(vars[0][c][j]) * (1.0 / tau);
            }
            double[] q = quadrature(m, s);
            for (int c = 0; c < 3; c++) {
                assertEquals(q[c], a[j * 3 + c], 0, "the seed plays no part");
                assertEquals(a[j * 3 + c], b[j * 3 + c], 0);
            }
        }
        // a predictive sd of 3 at tau = 0.2 is 15 logit units: Monte Carlo, as with predictive=monte-carlo
        double[][][] wide = {{{0.0}, {0.5}}};
        double[][][] wideVar = {{{9.0}, {1.0}}};
        double[] fallback = new Predictor(2, tau, 500, 3, true).probabilities(wide, wideVar, 1, 1.0);
        double[] mc = new Predictor(2, tau, 500, 3, false).probabilities(wide, wideVar, 1, 1.0);
        assertEquals(mc[0], fallback[0], 0);
    }
}
