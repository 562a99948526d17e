package fsil.methods.baselines;

import fsil.api.AbstractMethod;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.core.cluster.SoftKMeans;
import fsil.core.linalg.CentredL2;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * Transductive soft k-means, the baseline of BAVARDAGE (the authors' {@code soft_km}): centroids start at the support
 * means; each of {@code iterations} rounds computes p_nk = softmax_k(-T * ||x_n - mu_k||^2) for the queries,
 * keeps support rows one-hot at their labels, and re-estimates mu_k = sum_n p_nk x_n / sum_n p_nk over support
 * and queries. The output is p from the last round (as in the official code, the final centroid update is not
 * used).
 *
 * <p>Preprocessing ({@code preprocessing}): {@code paper} (default) is BAVARDAGE's, the paper's "following [42]"
 * (SimpleShot's CL2N, the authors' steps M and E): centre every vector on the plain mean of all base-class
 * features, then L2-normalise, exactly as {@code bavardage[variant=softkmeans]} does (same arithmetic, core's
 * {@link CentredL2}), so the two agree prediction by prediction. Without base classes (a protocol that gives
 * none) there is no base mean: {@code paper} then L2-normalises only, like {@code l2}, and every session reports
 * the diagnostic {@code base_centred} = 0 (1 when the features were centred). {@code l2} is the earlier default
 * (L2 normalisation only), {@code none} uses the raw features.
 */
public final class SoftKMeansMethod extends AbstractMethod {
    public static final Param<Double> TEMPERATURE = Param.real("temperature", 10.0, 1e-9, 1e9,
            "T multiplying the squared distances in the softmax (BAVARDAGE's T_km)");
    public static final Param<Integer> ITERATIONS = Param.integer("iterations", 5, 1, 10_000,
            "number of soft assignment rounds (n_km = 5 in the BAVARDAGE code)");
    public static final Param<Preprocessing> PREPROCESSING = Param.option("preprocessing", Preprocessing.PAPER,
            "paper = centre on the mean of all base-class features, then L2-normalise (BAVARDAGE's preprocessing, "
                    + "same as bavardage[variant=softkmeans]; without base classes L2 only, diagnostic "
                    + "base_centred = 0); l2 = L2-normalise only; none = raw features");

    /** Feature preprocessing before the clustering. */
    public enum Preprocessing {
        /** Centre on the base mean, then L2-normalise (L2 only when there are no base classes). */
        PAPER,
        /** L2 normalisation only. */
        L2,
        /** The raw features. */
        NONE
    }

    public SoftKMeansMethod() {
        super("soft-kmeans", "Transductive soft k-means from support means, support rows clamped (BAVARDAGE baseline)",
                "Hu, Pateux, Gripon (BAVARDAGE), soft k-means initialisation",
                EnumSet.of(Capability.TRANSDUCTIVE_FEWSHOT), List.of(TEMPERATURE, ITERATIONS, PREPROCESSING));
    }

    @Override
    public Learner learner(Params params, Background background) {
        double t = params.get(TEMPERATURE);
        int iters = params.get(ITERATIONS);
        Preprocessing prep = params.get(PREPROCESSING);
        double[] mean = null;
        if (prep == Preprocessing.PAPER && !background.isEmpty()) {
            LabeledData base = background.base();
            base.requireFinite("base features");
            mean = CentredL2.mean(base.features().rawData(), base.size(), base.dimension());
        }
        double[] baseMean = mean;
        boolean normalize = prep != Preprocessing.NONE;
        Map<String, Double> diagnostics = Map.of("base_centred", baseMean == null ? 0.0 : 1.0);
        return ctx -> new Session() {
            private LabeledData support;

            @Override
            public void learn(LabeledData data) {
                NcmMethod.checkDimension(data.dimension(), ctx.dimension());
                if (baseMean != null) {
                    NcmMethod.checkDimension(data.dimension(), baseMean.length);
                }
                data.requireFinite("support features");
                if (data.isEmpty()) {
                    throw new FsilException("soft-kmeans needs a non-empty support set");
                }
                support = data;
            }

            @Override
            public Prediction predict(FeatureMatrix queries) {
                NcmMethod.checkDimension(queries.cols(), ctx.dimension());
                queries.requireFinite("query features");
                if (support == null) {
                    throw new FsilException("soft-kmeans: predict() called before learn()");
                }
                return softKMeans(support, queries, t, iters, baseMean, normalize);
            }

            @Override
            public long memoryBytes() {
                return support == null ? 0 : support.size() * (support.dimension() * 4L + 4L);
            }

            @Override
            public Map<String, Double> diagnostics() {
                return diagnostics;
            }
        };
    }

    /**
     * Soft k-means over support and queries together (core's {@link SoftKMeans}); the queries' assignments.
     *
     * @param mean      base mean to subtract first (null: none)
     * @param normalize L2-normalise (after centring)
     */
    static Prediction softKMeans(LabeledData support, FeatureMatrix queries, double t, int iters, double[] mean,
                                 boolean normalize) {
        int d = support.dimension();
        int[] classes = support.classes();
        int c = classes.length;
        int ns = support.size();
        int nq = queries.rows();
        double[] x = new double[(ns + nq) * d];
        if (normalize) {
            CentredL2.centreAndNormalise(support.features().rawData(), 0, ns, d, mean, x, 0);
            CentredL2.centreAndNormalise(queries.rawData(), 0, nq, d, mean, x, ns);
        } else {
            float[] s = support.features().rawData();
            float[] q = queries.rawData();
            for (int i = 0; i < ns * d; i++) {
                x[i] = s[i];
            }
            for (int i = 0; i < nq * d; i++) {
                x[ns * d + i] = q[i];
            }
        }
        int[] ys = new int[ns];
        for (int i = 0; i < ns; i++) {
            ys[i] = java.util.Arrays.binarySearch(classes, support.labels()[i]);
        }
        double[] r = SoftKMeans.run(x, ns + nq, d, ys, c, t, iters);
        return Prediction.of(classes, java.util.Arrays.copyOfRange(r, ns * c, (ns + nq) * c));
    }
}
