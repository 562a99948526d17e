package fsil.core.linalg;

import org.ejml.data.DMatrixRMaj;

/**
 * In-place solves with a lower-triangular n x n matrix L (only its lower triangle is read) and products with it.
 * The multi-column loops run along rows of the right-hand side, which are contiguous in EJML's row-major layout,
 * so they vectorise; EJML itself offers these only for single vectors.
 */
public final class Triangular {
    private Triangular() {
    }

    /**
     * Columns of the right-hand side handled together: a block of n rows x 64 columns stays in a core's cache while
     * the substitution sweeps over its rows (for n up to a few thousand), instead of streaming all m columns from
     * memory once per row. Every entry still receives the same updates in the same order, so the result does not
     * depend on the block width.
     */
    static final int COLUMN_BLOCK = 64;

    /** B := L^{-1} B (forward substitution); B is n x m. */
    public static void solveLower(DMatrixRMaj lower, DMatrixRMaj b) {
        int n = checkShapes(lower, b.numRows, "B");
        int m = b.numCols;
        double[] l = lower.data;
        double[] x = b.data;
        for (int j0 = 0; j0 < m; j0 += COLUMN_BLOCK) {
            int j1 = Math.min(m, j0 + COLUMN_BLOCK);
            for (int i = 0; i < n; i++) {
                int ri = i * m;
                int li = i * n;
                for (int k = 0; k < i; k++) {
                    double lik = l[li + k];
                    if (lik != 0) {
                        int rk = k * m;
                        for (int j = j0; j < j1; j++) {
                            x[ri + j] -= lik * x[rk + j];
                        }
                    }
                }
                double inv = 1.0 / l[li + i];
                for (int j = j0; j < j1; j++) {
                    x[ri + j] *= inv;
                }
            }
        }
    }

    /** B := L^{-T} B (back substitution with the transpose); B is n x m. */
    public static void solveLowerTranspose(DMatrixRMaj lower, DMatrixRMaj b) {
        int n = checkShapes(lower, b.numRows, "B");
        int m = b.numCols;
        double[] l = lower.data;
        double[] x = b.data;
        for (int j0 = 0; j0 < m; j0 += COLUMN_BLOCK) {
            int j1 = Math.min(m, j0 + COLUMN_BLOCK);
            for (int i = n - 1; i >= 0; i--) {
                int ri = i * m;
                int li = i * n;
                double inv = 1.0 / l[li + i];
                for (int j = j0; j < j1; j++) {
                    x[ri + j] *= inv;
                }
                // row i of X is final: remove its contribution L[i, k] x_i from the rows k < i
                for (int k = 0; k < i; k++) {
                    double lik = l[li + k];
                    if (lik != 0) {
                        int rk = k * m;
                        for (int j = j0; j < j1; j++) {
                            x[rk + j] -= lik * x[ri + j];
                        }
                    }
                }
            }
        }
    }

    /** b := L^{-1} b for a vector of length n. */
    public static void solveLower(DMatrixRMaj lower, double[] b) {
        int n = checkShapes(lower, b.length, "b");
        double[] l = lower.data;
        for (int i = 0; i < n; i++) {
            int li = i * n;
            double s = b[i];
            for (int k = 0; k < i; k++) {
                s -= l[li + k] * b[k];
            }
            b[i] = s / l[li + i];
        }
    }

    /** b := L^{-T} b for a vector of length n. */
    public static void solveLowerTranspose(DMatrixRMaj lower, double[] b) {
        int n = checkShapes(lower, b.length, "b");
        double[] l = lower.data;
        for (int i = n - 1; i >= 0; i--) {
            int li = i * n;
            double xi = b[i] / l[li + i];
            b[i] = xi;
            for (int k = 0; k < i; k++) {
                b[k] -= l[li + k] * xi;
            }
        }
    }

    /** out := L z (e.g. a draw from N(0, L L^T) when z is standard normal); out may not alias z. */
    public static void multiplyLower(DMatrixRMaj lower, double[] z, double[] out) {
        int n = checkShapes(lower, z.length, "z");
        if (out.length != n || out == z) {
            throw new IllegalArgumentException("out must be a separate array of length " + n);
        }
        double[] l = lower.data;
        for (int i = 0; i < n; i++) {
            int li = i * n;
            double s = 0;
            for (int k = 0; k <= i; k++) {
                s += l[li + k] * z[k];
            }
            out[i] = s;
        }
    }

    /** L Z for an n x m matrix Z, as a new matrix. */
    public static DMatrixRMaj multiplyLower(DMatrixRMaj lower, DMatrixRMaj z) {
        int n = checkShapes(lower, z.numRows, "Z");
        int m = z.numCols;
        DMatrixRMaj out = new DMatrixRMaj(n, m);
        double[] l = lower.data;
        double[] zd = z.data;
        double[] o = out.data;
        for (int i = 0; i < n; i++) {
            int li = i * n;
            int ri = i * m;
            for (int k = 0; k <= i; k++) {
                double lik = l[li + k];
                if (lik != 0) {
                    int rk = k * m;
                    for (int j = 0; j < m; j++) {
                        o[ri + j] += lik * zd[rk + j];
                    }
                }
            }
        }
        return out;
    }

    private static int checkShapes(DMatrixRMaj lower, int rows, String what) {
        if (lower.numRows != lower.numCols) {
            throw new IllegalArgumentException("triangular factor must be square, got "
                    + lower.numRows + " x " + lower.numCols);
        }
        if (rows != lower.numRows) {
            throw new IllegalArgumentException(what + " has " + rows + " rows, the factor is "
                    + lower.numRows + " x " + lower.numRows);
        }
        return lower.numRows;
    }
}
