package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Seeded Gaussian class clusters in a low-rank subspace, for the benchmarks and the synthetic Fig. 5 check.
 * Class c has {@code modes} equally likely components with means B z_{c,j}, B a d x r matrix of N(0, 1/d) entries
 * (nearly orthonormal columns) and z_{c,j} ~ N(0, spread^2 I_r); a sample is a component mean + N(0, noise^2 I_d).
 * With one mode and isotropic noise nearest-class-mean is the Bayes rule, which no forest can beat; several modes
 * per class make the classes non-convex, closer to real image features. The means depend only on (seed, class),
 * the samples on (seed, split, class), so train and test sets are independent draws of the same classes.
 */
final class SyntheticClasses {
    private final int dim;
    private final int rank;
    private final double spread;
    private final double noise;
    private final long seed;
    private final int modes;
    private final float[] basis;

    SyntheticClasses(int dim, int rank, double spread, double noise, long seed) {
        this(dim, rank, spread, noise, 1, seed);
    }

    SyntheticClasses(int dim, int rank, double spread, double noise, int modes, long seed) {
        this.dim = dim;
        this.modes = Math.max(1, modes);
        this.rank = Math.max(1, Math.min(rank, dim));
        this.spread = spread;
        this.noise = noise;
        this.seed = seed;
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(
                RandomStreams.create(RandomStreams.derive(seed, "basis")));
        basis = new float[dim * this.rank];
        double sd = 1 / Math.sqrt(dim);
        for (int i = 0; i < basis.length; i++) {
            basis[i] = (float) (sd * g.sample());
        }
    }

    int dim() {
        return dim;
    }

    /** Mean of component {@code mode} of class {@code c}. */
    double[] mean(int c, int mode) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(
                RandomStreams.child(RandomStreams.derive(seed, "means" + mode), c));
        double[] z = new double[rank];
        for (int k = 0; k < rank; k++) {
            z[k] = spread * g.sample();
        }
        double[] m = new double[dim];
        for (int j = 0; j < dim; j++) {
            double s = 0;
            for (int k = 0; k < rank; k++) {
                s += basis[j * rank + k] * z[k];
            }
            m[j] = s;
        }
        return m;
    }

    /** {@code perClass} samples of each class in {@code classes}; {@code split} separates train (0) from test (1). */
    LabeledData sample(int[] classes, int perClass, int split) {
        int n = classes.length * perClass;
        float[] x = new float[n * dim];
        int[] y = new int[n];
        int row = 0;
        for (int c : classes) {
            double[][] m = new double[modes][];
            for (int j = 0; j < modes; j++) {
                m[j] = mean(c, j);
            }
            UniformRandomProvider r = RandomStreams.child(RandomStreams.derive(seed, "samples" + split), c);
            ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(r);
            for (int s = 0; s < perClass; s++) {
                double[] mu = m[modes == 1 ? 0 : r.nextInt(modes)];
                for (int j = 0; j < dim; j++) {
                    x[row * dim + j] = (float) (mu[j] + noise * g.sample());
                }
                y[row++] = c;
            }
        }
        return new LabeledData(FeatureMatrix.wrap(n, dim, x), y);
    }
}
