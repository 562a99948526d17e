package fsil.methods.gptree;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

import java.util.Map;

final class TestSupport {
    private TestSupport() {
    }

    /** A configuration from name/value pairs. */
    static GpTreeConfig config(String... kv) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return GpTreeConfig.of(new GpTreeMethod().params(m));
    }

    /** per points for each of k Gaussian classes (labels 0..k-1) around random centres of norm 3, float32 rows. */
    static float[] clusters(int k, int per, int d, double noise, long seed, int[] labelsOut) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] centres = new double[k * d];
        for (int i = 0; i < centres.length; i++) {
            centres[i] = 3 * g.sample();
        }
        float[] x = new float[k * per * d];
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < per; i++) {
                int row = c * per + i;
                labelsOut[row] = c;
                for (int j = 0; j < d; j++) {
                    x[row * d + j] = (float) (centres[c * d + j] + noise * g.sample());
                }
            }
        }
        return x;
    }
}
