package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;

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
        DMatrixRMaj sum = new DMatrixRMaj(d, d);
        DMatrixRMaj cc = new DMatrixRMaj(d, d);
        double fSum = 0;
        int used = 0;
        for (int[] rows : groups(labels)) {
            scatter(x, d, rows, cc);
            double f = NormOps_DDRM.normF(cc);
            if (f > 0) {
                CommonOps_DDRM.addEquals(sum, 1 / f, cc);
                fSum += f;
                used++;
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
        DMatrixRMaj centred = new DMatrixRMaj(nc, d);
        double[] c = centred.data;
        for (int i = 0; i < nc; i++) {
            int o = rows[i] * d;
            for (int j = 0; j < d; j++) {
                c[i * d + j] = x[o + j] - mean[j];
            }
        }
        CommonOps_DDRM.multTransA(centred, centred, out);
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
