package fsil.methods.lsgp;

import fsil.core.random.RandomStreams;
import org.ejml.data.DMatrixRMaj;

import java.util.Map;

/** Test-time inference on one task, shared by the session and the meta-validation: fit, then predict. */
final class TaskInference {
    private TaskInference() {
    }

    /**
     * The posterior on the support set (labels 0..C-1, C &gt;= 2) with the configured inference.
     *
     * @param diagnostics receives "elbo" and "mf_steps" (mean-field) when not null
     */
    static TaskPosterior fit(LsgpConfig cfg, DMatrixRMaj k, int[] y, int numClasses, long seed,
                             Map<String, Double> diagnostics) {
        if (cfg.gibbs()) {
            return GibbsSampler.run(k, y, numClasses, cfg.tau(), cfg.mean(), cfg.gibbsBurnin(), cfg.gibbsSamples(),
                    cfg.gibbsBlocked(), RandomStreams.create(RandomStreams.derive(seed, "lsgp-gibbs")));
        }
        MeanField mf = MeanField.run(k, y, numClasses, cfg.tau(), cfg.mean(), cfg.steps(), cfg.tol());
        if (diagnostics != null) {
            diagnostics.put("elbo", mf.elbo(cfg.elbo()));
            diagnostics.put("mf_steps", (double) mf.steps());
        }
        return TaskPosterior.of(mf);
    }

    /** Row-major t x C class probabilities of the queries with embedded points given by K_* and k_**. */
    static double[] predict(LsgpConfig cfg, TaskPosterior post, DMatrixRMaj kStar, double[] kStarDiag,
                            Predictor predictor, double temperature) {
        double[][][] means = post.means(kStar, cfg.authorsQueryMean());
        double[][][] vars = post.variances(kStar, kStarDiag);
        return predictor.probabilities(means, vars, kStar.numCols, temperature);
    }
}
