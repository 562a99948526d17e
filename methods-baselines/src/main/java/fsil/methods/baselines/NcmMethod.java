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
import fsil.core.math.Softmax;

import java.util.EnumSet;
import java.util.List;

/**
 * Nearest class mean. Euclidean: probabilities are softmax(-||x - mu_k||^2 / (2 * temperature)), i.e. a Gaussian
 * with shared isotropic variance = temperature (the iCaRL NME / "RBF" baseline). Cosine: softmax(cos(x, mu_k) /
 * temperature) on L2-normalised features and means.
 */
public final class NcmMethod extends AbstractMethod {
    public static final Param<Metric> METRIC = Param.option("metric", Metric.EUCLIDEAN,
            "distance to the class means: euclidean (squared L2) or cosine");
    public static final Param<Double> TEMPERATURE = Param.real("temperature", 1.0, 1e-12, 1e12,
            "softmax temperature: probabilities are softmax(-d^2/(2T)) (euclidean) or softmax(cos/T) (cosine)");

    public NcmMethod() {
        super("ncm", "Nearest class mean (Euclidean or cosine), softmax over negative distances",
                "Mensink et al., TPAMI 2013; Rebuffi et al. (iCaRL NME), CVPR 2017",
                EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL,
                        Capability.FEWSHOT_CLASS_INCREMENTAL),
                List.of(METRIC, TEMPERATURE));
    }

    @Override
    public Learner learner(Params params, Background background) {
        boolean cosine = params.get(METRIC) == Metric.COSINE;
        double temperature = params.get(TEMPERATURE);
        return ctx -> new NcmSession(ctx.dimension(), cosine, temperature);
    }

    static final class NcmSession implements Session {
        private final ClassMeans means;
        private final int dim;
        private final boolean cosine;
        private final double temperature;

        NcmSession(int dim, boolean cosine, double temperature) {
            this.means = new ClassMeans(dim);
            this.dim = dim;
            this.cosine = cosine;
            this.temperature = temperature;
        }

        @Override
        public void learn(LabeledData data) {
            checkDimension(data.dimension(), dim);
            data.requireFinite("training features");
            means.add(data);
        }

        @Override
        public Prediction predict(FeatureMatrix queries) {
            checkDimension(queries.cols(), dim);
            queries.requireFinite("query features");
            if (means.size() == 0) {
                throw new FsilException("ncm: predict() called before any class was learned");
            }
            int[] classes = means.classes();
            double[] mu = means.means();
            int c = classes.length;
            if (cosine) {
                normaliseRows(mu, c, dim);
            }
            float[] x = queries.rawData();
            double[] logits = new double[queries.rows() * c];
            double[] q = new double[dim];
            for (int i = 0; i < queries.rows(); i++) {
                int off = i * dim;
                double qn = 0;
                for (int j = 0; j < dim; j++) {
                    q[j] = x[off + j];
                    qn += q[j] * q[j];
                }
                qn = Math.sqrt(qn);
                for (int k = 0; k < c; k++) {
                    int mo = k * dim;
                    double v = 0;
                    if (cosine) {
                        for (int j = 0; j < dim; j++) {
                            v += q[j] * mu[mo + j];
                        }
                        logits[i * c + k] = (qn > 0 ? v / qn : 0) / temperature;
                    } else {
                        logits[i * c + k] = -Distances.squared(q, 0, mu, mo, dim) / (2 * temperature);
                    }
                }
            }
            return Softmax.prediction(classes, logits);
        }

        @Override
        public long memoryBytes() {
            return means.memoryBytes();
        }
    }

    static void normaliseRows(double[] m, int rows, int dim) {
        for (int k = 0; k < rows; k++) {
            double n = 0;
            for (int j = 0; j < dim; j++) {
                n += m[k * dim + j] * m[k * dim + j];
            }
            n = Math.sqrt(n);
            if (n > 0) {
                for (int j = 0; j < dim; j++) {
                    m[k * dim + j] /= n;
                }
            }
        }
    }

    static void checkDimension(int got, int expected) {
        if (got != expected) {
            throw new fsil.api.InvalidDataException("features have dimension " + got + " but the session was created for "
                    + expected);
        }
    }
}
