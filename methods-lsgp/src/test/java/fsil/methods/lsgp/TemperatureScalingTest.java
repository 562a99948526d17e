package fsil.methods.lsgp;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.DirichletSampler;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TemperatureScalingTest {

    /** Labels drawn from softmax(log p / T*) with a known T*: the fit recovers T*. */
    @Test
    void recoversTheTemperatureThatGeneratedTheLabels() {
        for (double truth : new double[]{0.5, 1.0, 2.5}) {
            UniformRandomProvider rng = RandomStreams.create(7);
            DirichletSampler dir = DirichletSampler.symmetric(rng, 4, 1.0);
            int n = 40_000;
            double[] probs = new double[n * 4];
            int[] labels = new int[n];
            for (int j = 0; j < n; j++) {
                double[] p = dir.sample();
                System.arraycopy(p, 0, probs, j * 4, 4);
                double[] q = p.clone();
                TemperatureScaling.apply(q, 0, 4, truth);
                double u = rng.nextDouble();
                int c = 0;
                double cdf = q[0];
                while (u > cdf && c < 3) {
                    c++;
                    cdf += q[c];
                }
                labels[j] = c;
            }
            double fitted = TemperatureScaling.fit(probs, labels, 4);
            assertEquals(truth, fitted, 0.06 * truth, "T*");
        }
    }

    @Test
    void applyKeepsTheArgmaxAndNormalises() {
        double[] p = {0.1, 0.6, 0.3, 0.0};
        TemperatureScaling.apply(p, 0, 4, 3.0);
        assertEquals(1.0, p[0] + p[1] + p[2] + p[3], 1e-12);
        assertTrue(p[1] > p[2] && p[2] > p[0] && p[3] >= 0);
        assertTrue(p[1] < 0.6, "T > 1 softens");
    }
}
