package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Step V: whitening with the base within-class scatter and the s_max clamp, in the two forms of
 * {@link Preprocessing}. The output rows are the y_n of the PLDA step (spec §3 step 1): rotated data multiplied
 * coordinate-wise by the gains.
 */
final class Whitening {
    private Whitening() {
    }

    /** Whitened task data and the gains that produced it. */
    record Result(double[] data, int dim, double[] gains) {
        /** Fraction of the gains held at s_max. */
        double clampedFraction(double sMax) {
            if (gains.length == 0) {
                return 0;
            }
            int c = 0;
            for (double g : gains) {
                c += g >= sMax ? 1 : 0;
            }
            return c / (double) gains.length;
        }
    }

    /**
     * The code's restricted whitening: M = U^T S_w^-1 U (r x r) from the Cholesky factor (one triangular solve
     * with r right-hand sides), M = W diag(mu) W^T, gains s_i = min(sqrt(mu_i), s_max) (mu_i are the inverse
     * eigenvalues of the code's A = M^-1), output y_n = s * (W^T c_n).
     */
    static Result restricted(TaskSpan span, BaseStatistics base, double sMax) {
        int d = span.dim();
        int r = span.rank();
        double[] b = span.basis().clone();
        forwardSubstitution(base.cholesky(), d, b, r);
        DMatrixRMaj bm = DMatrixRMaj.wrap(d, r, b);
        DMatrixRMaj m = new DMatrixRMaj(r, r);
        CommonOps_DDRM.multInner(bm, m);
        SymmetricEigen e = SymmetricEigen.of(m);
        double[] gains = new double[r];
        for (int i = 0; i < r; i++) {
            gains[i] = Math.min(Math.sqrt(Math.max(e.values()[i], 0)), sMax);
        }
        int n = span.rows();
        double[] c = span.coords();
        double[] w = e.vectors();
        double[] y = new double[n * r];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < r; k++) {
                double s = 0;
                for (int j = 0; j < r; j++) {
                    s += c[i * r + j] * w[j * r + k];
                }
                y[i * r + k] = gains[k] * s;
            }
        }
        return new Result(y, r, gains);
    }

    /** Per-learner sphering matrix of the paper's Eq. 7, T^T = R diag(s) with s_i = min(lambda_i^-1/2, s_max). */
    static double[] globalSphering(BaseStatistics base, double sMax) {
        int d = base.dimension();
        double[] lambda = base.eigenvalues();
        double[] r = base.eigenvectors();
        double[] t = new double[d * d];
        for (int k = 0; k < d; k++) {
            double g = lambda[k] > 0 ? Math.min(1 / Math.sqrt(lambda[k]), sMax) : sMax;
            for (int j = 0; j < d; j++) {
                t[j * d + k] = r[j * d + k] * g;
            }
        }
        return t;
    }

    /** Gains of {@link #globalSphering} (for diagnostics). */
    static double[] globalGains(BaseStatistics base, double sMax) {
        double[] lambda = base.eigenvalues();
        double[] g = new double[lambda.length];
        for (int k = 0; k < g.length; k++) {
            g[k] = lambda[k] > 0 ? Math.min(1 / Math.sqrt(lambda[k]), sMax) : sMax;
        }
        return g;
    }

    /** The paper's sphering x'_n = T x_n for all task rows: Y = X R diag(s) (N x D). */
    static Result global(double[] x, int n, int d, double[] sphering, double[] gains) {
        DMatrixRMaj y = new DMatrixRMaj(n, d);
        CommonOps_DDRM.mult(DMatrixRMaj.wrap(n, d, x), DMatrixRMaj.wrap(d, d, sphering), y);
        return new Result(y.data, d, gains);
    }

    /**
     * Solves L B = B in place for a row-major lower-triangular {@code l} (d x d) and a row-major d x r right-hand
     * side: row i of the solution is (b_i - sum_{j&lt;i} l_ij b_j) / l_ii, each update an axpy over the r
     * contiguous columns.
     */
    static void forwardSubstitution(double[] l, int d, double[] b, int r) {
        for (int i = 0; i < d; i++) {
            int bi = i * r;
            int li = i * d;
            for (int j = 0; j < i; j++) {
                double lij = l[li + j];
                if (lij == 0) {
                    continue;
                }
                int bj = j * r;
                for (int c = 0; c < r; c++) {
                    b[bi + c] -= lij * b[bj + c];
                }
            }
            double inv = 1 / l[li + i];
            for (int c = 0; c < r; c++) {
                b[bi + c] *= inv;
            }
        }
    }
}
