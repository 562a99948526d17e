package fsil.methods.lsgp;

import fsil.api.LabeledData;
import fsil.core.gp.CosineKernel;
import fsil.core.nn.Adam;
import fsil.core.nn.FeatureMap;
import fsil.core.nn.Mlp;
import fsil.core.nn.Parameters;
import fsil.core.random.RandomStreams;
import fsil.api.FsilException;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import fsil.api.ProgressSink;
import fsil.core.progress.TrainingLog;
import org.ejml.data.DMatrixRMaj;

import java.util.function.ToDoubleFunction;

/**
 * Meta-learning of the deep kernel (paper §4.3): a feature map g_theta (core MLP, ReLU between layers, linear
 * output; by default residual, g(x) = x + mlp(x) with the last layer initialised at 0) on the backbone features and the log outputscale of the cosine kernel, trained over episodes of the base
 * classes with Adam (learning rates 1e-3 for the map and 1e-4 for the kernel, as the paper), one episode per step.
 * Each episode draws {@code train_ways} classes and, per class, {@code train_shots} support and up to
 * {@code train_queries} query samples; the loss is {@link EpisodeObjective#ml} on all of them or
 * {@link EpisodeObjective#pl} (queries given support). Everything is drawn from streams derived from the
 * background seed, and the loop is sequential, so the result depends only on (params, background).
 *
 * <p>Checkpoint selection ({@code select=best}, given a validator): the meta-validation accuracy is evaluated at
 * step 0 (before any update: with the residual map the backbone's own cosine kernel) and after every
 * {@link LsgpConfig#checkpointEvery()} steps and the last one; the parameters (map and outputscale) with the highest
 * accuracy are kept, the earlier checkpoint on ties, as the authors' code keeps {@code best_model.tar}. The
 * validator draws from its own streams, so the training trajectory is the same with and without selection.
 *
 * <p>An episode whose loss or gradient is not finite (or whose inner loop fails numerically) is skipped and
 * counted, as the authors skip non-finite steps; a run where every episode fails is an error.
 */
final class MetaTrainer {
    /** The trained kernel and what happened. */
    record Result(LsgpKernel kernel, double initialLoss, double finalLoss, int skipped, int episodes,
                  Selection selection) {
    }

    /**
     * What the checkpoint selection chose: the step of the kept parameters (0 = untrained), its meta-validation
     * accuracy, that of the last iterate, and how many checkpoints were evaluated.
     */
    record Selection(int step, double accuracy, double lastAccuracy, int evaluations) {
    }

    private MetaTrainer() {
    }

    /** The last iterate, no checkpoint selection. */
    static Result train(LsgpConfig cfg, LabeledData base, int[] trainClasses, long seed) {
        return train(cfg, base, trainClasses, seed, null);
    }

    /**
     * @param validator the meta-validation accuracy of a kernel (higher is better), or null to keep the last
     *                  iterate; it must not keep the kernel it is given (its map is trained further)
     */
    static Result train(LsgpConfig cfg, LabeledData base, int[] trainClasses, long seed,
                        ToDoubleFunction<LsgpKernel> validator) {
        int d = base.dimension();
        int[] sizes = cfg.mapSizes(d);
        Mlp mlp = new Mlp(sizes, false, RandomStreams.derive(seed, "lsgp-feature-map"));
        if (cfg.residual()) {
            // zero last layer: g(x) = x at the start, i.e. the backbone's own cosine kernel
            java.util.Arrays.fill(mlp.layers().get(mlp.layers().size() - 1).weights(), 0.0);
        }
        FeatureMap map = cfg.residual() ? FeatureMap.residual(mlp) : FeatureMap.of(mlp);
        double[] logS = {Math.log(cfg.outputscale())};
        Parameters kernelParams = new Parameters();
        double[] logSGrad = kernelParams.add(logS);
        Adam adamMap = new Adam(cfg.lr(), 0);
        Adam adamKernel = new Adam(cfg.kernelLr(), 0);
        UniformRandomProvider rng = RandomStreams.create(RandomStreams.derive(seed, "lsgp-episodes"));
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        EpisodeSampler sampler = new EpisodeSampler(base, trainClasses, cfg.trainShots());
        int ways = Math.min(cfg.trainWays(), trainClasses.length);
        int maxRows = sampler.maxRows(ways, cfg.trainShots(), cfg.trainQueries());
        Mlp.Batch batch = mlp.newBatch(maxRows);
        int out = sizes[sizes.length - 1];
        int skipped = 0;
        int window = Math.max(1, cfg.trainEpisodes() / 10);
        double firstSum = 0;
        int firstCount = 0;
        double lastSum = 0;
        int lastCount = 0;
        float[] x = base.features().rawData();
        Checkpoints best = validator == null ? null : new Checkpoints(map, validator);
        if (best != null) {
            best.evaluate(0, logS[0]);
        }
        int every = cfg.checkpointEvery();
        TrainingLog log = new TrainingLog(ProgressSink.LOGGING, "lsgp meta-training", "episodes", cfg.trainEpisodes());
        double recentLoss = Double.NaN; // exponential average over about 50 episodes, for the progress line only
        for (int e = 0; e < cfg.trainEpisodes(); e++) {
            log.step(e, Double.isNaN(recentLoss) ? null : String.format(java.util.Locale.ROOT, "loss %.4f",
                    recentLoss));
            if (best != null && e > 0 && e % every == 0) {
                best.evaluate(e, logS[0]);
            }
            EpisodeSampler.Episode ep = sampler.sample(rng, ways, cfg.trainShots(), cfg.trainQueries());
            int rows = ep.rows().length;
            DMatrixRMaj z = map.forward(batch, x, ep.rows(), 0, rows);
            CosineKernel kernel = new CosineKernel(Math.exp(logS[0]));
            EpisodeObjective.Value v;
            try {
                if (cfg.predictiveLoss()) {
                    int ns = ep.supportSize();
                    DMatrixRMaj zs = new DMatrixRMaj(ns, out);
                    DMatrixRMaj zq = new DMatrixRMaj(rows - ns, out);
                    System.arraycopy(z.data, 0, zs.data, 0, ns * out);
                    System.arraycopy(z.data, ns * out, zq.data, 0, (rows - ns) * out);
                    double[] eps = new double[cfg.plSamples() * ways];
                    for (int i = 0; i < eps.length; i++) {
                        eps[i] = normal.sample();
                    }
                    v = EpisodeObjective.pl(kernel, zs, ep.supportLabels(), zq, ep.queryLabels(), ways, cfg.tau(),
                            cfg.trainMean(), cfg.trainSteps(), eps);
                } else {
                    v = EpisodeObjective.ml(kernel, z, ep.labels(), ways, cfg.tau(), cfg.trainMean(),
                            cfg.trainSteps(), cfg.elbo());
                }
            } catch (FsilException numerical) {
                skipped++;
                continue;
            }
            if (!Double.isFinite(v.loss()) || !Double.isFinite(v.dLogOutputscale()) || !allFinite(v.dz().data)) {
                skipped++;
                continue;
            }
            recentLoss = Double.isNaN(recentLoss) ? v.loss() : 0.98 * recentLoss + 0.02 * v.loss();
            if (e < window) {
                firstSum += v.loss();
                firstCount++;
            }
            if (e >= cfg.trainEpisodes() - window) {
                lastSum += v.loss();
                lastCount++;
            }
            mlp.parameters().zeroGradients();
            kernelParams.zeroGradients();
            map.backward(batch, v.dz());
            logSGrad[0] = v.dLogOutputscale();
            adamMap.step(mlp.parameters());
            adamKernel.step(kernelParams);
        }
        log.step(cfg.trainEpisodes(), Double.isNaN(recentLoss) ? null : String.format(java.util.Locale.ROOT,
                "loss %.4f", recentLoss));
        if (cfg.trainEpisodes() > 0 && skipped == cfg.trainEpisodes()) {
            throw new FsilException("lsgp meta-training failed: all " + skipped + " episodes had a non-finite loss or "
                    + "gradient. Try a larger tau, a smaller lr, or meta_train=false.");
        }
        LsgpKernel kernel = new LsgpKernel(map, logS[0]);
        Selection selection = null;
        if (best != null) {
            double lastAccuracy = best.evaluate(cfg.trainEpisodes(), logS[0]);
            kernel = best.kernel();
            selection = new Selection(best.step, best.accuracy, lastAccuracy, best.evaluations);
        }
        return new Result(kernel, firstCount > 0 ? firstSum / firstCount : Double.NaN,
                lastCount > 0 ? lastSum / lastCount : Double.NaN, skipped, cfg.trainEpisodes(), selection);
    }

    /** The best checkpoint so far: a copy of the map's weights and the log outputscale. */
    private static final class Checkpoints {
        private final FeatureMap live;
        private final FeatureMap kept;
        private final ToDoubleFunction<LsgpKernel> validator;
        private double keptLogS;
        private int step = -1;
        private double accuracy = Double.NEGATIVE_INFINITY;
        private int evaluations;

        Checkpoints(FeatureMap live, ToDoubleFunction<LsgpKernel> validator) {
            this.live = live;
            this.kept = live.copy();
            this.validator = validator;
        }

        /** Validates the current parameters after {@code s} steps and keeps them if strictly better. */
        double evaluate(int s, double logS) {
            double acc = validator.applyAsDouble(new LsgpKernel(live, logS));
            evaluations++;
            // strictly better only: ties keep the earlier (less trained) checkpoint; NaN never wins
            if (acc > accuracy || step < 0) {
                FeatureMap.copyWeights(live.mlp(), kept.mlp());
                keptLogS = logS;
                accuracy = acc;
                step = s;
            }
            return acc;
        }

        LsgpKernel kernel() {
            return new LsgpKernel(kept, keptLogS);
        }
    }

    private static boolean allFinite(double[] a) {
        for (double v : a) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }
}
