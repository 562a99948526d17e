package fsil.core.linalg;

/**
 * Squared Euclidean distances between rows of row-major matrices, accumulated in float64, in a fixed summation
 * order (so the result is the same on every run and thread).
 */
public final class Distances {
    private Distances() {
    }

    /** ||a[ao..ao+d) - b[bo..bo+d)||^2, summed in index order. */
    public static double squared(double[] a, int ao, double[] b, int bo, int d) {
        double s = 0;
        for (int j = 0; j < d; j++) {
            double t = a[ao + j] - b[bo + j];
            s += t * t;
        }
        return s;
    }

    /** ||a[ao..ao+d) - b[bo..bo+d)||^2 with float32 {@code b}, summed in index order. */
    public static double squared(double[] a, int ao, float[] b, int bo, int d) {
        double s = 0;
        for (int j = 0; j < d; j++) {
            double t = a[ao + j] - b[bo + j];
            s += t * t;
        }
        return s;
    }

    /**
     * ||a[aOff..aOff+d) - b[bOff..bOff+d)||^2 for float32 rows. Four independent accumulators let the CPU pipeline
     * the loop; the summation order is fixed, so the result is the same on every run.
     */
    public static double squared(float[] a, int aOff, float[] b, int bOff, int d) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            double t0 = a[aOff + j] - b[bOff + j];
            double t1 = a[aOff + j + 1] - b[bOff + j + 1];
            double t2 = a[aOff + j + 2] - b[bOff + j + 2];
            double t3 = a[aOff + j + 3] - b[bOff + j + 3];
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
        }
        for (; j < d; j++) {
            double t = a[aOff + j] - b[bOff + j];
            s0 += t * t;
        }
        return (s0 + s1) + (s2 + s3);
    }
}
