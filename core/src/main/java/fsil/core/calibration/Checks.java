package fsil.core.calibration;

/** Shape checks shared by the calibration numerics. */
final class Checks {
    private Checks() {
    }

    /** Checks that {@code probs} is a labels.length x numClasses matrix and every label is a column index. */
    static void matrix(double[] probs, int[] labels, int numClasses) {
        if (numClasses < 1) {
            throw new IllegalArgumentException("need at least one class, got " + numClasses);
        }
        if ((long) labels.length * numClasses != probs.length) {
            throw new IllegalArgumentException("probabilities length " + probs.length + " is not " + labels.length
                    + " rows x " + numClasses + " classes");
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= numClasses) {
                throw new IllegalArgumentException("label " + labels[i] + " of row " + i + " is not a column in [0, "
                        + numClasses + ")");
            }
        }
    }
}
