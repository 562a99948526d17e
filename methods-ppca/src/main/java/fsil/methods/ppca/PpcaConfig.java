package fsil.methods.ppca;

import fsil.api.Params;

/**
 * The resolved parameters of {@link PpcaMethod}.
 *
 * @param q            components per class (before the q_c = min(q, n - 1, d) cap)
 * @param lambda       isotropic variance
 * @param logLik       score = Mahalanobis + log|Sigma| instead of the Mahalanobis score
 * @param ddof         1 for the unbiased covariance M2 / (n - 1), 0 for M2 / n
 * @param solver       eigen solver
 * @param keepScatter  keep each class's exact scatter after learn() (exact merges of later samples)
 * @param temperature  probabilities are softmax(-score / (2 temperature))
 */
record PpcaConfig(int q, double lambda, boolean logLik, double ddof, PpcaMethod.Solver solver, boolean keepScatter,
                  double temperature) {

    static PpcaConfig of(Params p) {
        return new PpcaConfig(p.get(PpcaMethod.Q), p.get(PpcaMethod.LAMBDA), p.get(PpcaMethod.SCORE) == PpcaMethod.Score.LOGLIK,
                p.get(PpcaMethod.COVARIANCE) == PpcaMethod.Covariance.BIASED ? 0.0 : 1.0,
                p.get(PpcaMethod.SOLVER), p.get(PpcaMethod.SCATTER) == PpcaMethod.ScatterPolicy.KEEP,
                p.get(PpcaMethod.TEMPERATURE));
    }
}
