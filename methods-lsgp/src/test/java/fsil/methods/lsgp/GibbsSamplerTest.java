package fsil.methods.lsgp;

import fsil.core.random.RandomStreams;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GibbsSamplerTest {

    /**
     * One point, two classes, prior f^c ~ N(a, s): the Gibbs chain's Rao-Blackwellised posterior mean of (f^1, f^2)
     * equals the exact posterior mean computed by 2-D quadrature of N(f; a, s) LS_y(f).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"true, -1.0, 0.5", "false, -1.0, 0.5", "true, -2.0, 0.5"})
    void posteriorMeanOfOnePointMatchesQuadrature(boolean blocked, double a, double tau) {
        double s = 2.0;
        int[] y = {0};
        DMatrixRMaj k = new DMatrixRMaj(new double[][]{{s}});
        // exact posterior mean by a fine grid
        double z = 0;
        double m1 = 0;
        double m2 = 0;
        double sd = Math.sqrt(s);
        int grid = 1200;
        double lo = a - 9 * sd;
        double step = 18 * sd / grid;
        for (int i = 0; i <= grid; i++) {
            double f1 = lo + i * step;
            for (int j = 0; j <= grid; j++) {
                double f2 = lo + j * step;
                double prior = Math.exp(-0.5 * ((f1 - a) * (f1 - a) + (f2 - a) * (f2 - a)) / s);
                double w = prior * LogisticSoftmax.probabilities(new double[]{f1, f2}, tau)[0];
                z += w;
                m1 += w * f1;
                m2 += w * f2;
            }
        }
        m1 /= z;
        m2 /= z;
        TaskPosterior post = GibbsSampler.run(k, y, 2, tau, a, 200, 20_000, blocked, RandomStreams.create(42));
        double[][][] means = post.means(k, false);
        double e1 = 0;
        double e2 = 0;
        for (double[][] r : means) {
            e1 += r[0][0];
            e2 += r[1][0];
        }
        e1 /= means.length;
        e2 /= means.length;
        assertEquals(m1, e1, 0.05, "E[f1 | y]");
        assertEquals(m2, e2, 0.05, "E[f2 | y]");
        assertTrue(m1 > a && m2 < a, "the observed class moves up, the other down");
    }

    @Test
    void hopelessChainsFailWithAClearMessage() {
        DMatrixRMaj k = new DMatrixRMaj(new double[][]{{0.7, 0.3}, {0.3, 0.7}});
        var e = org.junit.jupiter.api.Assertions.assertThrows(fsil.core.math.NumericalException.class,
                () -> GibbsSampler.run(k, new int[]{0, 1}, 2, 0.2, -5.0, 5, 5, true, RandomStreams.create(1)));
        assertTrue(e.getMessage().contains("mean-field"), e.getMessage());
    }

    @Test
    void poissonDrawsHaveTheRightMean() {
        var rng = RandomStreams.create(3);
        for (double mean : new double[]{0.0, 0.2, 3.0, 29.0, 80.0}) {
            double sum = 0;
            int n = 100_000;
            for (int i = 0; i < n; i++) {
                sum += GibbsSampler.poisson(rng, mean);
            }
            assertEquals(mean, sum / n, 5 * Math.sqrt(Math.max(mean, 1e-3) / n) + 1e-12, "mean " + mean);
        }
    }
}
