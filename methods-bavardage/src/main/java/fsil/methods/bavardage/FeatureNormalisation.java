package fsil.methods.bavardage;

import fsil.core.linalg.CentredL2;

/**
 * Steps M and E of the preprocessing (the authors' {@code MESV}): subtract the mean of all base features, then divide
 * by the Euclidean norm. A vector equal to the base mean (norm 0) stays at the origin instead of becoming NaN.
 * The arithmetic is core's {@link CentredL2}, which the soft k-means baseline shares.
 */
final class FeatureNormalisation {
    private FeatureNormalisation() {
    }

    /**
     * Centres and L2-normalises {@code rows} rows of a row-major float matrix into {@code out} (doubles).
     *
     * @param src       row-major source, {@code d} columns
     * @param srcRow    first source row
     * @param rows      number of rows
     * @param d         dimension
     * @param mean      base mean (length d)
     * @param out       row-major destination
     * @param outRow    first destination row
     */
    static void centreAndNormalise(float[] src, int srcRow, int rows, int d, double[] mean, double[] out, int outRow) {
        CentredL2.centreAndNormalise(src, srcRow, rows, d, mean, out, outRow);
    }

    /** Plain mean of all rows (every sample weighs the same, so classes are weighted by their size). */
    static double[] mean(float[] x, int n, int d) {
        return CentredL2.mean(x, n, d);
    }
}
