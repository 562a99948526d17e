package fsil.data.sets;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.core.synthetic.GaussianClasses;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.SplitSet;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Seeded Gaussian class clusters in a random low-rank subspace plus isotropic noise, for scale tests (any number
 * of classes) and for checking methods against a known ground truth.
 * <p>
 * Model (core's {@link GaussianClasses} with its default parts): U is a random dim x rank matrix with orthonormal
 * columns (Gram-Schmidt of a Gaussian matrix). Class c has a centre {@code mu_c = sep * z_c},
 * {@code z_c ~ N(0, I_rank)}. A sample of class c is {@code x = U (mu_c + w) + noise * e} with
 * {@code w ~ N(0, I_rank)} and {@code e ~ N(0, I_dim)}. So the within-class covariance is
 * {@code U U^T + noise^2 I} and {@code sep} is the spread of the class centres in units of the within-class standard
 * deviation along the subspace. Everything is drawn from streams derived from
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

    /** The dataset's model in core's generator: its default parts with this data set's parameters. */
    static GaussianClasses model(Params p) {
        return GaussianClasses.builder(p.dim(), p.seed()).means(p.rank(), p.sep()).noise(p.noise()).build();
    }

    /** The true class centres in input space (classes x dim, row-major): {@code U mu_c}. */
    public static double[] classMeans(Params p) {
        GaussianClasses model = model(p);
        double[] out = new double[p.classes() * p.dim()];
        for (int c = 0; c < p.classes(); c++) {
            System.arraycopy(model.mean(c, 0), 0, out, c * p.dim(), p.dim());
        }
        return out;
    }

    /** Each class's first per_class samples are its training rows, the next test_per_class its test rows. */
    public static RawDataset generate(Params p) {
        GaussianClasses model = model(p);
        int d = p.dim();
        int nTrain = p.classes() * p.perClass();
        int nTest = p.classes() * p.testPerClass();
        float[] xTrain = new float[nTrain * d];
        float[] xTest = new float[nTest * d];
        int[] yTrain = new int[nTrain];
        int[] yTest = new int[nTest];
        float[] rows = new float[(p.perClass() + p.testPerClass()) * d];
        for (int c = 0; c < p.classes(); c++) {
            model.sample(c, 0, p.perClass() + p.testPerClass(), rows, 0);
            System.arraycopy(rows, 0, xTrain, c * p.perClass() * d, p.perClass() * d);
            System.arraycopy(rows, p.perClass() * d, xTest, c * p.testPerClass() * d, p.testPerClass() * d);
            Arrays.fill(yTrain, c * p.perClass(), (c + 1) * p.perClass(), c);
            Arrays.fill(yTest, c * p.testPerClass(), (c + 1) * p.testPerClass(), c);
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
