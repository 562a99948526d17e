package fsil.methods.lsgp;

import fsil.api.EmbeddingObjective;
import fsil.core.gp.CosineKernel;
import fsil.core.nn.Adam;
import fsil.core.nn.Parameters;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CDKT meta-training as an {@link EmbeddingObjective}: a backbone (e.g. {@code conv4[objective=lsgp]}) trains its
 * network from scratch with the lsgp loss of each episode ({@link EpisodeObjective#ml} or {@link EpisodeObjective#pl}
 * on the network's embeddings, with the cosine kernel) while the kernel's log outputscale is trained jointly here by
 * Adam at {@code kernel_lr}, exactly as {@link MetaTrainer} trains it with a feature map on frozen features. The
 * feature map g_theta of {@link MetaTrainer} is not used: the network is the feature map.
 *
 * <p>Validation episodes are scored by the test-time inference of the configuration ({@link TaskInference}: mean-field
 * or Gibbs, prior mean {@code mean}, {@code steps}, {@code tol}, the predictive), with the current outputscale.
 */
final class LsgpObjective implements EmbeddingObjective {
    private final LsgpConfig cfg;

    LsgpObjective(LsgpConfig cfg) {
        this.cfg = cfg;
    }

    @Override
    public String describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("loss", cfg.predictiveLoss() ? "pl" : "ml");
        m.put("tau", Double.toString(cfg.tau()));
        m.put("train_mean", Double.toString(cfg.trainMean()));
        m.put("train_steps", Integer.toString(cfg.trainSteps()));
        m.put("train_ways", Integer.toString(cfg.trainWays()));
        m.put("train_shots", Integer.toString(cfg.trainShots()));
        m.put("train_queries", Integer.toString(cfg.trainQueries()));
        if (cfg.predictiveLoss()) {
            m.put("pl_samples", Integer.toString(cfg.plSamples()));
        } else {
            m.put("elbo", cfg.elbo().name().toLowerCase(java.util.Locale.ROOT));
        }
        m.put("kernel_lr", Double.toString(cfg.kernelLr()));
        m.put("outputscale", Double.toString(cfg.outputscale()));
        // the validation inference chooses the checkpoint
        m.put("inference", cfg.gibbs() ? "gibbs" : "mean-field");
        m.put("mean", Double.toString(cfg.mean()));
        m.put("steps", Integer.toString(cfg.steps()));
        m.put("tol", Double.toString(cfg.tol()));
        m.put("query_mean", cfg.authorsQueryMean() ? "authors" : "correct");
        m.put("predictive", cfg.quadrature() ? "quadrature" : "monte-carlo");
        m.put("mc_samples", Integer.toString(cfg.mcSamples()));
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ";").append(k).append('=').append(v));
        return sb.toString();
    }

    @Override
    public Sampling sampling() {
        return new Sampling(cfg.trainWays(), cfg.trainShots(), cfg.trainQueries());
    }

    @Override
    public Training start(int dimension) {
        return new State();
    }

    /** The log outputscale, its Adam state and the gradient of the last episode. */
    private final class State implements Training {
        private final double[] logS = {Math.log(cfg.outputscale())};
        private final Parameters params = new Parameters();
        private final double[] logSGrad = params.add(logS);
        private final Adam adam = new Adam(cfg.kernelLr(), 0);
        private double pending = Double.NaN;

        @Override
        public double loss(Episode e, double[] gradient) {
            pending = Double.NaN;
            int d = e.dimension();
            int n = e.rows();
            CosineKernel kernel = new CosineKernel(Math.exp(logS[0]));
            EpisodeObjective.Value v;
            try {
                if (cfg.predictiveLoss()) {
                    int ns = e.supportSize();
                    if (ns == n) {
                        return Double.NaN; // no queries to predict
                    }
                    DMatrixRMaj zs = new DMatrixRMaj(ns, d);
                    DMatrixRMaj zq = new DMatrixRMaj(n - ns, d);
                    System.arraycopy(e.z(), 0, zs.data, 0, ns * d);
                    System.arraycopy(e.z(), ns * d, zq.data, 0, (n - ns) * d);
                    UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(e.seed(), "lsgp-pl"));
                    ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
                    double[] eps = new double[cfg.plSamples() * e.ways()];
                    for (int i = 0; i < eps.length; i++) {
                        eps[i] = normal.sample();
                    }
                    v = EpisodeObjective.pl(kernel, zs, java.util.Arrays.copyOf(e.labels(), ns), zq,
                            java.util.Arrays.copyOfRange(e.labels(), ns, n), e.ways(), cfg.tau(), cfg.trainMean(),
                            cfg.trainSteps(), eps);
                } else {
                    DMatrixRMaj z = DMatrixRMaj.wrap(n, d, e.z().clone());
                    v = EpisodeObjective.ml(kernel, z, e.labels(), e.ways(), cfg.tau(), cfg.trainMean(),
                            cfg.trainSteps(), cfg.elbo());
                }
            } catch (fsil.api.FsilException numerical) {
                return Double.NaN;
            }
            if (!Double.isFinite(v.loss()) || !Double.isFinite(v.dLogOutputscale())) {
                return Double.NaN;
            }
            for (double g : v.dz().data) {
                if (!Double.isFinite(g)) {
                    return Double.NaN;
                }
            }
            System.arraycopy(v.dz().data, 0, gradient, 0, n * d);
            pending = v.dLogOutputscale();
            return v.loss();
        }

        @Override
        public void update() {
            if (Double.isNaN(pending)) {
                throw new IllegalStateException("update() without a scored episode");
            }
            params.zeroGradients();
            logSGrad[0] = pending;
            adam.step(params);
            pending = Double.NaN;
        }

        @Override
        public Map<String, Double> state() {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("log_outputscale", logS[0]);
            m.put("outputscale", Math.exp(logS[0]));
            return m;
        }

        @Override
        public void restore(Map<String, Double> state) {
            logS[0] = state.get("log_outputscale");
        }

        @Override
        public double[] predict(double[] support, int[] supportLabels, double[] queries, int dimension, int ways,
                                long seed) {
            CosineKernel k = new CosineKernel(Math.exp(logS[0]));
            DMatrixRMaj zs = DMatrixRMaj.wrap(supportLabels.length, dimension, support.clone());
            DMatrixRMaj zq = DMatrixRMaj.wrap(queries.length / dimension, dimension, queries.clone());
            TaskPosterior post = TaskInference.fit(cfg, k.matrix(zs), supportLabels, ways, seed, null);
            return TaskInference.predict(cfg, post, k.matrix(zs, zq), k.diag(zq),
                    new Predictor(ways, cfg.tau(), cfg.mcSamples(), seed, cfg.quadrature()), 1.0);
        }
    }
}
