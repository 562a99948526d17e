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

    /** Columns of the right-hand side processed together in {@link #solveLower(DMatrixRMaj, DMatrixRMaj)}. */
    static final int COLUMN_BLOCK = 256;

    /**
     * B := L^{-1} B (forward substitution); B is n x m. Rows of B are finished four at a time, so each earlier row
     * k read from memory updates four rows, over blocks of {@link #COLUMN_BLOCK} columns (n x 256 doubles stay in a
     * core's cache). Every entry receives exactly the updates x_ij -= L_ik x_kj of the plain row-by-row
     * substitution, in the same order (k ascending, zero L_ik skipped), then the product with 1 / L_ii: the result
     * is the same to the last bit.
     */
    public static void solveLower(DMatrixRMaj lower, DMatrixRMaj b) {
        int n = checkShapes(lower, b.numRows, "B");
        int m = b.numCols;
        double[] l = lower.data;
        double[] x = b.data;
        for (int j0 = 0; j0 < m; j0 += COLUMN_BLOCK) {
            int j1 = Math.min(m, j0 + COLUMN_BLOCK);
            int i0 = 0;
            for (; i0 + 3 < n; i0 += 4) {
                int r0 = i0 * m;
                int r1 = r0 + m;
                int r2 = r1 + m;
                int r3 = r2 + m;
                int l0 = i0 * n;
                int k = 0;
                // two earlier rows k, k + 1 at a time: each entry takes its k update, then its k + 1 update, as
                // before, with half the loads and stores of the four rows being finished
                for (; k + 1 < i0; k += 2) {
                    double a0 = l[l0 + k];
                    double a1 = l[l0 + n + k];
                    double a2 = l[l0 + 2 * n + k];
                    double a3 = l[l0 + 3 * n + k];
                    double b0 = l[l0 + k + 1];
                    double b1 = l[l0 + n + k + 1];
                    double b2 = l[l0 + 2 * n + k + 1];
                    double b3 = l[l0 + 3 * n + k + 1];
                    int rk = k * m;
                    int rk1 = rk + m;
                    if (a0 != 0 && a1 != 0 && a2 != 0 && a3 != 0 && b0 != 0 && b1 != 0 && b2 != 0 && b3 != 0) {
                        for (int j = j0; j < j1; j++) {
                            double v = x[rk + j];
                            double w = x[rk1 + j];
                            x[r0 + j] = x[r0 + j] - a0 * v - b0 * w;
                            x[r1 + j] = x[r1 + j] - a1 * v - b1 * w;
                            x[r2 + j] = x[r2 + j] - a2 * v - b2 * w;
                            x[r3 + j] = x[r3 + j] - a3 * v - b3 * w;
                        }
                    } else {
                        updateFourRows(l, x, n, m, l0, k, r0, j0, j1);
                        updateFourRows(l, x, n, m, l0, k + 1, r0, j0, j1);
                    }
                }
                for (; k < i0; k++) {
                    updateFourRows(l, x, n, m, l0, k, r0, j0, j1);
                }
                for (int i = i0; i < i0 + 4; i++) {
                    finishRow(l, x, n, m, i, i0, j0, j1);
                }
            }
            for (int i = i0; i < n; i++) {
                finishRow(l, x, n, m, i, 0, j0, j1);
            }
        }
    }

    /** Rows i0 .. i0 + 3 (starting at x[r0], L's row i0 at l[l0]) updated by row k on columns [j0, j1). */
    private static void updateFourRows(double[] l, double[] x, int n, int m, int l0, int k, int r0, int j0, int j1) {
        double a0 = l[l0 + k];
        double a1 = l[l0 + n + k];
        double a2 = l[l0 + 2 * n + k];
        double a3 = l[l0 + 3 * n + k];
        int rk = k * m;
        int r1 = r0 + m;
        int r2 = r1 + m;
        int r3 = r2 + m;
        if (a0 != 0 && a1 != 0 && a2 != 0 && a3 != 0) {
            for (int j = j0; j < j1; j++) {
                double v = x[rk + j];
                x[r0 + j] -= a0 * v;
                x[r1 + j] -= a1 * v;
                x[r2 + j] -= a2 * v;
                x[r3 + j] -= a3 * v;
            }
        } else {
            axpyRow(x, rk, r0, a0, j0, j1);
            axpyRow(x, rk, r1, a1, j0, j1);
            axpyRow(x, rk, r2, a2, j0, j1);
            axpyRow(x, rk, r3, a3, j0, j1);
        }
    }

    /** x[to + j] -= a x[from + j] for j in [j0, j1), skipped when a = 0. */
    private static void axpyRow(double[] x, int from, int to, double a, int j0, int j1) {
        if (a != 0) {
            for (int j = j0; j < j1; j++) {
                x[to + j] -= a * x[from + j];
            }
        }
    }

    /** The updates of row i by the rows k in [from, i), then the division by L_ii, on columns [j0, j1). */
    private static void finishRow(double[] l, double[] x, int n, int m, int i, int from, int j0, int j1) {
        int ri = i * m;
        int li = i * n;
        for (int k = from; k < i; k++) {
            axpyRow(x, k * m, ri, l[li + k], j0, j1);
        }
        double inv = 1.0 / l[li + i];
        for (int j = j0; j < j1; j++) {
            x[ri + j] *= inv;
        }
    }

    /** B := L^{-T} B (back substitution with the transpose); B is n x m. */
    public static void solveLowerTranspose(DMatrixRMaj lower, DMatrixRMaj b) {
        int n = checkShapes(lower, b.numRows, "B");
        int m = b.numCols;
        double[] l = lower.data;
        double[] x = b.data;
        for (int i = n - 1; i >= 0; i--) {
            int ri = i * m;
            int li = i * n;
            double inv = 1.0 / l[li + i];
            for (int j = 0; j < m; j++) {
                x[ri + j] *= inv;
            }
            // row i of X is final: remove its contribution L[i, k] x_i from the rows k < i
            for (int k = 0; k < i; k++) {
                double lik = l[li + k];
                if (lik != 0) {
                    int rk = k * m;
                    for (int j = 0; j < m; j++) {
                        x[rk + j] -= lik * x[ri + j];
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
