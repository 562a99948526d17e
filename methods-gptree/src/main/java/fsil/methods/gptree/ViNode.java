package fsil.methods.gptree;

import fsil.core.gp.Kernel;
import fsil.core.gp.KernelGradients;
import fsil.core.gp.SymmetricKernelGradients;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.math.Stable;
import fsil.core.quad.GaussHermite;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

import java.util.Arrays;

/**
 * A node GP with the sparse variational Polya-Gamma approximation of Wenzel et al. (2019) as GP-Tree uses it
 * (paper §3.2 and App. A; the authors' {@code GP_Tree/gp_model.py}): inducing values u = f(Z) at the inducing
 * inputs Z of the node's classes,
 * q(u) = N(mu, Sigma) held in natural parameters (eta = Sigma^-1 mu, P = Sigma^-1 = -2H), q(omega_i) = PG(1, c_i)
 * with one local c_i per training sample of the node.
 *
 * <p>With kappa = K_nm K_mm^-1, Ktilde_ii = k_ii - [K_nm K_mm^-1 K_mn]_ii, theta_i = tanh(c_i/2)/(2 c_i),
 * y_i - 1/2 = t_i/2 and E[f_i^2] = Ktilde_ii + kappa_i Sigma kappa_i^T + (kappa_i mu)^2, the bound of a batch of s
 * of the node's n samples is (Wenzel et al.'s bound, the authors' sign errors corrected, constants kept so that it
 * is a true lower bound)
 * <pre>
 *   ELBO = (n/s) sum_i [ (y_i - 1/2) kappa_i mu - theta_i/2 (E[f_i^2] - c_i^2) - log cosh(c_i/2) - log 2 ]
 *          - KL(N(mu, Sigma) || N(0, K_mm)).
 * </pre>
 * {@link Elbo#CODE} reproduces the authors' objective instead: no n/s scaling of the batch sum and the signs of
 * kappa Sigma kappa^T and (kappa mu)^2 flipped inside the theta bracket ({@code GP_Tree/gp_model.py}'s loss).
 *
 * <p>Updates (App. A.2, in this order): c_i = sqrt(E[f_i^2]) for the batch (the unique maximiser), then one natural
 * gradient step of size rho: eta += rho ((n/s) kappa^T (y - 1/2) - eta), P += rho (K_mm^-1 + (n/s) kappa^T Theta kappa
 * - P). (The paper's Eq. 17 writes n/(2|B|) in the H step; n/|B| is what the bound gives and what the code uses.)
 * The natural parameter P is a precision, so K_mm^-1 appears as a matrix here; it is formed from the Cholesky factor
 * of K_mm (L^-T L^-1), the only inverse-like matrix in the module. Everything else uses factors and solves.
 *
 * <p>The gradient of the node loss -ELBO/n with respect to K_mm, K_mn and diag K_nn is in closed form (derived in
 * the module README); the kernel's backward pass turns it into gradients for Z, the batch embeddings and the log
 * hyperparameters. Variational parameters are held fixed in that gradient, as in Algorithm 1.
 */
final class ViNode implements NodeModel {
    enum Elbo { WENZEL, CODE }

    private static final JitterPolicy FALLBACK = JitterPolicy.onFailure(1e-6, 4);

    final TreeNode node;
    /** Rows of the shared inducing matrix used by this node (its classes' rows, ascending class order). */
    final int[] inducingRows;
    final Kernel kernel;
    /** The kernel's log hyperparameters: an optimiser parameter array, pushed into the kernel before each use. */
    final double[] logHyper;
    final double jitter;
    final int nNode;
    private final double[] eta;
    private final DMatrixRMaj precision;
    /** Local variational parameters c, one per training sample of the node (initialised to 1, as the authors do). */
    private final double[] c;
    private DMatrixRMaj xbar;

    ViNode(TreeNode node, int[] inducingRows, Kernel kernel, double jitter, int nNode) {
        this.node = node;
        this.inducingRows = inducingRows.clone();
        this.kernel = kernel;
        this.logHyper = kernel.hyperparameters();
        this.jitter = jitter;
        this.nNode = nNode;
        int m = inducingRows.length;
        this.eta = new double[m];
        this.precision = CommonOps_DDRM.identity(m);
        this.c = new double[nNode];
        Arrays.fill(c, 1.0);
    }

    int inducingCount() {
        return inducingRows.length;
    }

    /** Points the node at the (trained) shared inducing matrix used for prediction. */
    void setInducing(DMatrixRMaj sharedXbar) {
        this.xbar = sharedXbar;
    }

    DMatrixRMaj inducingInputs(DMatrixRMaj sharedXbar) {
        int e = sharedXbar.numCols;
        DMatrixRMaj z = new DMatrixRMaj(inducingRows.length, e);
        for (int r = 0; r < inducingRows.length; r++) {
            System.arraycopy(sharedXbar.data, inducingRows[r] * e, z.data, r * e, e);
        }
        return z;
    }

    /** Kernel quantities of one batch at this node. */
    final class Forward {
        final DMatrixRMaj z;
        final DMatrixRMaj xb;
        final double[] kap;
        final int[] local;
        final CholeskyFactor lk;
        /** A K_mn = kappa^T (m x s). */
        final DMatrixRMaj kt;
        final double[] ktilde;
        final double logDetKmm;
        final int s;

        Forward(DMatrixRMaj sharedXbar, DMatrixRMaj batch, boolean[] right, int[] local) {
            kernel.setHyperparameters(logHyper);
            this.z = inducingInputs(sharedXbar);
            this.xb = batch;
            this.local = local;
            this.s = batch.numRows;
            this.kap = new double[s];
            for (int i = 0; i < s; i++) {
                kap[i] = right[i] ? 0.5 : -0.5;
            }
            int m = z.numRows;
            DMatrixRMaj kmm = kernel.matrix(z);
            for (int i = 0; i < m; i++) {
                kmm.data[i * m + i] += jitter;
            }
            this.lk = Cholesky.factor(kmm, FALLBACK);
            this.logDetKmm = lk.logDet();
            DMatrixRMaj w = kernel.matrix(z, batch);
            lk.solveLowerInPlace(w);
            double[] kd = kernel.diag(batch);
            this.ktilde = new double[s];
            for (int i = 0; i < s; i++) {
                double q = 0;
                for (int r = 0; r < m; r++) {
                    double v = w.data[r * s + i];
                    q += v * v;
                }
                ktilde[i] = Math.max(0.0, kd[i] + jitter - q);
            }
            lk.solveLowerTransposeInPlace(w);
            this.kt = w;
        }

        private DMatrixRMaj kmmInverse;

        /** K_mm^-1 from the factor (L^-T L^-1), computed once per forward pass; do not modify. */
        DMatrixRMaj kmmInverse() {
            if (kmmInverse == null) {
                int m = z.numRows;
                DMatrixRMaj linv = lk.solveLower(CommonOps_DDRM.identity(m));
                kmmInverse = new DMatrixRMaj(m, m);
                CommonOps_DDRM.multTransA(linv, linv, kmmInverse);
            }
            return kmmInverse;
        }
    }

    /** q(u) moments needed by the bound: the factor of P, mu, and per batch sample kappa Sigma kappa^T, kappa mu. */
    private record Moments(CholeskyFactor lp, double[] mu, double[] kSk, double[] kmu) {
    }

    private Moments moments(Forward f) {
        CholeskyFactor lp = Cholesky.factor(precision, FALLBACK);
        double[] mu = lp.solve(eta);
        DMatrixRMaj v = lp.solveLower(f.kt);
        int m = f.kt.numRows;
        double[] kSk = new double[f.s];
        double[] kmu = new double[f.s];
        for (int r = 0; r < m; r++) {
            for (int i = 0; i < f.s; i++) {
                double a = v.data[r * f.s + i];
                kSk[i] += a * a;
                kmu[i] += f.kt.data[r * f.s + i] * mu[r];
            }
        }
        return new Moments(lp, mu, kSk, kmu);
    }

    /** The closed-form c update for the batch samples, then one natural-gradient step of size rho on (eta, P). */
    void update(Forward f, double rho) {
        Moments q = moments(f);
        int m = f.kt.numRows;
        double scale = (double) nNode / f.s;
        double[] theta = new double[f.s];
        for (int i = 0; i < f.s; i++) {
            double ci = Math.sqrt(f.ktilde[i] + q.kSk()[i] + q.kmu()[i] * q.kmu()[i]);
            c[f.local[i]] = ci;
            theta[i] = Stable.tanhHalfOver2c(ci);
        }
        DMatrixRMaj a = f.kmmInverse();
        DMatrixRMaj kth = new DMatrixRMaj(m, f.s);
        for (int r = 0; r < m; r++) {
            double g = 0;
            for (int i = 0; i < f.s; i++) {
                double kv = f.kt.data[r * f.s + i];
                g += kv * f.kap[i];
                kth.data[r * f.s + i] = kv * theta[i];
            }
            eta[r] = (1 - rho) * eta[r] + rho * scale * g;
        }
        DMatrixRMaj m1 = new DMatrixRMaj(m, m);
        CommonOps_DDRM.multTransB(kth, f.kt, m1);
        for (int r = 0; r < m; r++) {
            for (int j = 0; j <= r; j++) {
                double target = 0.5 * (a.data[r * m + j] + a.data[j * m + r])
                        + scale * 0.5 * (m1.data[r * m + j] + m1.data[j * m + r]);
                double v = (1 - rho) * precision.data[r * m + j] + rho * target;
                precision.data[r * m + j] = v;
                precision.data[j * m + r] = v;
            }
        }
    }

    /** Gradient of the node loss -ELBO/n_node (variational parameters fixed). */
    record Gradient(double loss, double elbo, DMatrixRMaj dZ, DMatrixRMaj dX, double[] dHyper) {
    }

    /**
     * The bound of the batch and, if {@code withGradient}, the gradient of -ELBO/n_node with respect to the inducing
     * inputs, the batch inputs and the log hyperparameters.
     */
    Gradient objective(Forward f, Elbo elbo, boolean withGradient) {
        Moments q = moments(f);
        int m = f.kt.numRows;
        int s = f.s;
        double omegaW = elbo == Elbo.WENZEL ? (double) nNode / s : 1.0;
        double sgn = elbo == Elbo.WENZEL ? 1.0 : -1.0;
        double[] theta = new double[s];
        double data = 0;
        for (int i = 0; i < s; i++) {
            double ci = c[f.local[i]];
            theta[i] = Stable.tanhHalfOver2c(ci);
            double kmu = q.kmu()[i];
            data += f.kap[i] * kmu
                    - 0.5 * theta[i] * (f.ktilde[i] + sgn * (q.kSk()[i] + kmu * kmu) - ci * ci)
                    - Stable.logCosh(0.5 * ci) - Stable.LN_2;
        }
        data *= omegaW;
        // KL(N(mu, Sigma) || N(0, K_mm)) = (tr(K^-1 Sigma) + mu^T K^-1 mu - m + log|K| - log|Sigma|) / 2
        DMatrixRMaj a = f.kmmInverse();
        DMatrixRMaj sigA = q.lp().solve(a);            // Sigma K^-1
        double trace = CommonOps_DDRM.trace(sigA);
        double[] lmu = q.mu().clone();
        f.lk.solveLowerInPlace(lmu);
        double muAmu = 0;
        for (double v : lmu) {
            muAmu += v * v;
        }
        double kl = 0.5 * (trace + muAmu - m + f.logDetKmm + q.lp().logDet());
        double value = data - kl;
        double loss = -value / nNode;
        if (!withGradient) {
            return new Gradient(loss, value, null, null, null);
        }
        // d ELBO / d K_mn, d K_mm, d diag K_nn (see the class comment and README for the derivation)
        double[] alpha = f.lk.solve(q.mu());
        double[] beta = new double[m];
        for (int r = 0; r < m; r++) {
            double g = 0;
            for (int i = 0; i < s; i++) {
                g += f.kt.data[r * s + i] * f.kap[i];
            }
            beta[r] = g;
        }
        DMatrixRMaj sa = sigA.copy();                  // (Sigma + mu mu^T) K^-1
        for (int r = 0; r < m; r++) {
            for (int j = 0; j < m; j++) {
                sa.data[r * m + j] += q.mu()[r] * alpha[j];
            }
        }
        DMatrixRMaj ksa = new DMatrixRMaj(m, s);       // (kappa S2 A)^T = SA^T kappa^T, m x s
        CommonOps_DDRM.multTransA(sa, f.kt, ksa);
        DMatrixRMaj gmn = new DMatrixRMaj(m, s);
        for (int r = 0; r < m; r++) {
            for (int i = 0; i < s; i++) {
                gmn.data[r * s + i] = omegaW * (f.kap[i] * alpha[r] + theta[i] * f.kt.data[r * s + i]
                        - sgn * theta[i] * ksa.data[r * s + i]);
            }
        }
        DMatrixRMaj kth = new DMatrixRMaj(m, s);
        for (int r = 0; r < m; r++) {
            for (int i = 0; i < s; i++) {
                kth.data[r * s + i] = f.kt.data[r * s + i] * theta[i];
            }
        }
        DMatrixRMaj m1 = new DMatrixRMaj(m, m);
        CommonOps_DDRM.multTransB(kth, f.kt, m1);      // kappa^T Theta kappa
        DMatrixRMaj m1sa = new DMatrixRMaj(m, m);
        CommonOps_DDRM.mult(m1, sa, m1sa);
        DMatrixRMaj asiga = new DMatrixRMaj(m, m);
        CommonOps_DDRM.mult(a, sigA, asiga);           // K^-1 Sigma K^-1
        DMatrixRMaj gmm = new DMatrixRMaj(m, m);
        for (int r = 0; r < m; r++) {
            for (int j = 0; j < m; j++) {
                int k = r * m + j;
                gmm.data[k] = omegaW * (-beta[r] * alpha[j] - 0.5 * m1.data[k] + sgn * m1sa.data[k])
                        + 0.5 * (asiga.data[k] + alpha[r] * alpha[j] - a.data[k]);
            }
        }
        double[] gdiag = new double[s];
        for (int i = 0; i < s; i++) {
            gdiag[i] = -0.5 * omegaW * theta[i];
        }
        double scale = -1.0 / nNode;
        CommonOps_DDRM.scale(scale, gmm);
        CommonOps_DDRM.scale(scale, gmn);
        for (int i = 0; i < s; i++) {
            gdiag[i] *= scale;
        }
        SymmetricKernelGradients gzz = kernel.backward(f.z, gmm);
        KernelGradients gzx = kernel.backward(f.z, f.xb, gmn);
        double[] gd = kernel.backwardDiag(f.xb, gdiag);
        DMatrixRMaj dz = gzz.dx().copy();
        CommonOps_DDRM.addEquals(dz, gzx.dx1());
        double[] dh = gzz.dHyper().clone();
        for (int h = 0; h < dh.length; h++) {
            dh[h] += gzx.dHyper()[h] + gd[h];
        }
        return new Gradient(loss, value, dz, gzx.dx2(), dh);
    }

    /** c of the node's local sample (for tests). */
    double localC(int local) {
        return c[local];
    }

    double[] eta() {
        return eta.clone();
    }

    DMatrixRMaj precision() {
        return precision.copy();
    }

    /** Predictive p(right | x_*) = E[sigmoid(f_*)], f_* ~ N(k_*^T K^-1 mu, k_** - k_*^T K^-1 k_* + k_*^T K^-1 Sigma K^-1 k_*). */
    @Override
    public double[] probabilityRight(DMatrixRMaj queries) {
        kernel.setHyperparameters(logHyper);
        DMatrixRMaj z = inducingInputs(xbar);
        int m = z.numRows;
        int t = queries.numRows;
        DMatrixRMaj kmm = kernel.matrix(z);
        for (int i = 0; i < m; i++) {
            kmm.data[i * m + i] += jitter;
        }
        CholeskyFactor lk = Cholesky.factor(kmm, FALLBACK);
        CholeskyFactor lp = Cholesky.factor(precision, FALLBACK);
        double[] mu = lp.solve(eta);
        double[] alpha = lk.solve(mu);
        DMatrixRMaj w = kernel.matrix(z, queries);
        double[] mean = new double[t];
        for (int r = 0; r < m; r++) {
            for (int j = 0; j < t; j++) {
                mean[j] += w.data[r * t + j] * alpha[r];
            }
        }
        lk.solveLowerInPlace(w);
        double[] var = kernel.diag(queries);
        for (int j = 0; j < t; j++) {
            double q = 0;
            for (int r = 0; r < m; r++) {
                q += w.data[r * t + j] * w.data[r * t + j];
            }
            var[j] += jitter - q;
        }
        lk.solveLowerTransposeInPlace(w);   // K^-1 k_*
        lp.solveLowerInPlace(w);            // L_P^-1 K^-1 k_*
        for (int j = 0; j < t; j++) {
            double q = 0;
            for (int r = 0; r < m; r++) {
                q += w.data[r * t + j] * w.data[r * t + j];
            }
            var[j] = Math.max(0.0, var[j] + q);
        }
        double[] p = new double[t];
        GaussHermite.standard().expectedSigmoid(mean, var, p);
        return p;
    }

    @Override
    public long memoryBytes() {
        long m = inducingRows.length;
        return 8L * (m * m + m + nNode + logHyper.length) + 4L * m;
    }

    @Override
    public String kind() {
        return "vi";
    }
}
