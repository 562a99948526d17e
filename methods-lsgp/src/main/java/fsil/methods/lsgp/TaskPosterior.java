package fsil.methods.lsgp;

import fsil.core.gp.DiagonalPrecisionPosterior;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import org.ejml.data.DMatrixRMaj;

/**
 * The posterior of the C latent functions on a task's support set, as one or more sets of Gaussian "sites"
 * (diagonal precision theta/tau^2 or omega/tau^2 and linear term (y - gamma)/(2 tau) or (y - m)/(2 tau)): one set
 * for mean-field (the final q(f)), one per retained draw for Gibbs sampling (Rao-Blackwellised over f). From it,
 * the per-class predictive mean and variance at query points (paper Eq. 4.6b).
 */
final class TaskPosterior {
    private final DMatrixRMaj k;
    private final DiagonalPrecisionPosterior[][] sites;
    private final double[][][] weights;
    private final double priorMean;
    private final int numClasses;

    /**
     * @param sites   [r][c] posteriors in B form (r = 1 for mean-field, the retained draws for Gibbs)
     * @param weights [r][c] the weights v with mu = a + K v
     */
    TaskPosterior(DMatrixRMaj k, DiagonalPrecisionPosterior[][] sites, double[][][] weights, double priorMean,
                  int numClasses) {
        this.k = k;
        this.sites = sites;
        this.weights = weights;
        this.priorMean = priorMean;
        this.numClasses = numClasses;
    }

    static TaskPosterior of(MeanField mf) {
        DiagonalPrecisionPosterior[][] p = new DiagonalPrecisionPosterior[1][mf.numClasses()];
        double[][][] v = new double[1][mf.numClasses()][];
        for (int c = 0; c < mf.numClasses(); c++) {
            p[0][c] = mf.posterior(c);
            v[0][c] = mf.weights(c);
        }
        return new TaskPosterior(mf.kernel(), p, v, mf.priorMean(), mf.numClasses());
    }

    int sets() {
        return sites.length;
    }

    int numClasses() {
        return numClasses;
    }

    int size() {
        return k.numRows;
    }

    /**
     * Predictive means [r][c][j] at the t query points, K_* = k(X_support, X_query) (n x t).
     *
     * @param authorsMean use the authors' k_*^T K^-1 mu (prior mean not added back) instead of a + k_*^T K^-1 (mu - a)
     */
    double[][][] means(DMatrixRMaj kStar, boolean authorsMean) {
        int t = kStar.numCols;
        double[] base = new double[t];
        if (authorsMean) {
            // k_*^T K^-1 mu = a k_*^T K^-1 1 + k_*^T v
            CholeskyFactor lk = Cholesky.factor(k, JitterPolicy.DEFAULT);
            double[] ones = new double[k.numRows];
            java.util.Arrays.fill(ones, 1.0);
            double[] u = lk.solve(ones);
            for (int i = 0; i < k.numRows; i++) {
                for (int j = 0; j < t; j++) {
                    base[j] += priorMean * kStar.data[i * t + j] * u[i];
                }
            }
        } else {
            java.util.Arrays.fill(base, priorMean);
        }
        double[][][] out = new double[sites.length][numClasses][];
        for (int r = 0; r < sites.length; r++) {
            for (int c = 0; c < numClasses; c++) {
                out[r][c] = sites[r][c].predictiveMean(kStar, base, weights[r][c]);
            }
        }
        return out;
    }

    /** Predictive variances [r][c][j]; kStarDiag = k(x_*, x_*). */
    double[][][] variances(DMatrixRMaj kStar, double[] kStarDiag) {
        double[][][] out = new double[sites.length][numClasses][];
        for (int r = 0; r < sites.length; r++) {
            for (int c = 0; c < numClasses; c++) {
                out[r][c] = sites[r][c].predictiveVariance(kStar, kStarDiag);
            }
        }
        return out;
    }

    long memoryBytes() {
        long n = k.numRows;
        return 8L * (n * n + (long) sites.length * numClasses * (n * n + 2 * n));
    }
}
