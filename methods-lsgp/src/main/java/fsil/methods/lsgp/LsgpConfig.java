package fsil.methods.lsgp;

import fsil.api.Params;

import java.util.LinkedHashMap;
import java.util.Map;

/** The resolved parameters of {@link LsgpMethod}. */
record LsgpConfig(double tau, double mean, double trainMean, boolean gibbs, int steps, double tol, ElboForm elbo,
                  boolean authorsQueryMean, boolean quadrature, int mcSamples, int gibbsBurnin, int gibbsSamples,
                  boolean gibbsBlocked, boolean metaTrain,
                  boolean predictiveLoss, int trainSteps, int trainEpisodes, int trainWays, int trainShots,
                  int trainQueries, int plSamples, boolean residual, int hidden, int outDim, double lr, double kernelLr,
                  double outputscale, double valFraction, int valEpisodes, boolean selectBest, int valEvery,
                  boolean calibrate, boolean cache) {

    static LsgpConfig from(Params p) {
        return new LsgpConfig(p.get(LsgpMethod.TAU), p.get(LsgpMethod.MEAN), p.get(LsgpMethod.TRAIN_MEAN),
                p.get(LsgpMethod.INFERENCE) == LsgpMethod.Inference.GIBBS, p.get(LsgpMethod.STEPS), p.get(LsgpMethod.TOL),
                p.get(LsgpMethod.ELBO), p.get(LsgpMethod.QUERY_MEAN) == LsgpMethod.QueryMean.AUTHORS,
                p.get(LsgpMethod.PREDICTIVE) == LsgpMethod.Predictive.QUADRATURE, p.get(LsgpMethod.MC_SAMPLES), p.get(LsgpMethod.GIBBS_BURNIN), p.get(LsgpMethod.GIBBS_SAMPLES),
                p.get(LsgpMethod.GIBBS_LAMBDA) == LsgpMethod.GibbsLambda.BLOCKED,
                p.get(LsgpMethod.META_TRAIN), p.get(LsgpMethod.LOSS) == LsgpMethod.Loss.PL, p.get(LsgpMethod.TRAIN_STEPS),
                p.get(LsgpMethod.TRAIN_EPISODES), p.get(LsgpMethod.TRAIN_WAYS), p.get(LsgpMethod.TRAIN_SHOTS),
                p.get(LsgpMethod.TRAIN_QUERIES), p.get(LsgpMethod.PL_SAMPLES),
                p.get(LsgpMethod.FEATURE_MAP) == LsgpMethod.FeatureMapKind.RESIDUAL, p.get(LsgpMethod.HIDDEN),
                p.get(LsgpMethod.OUT_DIM), p.get(LsgpMethod.LR), p.get(LsgpMethod.KERNEL_LR),
                p.get(LsgpMethod.OUTPUTSCALE), p.get(LsgpMethod.VAL_FRACTION), p.get(LsgpMethod.VAL_EPISODES),
                p.get(LsgpMethod.SELECT) == LsgpMethod.Select.BEST, p.get(LsgpMethod.VAL_EVERY), p.get(LsgpMethod.CALIBRATE), p.get(LsgpMethod.CACHE));
    }

    /** Steps between meta-validation checkpoints: {@code val_every}, or train_episodes/10 (at least 1) when 0. */
    int checkpointEvery() {
        return valEvery > 0 ? valEvery : Math.max(1, trainEpisodes / 10);
    }

    /**
     * The settings of the checkpoint selection's meta-validation: this configuration with mean-field inference
     * (the test-time mean, steps, tolerance, query mean and Monte Carlo draws are kept). Gibbs is replaced because
     * it is many times dearer and its blocked chain cannot run at the paper's a = -5, tau = 0.2 (Decision 13).
     */
    LsgpConfig selectionValidation() {
        return new LsgpConfig(tau, mean, trainMean, false, steps, tol, elbo, authorsQueryMean, quadrature, mcSamples,
                gibbsBurnin, gibbsSamples, gibbsBlocked, metaTrain, predictiveLoss, trainSteps, trainEpisodes, trainWays,
                trainShots, trainQueries, plSamples, residual, hidden, outDim, lr, kernelLr, outputscale, valFraction,
                valEpisodes, selectBest, valEvery, calibrate, cache);
    }

    /**
     * The settings that determine which checkpoint {@code select=best} keeps, added to the cache key only when a
     * selection takes place (so {@code select=last} models, and models trained without meta-validation, keep the
     * key they had before the parameter existed).
     */
    Map<String, String> selectionKey() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("select", "best");
        m.put("val_every", Integer.toString(checkpointEvery()));
        m.put("val_episodes", Integer.toString(valEpisodes));
        m.put("mean", Double.toString(mean));
        m.put("steps", Integer.toString(steps));
        m.put("tol", Double.toString(tol));
        m.put("query_mean", authorsQueryMean ? "authors" : "correct");
        m.put("mc_samples", Integer.toString(mcSamples));
        if (quadrature) {
            m.put("predictive", "quadrature");
        }
        return m;
    }

    /** Layer sizes of g_theta for input dimension d. */
    int[] mapSizes(int d) {
        int out = residual ? d : outDim;
        return hidden > 0 ? new int[]{d, hidden, out} : new int[]{d, out};
    }

    /** The parameters that determine the meta-trained model (the cache key), as name=value text. */
    Map<String, String> trainingKey() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tau", Double.toString(tau));
        m.put("train_mean", Double.toString(trainMean));
        m.put("elbo", elbo.name());
        m.put("loss", predictiveLoss ? "pl" : "ml");
        m.put("train_steps", Integer.toString(trainSteps));
        m.put("train_episodes", Integer.toString(trainEpisodes));
        m.put("train_ways", Integer.toString(trainWays));
        m.put("train_shots", Integer.toString(trainShots));
        m.put("train_queries", Integer.toString(trainQueries));
        m.put("pl_samples", Integer.toString(plSamples));
        m.put("feature_map", residual ? "residual" : "mlp");
        m.put("hidden", Integer.toString(hidden));
        m.put("out_dim", Integer.toString(residual ? 0 : outDim));
        m.put("lr", Double.toString(lr));
        m.put("kernel_lr", Double.toString(kernelLr));
        m.put("outputscale", Double.toString(outputscale));
        m.put("val_fraction", Double.toString(valFraction));
        return m;
    }
}
