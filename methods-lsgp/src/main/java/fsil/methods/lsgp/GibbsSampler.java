package fsil.methods.lsgp;

import fsil.core.gp.DiagonalPrecisionPosterior;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.math.Stable;
import fsil.core.pg.PolyaGammaSampler;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.PoissonSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * Gibbs sampler for the augmented tempered logistic-softmax GP (the authors' code has none), the conditionals of
 * the joint (paper Eq. 4.2):
 * <ol>
 *   <li>by default a blocked step for (lambda, m) | f: lambda_n | f ~ Exp(rate sum_c sigma(f_n^c / tau)) (m and
 *   omega integrated out: sum_m Po(m | lambda) sigma(-z)^m = e^{-lambda sigma(z)}), then
 *   m_n^c | lambda, f ~ Po(lambda_n sigma(-f_n^c / tau)). With {@code blockedLambda = false} the order of [R3]
 *   (theogf/AugmentedGaussianProcesses.jl) and [R2] (jakesnell/ove-polya-gamma-gp): m | lambda, f, then
 *   lambda_n | m ~ Ga(1 + sum_c m_n^c, rate C) (flat prior on lambda). Both leave the same
 *   posterior invariant, but the [R2] chain moves lambda by about 1/C per sweep, while the posterior of lambda sits
 *   near 1 / sum_c sigma(f_c/tau) ~ e^{|a|/tau}/C when the prior mean a is very negative: with a = -5,
 *   tau = 0.2 it never gets there;</li>
 *   <li>omega_n^c | m, f ~ PG(y_n^c + m_n^c, f_n^c / tau) (the exact sampler of core);</li>
 *   <li>f^c | omega, m ~ N(Sigma (K^-1 a 1 + (y^c - m^c)/(2 tau)), Sigma), Sigma = (K^-1 + diag(omega)/tau^2)^-1,
 *   drawn pathwise in the B form ({@link DiagonalPrecisionPosterior#sample}).</li>
 * </ol>
 * Initialisation as [R2]: f from the prior, lambda = 1. After {@code burnin} sweeps, each of the next
 * {@code samples} sweeps contributes its sites (omega/tau^2, (y - m)/(2 tau)) to the returned posterior, so the
 * predictive is the average of the Gaussian predictives given each draw's (omega, m): f is integrated out
 * analytically (Rao-Blackwellisation).
 */
final class GibbsSampler {
    /** PG(b, c) costs b draws: a Poisson count above this means the chain cannot be run in reasonable time. */
    static final int MAX_COUNT = 100_000;
    /** Below this mean the Poisson draw is done by inversion (no sampler object); above, Commons RNG. */
    private static final double INVERSION_LIMIT = 30;

    private GibbsSampler() {
    }

    static TaskPosterior run(DMatrixRMaj k, int[] y, int numClasses, double tau, double priorMean, int burnin,
                             int samples, UniformRandomProvider rng) {
        return run(k, y, numClasses, tau, priorMean, burnin, samples, true, rng);
    }

    /**
     * @param blockedLambda draw lambda_n | f ~ Exp(rate sum_c sigma(f_n^c / tau)) with m integrated out, then
     *                      m | lambda, f (a blocked step of the same joint); false = lambda | m after m | lambda, f
     *                      as [R2]/[R3], which needs ~e^{|a|/tau} sweeps to move lambda when sigma(f/tau) is tiny
     */
    static TaskPosterior run(DMatrixRMaj k, int[] y, int numClasses, double tau, double priorMean, int burnin,
                             int samples, boolean blockedLambda, UniformRandomProvider rng) {
        int n = k.numRows;
        CholeskyFactor lk = Cholesky.factor(k, JitterPolicy.DEFAULT);
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        PolyaGammaSampler pg = new PolyaGammaSampler(rng);
        double tau2 = tau * tau;
        double[] prior = new double[n];
        java.util.Arrays.fill(prior, priorMean);
        double[][] f = new double[numClasses][];
        double[] z = new double[n];
        for (int c = 0; c < numClasses; c++) {
            fillNormal(z, normal);
            f[c] = lk.multiplyLower(z);
            for (int i = 0; i < n; i++) {
                f[c][i] += priorMean;
            }
        }
        double[] lambda = new double[n];
        java.util.Arrays.fill(lambda, 1.0);
        int[][] m = new int[numClasses][n];
        double[] omega = new double[n];
        double[] d = new double[n];
        double[] b = new double[n];
        double[] e = new double[n];
        DiagonalPrecisionPosterior[][] kept = new DiagonalPrecisionPosterior[samples][numClasses];
        double[][][] keptWeights = new double[samples][numClasses][];
        for (int sweep = 0; sweep < burnin + samples; sweep++) {
            if (blockedLambda) {
                for (int i = 0; i < n; i++) {
                    double rate = 0;
                    for (int c = 0; c < numClasses; c++) {
                        rate += Stable.sigmoid(f[c][i] / tau);
                    }
                    // Exp(rate) by inversion; rate > 0 always (sigma > 0 unless it underflows, then cap lambda)
                    lambda[i] = -Math.log1p(-rng.nextDouble()) / Math.max(rate, 1e-300);
                }
            }
            for (int c = 0; c < numClasses; c++) {
                for (int i = 0; i < n; i++) {
                    m[c][i] = poisson(rng, lambda[i] * Stable.sigmoid(-f[c][i] / tau));
                }
            }
            if (!blockedLambda) {
                for (int i = 0; i < n; i++) {
                    int total = 0;
                    for (int c = 0; c < numClasses; c++) {
                        total += m[c][i];
                    }
                    lambda[i] = AhrensDieterMarsagliaTsangGammaSampler.of(rng, 1.0 + total, 1.0 / numClasses).sample();
                }
            }
            int r = sweep - burnin;
            for (int c = 0; c < numClasses; c++) {
                for (int i = 0; i < n; i++) {
                    int yy = y[i] == c ? 1 : 0;
                    omega[i] = pg.sample(yy + m[c][i], f[c][i] / tau);
                    d[i] = omega[i] / tau2;
                    b[i] = (yy - m[c][i]) / (2 * tau);
                }
                DiagonalPrecisionPosterior post = DiagonalPrecisionPosterior.of(k, d);
                double[] v = post.weights(prior, b);
                double[] mean = post.mean(prior, v);
                fillNormal(z, normal);
                fillNormal(e, normal);
                f[c] = post.sample(mean, lk.multiplyLower(z), e);
                if (r >= 0) {
                    kept[r][c] = post;
                    keptWeights[r][c] = v;
                }
            }
        }
        return new TaskPosterior(k, kept, keptWeights, priorMean, numClasses);
    }

    private static void fillNormal(double[] z, ZigguratSampler.NormalizedGaussian g) {
        for (int i = 0; i < z.length; i++) {
            z[i] = g.sample();
        }
    }

    /** A Poisson draw; mean 0 gives 0. */
    static int poisson(UniformRandomProvider rng, double mean) {
        if (!(mean > 0)) {
            return 0;
        }
        if (mean < INVERSION_LIMIT) {
            double u = rng.nextDouble();
            double p = Math.exp(-mean);
            double cdf = p;
            int x = 0;
            while (u > cdf && x < 10_000) {
                x++;
                p *= mean / x;
                cdf += p;
            }
            return x;
        }
        if (mean > MAX_COUNT) {
            throw new fsil.core.math.NumericalException("Gibbs sampler: Poisson rate " + mean + " is out of range "
                    + "(the posterior of lambda is near 1 / sum_c sigma(f_c/tau), huge when mean/tau is very negative), so "
                    + "PG(y + m, .) would need that many draws; use inference=mean-field, a less negative mean or a "
                    + "larger tau");
        }
        return PoissonSampler.of(rng, mean).sample();
    }
}
