package fsil.methods.baselines;

import fsil.core.linalg.Distances;
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

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/**
 * k-nearest neighbours on squared Euclidean or cosine distance. Probabilities are the vote shares of the k
 * neighbours, weighted by inverse distance by default (with uniform votes and k larger than the number of shots,
 * 1-shot episodes would end in a k-way tie), smoothed by adding {@code alpha} to every class
 * (alpha = 0 gives the raw vote shares). Ties in distance go to the earlier training sample.
 */
public final class KnnMethod extends AbstractMethod {
    public static final Param<Integer> K = Param.integer("k", 5, 1, 100_000,
            "number of neighbours (capped at the number of training samples)");
    public static final Param<Metric> METRIC = Param.option("metric", Metric.EUCLIDEAN,
            "distance: euclidean or cosine");
    public static final Param<Weights> WEIGHTS = Param.option("weights", Weights.DISTANCE,
            "vote weights: distance (1 / (Euclidean distance + 1e-12), the default, so k > shots still ranks the "
                    + "nearest class first) or uniform");

    /** How the k neighbours' votes are weighted. */
    public enum Weights { UNIFORM, DISTANCE }
    public static final Param<Double> ALPHA = Param.real("alpha", 0.0, 0.0, 1e6,
            "additive smoothing of the vote shares, so unseen classes keep a small probability");

    public KnnMethod() {
        super("knn", "k-nearest neighbours (Euclidean or cosine), vote shares as probabilities", "",
                EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL,
                        Capability.FEWSHOT_CLASS_INCREMENTAL),
                List.of(K, METRIC, WEIGHTS, ALPHA));
    }

    @Override
    public Learner learner(Params params, Background background) {
        int k = params.get(K);
        boolean cosine = params.get(METRIC) == Metric.COSINE;
        boolean byDistance = params.get(WEIGHTS) == Weights.DISTANCE;
        double alpha = params.get(ALPHA);
        return ctx -> new KnnSession(ctx.dimension(), k, cosine, byDistance, alpha);
    }

    static final class KnnSession implements Session {
        private final int dim;
        private final int k;
        private final boolean cosine;
        private final boolean byDistance;
        private final double alpha;
        private float[] x = new float[0];
        private int[] y = new int[0];
        private int n;

        KnnSession(int dim, int k, boolean cosine, boolean byDistance, double alpha) {
            this.dim = dim;
            this.k = k;
            this.cosine = cosine;
            this.byDistance = byDistance;
            this.alpha = alpha;
        }

        @Override
        public void learn(LabeledData data) {
            NcmMethod.checkDimension(data.dimension(), dim);
            data.requireFinite("training features");
            int m = data.size();
            x = Arrays.copyOf(x, (n + m) * dim);
            y = Arrays.copyOf(y, n + m);
            float[] src = data.features().rawData();
            for (int i = 0; i < m; i++) {
                int off = (n + i) * dim;
                double norm = 0;
                for (int j = 0; j < dim; j++) {
                    norm += (double) src[i * dim + j] * src[i * dim + j];
                }
                double scale = cosine && norm > 0 ? 1 / Math.sqrt(norm) : 1;
                for (int j = 0; j < dim; j++) {
                    x[off + j] = (float) (src[i * dim + j] * scale);
                }
                y[n + i] = data.labels()[i];
            }
            n += m;
        }

        @Override
        public Prediction predict(FeatureMatrix queries) {
            NcmMethod.checkDimension(queries.cols(), dim);
            queries.requireFinite("query features");
            if (n == 0) {
                throw new FsilException("knn: predict() called before any class was learned");
            }
            int[] classes = Arrays.stream(y, 0, n).distinct().sorted().toArray();
            int c = classes.length;
            int kk = Math.min(k, n);
            double[] probs = new double[queries.rows() * c];
            double[] q = new double[dim];
            double[] bestD = new double[kk];
            int[] bestI = new int[kk];
            float[] qx = queries.rawData();
            for (int i = 0; i < queries.rows(); i++) {
                double norm = 0;
                for (int j = 0; j < dim; j++) {
                    q[j] = qx[i * dim + j];
                    norm += q[j] * q[j];
                }
                if (cosine && norm > 0) {
                    double s = 1 / Math.sqrt(norm);
                    for (int j = 0; j < dim; j++) {
                        q[j] *= s;
                    }
                }
                int filled = 0;
                for (int t = 0; t < n; t++) {
                    double dist = Distances.squared(q, 0, x, t * dim, dim);
                    // Insertion into the sorted top-k; strict '<' keeps the earlier sample on ties.
                    if (filled < kk || dist < bestD[filled - 1]) {
                        int pos = filled < kk ? filled++ : kk - 1;
                        while (pos > 0 && bestD[pos - 1] > dist) {
                            bestD[pos] = bestD[pos - 1];
                            bestI[pos] = bestI[pos - 1];
                            pos--;
                        }
                        bestD[pos] = dist;
                        bestI[pos] = t;
                    }
                }
                int row = i * c;
                double total = 0;
                for (int t = 0; t < kk; t++) {
                    double w = byDistance ? 1 / (Math.sqrt(bestD[t]) + 1e-12) : 1;
                    probs[row + Arrays.binarySearch(classes, y[bestI[t]])] += w;
                    total += w;
                }
                double z = total + alpha * c;
                for (int kc = 0; kc < c; kc++) {
                    probs[row + kc] = (probs[row + kc] + alpha) / z;
                }
            }
            return Prediction.of(classes, probs);
        }

        @Override
        public long memoryBytes() {
            return n * (dim * 4L + 4L);
        }
    }
}
