package fsil.methods.baselines;

import fsil.api.LabeledData;

import java.util.Arrays;

/**
 * Per-class running sums and counts, in sorted class-id order. Adding data of a known class updates its mean,
 * so incremental experiences and repeated chunks give the same means as one batch.
 */
final class ClassMeans {
    private int[] classes = new int[0];
    private double[][] sums = new double[0][];
    private long[] counts = new long[0];
    private final int dim;

    ClassMeans(int dim) {
        this.dim = dim;
    }

    void add(LabeledData data) {
        float[] x = data.features().rawData();
        int[] y = data.labels();
        for (int i = 0; i < y.length; i++) {
            int k = indexOf(y[i]);
            double[] s = sums[k];
            int off = i * dim;
            for (int j = 0; j < dim; j++) {
                s[j] += x[off + j];
            }
            counts[k]++;
        }
    }

    private int indexOf(int classId) {
        int k = Arrays.binarySearch(classes, classId);
        if (k >= 0) {
            return k;
        }
        int at = -k - 1;
        int n = classes.length;
        int[] c = new int[n + 1];
        double[][] s = new double[n + 1][];
        long[] cnt = new long[n + 1];
        System.arraycopy(classes, 0, c, 0, at);
        System.arraycopy(sums, 0, s, 0, at);
        System.arraycopy(counts, 0, cnt, 0, at);
        c[at] = classId;
        s[at] = new double[dim];
        System.arraycopy(classes, at, c, at + 1, n - at);
        System.arraycopy(sums, at, s, at + 1, n - at);
        System.arraycopy(counts, at, cnt, at + 1, n - at);
        classes = c;
        sums = s;
        counts = cnt;
        return at;
    }

    int[] classes() {
        return classes.clone();
    }

    int size() {
        return classes.length;
    }

    /** Means as a row-major classes x dim array. */
    double[] means() {
        double[] m = new double[classes.length * dim];
        for (int k = 0; k < classes.length; k++) {
            for (int j = 0; j < dim; j++) {
                m[k * dim + j] = sums[k][j] / counts[k];
            }
        }
        return m;
    }

    long memoryBytes() {
        return (long) classes.length * (dim * 8L + 12L);
    }
}
