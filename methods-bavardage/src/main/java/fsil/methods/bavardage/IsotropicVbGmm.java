package fsil.methods.bavardage;

import fsil.core.cluster.SoftKMeans;
import fsil.core.linalg.Distances;
import fsil.core.math.Softmax;
import org.apache.commons.numbers.gamma.Digamma;

import java.util.Arrays;

/**
 * The variational Bayes Gaussian mixture of BAVARDAGE (paper §3.3 and Eq. 2-5; the authors' {@code vb_equi_iso.py})
 * on data z_n in R^q: class means mu_k ~ N(m0, (beta0 Lambda)^-1), likelihood N(z_n | mu_k, Lambda^-1) with a fixed
 * isotropic Lambda = T_vb I (no Wishart update), mixture weights pi ~ Dir(alpha0) in the unbalanced setting and
 * uniform in the balanced one.
 *
 * <p>M-step (given r): N_k = sum_n r_nk over all rows, beta_k = beta0 + N_k,
 * m_k = (beta0 m0 + sum_n r_nk z_n) / beta_k, and alpha_k = alpha0 + sum over the queries of r_nk (the support
 * composition is fixed by the task design, not drawn from pi, so it is left out, as in the authors' code) or
 * alpha0 + N_k when {@code supportInDirichlet} (the paper's Alg. 1).
 *
 * <p>E-step: log rho_nk = E[ln pi_k] - (T_vb / 2) ||z_n - m_k||^2 - q / (2 beta_k) with
 * E[ln pi_k] = psi(alpha_k) - psi(sum_j alpha_j) (0 when balanced), a stable softmax over k, then the support
 * rows are overwritten with their labels. The terms (1/2) ln|Lambda| and -(q/2) ln 2 pi of Eq. 5 are the same for
 * every class and cancel in the softmax. The q / (2 beta_k) term is Tr[Lambda (beta_k Lambda)^-1] / 2, the
 * uncertainty of mu_k; it is not multiplied by T_vb.
 */
final class IsotropicVbGmm {
    private final int k;
    private final double alpha0;
    private final double beta0;
    private final double tVb;
    private final boolean balanced;
    private final boolean supportInDirichlet;
    private final boolean epsilonSoftmax;

    private int dim;
    private final double[] nk;
    private final double[] alpha;
    private final double[] beta;
    private double[] means = new double[0];

    IsotropicVbGmm(int k, double alpha0, double beta0, double tVb, boolean balanced, boolean supportInDirichlet,
                   boolean epsilonSoftmax) {
        this.k = k;
        this.alpha0 = alpha0;
        this.beta0 = beta0;
        this.tVb = tVb;
        this.balanced = balanced;
        this.supportInDirichlet = supportInDirichlet;
        this.epsilonSoftmax = epsilonSoftmax;
        this.nk = new double[k];
        this.alpha = new double[k];
        this.beta = new double[k];
    }

    static IsotropicVbGmm of(BavardageConfig c, int k) {
        return new IsotropicVbGmm(k, c.alpha0(), c.beta0(), c.tVb(), c.balanced(), c.supportInDirichlet(),
                c.epsilonSoftmax());
    }

    /**
     * M-step.
     *
     * @param z  row-major n x q data
     * @param n  rows; the first {@code ns} are the support
     * @param q  dimension
     * @param r  row-major n x k responsibilities
     * @param ns number of support rows
     * @param m0 prior mean of the class means (length q), or null for the origin
     */
    void mStep(double[] z, int n, int q, double[] r, int ns, double[] m0) {
        if (m0 != null && m0.length != q) {
            throw new IllegalArgumentException("m0 has length " + m0.length + ", the data has dimension " + q);
        }
        dim = q;
        means = new double[k * q];
        Arrays.fill(nk, 0);
        double[] queryCounts = new double[k];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < k; c++) {
                double w = r[i * k + c];
                if (w == 0) {
                    continue;
                }
                nk[c] += w;
                if (i >= ns) {
                    queryCounts[c] += w;
                }
                int mo = c * q;
                int zo = i * q;
                for (int t = 0; t < q; t++) {
                    means[mo + t] += w * z[zo + t];
                }
            }
        }
        for (int c = 0; c < k; c++) {
            beta[c] = beta0 + nk[c];
            alpha[c] = alpha0 + (supportInDirichlet ? nk[c] : queryCounts[c]);
            double inv = 1 / beta[c];
            for (int t = 0; t < q; t++) {
                double prior = m0 == null ? 0 : beta0 * m0[t];
                means[c * q + t] = (means[c * q + t] + prior) * inv;
            }
        }
    }

    /** Unnormalised log responsibilities log rho_nk (row-major n x k) for the current posterior. */
    double[] logRho(double[] z, int n) {
        int q = dim;
        double[] out = new double[n * k];
        double[] mix = balanced ? new double[k] : expectedLogWeights(alpha);
        for (int i = 0; i < n; i++) {
            int zo = i * q;
            for (int c = 0; c < k; c++) {
                double d2 = Distances.squared(z, zo, means, c * q, q);
                out[i * k + c] = mix[c] - 0.5 * tVb * d2 - 0.5 * q / beta[c];
            }
        }
        return out;
    }

    /**
     * E-step: writes the new responsibilities into {@code r} (row-major n x k); support rows one-hot.
     */
    void eStep(double[] z, int n, double[] r, int[] support) {
        double[] logits = logRho(z, n);
        if (epsilonSoftmax) {
            epsilonSoftmax(logits, n, k);
        } else {
            Softmax.inPlaceRows(logits, n, k);
        }
        System.arraycopy(logits, 0, r, 0, n * k);
        SoftKMeans.clampSupport(r, support, k);
    }

    /**
     * E[ln pi_k] = psi(alpha_k) - psi(sum_j alpha_j) under Dir(alpha): the digamma difference, evaluated directly
     * (Commons Numbers' digamma is accurate from 1e-300 to 1e300, so no asymptotic form is needed here).
     */
    static double[] expectedLogWeights(double[] alpha) {
        double sum = 0;
        for (double a : alpha) {
            sum += a;
        }
        double psiSum = Digamma.value(sum);
        double[] out = new double[alpha.length];
        for (int c = 0; c < alpha.length; c++) {
            out[c] = Digamma.value(alpha[c]) - psiSum;
        }
        return out;
    }

    /**
     * The authors' softmax: (exp(l_k - max) + eps) / (sum_j exp(l_j - max) + eps) with eps = 2^-23. Rows do not
     * sum exactly to 1 (the sum is at most 1 + (K-1) eps).
     */
    static void epsilonSoftmax(double[] logits, int n, int k) {
        double eps = BavardageConfig.FLOAT32_EPSILON;
        for (int i = 0; i < n; i++) {
            int o = i * k;
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < k; c++) {
                if (Double.isNaN(logits[o + c])) {
                    throw new ArithmeticException("NaN log responsibility for row " + i + ", class " + c);
                }
                max = Math.max(max, logits[o + c]);
            }
            double sum = 0;
            for (int c = 0; c < k; c++) {
                double e = max == Double.NEGATIVE_INFINITY ? 1 : Math.exp(logits[o + c] - max);
                logits[o + c] = e;
                sum += e;
            }
            double denom = sum + eps;
            for (int c = 0; c < k; c++) {
                logits[o + c] = (logits[o + c] + eps) / denom;
            }
        }
    }

    int dimension() {
        return dim;
    }

    double[] counts() {
        return nk.clone();
    }

    double[] alpha() {
        return alpha.clone();
    }

    double[] beta() {
        return beta.clone();
    }

    /** Row-major k x q posterior means m_k. */
    double[] means() {
        return means.clone();
    }
}
