package fsil.methods.ppca;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Gaussian classes for the benchmarks, generated class by class (each class from its own stream, so a class's
 * samples do not depend on how many classes there are and a 10,000-class stream never has to be held in memory).
 * Two models:
 * <ul>
 *   <li>{@code shared}: eval's {@code synthetic} dataset model (not its random numbers): a random d x rank
 *   orthonormal basis U shared by all classes, class centre sep * z_c with z_c ~ N(0, I_rank), and a sample
 *   x = U (centre + w) + noise * e with w ~ N(0, I_rank), e ~ N(0, I_d).</li>
 *   <li>{@code power-law}: every class has its own mean N(0, spread^2 I_d) and its own random directions
 *   u_1..u_rank (N(0, I_d / d), nearly orthonormal), with variances scale * i^-alpha along them, plus isotropic
 *   noise: the decaying within-class spectra of real features, which decide how hard the top-q eigenproblem is.</li>
 * </ul>
 */
final class SyntheticClasses {
    enum Model { SHARED, POWER_LAW }

    private final Model model;
    private final int dim;
    private final int rank;
    private final double sep;
    private final double noise;
    private final double alpha;
    private final double scale;
    private final long seed;
    /** rank x d shared basis (shared model only). */
    private final double[] sharedBasis;

    SyntheticClasses(Model model, int dim, int rank, double sep, double noise, double alpha, double scale, long seed) {
        this.model = model;
        this.dim = dim;
        this.rank = Math.min(rank, dim);
        this.sep = sep;
        this.noise = noise;
        this.alpha = alpha;
        this.scale = scale;
        this.seed = seed;
        if (model == Model.SHARED) {
            ZigguratSampler.NormalizedGaussian g = gaussian(RandomStreams.derive(seed, "basis"));
            sharedBasis = new double[this.rank * dim];
            for (int i = 0; i < sharedBasis.length; i++) {
                sharedBasis[i] = g.sample();
            }
            TopEigen.orthonormaliseRows(sharedBasis, this.rank, dim);
        } else {
            sharedBasis = null;
        }
    }

    private static ZigguratSampler.NormalizedGaussian gaussian(long s) {
        return ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(s));
    }

    int dimension() {
        return dim;
    }

    /**
     * {@code n} samples of class {@code c}; {@code part} selects an independent sample stream of the class (0 for
     * training, 1 for test queries, ...), and rows are written to {@code x} from row {@code offset}.
     */
    void sample(int c, int n, int part, float[] x, int offset) {
        long classSeed = RandomStreams.derive(seed, c);
        ZigguratSampler.NormalizedGaussian shape = gaussian(RandomStreams.derive(classSeed, "shape"));
        ZigguratSampler.NormalizedGaussian g = gaussian(RandomStreams.derive(classSeed, part + 1));
        int d = dim;
        double[] z = new double[rank];
        if (model == Model.SHARED) {
            double[] centre = new double[rank];
            for (int j = 0; j < rank; j++) {
                centre[j] = sep * shape.sample();
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < rank; j++) {
                    z[j] = centre[j] + g.sample();
                }
                emit(x, (offset + i) * d, sharedBasis, z, null, g);
            }
            return;
        }
        double[] mean = new double[d];
        for (int t = 0; t < d; t++) {
            mean[t] = sep * shape.sample();
        }
        double[] directions = new double[rank * d];
        double norm = 1.0 / Math.sqrt(d);
        for (int i = 0; i < directions.length; i++) {
            directions[i] = norm * shape.sample();
        }
        double[] sd = new double[rank];
        for (int j = 0; j < rank; j++) {
            sd[j] = Math.sqrt(scale * Math.pow(j + 1, -alpha));
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < rank; j++) {
                z[j] = sd[j] * g.sample();
            }
            emit(x, (offset + i) * d, directions, z, mean, g);
        }
    }

    /** x[off..off+d) = mean + sum_j z_j dir_j + noise * e. */
    private void emit(float[] x, int off, double[] dirs, double[] z, double[] mean, ZigguratSampler.NormalizedGaussian g) {
        int d = dim;
        double[] row = new double[d];
        for (int j = 0; j < rank; j++) {
            double zj = z[j];
            int o = j * d;
            for (int t = 0; t < d; t++) {
                row[t] += zj * dirs[o + t];
            }
        }
        for (int t = 0; t < d; t++) {
            x[off + t] = (float) ((mean == null ? 0 : mean[t]) + row[t] + noise * g.sample());
        }
    }

    /** {@code perClass} samples of each class in {@code [from, to)}, class-major. */
    LabeledData classes(int from, int to, int perClass, int part) {
        int n = (to - from) * perClass;
        float[] x = new float[n * dim];
        int[] y = new int[n];
        for (int c = from; c < to; c++) {
            sample(c, perClass, part, x, (c - from) * perClass);
            java.util.Arrays.fill(y, (c - from) * perClass, (c - from + 1) * perClass, c);
        }
        return new LabeledData(FeatureMatrix.wrap(n, dim, x), y);
    }
}
