package fsil.methods.lsgp;

import fsil.api.AbstractMethod;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.EmbeddingObjective;
import fsil.api.Learner;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.ProgressSink;
import jakarta.inject.Inject;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * The Gaussian-process classifier with the tempered logistic-softmax likelihood (Ke, Cao, Ling, Zhou, NeurIPS 2023,
 * "CDKT"): C latent GPs with a shared cosine deep kernel, p(y = k | f) = sigma(f_k/tau) / sum_c sigma(f_c/tau),
 * task-level inference by closed-form mean-field VI (or Gibbs sampling) on the support set, class probabilities by
 * Monte Carlo, and the deep kernel meta-learned on episodes of the base classes with the ELBO ("ml") or the
 * predictive likelihood ("pl").
 *
 * <p>Capability: {@link Capability#INDUCTIVE_FEWSHOT} only. The posterior is conditioned on the support set alone,
 * so queries are predicted independently. Class-incremental use is not offered: every new class would need the
 * joint GP posterior over all classes refitted on all stored data (the logistic-softmax couples the classes
 * through lambda), the per-class GPs are O(n^3) in the number of stored samples, and the meta-learned kernel is
 * trained for few-shot episodes of a fixed number of ways; see the module README.
 */
public final class LsgpMethod extends AbstractMethod {
    private final ProgressSink progress;

    /** Meta-training progress to {@link ProgressSink#LOGGING} (a method made by ServiceLoader or in a test). */
    public LsgpMethod() {
        this(ProgressSink.LOGGING);
    }

    /** Meta-training progress to the application's sink. */
    @Inject
    public LsgpMethod(ProgressSink progress) {
        super("lsgp", "GP classifier with the tempered logistic-softmax likelihood: mean-field VI or Gibbs, "
                        + "meta-learned cosine deep kernel (CDKT)",
                "Ke, Cao, Ling, Zhou: Revisiting Logistic-softmax Likelihood in Bayesian Meta-learning for Few-shot "
                        + "Classification, NeurIPS 2023",
                EnumSet.of(Capability.INDUCTIVE_FEWSHOT), PARAMETERS);
        this.progress = progress;
    }

    public static final Param<Double> TAU = Param.real("tau", 0.2, 1e-3, 100,
            "temperature of the logistic-softmax likelihood; tau = 1 is the logistic-softmax GP of Galy-Fajou et al. "
                    + "(the paper uses 0.2)");
    public static final Param<Double> MEAN = Param.real("mean", -5.0, -1e3, 1e3,
            "constant prior mean a of the latent GPs at test time (the paper uses -5 at test, 0 in training)");
    public static final Param<Double> TRAIN_MEAN = Param.real("train_mean", 0.0, -1e3, 1e3,
            "constant prior mean a during meta-training and meta-validation");
    public static final Param<Inference> INFERENCE = Param.option("inference", Inference.MEAN_FIELD,
            "task-level inference: mean-field = closed-form coordinate ascent (paper Eq. 4.4); gibbs = Gibbs sampling "
                    + "of the augmented model (paper Eq. 4.2)");
    public static final Param<Integer> STEPS = Param.integer("steps", 200, 1, 100_000,
            "most mean-field steps at test time (the paper runs a fixed 20, the authors' code 30; here the tolerance "
                    + "stops it, typically after 20 to 50 steps)");
    public static final Param<Double> TOL = Param.real("tol", 1e-4, 0.0, 1e6,
            "stop the test-time mean-field when no posterior mean changes by more than this in a step (0 = always "
                    + "run all steps)");
    public static final Param<ElboForm> ELBO = Param.option("elbo", ElboForm.CORRECT,
            "correct = a true evidence lower bound (general form); authors = the authors' code (alpha/C term once per "
                    + "point, collapsed form with the previous tilt): not a bound");
    public static final Param<QueryMean> QUERY_MEAN = Param.option("query_mean", QueryMean.CORRECT,
            "predictive mean at queries: correct = a + k_*^T K^-1 (mu - a 1); authors = k_*^T K^-1 mu "
                    + "(the prior mean is not added back)");
    public static final Param<Predictive> PREDICTIVE = Param.option("predictive", Predictive.QUADRATURE,
            "class probabilities E[LS_k(f_*)] with mean-field: quadrature = deterministic one-dimensional quadrature "
                    + "(error below 1e-4); monte-carlo = mc_samples shared draws, as the paper. Gibbs always uses "
                    + "Monte Carlo over its draws");
    public static final Param<Integer> MC_SAMPLES = Param.integer("mc_samples", 1000, 1, 10_000_000,
            "Monte Carlo draws per query for the class probabilities with predictive=monte-carlo or Gibbs (the "
                    + "authors' code: 10000 for accuracy)");
    public static final Param<Integer> GIBBS_BURNIN = Param.integer("gibbs_burnin", 20, 0, 1_000_000,
            "Gibbs sweeps discarded before keeping draws");
    public static final Param<Integer> GIBBS_SAMPLES = Param.integer("gibbs_samples", 30, 1, 1_000_000,
            "Gibbs sweeps kept (each contributes its Gaussian predictive given (omega, m))");
    public static final Param<GibbsLambda> GIBBS_LAMBDA = Param.option("gibbs_lambda", GibbsLambda.BLOCKED,
            "Gibbs update of lambda: blocked = lambda | f with m integrated out, then m | lambda, f (mixes for any "
                    + "prior mean); conditional = m | lambda, f then lambda | m, as "
                    + "jakesnell/ove-polya-gamma-gp and AugmentedGaussianProcesses.jl do (lambda moves ~1/C per sweep: "
                    + "far from its posterior when the mean is very negative)");
    public static final Param<Boolean> META_TRAIN = Param.bool("meta_train", true,
            "meta-learn the feature map g_theta and the kernel outputscale on episodes of the base classes; false = "
                    + "cosine kernel on the given features with the initial outputscale");
    public static final Param<Loss> LOSS = Param.option("loss", Loss.ML,
            "meta-training objective: ml = the ELBO of each episode; pl = the Monte Carlo log predictive likelihood of "
                    + "the episode's queries given its support (the authors' PL loss, proper log of the MC average)");
    public static final Param<Integer> TRAIN_STEPS = Param.integer("train_steps", 2, 1, 1000,
            "mean-field steps inside each training episode, differentiated through (paper: 2)");
    public static final Param<Integer> TRAIN_EPISODES = Param.integer("train_episodes", 1000, 0, 100_000_000,
            "meta-training episodes, one Adam step each (the paper: 100 per epoch x 400-800 epochs)");
    public static final Param<Integer> TRAIN_WAYS = Param.integer("train_ways", 5, 2, 1000,
            "classes per meta-training episode");
    public static final Param<Integer> TRAIN_SHOTS = Param.integer("train_shots", 1, 1, 1000,
            "support samples per class in meta-training (set it to the test shot; the paper trains per shot)");
    public static final Param<Integer> TRAIN_QUERIES = Param.integer("train_queries", 15, 1, 1000,
            "query samples per class in meta-training episodes (capped by the samples a class has)");
    public static final Param<Integer> PL_SAMPLES = Param.integer("pl_samples", 100, 1, 1_000_000,
            "Monte Carlo draws per query in the pl loss");
    public static final Param<FeatureMapKind> FEATURE_MAP = Param.option("feature_map", FeatureMapKind.RESIDUAL,
            "g_theta on the backbone features: residual = x + mlp(x) with the last layer initialised at 0 (starts at "
                    + "the backbone's own cosine kernel; out_dim is the input dimension); mlp = mlp(x) from a random "
                    + "initialisation, as the authors' network trained from scratch");
    public static final Param<Integer> HIDDEN = Param.integer("hidden", 256, 0, 100_000,
            "hidden width of the feature map g_theta (0 = a single linear layer)");
    public static final Param<Integer> OUT_DIM = Param.integer("out_dim", 128, 1, 100_000,
            "output dimension of the feature map g_theta (feature_map=mlp only)");
    public static final Param<Double> LR = Param.real("lr", 1e-3, 1e-12, 10, "Adam learning rate of the feature map");
    public static final Param<Double> KERNEL_LR = Param.real("kernel_lr", 1e-4, 1e-12, 10,
            "Adam learning rate of the log outputscale");
    public static final Param<Double> OUTPUTSCALE = Param.real("outputscale", Math.log(2), 1e-6, 1e6,
            "initial cosine-kernel outputscale (softplus(0) = ln 2, as gpytorch's ScaleKernel)");
    public static final Param<Double> VAL_FRACTION = Param.real("val_fraction", 0.15, 0, 0.9,
            "fraction of the base classes held out (fixed by the seed) as meta-validation classes for calibration "
                    + "and the validation accuracy diagnostic");
    public static final Param<Integer> VAL_EPISODES = Param.integer("val_episodes", 100, 0, 1_000_000,
            "meta-validation episodes (same ways/shots/queries as training)");
    public static final Param<Select> SELECT = Param.option("select", Select.BEST,
            "which meta-trained parameters to keep: best = the checkpoint with the highest meta-validation accuracy "
                    + "(evaluated at step 0, the untrained kernel, and every val_every steps; ties keep the earlier "
                    + "step), as the authors' best_model.tar; last = the last iterate. Without meta-validation "
                    + "(fewer than 2 held-out classes or val_episodes=0) best falls back to last");
    public static final Param<Integer> VAL_EVERY = Param.integer("val_every", 0, 0, 100_000_000,
            "meta-training steps between meta-validation checkpoints for select=best (0 = train_episodes/10, at "
                    + "least 1)");
    public static final Param<Boolean> CALIBRATE = Param.bool("calibrate", false,
            "temperature-scale the class probabilities with a temperature fitted on the meta-validation episodes");
    public static final Param<Boolean> CACHE = Param.bool("cache", true,
            "cache the meta-trained model on disk under the background's cache directory");

    /** Task-level inference at test time. */
    public enum Inference { MEAN_FIELD, GIBBS }

    /** The predictive mean at queries. */
    public enum QueryMean { CORRECT, AUTHORS }

    /** How the class probabilities are computed from the per-class Gaussian predictives. */
    public enum Predictive { QUADRATURE, MONTE_CARLO }

    /** The Gibbs update of lambda. */
    public enum GibbsLambda { BLOCKED, CONDITIONAL }

    /** The meta-training objective. */
    public enum Loss { ML, PL }

    /** The feature map g_theta. */
    public enum FeatureMapKind { RESIDUAL, MLP }

    /** Which meta-trained parameters to keep. */
    public enum Select { BEST, LAST }

    static final List<Param<?>> PARAMETERS = List.of(TAU, MEAN, TRAIN_MEAN, INFERENCE, STEPS, TOL, ELBO, QUERY_MEAN,
            PREDICTIVE, MC_SAMPLES, GIBBS_BURNIN, GIBBS_SAMPLES, GIBBS_LAMBDA, META_TRAIN, LOSS, TRAIN_STEPS, TRAIN_EPISODES, TRAIN_WAYS,
            TRAIN_SHOTS, TRAIN_QUERIES, PL_SAMPLES, FEATURE_MAP, HIDDEN, OUT_DIM, LR, KERNEL_LR, OUTPUTSCALE, VAL_FRACTION,
            VAL_EPISODES, SELECT, VAL_EVERY, CALIBRATE, CACHE);

    /**
     * CDKT's meta-training of a backbone network from scratch ({@link LsgpObjective}): the ML or PL loss of
     * {@code train_ways}-way {@code train_shots}-shot episodes at temperature {@code tau}, with the kernel outputscale
     * trained jointly at {@code kernel_lr}; validation by this configuration's test-time inference.
     */
    @Override
    public Optional<EmbeddingObjective> objective(Params params) {
        return Optional.of(new LsgpObjective(LsgpConfig.from(params)));
    }

    @Override
    public Learner learner(Params params, Background background) {
        LsgpConfig config = LsgpConfig.from(params);
        LsgpModel model = LsgpModel.prepare(config, background, progress);
        return ctx -> new LsgpSession(config, model, ctx);
    }
}
