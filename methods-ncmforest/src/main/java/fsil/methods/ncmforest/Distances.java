package fsil.methods.ncmforest;

/** Squared Euclidean distance between float32 rows, accumulated in float64. */
final class Distances {
    private Distances() {
    }

    /**
     * ||a[aOff..aOff+d) - b[bOff..bOff+d)||^2. Four independent accumulators let the CPU pipeline the loop; the
     * summation order is fixed, so the result is the same on every run.
     */
    static double squared(float[] a, int aOff, float[] b, int bOff, int d) {
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
