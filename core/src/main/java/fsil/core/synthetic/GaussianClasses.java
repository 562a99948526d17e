package fsil.core.synthetic;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

import java.util.Arrays;

/**
 * Seeded Gaussian classes: fsil's one synthetic-data generator, behind the {@code synthetic} dataset, the benchmarks
 * and the method tests. Each use switches on the parts of the model it stresses.
 *
 * <p>A sample of class c in dimension d is
 * <pre>
 *   x = o + U (mu_{c,m} + w) + B h + V_c z + diag(sigma) e
 * </pre>
 * <ul>
 *   <li>U: a d x r basis with orthonormal columns shared by all classes (Gram-Schmidt of a Gaussian matrix);
 *   mu_{c,m} ~ N(0, spread^2 I_r) the centre of mode m of class c; with several modes a sample picks one uniformly
 *   ({@link Builder#means}, {@link Builder#modes});</li>
 *   <li>w ~ N(0, s^2 I_r): within-class spread inside the class subspace ({@link Builder#subspaceNoise});</li>
 *   <li>o: a shared offset, o_j ~ N(offsetMean, offsetSd^2), as features after a ReLU are not centred
 *   ({@link Builder#offset});</li>
 *   <li>B h: shared nuisance directions, h ~ N(0, sd^2 I_k) ({@link Builder#nuisance});</li>
 *   <li>V_c z: directions of class c's own, z_i ~ N(0, scale i^-alpha): the decaying within-class spectra of real
 *   features ({@link Builder#classDirections});</li>
 *   <li>diag(sigma) e, e ~ N(0, I_d): noise, isotropic ({@link Builder#noise}) or with per-dimension scales
 *   log-uniform in [low, high] ({@link Builder#noiseLogUniform}).</li>
 * </ul>
 * Nuisance and class directions have N(0, 1/d) entries: nearly orthonormal when there are far fewer than d, and
 * cheap for thousands of classes. The default model is the {@code synthetic} dataset's: rank min(16, d), spread 2,
 * one mode, within-class spread 1 in the subspace, isotropic noise 0.5, nothing else.
 *
 * <p>Random streams: U from {@code derive(seed, "basis")}; the offset, then the noise scales, then the nuisance
 * directions from {@code derive(seed, "shared")}; class c from {@code child(derive(seed, "classes"), c)}: its mode
 * centres, then its directions, then its samples. A sample draws its mode, then w, h, z and e. So a class's data do
 * not depend on how many classes there are. Further independent sample streams of a class (part p &gt;= 1, e.g.
 * test queries) come from {@code child(derive(seed, "classes-part" + p), c)}.
 */
public final class GaussianClasses {
    private final int dim;
    private final int rank;
    private final double spread;
    private final int modes;
    private final double subspaceNoise;
    private final int nuisance;
    private final double nuisanceSd;
    private final int directions;
    private final double[] directionSd;
    private final long seed;
    /** U, column-major: column k is basis[k*dim .. k*dim+dim-1]. */
    private final double[] basis;
    /** o, or null. */
    private final double[] offset;
    private final double[] sigma;
    /** B, row-major d x nuisance. */
    private final double[] nuisanceBasis;

    private GaussianClasses(Builder b) {
        dim = b.dim;
        rank = b.rank == 0 ? Math.min(16, dim) : b.rank;
        spread = b.spread;
        modes = b.modes;
        subspaceNoise = b.subspaceNoise;
        nuisance = b.nuisance;
        nuisanceSd = b.nuisanceSd;
        directions = b.directions;
        seed = b.seed;
        directionSd = new double[directions];
        for (int i = 0; i < directions; i++) {
            directionSd[i] = Math.sqrt(b.directionScale * Math.pow(i + 1, -b.directionDecay));
        }
        basis = orthonormalBasis(dim, rank, RandomStreams.derive(seed, "basis"));
        UniformRandomProvider shared = RandomStreams.create(RandomStreams.derive(seed, "shared"));
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(shared);
        if (b.offsetMean != 0 || b.offsetSd != 0) {
            offset = new double[dim];
            for (int j = 0; j < dim; j++) {
                offset[j] = b.offsetMean + b.offsetSd * g.sample();
            }
        } else {
            offset = null;
        }
        sigma = new double[dim];
        if (b.noiseLow > 0) {
            double ratio = b.noiseHigh / b.noiseLow;
            for (int j = 0; j < dim; j++) {
                sigma[j] = b.noiseLow * Math.pow(ratio, shared.nextDouble());
            }
        } else {
            Arrays.fill(sigma, b.noise);
        }
        nuisanceBasis = gaussianDirections(g, dim * nuisance, dim);
    }

    /** A model of dimension {@code dim} drawn from {@code seed}, with the default parts (see the class comment). */
    public static Builder builder(int dim, long seed) {
        return new Builder(dim, seed);
    }

    /**
     * Features as a backbone gives them, for transductive methods' tests and benchmarks: not centred (a shared
     * offset N(0.5, 0.25^2) per dimension, as after a ReLU), class means in a shared subspace of min(dim, 32)
     * dimensions with a norm of about {@code separation * sqrt(dim)} and no spread inside it, noise scales
     * log-uniform in [0.3, 3] per dimension and {@code nuisance} shared directions with standard deviation
     * {@code nuisanceSd * sqrt(dim)}: anisotropic within-class noise, which whitening with the base classes' scatter
     * is meant to remove.
     */
    public static Builder backboneFeatures(int dim, long seed, double separation, int nuisance, double nuisanceSd) {
        int latent = Math.min(dim, 32);
        return builder(dim, seed).means(latent, separation * Math.sqrt(dim / (double) latent)).subspaceNoise(0)
                .offset(0.5, 0.25).noiseLogUniform(0.3, 3).nuisance(nuisance, nuisanceSd * Math.sqrt(dim));
    }

    public int dim() {
        return dim;
    }

    public int rank() {
        return rank;
    }

    /** The basis U, column-major (column k is {@code [k*dim, k*dim + dim)}); a copy. */
    public double[] basis() {
        return basis.clone();
    }

    /** The true mean of class {@code c}'s mode {@code mode}: o + U mu_{c,mode}. */
    public double[] mean(int c, int mode) {
        if (mode < 0 || mode >= modes) {
            throw new IllegalArgumentException("mode " + mode + " of " + modes);
        }
        return shape(c).means[mode].clone();
    }

    /**
     * Rows {@code [0, n)} of class {@code c}'s sample stream {@code part} written to {@code x} (row-major,
     * {@code dim} columns) from row {@code firstRow}.
     */
    public void sample(int c, int part, int n, float[] x, int firstRow) {
        Shape s = shape(c);
        UniformRandomProvider r = part == 0 ? s.rest
                : RandomStreams.child(RandomStreams.derive(seed, "classes-part" + part), c);
        ZigguratSampler.NormalizedGaussian g = part == 0 ? s.restGaussian : ZigguratSampler.NormalizedGaussian.of(r);
        double[] coef = new double[rank];
        double[] h = new double[Math.max(nuisance, directions)];
        double[] row = new double[dim];
        for (int i = 0; i < n; i++) {
            int m = modes == 1 ? 0 : r.nextInt(modes);
            if (subspaceNoise > 0) {
                double[] centre = s.centres[m];
                for (int k = 0; k < rank; k++) {
                    coef[k] = centre[k] + subspaceNoise * g.sample();
                }
                project(coef, row);
                if (offset != null) {
                    for (int j = 0; j < dim; j++) {
                        row[j] += offset[j];
                    }
                }
            } else {
                System.arraycopy(s.means[m], 0, row, 0, dim);
            }
            if (nuisance > 0) {
                for (int t = 0; t < nuisance; t++) {
                    h[t] = nuisanceSd * g.sample();
                }
                addRowMajor(nuisanceBasis, nuisance, h, row);
            }
            if (directions > 0) {
                for (int t = 0; t < directions; t++) {
                    h[t] = directionSd[t] * g.sample();
                }
                addRowMajor(s.directions, directions, h, row);
            }
            int at = (firstRow + i) * dim;
            for (int j = 0; j < dim; j++) {
                x[at + j] = (float) (row[j] + sigma[j] * g.sample());
            }
        }
    }

    /** {@code perClass} rows of each class in {@code classes} from stream {@code part}, class by class. */
    public LabeledData sample(int[] classes, int perClass, int part) {
        int n = classes.length * perClass;
        float[] x = new float[Math.multiplyExact(n, dim)];
        int[] y = new int[n];
        for (int i = 0; i < classes.length; i++) {
            sample(classes[i], part, perClass, x, i * perClass);
            Arrays.fill(y, i * perClass, (i + 1) * perClass, classes[i]);
        }
        return new LabeledData(FeatureMatrix.wrap(n, dim, x), y);
    }

    /** {@code perClass} rows of each class in {@code [from, to)} from stream {@code part}, class by class. */
    public LabeledData classes(int from, int to, int perClass, int part) {
        int[] ids = new int[to - from];
        Arrays.setAll(ids, i -> from + i);
        return sample(ids, perClass, part);
    }

    /** A class's draws before its samples, and its stream positioned at its first sample. */
    private record Shape(double[][] centres, double[][] means, double[] directions, UniformRandomProvider rest,
                         ZigguratSampler.NormalizedGaussian restGaussian) {
    }

    private Shape shape(int c) {
        UniformRandomProvider r = RandomStreams.child(RandomStreams.derive(seed, "classes"), c);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(r);
        double[][] centres = new double[modes][rank];
        double[][] means = new double[modes][dim];
        for (int m = 0; m < modes; m++) {
            for (int k = 0; k < rank; k++) {
                centres[m][k] = spread * g.sample();
            }
            project(centres[m], means[m]);
            if (offset != null) {
                for (int j = 0; j < dim; j++) {
                    means[m][j] += offset[j];
                }
            }
        }
        double[] dirs = gaussianDirections(g, dim * directions, dim);
        return new Shape(centres, means, dirs, r, g);
    }

    /** out = U coef, summed column by column. */
    private void project(double[] coef, double[] out) {
        Arrays.fill(out, 0);
        for (int k = 0; k < rank; k++) {
            double a = coef[k];
            int col = k * dim;
            for (int i = 0; i < dim; i++) {
                out[i] += a * basis[col + i];
            }
        }
    }

    /** out += M h for a row-major d x k matrix M. */
    private void addRowMajor(double[] m, int k, double[] h, double[] out) {
        for (int j = 0; j < dim; j++) {
            double s = 0;
            int o = j * k;
            for (int t = 0; t < k; t++) {
                s += m[o + t] * h[t];
            }
            out[j] += s;
        }
    }

    private static double[] gaussianDirections(ZigguratSampler.NormalizedGaussian g, int size, int dim) {
        double[] m = new double[size];
        double sd = 1 / Math.sqrt(dim);
        for (int i = 0; i < size; i++) {
            m[i] = sd * g.sample();
        }
        return m;
    }

    /** A dim x rank matrix with orthonormal columns (column-major): Gram-Schmidt, twice, of Gaussian columns. */
    static double[] orthonormalBasis(int dim, int rank, long streamSeed) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(streamSeed));
        double[] u = new double[dim * rank];
        for (int k = 0; k < rank; k++) {
            int off = k * dim;
            // draw until the column is not (numerically) in the span of the previous ones
            while (true) {
                for (int i = 0; i < dim; i++) {
                    u[off + i] = g.sample();
                }
                for (int pass = 0; pass < 2; pass++) {
                    for (int j = 0; j < k; j++) {
                        double dot = 0;
                        for (int i = 0; i < dim; i++) {
                            dot += u[j * dim + i] * u[off + i];
                        }
                        for (int i = 0; i < dim; i++) {
                            u[off + i] -= dot * u[j * dim + i];
                        }
                    }
                }
                double norm = 0;
                for (int i = 0; i < dim; i++) {
                    norm += u[off + i] * u[off + i];
                }
                norm = Math.sqrt(norm);
                if (norm > 1e-6) {
                    for (int i = 0; i < dim; i++) {
                        u[off + i] /= norm;
                    }
                    break;
                }
            }
        }
        return u;
    }

    /** The model's parts; every setter returns this. */
    public static final class Builder {
        private final int dim;
        private final long seed;
        private int rank;
        private double spread = 2.0;
        private int modes = 1;
        private double subspaceNoise = 1.0;
        private double noise = 0.5;
        private double noiseLow;
        private double noiseHigh;
        private double offsetMean;
        private double offsetSd;
        private int nuisance;
        private double nuisanceSd;
        private int directions;
        private double directionScale;
        private double directionDecay;

        private Builder(int dim, long seed) {
            if (dim < 1) {
                throw new IllegalArgumentException("dimension " + dim + " < 1");
            }
            this.dim = dim;
            this.seed = seed;
        }

        /** Class centres N(0, spread^2 I) in a shared orthonormal basis of {@code rank} columns (1..dim). */
        public Builder means(int rank, double spread) {
            if (rank < 1 || rank > dim || !(spread >= 0) || Double.isInfinite(spread)) {
                throw new IllegalArgumentException("need 1 <= rank <= " + dim + " and a finite spread >= 0; got rank "
                        + rank + ", spread " + spread);
            }
            this.rank = rank;
            this.spread = spread;
            return this;
        }

        /** Equally likely modes per class, each with its own centre: non-convex classes. */
        public Builder modes(int modes) {
            if (modes < 1) {
                throw new IllegalArgumentException("modes " + modes + " < 1");
            }
            this.modes = modes;
            return this;
        }

        /** Within-class standard deviation inside the class subspace (0: none). */
        public Builder subspaceNoise(double sd) {
            this.subspaceNoise = nonNegative("subspace noise", sd);
            return this;
        }

        /** Isotropic noise of standard deviation {@code sd} in every dimension. */
        public Builder noise(double sd) {
            this.noise = nonNegative("noise", sd);
            this.noiseLow = 0;
            return this;
        }

        /** Noise whose standard deviation in each dimension is log-uniform in [low, high], drawn once per model. */
        public Builder noiseLogUniform(double low, double high) {
            if (!(low > 0) || !(high >= low) || Double.isInfinite(high)) {
                throw new IllegalArgumentException("need 0 < low <= high; got " + low + ", " + high);
            }
            this.noiseLow = low;
            this.noiseHigh = high;
            return this;
        }

        /** A shared offset with coordinates N(mean, sd^2). */
        public Builder offset(double mean, double sd) {
            this.offsetMean = finite("offset mean", mean);
            this.offsetSd = nonNegative("offset sd", sd);
            return this;
        }

        /** {@code count} shared nuisance directions, each with standard deviation {@code sd}. */
        public Builder nuisance(int count, double sd) {
            this.nuisance = count(count);
            this.nuisanceSd = nonNegative("nuisance sd", sd);
            return this;
        }

        /** {@code count} directions per class with variances {@code scale * i^-decay}, i = 1..count. */
        public Builder classDirections(int count, double scale, double decay) {
            this.directions = count(count);
            this.directionScale = nonNegative("direction scale", scale);
            this.directionDecay = finite("decay", decay);
            return this;
        }

        public GaussianClasses build() {
            return new GaussianClasses(this);
        }

        private static int count(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("count " + n + " < 0");
            }
            return n;
        }

        private static double nonNegative(String what, double v) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException(what + " must be finite and >= 0; got " + v);
            }
            return v;
        }

        private static double finite(String what, double v) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(what + " must be finite; got " + v);
            }
            return v;
        }
    }
}
