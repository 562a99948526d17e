package fsil.data.sets;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Seeded Gaussian class clusters in a random low-rank subspace plus isotropic noise, for scale tests (any number
 * of classes) and for checking methods against a known ground truth.
 * <p>
 * Model: U is a random dim x rank matrix with orthonormal columns (Gram-Schmidt of a Gaussian matrix). Class c has
 * a centre {@code mu_c = sep * z_c}, {@code z_c ~ N(0, I_rank)}. A sample of class c is
 * {@code x = U (mu_c + w) + noise * e} with {@code w ~ N(0, I_rank)} and {@code e ~ N(0, I_dim)}. So the
 * within-class covariance is {@code U U^T + noise^2 I} and {@code sep} is the spread of the class centres in units
 * of the within-class standard deviation along the subspace. Everything is drawn from streams derived from
 * {@code seed}: the basis from {@code derive(seed, "basis")}, class c (centre, then its training samples, then its
 * test samples) from {@code child(derive(seed, "classes"), c)}, so a class's data does not depend on how many other
 * classes there are.
 * <p>
 * Written {@code synthetic[key=value,...]} with the parameters {@code classes} (default 10), {@code dim} (64),
 * {@code per_class} (training samples per class, 50), {@code test_per_class} (20), {@code rank} (0 = min(16, dim)),
 * {@code sep} (2.0), {@code noise} (0.5) and {@code seed} (1), e.g.
 * {@code synthetic[classes=10000,dim=64,per_class=20,rank=16,sep=3]} (declared by the dataset plugin,
 * {@link BuiltinDatasets.Synthetic}). Base classes are the first half of the class
 * ids, novel classes the second half; no validation classes; FSCIL sessions by rule (see {@link #fscil}).
 */
public final class SyntheticDataset {
    public static final String NAME = "synthetic";

    /** The generator's parameters. */
    public record Params(int classes, int dim, int perClass, int testPerClass, int rank, double sep, double noise,
                         long seed) {

        public Params {
            if (classes < 2 || dim < 1 || perClass < 1 || testPerClass < 0 || rank < 1 || rank > dim
                    || !(sep >= 0) || !(noise >= 0) || !Double.isFinite(sep) || !Double.isFinite(noise)) {
                throw new FsilException("synthetic: need classes >= 2, dim >= 1, per_class >= 1, test_per_class"
                        + " >= 0, 1 <= rank <= dim, sep >= 0 and noise >= 0; got " + this);
            }
            long values = (long) classes * (perClass + testPerClass) * dim;
            if (values > Integer.MAX_VALUE - 64L) {
                throw new FsilException("synthetic: " + classes + " classes x " + (perClass + testPerClass)
                        + " samples x " + dim + " dimensions = " + values + " values is too large for one matrix;"
                        + " reduce classes, per_class or dim");
            }
        }

        public static Params defaults() {
            return new Params(10, 64, 50, 20, 16, 2.0, 0.5, 1);
        }

        /** Canonical dataset name with every parameter. */
        public String name() {
            return String.format(Locale.ROOT, "%s:classes=%d,dim=%d,per_class=%d,test_per_class=%d,rank=%d,sep=%s,"
                    + "noise=%s,seed=%d", NAME, classes, dim, perClass, testPerClass, rank, sep, noise, seed);
        }
    }

    private SyntheticDataset() {
    }

    /** The orthonormal basis U, column-major: column k is {@code u[k*dim .. k*dim+dim-1]}. */
    static double[] basis(Params p) {
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(p.seed(), "basis"));
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        int d = p.dim();
        double[] u = new double[d * p.rank()];
        for (int k = 0; k < p.rank(); k++) {
            int off = k * d;
            // draw until the column is not (numerically) in the span of the previous ones
            while (true) {
                for (int i = 0; i < d; i++) {
                    u[off + i] = g.sample();
                }
                for (int pass = 0; pass < 2; pass++) { // re-orthogonalise once for accuracy
                    for (int j = 0; j < k; j++) {
                        double dot = 0;
                        for (int i = 0; i < d; i++) {
                            dot += u[j * d + i] * u[off + i];
                        }
                        for (int i = 0; i < d; i++) {
                            u[off + i] -= dot * u[j * d + i];
                        }
                    }
                }
                double norm = 0;
                for (int i = 0; i < d; i++) {
                    norm += u[off + i] * u[off + i];
                }
                norm = Math.sqrt(norm);
                if (norm > 1e-6) {
                    for (int i = 0; i < d; i++) {
                        u[off + i] /= norm;
                    }
                    break;
                }
            }
        }
        return u;
    }

    /** The true class centres in input space (classes x dim, row-major): {@code U mu_c}. */
    public static double[] classMeans(Params p) {
        double[] u = basis(p);
        double[] out = new double[p.classes() * p.dim()];
        double[] mu = new double[p.rank()];
        long classSeed = RandomStreams.derive(p.seed(), "classes");
        for (int c = 0; c < p.classes(); c++) {
            ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(
                    RandomStreams.child(classSeed, c));
            for (int k = 0; k < p.rank(); k++) {
                mu[k] = p.sep() * g.sample();
            }
            project(u, mu, p.dim(), out, c * p.dim());
        }
        return out;
    }

    private static void project(double[] u, double[] coef, int d, double[] out, int off) {
        for (int i = 0; i < d; i++) {
            out[off + i] = 0;
        }
        for (int k = 0; k < coef.length; k++) {
            double a = coef[k];
            int col = k * d;
            for (int i = 0; i < d; i++) {
                out[off + i] += a * u[col + i];
            }
        }
    }

    public static RawDataset generate(Params p) {
        double[] u = basis(p);
        int d = p.dim();
        int r = p.rank();
        int nTrain = p.classes() * p.perClass();
        int nTest = p.classes() * p.testPerClass();
        float[] xTrain = new float[nTrain * d];
        float[] xTest = new float[nTest * d];
        int[] yTrain = new int[nTrain];
        int[] yTest = new int[nTest];
        double[] mu = new double[r];
        double[] coef = new double[r];
        double[] x = new double[d];
        long classSeed = RandomStreams.derive(p.seed(), "classes");
        for (int c = 0; c < p.classes(); c++) {
            ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(
                    RandomStreams.child(classSeed, c));
            for (int k = 0; k < r; k++) {
                mu[k] = p.sep() * g.sample();
            }
            for (int s = 0; s < p.perClass() + p.testPerClass(); s++) {
                for (int k = 0; k < r; k++) {
                    coef[k] = mu[k] + g.sample();
                }
                project(u, coef, d, x, 0);
                boolean train = s < p.perClass();
                int row = train ? c * p.perClass() + s : c * p.testPerClass() + (s - p.perClass());
                float[] dst = train ? xTrain : xTest;
                for (int i = 0; i < d; i++) {
                    dst[row * d + i] = (float) (x[i] + p.noise() * g.sample());
                }
                (train ? yTrain : yTest)[row] = c;
            }
        }
        int half = p.classes() / 2;
        SplitSet splits = new SplitSet(IntStream.range(0, half).toArray(), new int[0],
                IntStream.range(half, p.classes()).toArray(), Optional.of(fscil(p, half)));
        return new RawDataset(p.name(), ClassTable.numbered(p.classes()),
                new LabeledData(FeatureMatrix.wrap(nTrain, d, xTrain), yTrain),
                new LabeledData(FeatureMatrix.wrap(nTest, d, xTest), yTest), splits, 0);
    }

    /**
     * FSCIL sessions by rule (the data are generated, so nothing needs committing): base = the base classes, then
     * the novel classes in id order in sessions of 5 (the last may be smaller), each with its first
     * min(5, per_class) training samples as shots.
     */
    static SplitSet.FscilSplit fscil(Params p, int half) {
        int shots = Math.min(5, p.perClass());
        java.util.List<int[]> sessions = new java.util.ArrayList<>();
        for (int from = half; from < p.classes(); from += 5) {
            int to = Math.min(p.classes(), from + 5);
            int[] rows = new int[(to - from) * shots];
            for (int c = from; c < to; c++) {
                for (int s = 0; s < shots; s++) {
                    rows[(c - from) * shots + s] = c * p.perClass() + s;
                }
            }
            sessions.add(rows);
        }
        return new SplitSet.FscilSplit(IntStream.range(0, half).toArray(), sessions);
    }

    public static DatasetInfo info() {
        Params p = Params.defaults();
        long tr = (long) p.classes() * p.perClass();
        long te = (long) p.classes() * p.testPerClass();
        return new DatasetInfo(NAME, "seeded Gaussian class clusters in a random low-rank subspace plus isotropic"
                + " noise; parameters synthetic:classes=10,dim=64,per_class=50,test_per_class=20,rank=16,sep=2.0,"
                + "noise=0.5,seed=1 (shown: defaults)", true, "generated in memory on load", tr + te,
                p.classes(), p.dim(), tr, te, List.of("base/validation/novel: first half / none / second half of the"
                + " class ids", "class order (order_seed 1993, numpy-compatible, computed)",
                "fscil: base classes + sessions of 5 novel classes x 5 shots (by rule)"),
                "generated; no licence restrictions");
    }
}
