package fsil.methods.ncmforest;

/**
 * The float filter of {@link NcmSplit} for a group of queries at one node: the queries are copied transposed (one
 * array per feature, one entry per query) and every float distance is computed with the loop running over the
 * queries, four centroids per pass, which the JIT vectorizes for any number of centroids. Each float sum adds the
 * squares of the float differences in ascending feature order (the sum {@link FloatDistanceBound} bounds), and
 * {@link NcmSplit#decide} turns each query's sums into the exact decision.
 */
final class NearestFilter {
    /**
     * Queries per group from which transposing them pays off against the split's own rule (NcmForestTestTimeBench,
     * thread CPU time: 8 to 32 equally fast, 64 about 15% slower, 1 about 8% slower).
     */
    static final int MIN_GROUP = 16;

    private final int d;
    private final float[][] columns;
    private float[][] sums = new float[0][];
    private final float[][] spare;
    private float[] one = new float[0];
    /** Exact distance evaluations made to resolve near ties (diagnostics, tests). */
    final long[] exact = new long[1];

    /**
     * @param d        feature dimension
     * @param capacity the largest group of queries
     */
    NearestFilter(int d, int capacity) {
        this.d = d;
        this.columns = new float[d][capacity];
        this.spare = new float[3][capacity];
    }

    /** right[i] = split.goesRight(x, rows[i] * d) for i in [lo, hi). */
    void goesRight(NcmSplit split, float[] x, int[] rows, int lo, int hi, boolean[] right) {
        int count = hi - lo;
        int k = split.size();
        transpose(x, rows, lo, hi);
        if (sums.length < k) {
            sums = new float[k][columns[0].length];
            one = new float[k];
        }
        int j = 0;
        for (; j < k; j += 4) {
            floatDistances(split, j, Math.min(4, k - j), count);
        }
        for (int q = 0; q < count; q++) {
            for (int i = 0; i < k; i++) {
                one[i] = sums[i][q];
            }
            right[lo + q] = split.decide(one, x, rows[lo + q] * d, exact);
        }
    }

    /** columns[t][q] = x[rows[lo + q] * d + t], eight queries at a time. */
    private void transpose(float[] x, int[] rows, int lo, int hi) {
        int count = hi - lo;
        float[][] col = columns;
        int q = 0;
        for (; q + 8 <= count; q += 8) {
            int o0 = rows[lo + q] * d;
            int o1 = rows[lo + q + 1] * d;
            int o2 = rows[lo + q + 2] * d;
            int o3 = rows[lo + q + 3] * d;
            int o4 = rows[lo + q + 4] * d;
            int o5 = rows[lo + q + 5] * d;
            int o6 = rows[lo + q + 6] * d;
            int o7 = rows[lo + q + 7] * d;
            for (int t = 0; t < d; t++) {
                float[] r = col[t];
                r[q] = x[o0 + t];
                r[q + 1] = x[o1 + t];
                r[q + 2] = x[o2 + t];
                r[q + 3] = x[o3 + t];
                r[q + 4] = x[o4 + t];
                r[q + 5] = x[o5 + t];
                r[q + 6] = x[o6 + t];
                r[q + 7] = x[o7 + t];
            }
        }
        for (; q < count; q++) {
            int o = rows[lo + q] * d;
            for (int t = 0; t < d; t++) {
                col[t][q] = x[o + t];
            }
        }
    }

    /**
     * sums[from + i][q] = sum_t fl32(fl32(x_qt - c_t)^2), added in ascending t in float, for {@code n} (1 to 4)
     * centroids from {@code from}; unused lanes repeat the first centroid into spare sums.
     */
    private void floatDistances(NcmSplit split, int from, int n, int count) {
        float[] s0 = sums[from];
        float[] s1 = n > 1 ? sums[from + 1] : spare[0];
        float[] s2 = n > 2 ? sums[from + 2] : spare[1];
        float[] s3 = n > 3 ? sums[from + 3] : spare[2];
        java.util.Arrays.fill(s0, 0, count, 0f);
        java.util.Arrays.fill(s1, 0, count, 0f);
        java.util.Arrays.fill(s2, 0, count, 0f);
        java.util.Arrays.fill(s3, 0, count, 0f);
        float[] c = split.centroidRows();
        int o0 = from * d;
        int o1 = (n > 1 ? from + 1 : from) * d;
        int o2 = (n > 2 ? from + 2 : from) * d;
        int o3 = (n > 3 ? from + 3 : from) * d;
        for (int t = 0; t < d; t++) {
            float[] xt = columns[t];
            float u0 = c[o0 + t];
            float u1 = c[o1 + t];
            float u2 = c[o2 + t];
            float u3 = c[o3 + t];
            for (int q = 0; q < count; q++) {
                float v = xt[q];
                float e0 = v - u0;
                float e1 = v - u1;
                float e2 = v - u2;
                float e3 = v - u3;
                s0[q] += e0 * e0;
                s1[q] += e1 * e1;
                s2[q] += e2 * e2;
                s3[q] += e3 * e3;
            }
        }
    }
}
