package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Step V: whitening with the base within-class scatter and the s_max clamp, in the two forms of
 * {@link Preprocessing}. The output rows are the y_n of the PLDA step: rotated data multiplied
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
     * The part of the whitening that does not depend on s_max: the task rows rotated into the eigenbasis in which
     * the gains act, and the unclamped gains. The whitened data are {@code rotated} with column i multiplied by
     * min(gains_i, s_max) ({@link #clamp}), so tuning s_max never repeats a decomposition.
     *
     * @param rotated row-major rows x dim
     * @param gains   unclamped gain of every column (+infinity where the scatter has no spread: always clamped)
     */
    record Rotation(double[] rotated, int rows, int dim, double[] gains) {
        /** The whitened data for the bound {@code sMax}. */
        Result clamp(double sMax) {
            double[] g = new double[dim];
            for (int k = 0; k < dim; k++) {
                g[k] = Math.min(gains[k], sMax);
            }
            double[] y = new double[rows * dim];
            for (int i = 0; i < rows; i++) {
                int o = i * dim;
                for (int k = 0; k < dim; k++) {
                    y[o + k] = g[k] * rotated[o + k];
                }
            }
            return new Result(y, dim, g);
        }
    }

    /** {@link #restricted(TaskSpan, BaseStatistics)} clamped at {@code sMax}. */
    static Result restricted(TaskSpan span, BaseStatistics base, double sMax) {
        return restricted(span, base).clamp(sMax);
    }

    /**
     * The code's restricted whitening: M = U^T S_w^-1 U (r x r) from the Cholesky factor (one triangular solve
     * with r right-hand sides), M = W diag(mu) W^T, unclamped gains sqrt(mu_i) (mu_i are the inverse eigenvalues
     * of the code's A = M^-1), rotated rows W^T c_n; clamped, y_n = min(sqrt(mu), s_max) * (W^T c_n).
     */
    static Rotation restricted(TaskSpan span, BaseStatistics base) {
        int d = span.dim();
        int r = span.rank();
        double[] b = span.basis().clone();
        forwardSubstitution(base.cholesky(), d, b, r);
        SymmetricEigen e = SymmetricEigen.of(DMatrixRMaj.wrap(r, r, innerProduct(b, d, r)));
        double[] gains = new double[r];
        for (int i = 0; i < r; i++) {
            gains[i] = Math.sqrt(Math.max(e.values()[i], 0));
        }
        int n = span.rows();
        double[] c = span.coords();
        double[] w = e.vectors();
        double[] y = new double[n * r];
        for (int i = 0; i < n; i++) {
            int yo = i * r;
            for (int j = 0; j < r; j++) {
                double cij = c[yo + j];
                if (cij == 0) {
                    continue;
                }
                int wo = j * r;
                for (int k = 0; k < r; k++) {
                    y[yo + k] += cij * w[wo + k];
                }
            }
        }
        return new Rotation(y, n, r, gains);
    }

    /** B^T B (r x r, symmetric) for a row-major d x r B, as rank-1 updates of the lower triangle (axpy rows). */
    static double[] innerProduct(double[] b, int d, int r) {
        double[] m = new double[r * r];
        for (int t = 0; t < d; t++) {
            int bo = t * r;
            for (int a = 0; a < r; a++) {
                double ba = b[bo + a];
                if (ba == 0) {
                    continue;
                }
                int mo = a * r;
                for (int c = 0; c <= a; c++) {
                    m[mo + c] += ba * b[bo + c];
                }
            }
        }
        for (int a = 0; a < r; a++) {
            for (int c = 0; c < a; c++) {
                m[c * r + a] = m[a * r + c];
            }
        }
        return m;
    }

    /**
     * The paper's sphering (Eq. 7) of all task rows, x'_n = diag(s) R^T x_n with s_i = min(lambda_i^-1/2, s_max)
     * (lambda_i &lt;= 0: s_max): rotated rows X R (N x D) and the unclamped gains lambda^-1/2.
     */
    static Rotation global(double[] x, int n, int d, BaseStatistics base) {
        double[] lambda = base.eigenvalues();
        double[] gains = new double[d];
        for (int k = 0; k < d; k++) {
            gains[k] = lambda[k] > 0 ? 1 / Math.sqrt(lambda[k]) : Double.POSITIVE_INFINITY;
        }
        DMatrixRMaj y = new DMatrixRMaj(n, d);
        CommonOps_DDRM.mult(DMatrixRMaj.wrap(n, d, x), DMatrixRMaj.wrap(d, d, base.eigenvectors()), y);
        return new Rotation(y.data, n, d, gains);
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
