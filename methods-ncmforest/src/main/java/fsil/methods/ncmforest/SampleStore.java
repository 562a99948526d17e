package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;

import java.util.Arrays;

/**
 * Every training sample the session has seen, in arrival order: float32 features (row-major) and internal class
 * indices. IGT, RTST and RUST re-evaluate splits on old samples, so the paper's setting keeps them;
 * trees refer to samples by their row index here. Appending happens only between parallel phases.
 */
final class SampleStore {
    private final int dim;
    private float[] x = new float[0];
    private int[] y = new int[0];
    private int size;

    SampleStore(int dim) {
        this.dim = dim;
    }

    /** Appends the rows of {@code f} with the given internal labels; returns the index of the first new row. */
    int append(FeatureMatrix f, int[] internalLabels) {
        int n = f.rows();
        int first = size;
        if ((long) (size + n) * dim > Integer.MAX_VALUE - 8) {
            throw new fsil.api.FsilException("the NCM forest keeps every training sample in one float array and "
                    + "cannot hold " + (size + n) + " samples of dimension " + dim + "; reduce the data or the dimension");
        }
        if (size + n > y.length) {
            int cap = Math.max(size + n, y.length * 2);
            x = Arrays.copyOf(x, cap * dim);
            y = Arrays.copyOf(y, cap);
        }
        System.arraycopy(f.rawData(), 0, x, size * dim, n * dim);
        System.arraycopy(internalLabels, 0, y, size, n);
        size += n;
        return first;
    }

    /** Row-major features; row i starts at i * dim. Read-only. */
    float[] features() {
        return x;
    }

    /** Internal class index of every row. Read-only. */
    int[] labels() {
        return y;
    }

    int size() {
        return size;
    }

    int dim() {
        return dim;
    }

    /** Bytes used by the stored samples (the used part of the arrays). */
    long memoryBytes() {
        return 4L * size * dim + 4L * size;
    }
}
