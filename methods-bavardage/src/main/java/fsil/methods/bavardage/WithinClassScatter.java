package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

import java.util.Arrays;

/**
 * The shared within-class scatter of the base classes, in the two forms BAVARDAGE uses. Inputs are base features
 * that are already centred on the base mean and L2-normalised (steps M and E).
 */
final class WithinClassScatter {
    /** The ridge the authors' code adds to its scatter ({@code bavardage.py}, "V" branch). */
    static final double CODE_RIDGE = 1e-6;

    private WithinClassScatter() {
    }

    /**
     * The authors' code ({@code computeSharedCov} with postRescale): per class the unnormalised scatter
     * C_c = sum_i (x_i - mean_c)(x_i - mean_c)^T with Frobenius norm f_c, then
     * S_w = [mean_c C_c / f_c] * [mean_c f_c] + 1e-6 I.
     *
     * <p>Classes with f_c = 0 (one sample, or identical samples) would make the code divide by zero; they are left
     * out of both averages. When no class has any scatter, S_w is the ridge alone.
     */
    static DMatrixRMaj code(double[] x, int n, int d, int[] labels) {
        // sum_c C_c / f_c accumulated as sum over all rows of z z^T with z = (x_i - mean_c) / sqrt(f_c), lower
        // triangle by axpy rows; f_c = ||C_c||_F = ||R_c R_c^T||_F from the small n_c x n_c Gram matrix of the
        // centred rows R_c (the two products have the same non-zero eigenvalues)
        double[] lower = new double[d * d];
        double fSum = 0;
        int used = 0;
        double[] cc = new double[d * d];
        for (int[] rows : groups(labels)) {
            double[] c = centred(x, d, rows);
            int nc = rows.length;
            double f;
            if (nc <= d) {
                // f_c from the small Gram matrix, then the rows scaled by 1/sqrt(f_c) go into the sum
                double f2 = 0;
                for (int i = 0; i < nc; i++) {
                    for (int j = 0; j <= i; j++) {
                        double s = 0;
                        for (int t = 0; t < d; t++) {
                            s += c[i * d + t] * c[j * d + t];
                        }
                        f2 += i == j ? s * s : 2 * s * s;
                    }
                }
                f = Math.sqrt(f2);
                if (f > 0) {
                    double scale = 1 / Math.sqrt(f);
                    for (int i = 0; i < c.length; i++) {
                        c[i] *= scale;
                    }
                    addLowerOuterProducts(c, nc, d, lower);
                }
            } else {
                // many rows: C_c itself (lower triangle), its norm, then C_c / f_c
                java.util.Arrays.fill(cc, 0);
                addLowerOuterProducts(c, nc, d, cc);
                double f2 = 0;
                for (int a = 0; a < d; a++) {
                    for (int b = 0; b <= a; b++) {
                        double v = cc[a * d + b];
                        f2 += a == b ? v * v : 2 * v * v;
                    }
                }
                f = Math.sqrt(f2);
                if (f > 0) {
                    double inv = 1 / f;
                    for (int a = 0; a < d; a++) {
                        for (int b = 0; b <= a; b++) {
                            lower[a * d + b] += inv * cc[a * d + b];
                        }
                    }
                }
            }
            if (f > 0) {
                fSum += f;
                used++;
            }
        }
        DMatrixRMaj sum = new DMatrixRMaj(d, d);
        for (int a = 0; a < d; a++) {
            for (int b = 0; b <= a; b++) {
                sum.data[a * d + b] = lower[a * d + b];
                sum.data[b * d + a] = lower[a * d + b];
            }
        }
        if (used > 0) {
            CommonOps_DDRM.scale(fSum / ((double) used * used), sum);
        }
        for (int j = 0; j < d; j++) {
            sum.add(j, j, CODE_RIDGE);
        }
        return sum;
    }

    /**
     * The paper's Eq. 6: sum over classes and samples of (x_i - m_c)(x_i - m_c)^T divided by the number of base
     * samples (the pooled within-class covariance).
     */
    static DMatrixRMaj pooled(double[] x, int n, int d, int[] labels) {
        DMatrixRMaj sum = new DMatrixRMaj(d, d);
        DMatrixRMaj cc = new DMatrixRMaj(d, d);
        for (int[] rows : groups(labels)) {
            scatter(x, d, rows, cc);
            CommonOps_DDRM.addEquals(sum, cc);
        }
        CommonOps_DDRM.scale(1.0 / n, sum);
        return sum;
    }

    /** Unnormalised scatter of the given rows around their mean, written into {@code out} (d x d). */
    static void scatter(double[] x, int d, int[] rows, DMatrixRMaj out) {
        DMatrixRMaj centred = DMatrixRMaj.wrap(rows.length, d, centred(x, d, rows));
        CommonOps_DDRM.multTransA(centred, centred, out);
    }

    /** Adds sum_i z_i z_i^T over the rows of the row-major n x d {@code z} to the lower triangle of {@code lower}. */
    private static void addLowerOuterProducts(double[] z, int n, int d, double[] lower) {
        for (int i = 0; i < n; i++) {
            int zo = i * d;
            for (int a = 0; a < d; a++) {
                double za = z[zo + a];
                if (za == 0) {
                    continue;
                }
                int o = a * d;
                for (int b = 0; b <= a; b++) {
                    lower[o + b] += za * z[zo + b];
                }
            }
        }
    }

    /** The given rows minus their mean, row-major rows.length x d. */
    static double[] centred(double[] x, int d, int[] rows) {
        int nc = rows.length;
        double[] mean = new double[d];
        for (int r : rows) {
            for (int j = 0; j < d; j++) {
                mean[j] += x[r * d + j];
            }
        }
        for (int j = 0; j < d; j++) {
            mean[j] /= nc;
        }
        double[] c = new double[nc * d];
        for (int i = 0; i < nc; i++) {
            int o = rows[i] * d;
            for (int j = 0; j < d; j++) {
                c[i * d + j] = x[o + j] - mean[j];
            }
        }
        return c;
    }

    /** Row indices grouped by label, groups in ascending label order, rows in ascending order. */
    static int[][] groups(int[] labels) {
        int[] classes = Arrays.stream(labels).distinct().sorted().toArray();
        int[] counts = new int[classes.length];
        int[] idx = new int[labels.length];
        for (int i = 0; i < labels.length; i++) {
            idx[i] = Arrays.binarySearch(classes, labels[i]);
            counts[idx[i]]++;
        }
        int[][] out = new int[classes.length][];
        for (int k = 0; k < classes.length; k++) {
            out[k] = new int[counts[k]];
        }
        int[] fill = new int[classes.length];
        for (int i = 0; i < labels.length; i++) {
            out[idx[i]][fill[idx[i]]++] = i;
        }
        return out;
    }
}
