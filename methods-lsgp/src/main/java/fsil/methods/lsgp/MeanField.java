package fsil.methods.lsgp;

import fsil.api.InvalidParameterException;
import fsil.core.gp.DiagonalPrecisionPosterior;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.math.Stable;
import org.apache.commons.numbers.gamma.Digamma;
import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.numbers.gamma.Trigamma;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Mean-field variational inference for the tempered logistic-softmax GP on one task (paper Eq. 4.4a-f), with
 * the evidence lower bound (general form, module README) and its exact reverse-mode gradient with respect to the
 * kernel matrix through the unrolled steps.
 *
 * <p>The C latent functions share one kernel matrix K (n x n; one cosine kernel with a shared outputscale) and
 * the constant prior mean a. The factors are q(f^c) = N(mu^c, Sigma^c), q(m) = Po(gamma), q(lambda_n) =
 * Ga(alpha_n, C) and q(omega | m) = PG(y + m, c~); one step updates, in this order (a block coordinate ascent, so
 * the ELBO never decreases),
 * <ol>
 *   <li>c~ = sqrt(mu^2 + Sigma_nn) / tau (4.4a, the optimal PG tilt for the current q(f));</li>
 *   <li>log gamma = psi(alpha) - log C - mu/(2 tau) - log(2 cosh(c~/2)) (4.4b, in log space: never overflows);</li>
 *   <li>alpha = 1 + sum_c gamma (4.4c);</li>
 *   <li>theta = (y + gamma) tanh(c~/2)/(2 c~) (4.4f);</li>
 *   <li>q(f^c) with precision K^-1 + diag(theta/tau^2) and linear term (y - gamma)/(2 tau) (4.4d-e), in the
 *   B = I + S K S form of {@link DiagonalPrecisionPosterior} (no K^-1).</li>
 * </ol>
 * This is the order of AugmentedGaussianProcesses.jl [R3], not the authors' (who update q(f) with the previous step's
 * theta). Initialisation is deterministic: q(f) = prior (mu = a, Sigma = K) and alpha = C (as in Galy-Fajou et
 * al.'s reference implementation [R3]); the authors' random initialisation is not reproduced.
 *
 * <p>All intermediate quantities are kept (a "tape") so that {@link #elboGradient} and
 * {@link #backpropagateSites} can differentiate the final objective with respect to K through every step
 * ("do not detach the inner loop", paper §4.3). When the inner loop has converged, the implicit terms vanish and
 * the gradient reduces to the envelope-theorem gradient 1/2 sum_c (v v^T - S B^-1 S); see the module README.
 */
final class MeanField {
    private final DMatrixRMaj k;
    private final double[] diagK;
    private final int[] y;
    private final int n;
    private final int numClasses;
    private final double tau;
    private final double priorMean;

    private int steps;
    /** Per step t = 0..T: [c][i]. */
    private final double[][][] mu;
    private final double[][][] sdiag;
    private final double[][] alpha;
    /** Per step t = 1..T (index t): [c][i]. */
    private final double[][][] tilt;
    private final double[][][] gamma;
    /** log gamma, kept because gamma itself may underflow to 0 (large positive mu/tau). */
    private final double[][][] logGamma;
    private final double[][][] theta;
    private final DiagonalPrecisionPosterior[][] post;
    private final double[][][] weights;

    private MeanField(DMatrixRMaj k, int[] y, int numClasses, double tau, double priorMean, int maxSteps) {
        this.k = k;
        this.n = k.numRows;
        this.diagK = new double[n];
        for (int i = 0; i < n; i++) {
            diagK[i] = k.data[i * n + i];
        }
        this.y = y;
        this.numClasses = numClasses;
        this.tau = tau;
        this.priorMean = priorMean;
        this.mu = new double[maxSteps + 1][][];
        this.sdiag = new double[maxSteps + 1][][];
        this.alpha = new double[maxSteps + 1][];
        this.tilt = new double[maxSteps + 1][][];
        this.gamma = new double[maxSteps + 1][][];
        this.logGamma = new double[maxSteps + 1][][];
        this.theta = new double[maxSteps + 1][][];
        this.post = new DiagonalPrecisionPosterior[maxSteps + 1][];
        this.weights = new double[maxSteps + 1][][];
    }

    /**
     * Runs up to {@code maxSteps} steps, stopping early when the largest change of any posterior mean is below
     * {@code tolerance} (0 = always run every step).
     *
     * @param k  the kernel matrix of the n conditioning points (referenced, not copied)
     * @param y  labels in 0..numClasses-1
     */
    static MeanField run(DMatrixRMaj k, int[] y, int numClasses, double tau, double priorMean, int maxSteps,
                         double tolerance) {
        if (!(tau > 0) || Double.isInfinite(tau)) {
            throw new InvalidParameterException("temperature tau must be positive and finite, got " + tau);
        }
        if (maxSteps < 1) {
            throw new InvalidParameterException("mean-field needs at least one step, got " + maxSteps);
        }
        if (y.length != k.numRows || k.numCols != k.numRows) {
            throw new IllegalArgumentException("K must be n x n with n = " + y.length + " labels, got "
                    + k.numRows + " x " + k.numCols);
        }
        MeanField mf = new MeanField(k, y, numClasses, tau, priorMean, maxSteps);
        mf.initialise();
        for (int t = 1; t <= maxSteps; t++) {
            mf.step(t);
            mf.steps = t;
            if (tolerance > 0 && mf.maxMeanChange(t) < tolerance) {
                break;
            }
        }
        return mf;
    }

    private void initialise() {
        mu[0] = new double[numClasses][n];
        sdiag[0] = new double[numClasses][n];
        alpha[0] = new double[n];
        for (int c = 0; c < numClasses; c++) {
            java.util.Arrays.fill(mu[0][c], priorMean);
            System.arraycopy(diagK, 0, sdiag[0][c], 0, n);
        }
        java.util.Arrays.fill(alpha[0], numClasses);
    }

    private double label(int c, int i) {
        return y[i] == c ? 1.0 : 0.0;
    }

    private void step(int t) {
        double logC = Math.log(numClasses);
        double[][] muPrev = mu[t - 1];
        double[][] sPrev = sdiag[t - 1];
        double[] aPrev = alpha[t - 1];
        double[][] ct = new double[numClasses][n];
        double[][] g = new double[numClasses][n];
        double[][] lgs = new double[numClasses][n];
        double[][] th = new double[numClasses][n];
        double[] a = new double[n];
        double[] psi = new double[n];
        for (int i = 0; i < n; i++) {
            psi[i] = Digamma.value(aPrev[i]);
            a[i] = 1.0;
        }
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                double m = muPrev[c][i];
                double e2 = m * m + sPrev[c][i];
                double cc = Math.sqrt(e2) / tau;
                ct[c][i] = cc;
                double lg = psi[i] - logC - m / (2 * tau) - logTwoCosh(0.5 * cc);
                double gi = Math.exp(lg);
                lgs[c][i] = lg;
                g[c][i] = gi;
                a[i] += gi;
            }
        }
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                th[c][i] = (label(c, i) + g[c][i]) * Stable.tanhHalfOver2c(ct[c][i]);
            }
        }
        tilt[t] = ct;
        gamma[t] = g;
        logGamma[t] = lgs;
        alpha[t] = a;
        theta[t] = th;
        double tau2 = tau * tau;
        DiagonalPrecisionPosterior[] ps = new DiagonalPrecisionPosterior[numClasses];
        double[][] vs = new double[numClasses][];
        double[][] ms = new double[numClasses][];
        double[][] ss = new double[numClasses][];
        double[] m0 = constant(priorMean);
        for (int c = 0; c < numClasses; c++) {
            double[] d = new double[n];
            double[] b = new double[n];
            for (int i = 0; i < n; i++) {
                d[i] = th[c][i] / tau2;
                b[i] = (label(c, i) - g[c][i]) / (2 * tau);
            }
            ps[c] = DiagonalPrecisionPosterior.of(k, d);
            vs[c] = ps[c].weights(m0, b);
            ms[c] = ps[c].mean(m0, vs[c]);
            ss[c] = ps[c].predictiveVariance(k, diagK);
        }
        post[t] = ps;
        weights[t] = vs;
        mu[t] = ms;
        sdiag[t] = ss;
    }

    /** log(2 cosh x) without overflow. */
    static double logTwoCosh(double x) {
        return Stable.logCosh(x) + Stable.LN_2;
    }

    private double[] constant(double v) {
        double[] out = new double[n];
        java.util.Arrays.fill(out, v);
        return out;
    }

    double maxMeanChange(int t) {
        double max = 0;
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                max = Math.max(max, Math.abs(mu[t][c][i] - mu[t - 1][c][i]));
            }
        }
        return max;
    }

    // --- accessors -------------------------------------------------------------------------------------------

    int steps() {
        return steps;
    }

    int size() {
        return n;
    }

    int numClasses() {
        return numClasses;
    }

    double tau() {
        return tau;
    }

    double priorMean() {
        return priorMean;
    }

    DMatrixRMaj kernel() {
        return k;
    }

    /** The final q(f^c) in B form. */
    DiagonalPrecisionPosterior posterior(int c) {
        return post[steps][c];
    }

    /** q_t(f^c) in B form, t &gt;= 1. */
    DiagonalPrecisionPosterior posterior(int t, int c) {
        return post[t][c];
    }

    /** The final weights v^c (mu^c = a + K v^c). */
    double[] weights(int c) {
        return weights[steps][c];
    }

    double[] mean(int c) {
        return mu[steps][c].clone();
    }

    double[] mean(int t, int c) {
        return mu[t][c].clone();
    }

    double[] covarianceDiagonal(int t, int c) {
        return sdiag[t][c].clone();
    }

    double[] alpha(int t) {
        return alpha[t].clone();
    }

    double[] gamma(int t, int c) {
        return gamma[t][c].clone();
    }

    double[] theta(int t, int c) {
        return theta[t][c].clone();
    }

    double[] tilt(int t, int c) {
        return tilt[t][c].clone();
    }

    // --- ELBO ------------------------------------------------------------------------------------------------

    /** The ELBO after the last step. */
    double elbo(ElboForm form) {
        return elbo(steps, form);
    }

    /**
     * The ELBO after step t &gt;= 1, in its general form (E1 + E2 + E3 + E4 + E5, module README) at the tilt c~_t,
     * (gamma_t, alpha_t, theta_t) and q_t(f); {@link ElboForm#AUTHORS} adds the authors' two deviations.
     */
    double elbo(int t, ElboForm form) {
        double logC = Math.log(numClasses);
        double tau2 = tau * tau;
        double total = 0;
        double[] a = alpha[t];
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                double yy = label(c, i);
                double g = gamma[t][c][i];
                double th = theta[t][c][i];
                double m = mu[t][c][i];
                double e2 = m * m + sdiag[t][c][i];
                double cc = tilt[t][c][i];
                double psi = Digamma.value(a[i]);
                // E1: expected augmented log-likelihood
                total += -(yy + g) * Stable.LN_2 + (yy - g) * m / (2 * tau) - 0.5 * th * e2 / tau2;
                // E2: -KL of the PG factor
                total += -(yy + g) * Stable.logCosh(0.5 * cc) + 0.5 * cc * cc * th;
                // E3: -KL of the Poisson factor (alpha/beta once per class, beta = C)
                total += g * (psi - logC) - a[i] / numClasses - Stable.xLogX(g) + g;
                if (form == ElboForm.AUTHORS) {
                    total += 0.5 * th * (e2 / tau2 - cc * cc);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            // E4: entropy of Ga(alpha, C) under the flat prior on lambda
            total += a[i] - logC + LogGamma.value(a[i]) + (1 - a[i]) * Digamma.value(a[i]);
            if (form == ElboForm.AUTHORS) {
                total += a[i] * (1.0 - 1.0 / numClasses);
            }
        }
        // E5: -KL of the Gaussian factors
        for (int c = 0; c < numClasses; c++) {
            total -= post[t][c].klToPrior(weights[t][c]);
        }
        return total;
    }

    // --- reverse mode ----------------------------------------------------------------------------------------

    /** Adjoints of the per-step quantities while walking back through the steps. */
    private final class Adjoint {
        double[][] mu = new double[numClasses][n];
        double[][] s = new double[numClasses][n];
        double[] alpha = new double[n];
        double[][] theta = new double[numClasses][n];
        double[][] gamma = new double[numClasses][n];
        double[][] tilt = new double[numClasses][n];
    }

    /**
     * d ELBO_T / dK through all T steps (the objective is the ELBO after exactly {@link #steps()} steps, as a
     * function of K with the deterministic initialisation). Returned as G with dL = sum_ij G_ij dK_ij.
     */
    DMatrixRMaj elboGradient(ElboForm form) {
        int t = steps;
        double logC = Math.log(numClasses);
        double tau2 = tau * tau;
        Adjoint adj = new Adjoint();
        DMatrixRMaj kBar = new DMatrixRMaj(n, n);
        double[] a = alpha[t];
        double[] sumGamma = new double[n];
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                double yy = label(c, i);
                double g = gamma[t][c][i];
                double th = theta[t][c][i];
                double m = mu[t][c][i];
                double e2 = m * m + sdiag[t][c][i];
                double cc = tilt[t][c][i];
                sumGamma[i] += g;
                adj.mu[c][i] += (yy - g) / (2 * tau);
                if (form == ElboForm.CORRECT) {
                    adj.mu[c][i] -= th * m / tau2;
                    adj.s[c][i] -= 0.5 * th / tau2;
                    adj.theta[c][i] += -0.5 * e2 / tau2 + 0.5 * cc * cc;
                    adj.tilt[c][i] += cc * th;
                }
                adj.tilt[c][i] -= (yy + g) * 0.5 * Math.tanh(0.5 * cc);
                adj.gamma[c][i] += -Stable.LN_2 - m / (2 * tau) - Stable.logCosh(0.5 * cc)
                        + Digamma.value(a[i]) - logC - logGamma[t][c][i];
            }
        }
        for (int i = 0; i < n; i++) {
            adj.alpha[i] = Trigamma.value(a[i]) * (sumGamma[i] + 1 - a[i])
                    + (form == ElboForm.AUTHORS ? 1.0 - 1.0 / numClasses : 0.0);
        }
        // E5 = -KL(q(f) || p(f)) as a function of (mu, Sigma, K): d/dmu = -v, d/dSigma = D/2, explicit d/dK
        for (int c = 0; c < numClasses; c++) {
            double[] v = weights[t][c];
            for (int i = 0; i < n; i++) {
                adj.mu[c][i] -= v[i];
                adj.s[c][i] += 0.5 * theta[t][c][i] / tau2;
            }
            DMatrixRMaj aMat = precisionProduct(t, c);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    kBar.data[i * n + j] += -0.5 * (aMat.data[i * n + j] - v[i] * v[j]);
                }
            }
        }
        backpropagate(adj, kBar, true);
        return kBar;
    }

    /**
     * Gradient through the steps of an objective that depends on the final q(f) only through its "sites"
     * (D_T = theta_T / tau^2 and b_T = (y - gamma_T) / (2 tau), e.g. the predictive distribution at query
     * points), given dL/dD_T and dL/db_T per class; the returned dL/dK excludes the objective's own explicit
     * dependence on K, which the caller adds.
     */
    DMatrixRMaj backpropagateSites(double[][] dBar, double[][] bBar) {
        Adjoint adj = new Adjoint();
        double tau2 = tau * tau;
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                adj.theta[c][i] += dBar[c][i] / tau2;
                adj.gamma[c][i] -= bBar[c][i] / (2 * tau);
            }
        }
        DMatrixRMaj kBar = new DMatrixRMaj(n, n);
        backpropagate(adj, kBar, false);
        return kBar;
    }

    private void backpropagate(Adjoint adj, DMatrixRMaj kBar, boolean posteriorAtLast) {
        double tau2 = tau * tau;
        for (int t = steps; t >= 1; t--) {
            // (a) q_t(f) from (K, D_t, b_t)
            if (t < steps || posteriorAtLast) {
                for (int c = 0; c < numClasses; c++) {
                    double[] dBar = new double[n];
                    double[] bBar = new double[n];
                    posteriorReverse(t, c, adj.mu[c], adj.s[c], kBar, dBar, bBar);
                    for (int i = 0; i < n; i++) {
                        adj.theta[c][i] += dBar[i] / tau2;
                        adj.gamma[c][i] -= bBar[i] / (2 * tau);
                    }
                }
            }
            Adjoint prev = new Adjoint();
            double[] aPrev = alpha[t - 1];
            for (int c = 0; c < numClasses; c++) {
                for (int i = 0; i < n; i++) {
                    double cc = tilt[t][c][i];
                    double g = gamma[t][c][i];
                    double yy = label(c, i);
                    // (b) theta = (y + gamma) h(c~)
                    double gBar = adj.gamma[c][i] + adj.theta[c][i] * Stable.tanhHalfOver2c(cc);
                    double cBar = adj.tilt[c][i] + adj.theta[c][i] * (yy + g) * tanhHalfOver2cDerivative(cc);
                    // (c) alpha_t = 1 + sum_c gamma
                    gBar += adj.alpha[i];
                    // (d) log gamma = psi(alpha_{t-1}) - log C - mu_{t-1}/(2 tau) - log 2cosh(c~/2)
                    double lgBar = gBar * g;
                    prev.alpha[i] += lgBar * Trigamma.value(aPrev[i]);
                    prev.mu[c][i] -= lgBar / (2 * tau);
                    cBar -= lgBar * 0.5 * Math.tanh(0.5 * cc);
                    // (e) c~ = sqrt(mu^2 + Sigma_ii) / tau
                    if (cc > 0) {
                        double e2Bar = cBar / (2 * tau2 * cc);
                        prev.mu[c][i] += e2Bar * 2 * mu[t - 1][c][i];
                        prev.s[c][i] += e2Bar;
                    }
                }
            }
            adj.mu = prev.mu;
            adj.s = prev.s;
            adj.alpha = prev.alpha;
            adj.theta = prev.theta;
            adj.gamma = prev.gamma;
            adj.tilt = prev.tilt;
        }
        // t = 0: mu_0 = a (constant), Sigma_0 = K, alpha_0 constant
        for (int c = 0; c < numClasses; c++) {
            for (int i = 0; i < n; i++) {
                kBar.data[i * n + i] += adj.s[c][i];
            }
        }
    }

    /** d/dc of tanh(c/2)/(2c): (c sech^2(c/2) - 2 tanh(c/2)) / (4 c^2), by its series near 0. */
    static double tanhHalfOver2cDerivative(double c) {
        double a = Math.abs(c);
        if (a < 0.05) {
            double c2 = c * c;
            return c * (-1.0 / 24.0 + c2 * (1.0 / 120.0 - c2 * (17.0 / 13440.0)));
        }
        double ch = Math.cosh(0.5 * c);
        double sech2 = Double.isInfinite(ch) ? 0.0 : 1.0 / (ch * ch);
        return (c * sech2 - 2 * Math.tanh(0.5 * c)) / (4 * c * c);
    }

    /** S of step t, class c: sqrt(theta / tau^2). */
    private double[] sqrtPrecision(int t, int c) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = Math.sqrt(theta[t][c][i]) / tau;
        }
        return s;
    }

    /** A = S B^-1 S (= (K + D^-1)^-1 for D &gt; 0) of step t, class c, as (L^-1 S)^T (L^-1 S). */
    private DMatrixRMaj precisionProduct(int t, int c) {
        double[] s = sqrtPrecision(t, c);
        DMatrixRMaj m = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            m.data[i * n + i] = s[i];
        }
        post[t][c].factorB().solveLowerInPlace(m);
        DMatrixRMaj out = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransA(m, m, out);
        return out;
    }

    /**
     * Reverse of (K, D, b) -&gt; (mu, diag Sigma) for step t, class c. With P = I - A K (= K^-1 Sigma):
     * dL/dK += P diag(sBar) P^T + P muBar v^T, dL/db = Sigma muBar, dL/dD = -(Sigma muBar) o mu - (Sigma o Sigma) sBar.
     */
    private void posteriorReverse(int t, int c, double[] muBar, double[] sBar, DMatrixRMaj kBar,
                                  double[] dBar, double[] bBar) {
        boolean anyS = false;
        boolean anyMu = false;
        for (int i = 0; i < n; i++) {
            anyS |= sBar[i] != 0;
            anyMu |= muBar[i] != 0;
        }
        if (!anyS && !anyMu) {
            return;
        }
        double[] s = sqrtPrecision(t, c);
        CholeskyFactor lb = post[t][c].factorB();
        DMatrixRMaj w = k.copy();
        scaleRows(w, s);
        lb.solveLowerInPlace(w);                       // W = L^-1 S K
        DMatrixRMaj sigma = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransA(w, w, sigma);
        for (int i = 0; i < sigma.data.length; i++) {
            sigma.data[i] = k.data[i] - sigma.data[i];  // Sigma = K - W^T W
        }
        DMatrixRMaj p = w.copy();
        lb.solveLowerTransposeInPlace(p);
        scaleRows(p, s);                               // A K = S L^-T W
        for (int i = 0; i < p.data.length; i++) {
            p.data[i] = -p.data[i];
        }
        for (int i = 0; i < n; i++) {
            p.data[i * n + i] += 1.0;                  // P = I - A K
        }
        double[] v = weights[t][c];
        double[] m = mu[t][c];
        double[] sm = new double[n];
        CommonOps_DDRM.mult(sigma, DMatrixRMaj.wrap(n, 1, muBar), DMatrixRMaj.wrap(n, 1, sm));
        double[] pm = new double[n];
        CommonOps_DDRM.mult(p, DMatrixRMaj.wrap(n, 1, muBar), DMatrixRMaj.wrap(n, 1, pm));
        for (int i = 0; i < n; i++) {
            bBar[i] += sm[i];
            dBar[i] -= sm[i] * m[i];
            double rowI = 0;
            for (int j = 0; j < n; j++) {
                double sij = sigma.data[i * n + j];
                rowI += sij * sij * sBar[j];
                kBar.data[i * n + j] += pm[i] * v[j];
            }
            dBar[i] -= rowI;
        }
        if (anyS) {
            DMatrixRMaj q = p.copy();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    q.data[i * n + j] *= sBar[j];
                }
            }
            CommonOps_DDRM.multAddTransB(q, p, kBar);
        }
    }

    /**
     * Reverse of the predictive distribution of step T at t query points for class c: given dL/dmean_* and
     * dL/dvar_*, adds dL/dK_* (n x t) into kStarBar, dL/dK into kBar and returns dL/dD_T and dL/db_T through
     * dBar, bBar (the variances' dependence on k_** is the caller's: dL/dk_** = varBar).
     */
    void predictiveReverse(int c, DMatrixRMaj kStar, double[] meanBar, double[] varBar, DMatrixRMaj kStarBar,
                           DMatrixRMaj kBar, double[] dBar, double[] bBar) {
        int t = steps;
        int q = kStar.numCols;
        double[] s = sqrtPrecision(t, c);
        CholeskyFactor lb = post[t][c].factorB();
        double[] v = weights[t][c];
        double[] m = mu[t][c];
        // mean_* = a + K_*^T v
        double[] vBar = new double[n];
        for (int i = 0; i < n; i++) {
            double acc = 0;
            int r = i * q;
            for (int j = 0; j < q; j++) {
                kStarBar.data[r + j] += v[i] * meanBar[j];
                acc += kStar.data[r + j] * meanBar[j];
            }
            vBar[i] = acc;
        }
        // var_* = k_** - k^T A k, A = S B^-1 S
        DMatrixRMaj ws = kStar.copy();
        scaleRows(ws, s);
        lb.solveInPlace(ws);
        scaleRows(ws, s);                              // W_* = A K_*
        DMatrixRMaj kw = new DMatrixRMaj(n, q);
        CommonOps_DDRM.mult(k, ws, kw);                // K A K_*
        for (int i = 0; i < n; i++) {
            int r = i * q;
            double dacc = 0;
            for (int j = 0; j < q; j++) {
                double wij = ws.data[r + j];
                kStarBar.data[r + j] -= 2 * wij * varBar[j];
                double pk = kStar.data[r + j] - kw.data[r + j];   // (I - K A) K_*
                dacc += varBar[j] * pk * pk;
            }
            dBar[i] -= dacc;
        }
        DMatrixRMaj wv = ws.copy();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < q; j++) {
                wv.data[i * q + j] *= varBar[j];
            }
        }
        CommonOps_DDRM.multAddTransB(wv, ws, kBar);   // + W_* diag(varBar) W_*^T
        // v = b - A (K b + a 1): dv = -A dK v + (I - A K) db - (I - A K) dD mu
        double[] av = vBar.clone();
        for (int i = 0; i < n; i++) {
            av[i] *= s[i];
        }
        lb.solveInPlace(av);
        for (int i = 0; i < n; i++) {
            av[i] *= s[i];                             // A vBar
        }
        double[] kav = new double[n];
        CommonOps_DDRM.mult(k, DMatrixRMaj.wrap(n, 1, av), DMatrixRMaj.wrap(n, 1, kav));
        for (int i = 0; i < n; i++) {
            double ptv = vBar[i] - kav[i];             // (I - K A) vBar
            bBar[i] += ptv;
            dBar[i] -= ptv * m[i];
            for (int j = 0; j < n; j++) {
                kBar.data[i * n + j] -= av[i] * v[j];
            }
        }
    }

    private static void scaleRows(DMatrixRMaj m, double[] s) {
        int cols = m.numCols;
        for (int i = 0; i < m.numRows; i++) {
            double si = s[i];
            int r = i * cols;
            for (int j = 0; j < cols; j++) {
                m.data[r + j] *= si;
            }
        }
    }
}
