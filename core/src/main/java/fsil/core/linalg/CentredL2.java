package fsil.core.linalg;

/**
 * The "CL2N" feature preprocessing of SimpleShot (Wang et al. 2019), which BAVARDAGE follows (its steps M and E,
 * the first two of the authors' MESV): subtract the plain mean of all base features, then divide every vector by
 * its Euclidean norm. A vector equal to the base mean (norm 0) stays at the origin instead of becoming NaN.
 *
 * <p>One implementation shared by BAVARDAGE and the soft k-means baseline, so that the two compute the same
 * doubles in the same order and their soft k-means agree prediction by prediction.
 */
public final class CentredL2 {
    private CentredL2() {
    }

    /**
     * Centres and L2-normalises {@code rows} rows of a row-major float matrix into {@code out} (doubles).
     *
     * @param src    row-major source, {@code d} columns
     * @param srcRow first source row
     * @param rows   number of rows
     * @param d      dimension
     * @param mean   base mean (length d); null = no centring (L2 normalisation only)
     * @param out    row-major destination
     * @param outRow first destination row
     */
    public static void centreAndNormalise(float[] src, int srcRow, int rows, int d, double[] mean, double[] out,
                                          int outRow) {
        for (int i = 0; i < rows; i++) {
            int s = (srcRow + i) * d;
            int o = (outRow + i) * d;
            double norm2 = 0;
            for (int j = 0; j < d; j++) {
                double v = mean == null ? src[s + j] : src[s + j] - mean[j];
                out[o + j] = v;
                norm2 += v * v;
            }
            if (norm2 > 0) {
                double inv = 1 / Math.sqrt(norm2);
                for (int j = 0; j < d; j++) {
                    out[o + j] *= inv;
                }
            }
        }
    }

    /** Plain mean of all rows (every sample weighs the same, so classes are weighted by their size). */
    public static double[] mean(float[] x, int n, int d) {
        double[] m = new double[d];
        for (int i = 0; i < n; i++) {
            int o = i * d;
            for (int j = 0; j < d; j++) {
                m[j] += x[o + j];
            }
        }
        for (int j = 0; j < d; j++) {
            m[j] /= n;
        }
        return m;
    }
}
