package fsil.core.gp;

import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * The Gaussian posterior of f ~ N(m, K) under a diagonal-precision Gaussian factor exp(b^T f - f^T D f / 2),
 * D = diag(d), d_i &gt;= 0: Sigma = (K^{-1} + D)^{-1}, mu = Sigma (K^{-1} m + b). This is the conditional
 * f | omega of every Polya-Gamma-augmented GP (GP-Tree's Gibbs node: d = omega, b = kappa; the
 * logistic-softmax GP: d = theta/tau^2, b = (y - gamma)/(2 tau)).
 *
 * <p>Computed in the stable form of Rasmussen and Williams, <i>Gaussian Processes for Machine Learning</i>, MIT Press
 * 2006, Sec. 3.4.3 (the matrix B of their Algorithm 3.2), with S = D^{1/2} and
 * B = I + S K S = L_B L_B^T (eigenvalues &gt;= 1 when K is PSD), never with K^{-1} or D^{-1}, so d_i = 0 and
 * singular K are fine:
 * <ul>
 *   <li>Sigma = K - (L_B^{-1} S K)^T (L_B^{-1} S K);</li>
 *   <li>v = b - S B^{-1} S (K b + m), mu = m + K v; at test points mu_* = m_* + K_*^T v;</li>
 *   <li>predictive variance k_** - ||L_B^{-1} S K_*||^2 (= k_** - K_*^T (K + D^{-1})^{-1} K_*);</li>
 *   <li>log|B| = log|K| - log|Sigma|; KL(N(mu, Sigma) || N(m, K)) = (log|B| + tr B^{-1} - n + v^T K v)/2;</li>
 *   <li>draws (pathwise / Matheron): f = mu + f0 - K S B^{-1} (S f0 + e) with f0 ~ N(0, K), e ~ N(0, I) has
 *   covariance exactly Sigma and needs no factor of Sigma.</li>
 * </ul>
 * Immutable after construction; the O(n^3) factor of B is computed once, Sigma only on request.
 */
public final class DiagonalPrecisionPosterior {
    private final DMatrixRMaj k;
    private final double[] s;
    private final CholeskyFactor factorB;

    private DiagonalPrecisionPosterior(DMatrixRMaj k, double[] s, CholeskyFactor factorB) {
        this.k = k;
        this.s = s;
        this.factorB = factorB;
    }

    /** Factors B with {@link JitterPolicy#none()} (B's eigenvalues are &gt;= 1 for PSD K). */
    public static DiagonalPrecisionPosterior of(DMatrixRMaj k, double[] d) {
        return of(k, d, JitterPolicy.none());
    }

    /**
     * @param k      the prior covariance K (n x n, symmetric; referenced, not copied: do not modify it afterwards)
     * @param d      the diagonal precision, d_i &gt;= 0 and finite
     * @param policy jitter policy for the Cholesky factor of B
     */
    public static DiagonalPrecisionPosterior of(DMatrixRMaj k, double[] d, JitterPolicy policy) {
        int n = k.numRows;
        if (k.numCols != n || d.length != n) {
            throw new IllegalArgumentException("K must be n x n and d of length n, got " + k.numRows + " x "
                    + k.numCols + " and " + d.length);
        }
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            if (!(d[i] >= 0) || Double.isInfinite(d[i])) {
                throw new IllegalArgumentException("precision d[" + i + "] must be finite and >= 0, got " + d[i]);
            }
            s[i] = Math.sqrt(d[i]);
        }
        DMatrixRMaj b = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double v = s[i] * k.data[i * n + j] * s[j];
                b.data[i * n + j] = v;
                b.data[j * n + i] = v;
            }
            b.data[i * n + i] += 1.0;
        }
        return new DiagonalPrecisionPosterior(k, s, Cholesky.factorOverwriting(b, policy));
    }

    public int size() {
        return s.length;
    }

    /** The Cholesky factor of B = I + S K S. */
    public CholeskyFactor factorB() {
        return factorB;
    }

    /** log det B = log det(I + K D) = log|K| - log|Sigma|. */
    public double logDetB() {
        return factorB.logDet();
    }

    /** v = b - S B^{-1} S (K b + m): the posterior mean is m + K v, the predictive mean m_* + K_*^T v. */
    public double[] weights(double[] priorMean, double[] linear) {
        int n = size();
        checkLength(priorMean, "prior mean");
        checkLength(linear, "linear term b");
        double[] t = multiplyK(linear);
        for (int i = 0; i < n; i++) {
            t[i] = s[i] * (t[i] + priorMean[i]);
        }
        factorB.solveInPlace(t);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = linear[i] - s[i] * t[i];
        }
        return v;
    }

    /** mu = m + K v for the weights v of {@link #weights}. */
    public double[] mean(double[] priorMean, double[] weights) {
        checkLength(priorMean, "prior mean");
        double[] mu = multiplyK(weights);
        for (int i = 0; i < mu.length; i++) {
            mu[i] += priorMean[i];
        }
        return mu;
    }

    /** Sigma = K - V^T V with V = L_B^{-1} S K (O(n^3)); exactly symmetric. */
    public DMatrixRMaj covariance() {
        DMatrixRMaj v = whitenedScaled(k);
        DMatrixRMaj sigma = new DMatrixRMaj(size(), size());
        CommonOps_DDRM.multTransA(v, v, sigma);
        int n = size();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double val = 0.5 * (k.data[i * n + j] + k.data[j * n + i]) - sigma.data[i * n + j];
                sigma.data[i * n + j] = val;
                sigma.data[j * n + i] = val;
            }
        }
        return sigma;
    }

    /** r^T Sigma r = r^T K r - ||L_B^{-1} S K r||^2 (e.g. the quadratic term of GP-Tree's Eq. 10 in B form). */
    public double quadFormCovariance(double[] r) {
        checkLength(r, "r");
        double[] kr = multiplyK(r);
        double rkr = 0;
        for (int i = 0; i < kr.length; i++) {
            rkr += r[i] * kr[i];
            kr[i] *= s[i];
        }
        factorB.solveLowerInPlace(kr);
        double w = 0;
        for (double v : kr) {
            w += v * v;
        }
        return rkr - w;
    }

    /**
     * Predictive means m_* + K_*^T v at t test points, K_* = k(X, X_*) being n x t.
     */
    public double[] predictiveMean(DMatrixRMaj kStar, double[] priorMeanStar, double[] weights) {
        checkRows(kStar);
        checkLength(weights, "weights");
        if (priorMeanStar.length != kStar.numCols) {
            throw new IllegalArgumentException("prior mean at the test points has length " + priorMeanStar.length
                    + ", K_* has " + kStar.numCols + " columns");
        }
        int t = kStar.numCols;
        double[] out = priorMeanStar.clone();
        for (int i = 0; i < size(); i++) {
            double vi = weights[i];
            int r = i * t;
            for (int j = 0; j < t; j++) {
                out[j] += kStar.data[r + j] * vi;
            }
        }
        return out;
    }

    /**
     * Marginal predictive variances k_**(j) - ||L_B^{-1} S K_*[:, j]||^2, clamped at 0 (they can come out
     * a few ulps negative when the test point coincides with heavily weighted training points).
     *
     * @param kStarDiag the prior variances k(x_*j, x_*j) (e.g. {@link Kernel#diag}, plus any model jitter)
     */
    public double[] predictiveVariance(DMatrixRMaj kStar, double[] kStarDiag) {
        checkRows(kStar);
        if (kStarDiag.length != kStar.numCols) {
            throw new IllegalArgumentException("kStarDiag has length " + kStarDiag.length + ", K_* has "
                    + kStar.numCols + " columns");
        }
        DMatrixRMaj w = whitenedScaled(kStar);
        double[] out = kStarDiag.clone();
        int t = kStar.numCols;
        for (int i = 0; i < size(); i++) {
            int r = i * t;
            for (int j = 0; j < t; j++) {
                double v = w.data[r + j];
                out[j] -= v * v;
            }
        }
        for (int j = 0; j < t; j++) {
            out[j] = Math.max(0.0, out[j]);
        }
        return out;
    }

    /** KL(N(mu, Sigma) || N(m, K)) = (log|B| + tr(B^{-1}) - n + v^T K v) / 2 for the weights v. */
    public double klToPrior(double[] weights) {
        checkLength(weights, "weights");
        double[] kv = multiplyK(weights);
        double vkv = 0;
        for (int i = 0; i < kv.length; i++) {
            vkv += weights[i] * kv[i];
        }
        return 0.5 * (logDetB() + factorB.traceInverse() - size() + vkv);
    }

    /**
     * A posterior draw f = mu + f0 - K S B^{-1} (S f0 + e), given a prior draw f0 ~ N(0, K) (e.g. the lower
     * Cholesky factor of K times standard normals, computed once per K) and e ~ N(0, I); O(n^2).
     */
    public double[] sample(double[] mean, double[] priorDraw, double[] standardNormal) {
        checkLength(mean, "mean");
        checkLength(priorDraw, "prior draw");
        checkLength(standardNormal, "standard normal vector");
        int n = size();
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = s[i] * priorDraw[i] + standardNormal[i];
        }
        factorB.solveInPlace(t);
        for (int i = 0; i < n; i++) {
            t[i] *= s[i];
        }
        double[] kt = multiplyK(t);
        double[] f = new double[n];
        for (int i = 0; i < n; i++) {
            f[i] = mean[i] + priorDraw[i] - kt[i];
        }
        return f;
    }

    /** L_B^{-1} S M for an n x t matrix M. */
    private DMatrixRMaj whitenedScaled(DMatrixRMaj m) {
        DMatrixRMaj w = m.copy();
        int t = m.numCols;
        for (int i = 0; i < size(); i++) {
            double si = s[i];
            int r = i * t;
            for (int j = 0; j < t; j++) {
                w.data[r + j] *= si;
            }
        }
        factorB.solveLowerInPlace(w);
        return w;
    }

    private double[] multiplyK(double[] x) {
        int n = size();
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double acc = 0;
            int r = i * n;
            for (int j = 0; j < n; j++) {
                acc += k.data[r + j] * x[j];
            }
            out[i] = acc;
        }
        return out;
    }

    private void checkLength(double[] x, String what) {
        if (x.length != size()) {
            throw new IllegalArgumentException(what + " has length " + x.length + ", expected " + size());
        }
    }

    private void checkRows(DMatrixRMaj kStar) {
        if (kStar.numRows != size()) {
            throw new IllegalArgumentException("K_* must have " + size() + " rows (training points), got " + kStar.numRows);
        }
    }
}
