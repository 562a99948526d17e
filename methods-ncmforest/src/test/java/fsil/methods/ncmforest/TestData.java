package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Params;
import fsil.api.SessionContext;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

import java.util.Map;

/** Gaussian class clusters and session helpers for the tests. */
final class TestData {
    private TestData() {
    }

    /** Class means: N(0, spread^2 I), seeded by the class id and {@code meanSeed}. */
    static float[] mean(int classId, int dim, double spread, long meanSeed) {
        UniformRandomProvider r = RandomStreams.child(meanSeed, classId);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(r);
        float[] m = new float[dim];
        for (int j = 0; j < dim; j++) {
            m[j] = (float) (spread * g.sample());
        }
        return m;
    }

    /** {@code perClass} samples of each class: mean(class) + N(0, noise^2 I). */
    static LabeledData clusters(int[] classes, int perClass, int dim, double spread, double noise, long meanSeed, long seed) {
        UniformRandomProvider r = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(r);
        int n = classes.length * perClass;
        float[] x = new float[n * dim];
        int[] y = new int[n];
        int row = 0;
        for (int c : classes) {
            float[] m = mean(c, dim, spread, meanSeed);
            for (int s = 0; s < perClass; s++) {
                for (int j = 0; j < dim; j++) {
                    x[row * dim + j] = (float) (m[j] + noise * g.sample());
                }
                y[row++] = c;
            }
        }
        return new LabeledData(FeatureMatrix.wrap(n, dim, x), y);
    }

    static int[] range(int from, int to) {
        int[] r = new int[to - from];
        for (int i = 0; i < r.length; i++) {
            r[i] = from + i;
        }
        return r;
    }

    static Params params(Map<String, String> values) {
        return new NcmForestMethod().params(values);
    }

    static NcmForestSession session(Map<String, String> values, int dim, long seed) {
        Learner l = new NcmForestMethod().learner(params(values), fsil.api.Background.none(dim));
        return (NcmForestSession) l.newSession(SessionContext.incremental(dim, seed));
    }

    static double accuracy(fsil.api.Prediction p, int[] truth) {
        int[] lab = p.labels();
        int ok = 0;
        for (int i = 0; i < lab.length; i++) {
            ok += lab[i] == truth[i] ? 1 : 0;
        }
        return ok / (double) lab.length;
    }
}
