package fsil.methods.baselines;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.core.cluster.SoftKMeans;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Transductive soft k-means, the baseline of BAVARDAGE (spec bavardage.md §2): centroids start at the support
 * means; each of {@code iterations} rounds computes p_nk = softmax_k(-T * ||x_n - mu_k||^2) for the queries,
 * keeps support rows one-hot at their labels, and re-estimates mu_k = sum_n p_nk x_n / sum_n p_nk over support
 * and queries. The output is p from the last round (as in the official code, the final centroid update is not
 * used). Features are L2-normalised first when {@code normalize} is true (the code runs it on normalised
 * features).
 */
public final class SoftKMeansMethod implements Method {
    public static final Param<Double> TEMPERATURE = Param.real("temperature", 10.0, 1e-9, 1e9,
            "T multiplying the squared distances in the softmax (BAVARDAGE's T_km)");
    public static final Param<Integer> ITERATIONS = Param.integer("iterations", 5, 1, 10_000,
            "number of soft assignment rounds (n_km = 5 in the BAVARDAGE code)");
    public static final Param<Boolean> NORMALIZE = Param.bool("normalize", true,
            "L2-normalise support and query features first");

    @Override
    public String id() {
        return "soft-kmeans";
    }

    @Override
    public String description() {
        return "Transductive soft k-means from support means, support rows clamped (BAVARDAGE baseline)";
    }

    @Override
    public String reference() {
        return "Hu, Pateux, Gripon (BAVARDAGE), soft k-means initialisation";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TRANSDUCTIVE_FEWSHOT);
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of(TEMPERATURE, ITERATIONS, NORMALIZE);
    }

    @Override
    public Learner learner(Params params, Background background) {
        double t = params.get(TEMPERATURE);
        int iters = params.get(ITERATIONS);
        boolean normalize = params.get(NORMALIZE);
        return ctx -> new Session() {
            private LabeledData support;

            @Override
            public void learn(LabeledData data) {
                NcmMethod.checkDimension(data.dimension(), ctx.dimension());
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
                return softKMeans(support, queries, t, iters, normalize);
            }

            @Override
            public long memoryBytes() {
                return support == null ? 0 : support.size() * (support.dimension() * 4L + 4L);
            }
        };
    }

    /** Soft k-means over support and queries together (core's {@link SoftKMeans}); the queries' assignments. */
    static Prediction softKMeans(LabeledData support, FeatureMatrix queries, double t, int iters, boolean normalize) {
        int d = support.dimension();
        int[] classes = support.classes();
        int c = classes.length;
        int ns = support.size();
        int nq = queries.rows();
        double[] x = new double[(ns + nq) * d];
        System.arraycopy(toDouble(support.features(), normalize), 0, x, 0, ns * d);
        System.arraycopy(toDouble(queries, normalize), 0, x, ns * d, nq * d);
        int[] ys = new int[ns];
        for (int i = 0; i < ns; i++) {
            ys[i] = java.util.Arrays.binarySearch(classes, support.labels()[i]);
        }
        double[] r = SoftKMeans.run(x, ns + nq, d, ys, c, t, iters);
        return Prediction.of(classes, java.util.Arrays.copyOfRange(r, ns * c, (ns + nq) * c));
    }

    private static double[] toDouble(FeatureMatrix m, boolean normalize) {
        int n = m.rows();
        int d = m.cols();
        double[] out = new double[n * d];
        float[] x = m.rawData();
        for (int i = 0; i < n; i++) {
            double norm = 0;
            for (int j = 0; j < d; j++) {
                out[i * d + j] = x[i * d + j];
                norm += out[i * d + j] * out[i * d + j];
            }
            if (normalize && norm > 0) {
                double s = 1 / Math.sqrt(norm);
                for (int j = 0; j < d; j++) {
                    out[i * d + j] *= s;
                }
            }
        }
        return out;
    }
}
