package fsil.core.math;

import fsil.api.Prediction;

/** Numerically stable softmax and log-sum-exp over rows of a row-major matrix. */
public final class Softmax {
    private Softmax() {
    }

    /** log(sum_k exp(x[off + k])) for k in [0, len), stable for any finite or -inf inputs. */
    public static double logSumExp(double[] x, int off, int len) {
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < len; k++) {
            max = Math.max(max, x[off + k]);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        if (max == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        double s = 0;
        for (int k = 0; k < len; k++) {
            s += Math.exp(x[off + k] - max);
        }
        return max + Math.log(s);
    }

    public static double logSumExp(double[] x) {
        return logSumExp(x, 0, x.length);
    }

    /**
     * Replaces each row of the row-major {@code rows x cols} matrix of logits by its softmax, in place.
     * A row whose logits are all -inf becomes uniform (no information).
     */
    public static void inPlaceRows(double[] logits, int rows, int cols) {
        for (int i = 0; i < rows; i++) {
            int off = i * cols;
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < cols; k++) {
                if (Double.isNaN(logits[off + k])) {
                    throw new ArithmeticException("NaN logit for row " + i + ", column " + k);
                }
                max = Math.max(max, logits[off + k]);
            }
            if (max == Double.NEGATIVE_INFINITY) {
                java.util.Arrays.fill(logits, off, off + cols, 1.0 / cols);
                continue;
            }
            double z = 0;
            for (int k = 0; k < cols; k++) {
                double e = logits[off + k] == Double.POSITIVE_INFINITY ? 1 : Math.exp(logits[off + k] - max);
                if (max == Double.POSITIVE_INFINITY) {
                    e = logits[off + k] == Double.POSITIVE_INFINITY ? 1 : 0;
                }
                logits[off + k] = e;
                z += e;
            }
            for (int k = 0; k < cols; k++) {
                logits[off + k] /= z;
            }
        }
    }

    /** A {@link Prediction} from row-major logits (the array is consumed). */
    public static Prediction prediction(int[] classes, double[] logits) {
        inPlaceRows(logits, logits.length / classes.length, classes.length);
        return Prediction.of(classes, logits);
    }

    /** Normalises non-negative rows to sum 1 in place (uniform when a row sums to 0). */
    public static void normaliseRows(double[] p, int rows, int cols) {
        for (int i = 0; i < rows; i++) {
            double s = 0;
            for (int k = 0; k < cols; k++) {
                s += p[i * cols + k];
            }
            for (int k = 0; k < cols; k++) {
                p[i * cols + k] = s > 0 ? p[i * cols + k] / s : 1.0 / cols;
            }
        }
    }
}
