package fsil.methods.ppca;

import fsil.api.AbstractMethod;
import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Learner;
import fsil.api.Param;
import fsil.api.Params;

import java.util.EnumSet;
import java.util.List;

/**
 * Incremental probabilistic PCA (Wang and Barbu, IEEE BigData 2022): one PPCA Gaussian per class on frozen
 * features, N(mu_k, L_k^T D_k L_k + lambda I) with the top q eigenpairs of the class's sample covariance; a query goes
 * to the class with the smallest Mahalanobis score (Theorem 1's O(q d) form). Classes are independent, so a class is
 * learned once and never retrained and nothing is forgotten; {@code q = 0} is the paper's Euclidean nearest-mean
 * ("RBF") baseline. See the module README for the decisions behind every parameter.
 */
public final class PpcaMethod extends AbstractMethod {
    public static final Param<Integer> Q = Param.integer("q", 20, 0, 100_000,
            "principal components per class; a class with n samples keeps q_c = min(q, n - 1, d). "
                    + "0 = Euclidean nearest class mean (the paper's RBF baseline)");
    public static final Param<Double> LAMBDA = Param.real("lambda", 0.01, 1e-12, 1e12,
            "isotropic variance added to the top-q covariance: Sigma = L^T D L + lambda I (paper: 0.01)");
    public static final Param<Score> SCORE = Param.option("score", Score.MAHALANOBIS,
            "class score: mahalanobis = (x - mu)^T Sigma^-1 (x - mu) (Eq. 7/10, the paper's classifier); "
                    + "loglik = that plus log|Sigma| (Eq. 6/11, the Gaussian negative log-likelihood)");
    public static final Param<Covariance> COVARIANCE = Param.option("covariance", Covariance.UNBIASED,
            "sample covariance divisor: unbiased = n - 1 (paper Eq. 9), biased = n (the authors' notebooks)");
    public static final Param<Solver> SOLVER = Param.option("solver", Solver.AUTO,
            "top-q eigenpairs: full = d x d eigen decomposition; gram = the n x n Gram matrix when n < d (exact); "
                    + "randomized = randomized block Krylov with a score-accuracy stop rule (exact fallback); "
                    + "auto = randomized when q is small against the rank, else gram or full");
    public static final Param<ScatterPolicy> SCATTER = Param.option("scatter", ScatterPolicy.DROP,
            "what a class keeps after learn(): drop = its PPCA model only (O(q d) memory; more samples of the class "
                    + "in a later learn() are merged into the rank-q model, an approximation); keep = also its exact "
                    + "scatter (later samples merge exactly; min(n, d) x d doubles per class)");
    public static final Param<Double> TEMPERATURE = Param.real("temperature", 1.0, 1e-12, 1e12,
            "class probabilities are softmax(-score / (2 temperature)); 1 with score=loglik is the Gaussian "
                    + "posterior under equal priors");

    /** The class score. */
    public enum Score { MAHALANOBIS, LOGLIK }

    /** The sample covariance divisor. */
    public enum Covariance { UNBIASED, BIASED }

    /** How to compute the top-q eigenpairs of a class scatter. */
    public enum Solver {
        /** Krylov when q is small against the rank and the exact solver is expensive, otherwise exact. */
        AUTO,
        /** Always the d x d eigen decomposition. */
        FULL,
        /** The Gram matrix when the covariance has fewer factor rows than dimensions, otherwise full. */
        GRAM,
        /** Always the randomized block Krylov method first (exact fallback when it does not converge). */
        RANDOMIZED
    }

    /** What a class keeps after learn(). */
    public enum ScatterPolicy { DROP, KEEP }

    public PpcaMethod() {
        super("ppca",
                "Incremental probabilistic PCA: one PPCA Gaussian per class, fast Mahalanobis score (q=0: nearest mean)",
                "Wang and Barbu, Scalable Learning with Incremental Probabilistic PCA, IEEE BigData 2022",
                // Class models are independent: a few-shot class is just a class with few samples (q_c = n - 1).
                EnumSet.of(Capability.CLASS_INCREMENTAL, Capability.FEWSHOT_CLASS_INCREMENTAL,
                        Capability.INDUCTIVE_FEWSHOT),
                List.of(Q, LAMBDA, SCORE, COVARIANCE, SOLVER, SCATTER, TEMPERATURE));
    }

    @Override
    public Learner learner(Params params, Background background) {
        PpcaConfig config = PpcaConfig.of(params);
        return context -> new PpcaSession(config, context);
    }
}
