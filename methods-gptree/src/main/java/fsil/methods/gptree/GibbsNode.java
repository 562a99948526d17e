package fsil.methods.gptree;

import fsil.core.concurrent.Parallel;
import fsil.core.gp.DiagonalPrecisionPosterior;
import fsil.core.gp.Kernel;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.math.Stable;
import fsil.core.pg.PolyaGammaSampler;
import fsil.core.quad.GaussHermite;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;

import java.util.concurrent.Executor;

/**
 * A node GP fitted by block Gibbs sampling of the Polya-Gamma augmented model (paper §2.3, §3.2; the authors'
 * {@code GP_Tree/gp_model_gibbs.py}):
 * K = k(X, X) + jitter I, kappa_i = y_i - 1/2; M independent chains start from f ~ N(0, K), omega ~ PG(1, f) and
 * run T sweeps of f | omega ~ N(Sigma kappa, Sigma), Sigma = (K^-1 + Omega)^-1, then omega | f ~ PG(1, f). The
 * final omega of each chain defines the predictive of Eq. 11-12, f_* | omega ~ N(mu_*, s_*^2) with
 * mu_* = k_*^T (K + Omega^-1)^-1 Omega^-1 kappa and s_*^2 = k_** - k_*^T (K + Omega^-1)^-1 k_*, and
 * p(right | x_*) = (1/M) sum_m E[sigmoid(f_*)] (a mixture over chains, by 20-point Gauss-Hermite) or, with
 * {@link Predictive#PLUG_IN}, sigmoid(mu_*) (the "single sample at the expected value location" of the paper's
 * §C.1).
 *
 * <p>All Gaussian algebra is the stable B = I + Omega^1/2 K Omega^1/2 form of {@link DiagonalPrecisionPosterior}
 * (Eq. 10-12 rewritten in B): no explicit inverse, no division by omega. f | omega is drawn pathwise (Matheron's
 * rule, default) or from a Cholesky factor of the explicitly formed Sigma ({@link Draw#COVARIANCE}). Chain m draws
 * from the stream {@code child(seed, m)} (the authors' code seeds every node's Polya-Gamma generator with 0,
 * pypolyagamma's default), and chains run in parallel on the executor without changing any number.
 */
final class GibbsNode implements NodeModel {
    enum Draw { PATHWISE, COVARIANCE }

    enum Predictive { GAUSS_HERMITE, PLUG_IN }

    /**
     * @param chains     M parallel chains
     * @param steps      T sweeps per chain
     * @param jitter     absolute diagonal jitter on K (authors' Gibbs default: 1e-3)
     */
    record Options(int chains, int steps, Draw draw, Predictive predictive, double jitter) {
    }

    private static final JitterPolicy FALLBACK = JitterPolicy.onFailure(1e-6, 4);

    private final DMatrixRMaj x;
    private final Kernel kernel;
    private final Options options;
    private final double[] kappa;
    private final DMatrixRMaj k;
    /** Final omega of every chain (M x n). */
    private final double[][] omega;
    /** Predictive weights v_m with mu_* = K_*^T v_m. */
    private final double[][] weights;
    /** B factors per chain, kept when they are small enough; otherwise refactored at prediction time. */
    private final DiagonalPrecisionPosterior[] cached;
    private final double logMarginal;

    private GibbsNode(DMatrixRMaj x, Kernel kernel, Options options, double[] kappa, DMatrixRMaj k, double[][] omega,
                      double[][] weights, DiagonalPrecisionPosterior[] cached, double logMarginal) {
        this.x = x;
        this.kernel = kernel;
        this.options = options;
        this.kappa = kappa;
        this.k = k;
        this.omega = omega;
        this.weights = weights;
        this.cached = cached;
        this.logMarginal = logMarginal;
    }

    /**
     * Runs the chains.
     *
     * @param x      training inputs (n x e), kept by the node
     * @param right  label per row: true = right child (y = 1)
     * @param kernel the node's kernel (not modified; its hyperparameters are fixed for Gibbs nodes)
     * @param seed   the node's seed
     */
    static GibbsNode fit(DMatrixRMaj x, boolean[] right, Kernel kernel, Options options, long seed, Executor executor) {
        int n = x.numRows;
        double[] kappa = new double[n];
        for (int i = 0; i < n; i++) {
            kappa[i] = right[i] ? 0.5 : -0.5;
        }
        DMatrixRMaj k = priorCovariance(kernel, x, options.jitter());
        CholeskyFactor lk = Cholesky.factor(k, FALLBACK);
        int m = options.chains();
        double[][] omega = new double[m][];
        double[][] weights = new double[m][];
        double[] logMl = new double[m];
        boolean keep = (long) n * n * m <= 4_000_000L;
        DiagonalPrecisionPosterior[] cached = keep ? new DiagonalPrecisionPosterior[m] : null;
        double[] zero = new double[n];
        Parallel.forEach(executor, m, c -> {
            UniformRandomProvider rng = RandomStreams.child(seed, c);
            ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            PolyaGammaSampler pg = new PolyaGammaSampler(rng);
            double[] f = lk.multiplyLower(normals(gauss, n));
            double[] w = new double[n];
            pg.sample(f, w);
            for (int t = 0; t < options.steps(); t++) {
                sweep(k, lk, kappa, w, options.draw(), gauss, pg);
            }
            omega[c] = w;
            DiagonalPrecisionPosterior post = DiagonalPrecisionPosterior.of(k, w);
            weights[c] = post.weights(zero, kappa);
            // augmented marginal likelihood log p(y | omega, X) (paper Eq. 10 in the stable B form, zero mean)
            logMl[c] = -n * Stable.LN_2 - 0.5 * post.logDetB() + 0.5 * post.quadFormCovariance(kappa);
            if (cached != null) {
                cached[c] = post;
            }
        });
        double mean = 0;
        for (double v : logMl) {
            mean += v / m;
        }
        return new GibbsNode(x, kernel, options, kappa, k, omega, weights, cached, mean);
    }

    /**
     * One block Gibbs sweep: f ~ p(f | omega, y), then omega ~ PG(1, f), written into {@code omega}.
     *
     * @param lk the Cholesky factor of K (for the pathwise draw's prior sample)
     * @return the f drawn
     */
    static double[] sweep(DMatrixRMaj k, CholeskyFactor lk, double[] kappa, double[] omega, Draw draw,
                          ZigguratSampler.NormalizedGaussian gauss, PolyaGammaSampler pg) {
        int n = kappa.length;
        double[] zero = new double[n];
        DiagonalPrecisionPosterior post = DiagonalPrecisionPosterior.of(k, omega);
        double[] mean = post.mean(zero, post.weights(zero, kappa));
        double[] f;
        if (draw == Draw.PATHWISE) {
            f = post.sample(mean, lk.multiplyLower(normals(gauss, n)), normals(gauss, n));
        } else {
            f = Cholesky.factor(post.covariance(), FALLBACK).multiplyLower(normals(gauss, n));
            for (int i = 0; i < n; i++) {
                f[i] += mean[i];
            }
        }
        pg.sample(f, omega);
        return f;
    }

    static DMatrixRMaj priorCovariance(Kernel kernel, DMatrixRMaj x, double jitter) {
        DMatrixRMaj k = kernel.matrix(x);
        int n = x.numRows;
        for (int i = 0; i < n; i++) {
            k.data[i * n + i] += jitter;
        }
        return k;
    }

    private static double[] normals(ZigguratSampler.NormalizedGaussian g, int n) {
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = g.sample();
        }
        return z;
    }

    /** Mean over chains of the augmented log marginal likelihood log p(y | omega, X) at the final omega. */
    double logMarginal() {
        return logMarginal;
    }

    /** Final omega of chain m (a copy). */
    double[] omega(int chain) {
        return omega[chain].clone();
    }

    int size() {
        return x.numRows;
    }

    @Override
    public double[] probabilityRight(DMatrixRMaj queries) {
        int t = queries.numRows;
        DMatrixRMaj kStar = kernel.matrix(x, queries);
        double[] kss = null;
        if (options.predictive() == Predictive.GAUSS_HERMITE) {
            kss = kernel.diag(queries);
            for (int j = 0; j < t; j++) {
                kss[j] += options.jitter();
            }
        }
        double[] p = new double[t];
        double[] zeroStar = new double[t];
        GaussHermite gh = GaussHermite.standard();
        double[] e = new double[t];
        int m = omega.length;
        for (int c = 0; c < m; c++) {
            double[] mu = predictiveMean(kStar, zeroStar, c);
            if (options.predictive() == Predictive.PLUG_IN) {
                for (int j = 0; j < t; j++) {
                    p[j] += Stable.sigmoid(mu[j]);
                }
            } else {
                DiagonalPrecisionPosterior post = cached != null ? cached[c] : DiagonalPrecisionPosterior.of(k, omega[c]);
                double[] var = post.predictiveVariance(kStar, kss);
                gh.expectedSigmoid(mu, var, e);
                for (int j = 0; j < t; j++) {
                    p[j] += e[j];
                }
            }
        }
        for (int j = 0; j < t; j++) {
            p[j] /= m;
        }
        return p;
    }

    private double[] predictiveMean(DMatrixRMaj kStar, double[] zeroStar, int chain) {
        int n = x.numRows;
        int t = kStar.numCols;
        double[] out = zeroStar.clone();
        double[] v = weights[chain];
        for (int i = 0; i < n; i++) {
            double vi = v[i];
            int r = i * t;
            for (int j = 0; j < t; j++) {
                out[j] += kStar.data[r + j] * vi;
            }
        }
        return out;
    }

    @Override
    public long memoryBytes() {
        long n = x.numRows;
        long b = 8L * (n * x.numCols + n * n + 3L * n * omega.length);
        return cached != null ? b + 8L * n * n * omega.length : b;
    }

    @Override
    public String kind() {
        return "gibbs";
    }
}
