package fsil.core.calibration;

/**
 * Proper scoring rules of class probabilities: negative log-likelihood and the multi-class Brier score.
 *
 * <p>Inputs are a row-major {@code n x C} matrix of probabilities (row i is the prediction for example i) and
 * {@code labels[i]}, the column of the true class of row i. Rows are taken as given: they are not renormalised
 * and not checked to sum to 1 ({@code fsil.api.Prediction} already checks that). A NaN probability gives a NaN score.
 * Sums run over rows in index order; a mean is that sum divided by n, and NaN when n = 0.
 */
public final class ScoringRules {
    /**
     * Probabilities are floored here before the log: NLL = -log(max(p_y, 1e-300)), at most 690.78. A 0 (a model
     * that is certain and wrong, or an exp that underflowed) thus gives a large finite loss instead of +inf, so one
     * such row cannot make a mean over thousands of rows infinite. 1e-300 is still a normal double (the smallest is
     * 2.2e-308), lies far below any probability a model states meaningfully, and is the floor temperature scaling
     * uses too ({@link TemperatureScaling#FLOOR}).
     */
    public static final double NLL_FLOOR = 1e-300;

    private ScoringRules() {
    }

    /** -log(max(p_y, {@link #NLL_FLOOR})) of one row (+0.0, not -0.0, when p_y = 1). */
    public static double nll(double[] probs, int numClasses, int row, int label) {
        return 0.0 - Math.log(Math.max(probs[row * numClasses + label], NLL_FLOOR));
    }

    /**
     * Brier score of one row, summed over classes: sum_k (p_k - 1[k = y])^2, in [0, 2]. This is Brier's (1950)
     * original multi-class form, as in Guo et al. (2017) and most calibration libraries; some papers divide it by the
     * number of classes C (then it lies in [0, 2/C]). Each term is squared directly (no sum p^2 - 2 p_y + 1), so a
     * confident correct row gets an accurate small score rather than a cancellation error.
     */
    public static double brier(double[] probs, int numClasses, int row, int label) {
        int off = row * numClasses;
        double s = 0;
        for (int k = 0; k < numClasses; k++) {
            double d = k == label ? probs[off + k] - 1.0 : probs[off + k];
            s += d * d;
        }
        return s;
    }

    /** {@link #nll(double[], int, int, int)} of every row. */
    public static double[] nllPerRow(double[] probs, int[] labels, int numClasses) {
        Checks.matrix(probs, labels, numClasses);
        double[] out = new double[labels.length];
        for (int i = 0; i < labels.length; i++) {
            out[i] = nll(probs, numClasses, i, labels[i]);
        }
        return out;
    }

    /** {@link #brier(double[], int, int, int)} of every row. */
    public static double[] brierPerRow(double[] probs, int[] labels, int numClasses) {
        Checks.matrix(probs, labels, numClasses);
        double[] out = new double[labels.length];
        for (int i = 0; i < labels.length; i++) {
            out[i] = brier(probs, numClasses, i, labels[i]);
        }
        return out;
    }

    /** Sum of the rows' NLL (0 when there are no rows). */
    public static double nllSum(double[] probs, int[] labels, int numClasses) {
        Checks.matrix(probs, labels, numClasses);
        double s = 0;
        for (int i = 0; i < labels.length; i++) {
            s += nll(probs, numClasses, i, labels[i]);
        }
        return s;
    }

    /** Mean NLL over rows (NaN when there are no rows). */
    public static double nllMean(double[] probs, int[] labels, int numClasses) {
        return nllSum(probs, labels, numClasses) / labels.length;
    }

    /** Sum of the rows' Brier scores (0 when there are no rows). */
    public static double brierSum(double[] probs, int[] labels, int numClasses) {
        Checks.matrix(probs, labels, numClasses);
        double s = 0;
        for (int i = 0; i < labels.length; i++) {
            s += brier(probs, numClasses, i, labels[i]);
        }
        return s;
    }

    /** Mean Brier score over rows (NaN when there are no rows). */
    public static double brierMean(double[] probs, int[] labels, int numClasses) {
        return brierSum(probs, labels, numClasses) / labels.length;
    }
}
