package fsil.methods.bavardage;

import fsil.api.AbstractMethod;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Learner;
import fsil.api.Param;
import fsil.api.Params;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * BAVARDAGE (Hu, Pateux, Gripon, AISTATS 2023): transductive few-shot classification by a variational Bayes
 * Gaussian mixture in a (K-1)-dimensional PLDA subspace that is re-estimated at every iteration, initialised by
 * soft k-means. See the module README for the algorithm, the parameters and the decisions where the paper
 * and the authors' code leave a choice.
 *
 * <p>{@link #learner} computes what depends only on the base classes once (the base mean and a factorisation of
 * the within-class scatter, {@link BaseStatistics}); every task then costs one triangular solve with the task's
 * N-dimensional span and small N x N and (K-1)-dimensional work.
 */
public final class BavardageMethod extends AbstractMethod {
    public static final Param<Variant> VARIANT = Param.option("variant", Variant.BAVARDAGE,
            "bavardage = soft k-means init + PLDA + VB (the full method); vb-no-plda = VB on the normalised features "
                    + "without whitening and projection; softkmeans = the initialisation only (paper Table 2)");
    public static final Param<Preprocessing> PREPROCESSING = Param.option("preprocessing", Preprocessing.CODE,
            "code = as the authors' code: base-mean centring, L2, per-task span, whitening with the code's base "
                    + "scatter restricted to the span; paper = Eq. 6-7: pooled base covariance, global sphering");
    public static final Param<Preset> PRESET = Param.option("preset", Preset.AUTO,
            "named values of T_km, T_vb, s_max, n_step and the mixture model: auto = T_vb and s_max chosen on "
                    + "labelled episodes from the base classes when the learner is built (T_km 10, n_step 5, "
                    + "unbalanced; the chosen values are in the diagnostics auto_t_vb, auto_s_max); official = the "
                    + "authors' code "
                    + "defaults (10, 4, 5, 5, unbalanced, same as cub-unbalanced); the others are the paper's "
                    + "settings (mini also for FC100 and CIFAR-FS); glyphs-* and fashion-mnist-* were chosen on "
                    + "validation data for the built-in datasets with the pretrained-mlp backbone");
    public static final Param<Double> T_KM = Param.real("t_km", 0, 0, 1e9,
            "soft k-means temperature multiplying squared distances; 0 = the preset's value");
    public static final Param<Double> T_VB = Param.real("t_vb", 0, 0, 1e9,
            "VB likelihood precision, Lambda = T_vb I; 0 = the preset's value (preset auto: chosen on the base "
                    + "classes)");
    public static final Param<Double> S_MAX = Param.real("s_max", 0, 0, 1e12,
            "upper bound of the whitening gains; 0 = the preset's value (preset auto: chosen on the base classes; "
                    + "use a large value for no clamping)");
    public static final Param<Integer> N_STEP = Param.integer("n_step", 0, 0, 10_000,
            "number of PLDA + VB iterations; 0 = the preset's value (5)");
    public static final Param<Integer> N_KM = Param.integer("n_km", 5, 1, 10_000,
            "number of soft k-means rounds (5 in the authors' code)");
    public static final Param<Mixture> MIXTURE = Param.option("mixture", Mixture.PRESET,
            "balanced = uniform mixture weights; unbalanced = Dirichlet posterior weights (digamma terms); "
                    + "preset = as the preset says");
    public static final Param<Double> ALPHA0 = Param.real("alpha0", 2.0, 1e-9, 1e9,
            "symmetric Dirichlet prior of the mixture weights (unbalanced setting)");
    public static final Param<Double> BETA0 = Param.real("beta0", 10.0, 0, 1e9,
            "prior strength of the class means, mu_k ~ N(0, (beta0 Lambda)^-1); the prior mean m0 is the origin, "
                    + "i.e. the base mean");
    public static final Param<Double> GAMMA = Param.real("gamma", 10.0, 0, 1e9,
            "offset of the shrunk PLDA centroids sum_n r_nk y_n / (N_k + gamma); the code uses the same variable "
                    + "for gamma and beta0, so change both together to follow it");
    public static final Param<DirichletCounts> DIRICHLET_COUNTS = Param.option("dirichlet_counts",
            DirichletCounts.QUERIES, "which rows count in the Dirichlet posterior alpha_k: queries = alpha0 + query "
                    + "counts (code; the support composition is fixed, not drawn from pi); all = alpha0 + N_k (paper "
                    + "Alg. 1)");

    /** The mixture weights' model. */
    public enum Mixture { PRESET, BALANCED, UNBALANCED }

    /** Which rows count in the Dirichlet posterior of the mixture weights. */
    public enum DirichletCounts { QUERIES, ALL }
    public static final Param<Boolean> EPS_SOFTMAX = Param.bool("eps_softmax", false,
            "add float32 epsilon 2^-23 in the VB softmax as the authors' code does (probabilities renormalised "
                    + "for the output)");

    public static final Param<SpanBasis> TASK_SPAN = Param.option("task_span", SpanBasis.RANK,
            "preprocessing=code only: the directions of the task's span in which the whitening and its s_max clamp "
                    + "act; rank = those the task's rows numerically span; authors = min(N, D) directions as the "
                    + "authors' SVD keeps (completed with directions the data do not reach when the task is "
                    + "rank-deficient; with N >= D this is the global whitening)");

    public static final Param<AutoRule> AUTO_RULE = Param.option("auto_rule", AutoRule.PLATEAU,
            "preset auto only: how the tuning episodes' accuracies choose T_vb and s_max; nearest = the highest "
                    + "mean, or among the candidates indistinguishable from it the one nearest to the default point; "
                    + "plateau = each candidate scored by the worst accuracy at its T_vb or any larger one, then the "
                    + "T_vb nearest to the default among the indistinguishable and the best s_max there (depends "
                    + "much less on the tuning episodes)");

    /** How the auto preset chooses among its grid points ({@link AutoTuning}). */
    public enum AutoRule { NEAREST, PLATEAU }

    private static final List<Param<?>> PARAMETERS = List.of(VARIANT, PREPROCESSING, PRESET, T_KM, T_VB, S_MAX,
            N_STEP, N_KM, MIXTURE, ALPHA0, BETA0, GAMMA, DIRICHLET_COUNTS, EPS_SOFTMAX, TASK_SPAN, AUTO_RULE);

    public BavardageMethod() {
        super("bavardage",
                "Transductive few-shot: soft k-means init, adaptive PLDA dimension reduction, variational Bayes GMM",
                "Hu, Pateux, Gripon: Adaptive Dimension Reduction and Variational Inference for Transductive "
                        + "Few-Shot Classification, AISTATS 2023",
                EnumSet.of(Capability.TRANSDUCTIVE_FEWSHOT), PARAMETERS);
    }

    /** Every variant centres (and whitens) on the base classes. */
    @Override
    public boolean needsBaseClasses(Params params) {
        return true;
    }

    /**
     * Computes the base statistics and, under the {@code auto} preset, chooses T_vb and s_max on the base classes
     * ({@link AutoTuning}); the chosen values are reported in every session's diagnostics ({@code auto_t_vb},
     * {@code auto_s_max}).
     *
     * @throws fsil.api.FsilException when the background has no base classes
     */
    @Override
    public Learner learner(Params params, Background background) {
        Preprocessing kind = params.get(PREPROCESSING);
        BaseStatistics stats = BaseStatistics.fromBase(background.base(), kind);
        AutoTuning.Choice choice = AutoTuning.choose(params, background, stats, AutoTuning.Options.defaults());
        return learner(choice.config(), stats, choice.diagnostics());
    }

    /** A learner from precomputed base statistics (lets a caller share them between configurations). */
    public static Learner learner(BavardageConfig config, BaseStatistics base) {
        return learner(config, base, Map.of());
    }

    static Learner learner(BavardageConfig config, BaseStatistics base, Map<String, Double> diagnostics) {
        BavardageSolver solver = new BavardageSolver(config, base);
        return ctx -> new BavardageSession(solver, ctx.jointQueries(), diagnostics);
    }
}
