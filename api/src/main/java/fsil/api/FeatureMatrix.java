package fsil.api;

import java.util.Arrays;

/**
 * A dense n x d matrix of float32 features, row-major. The toolkit treats it as immutable: methods must not
 * write into {@link #rawData()} (the conformance kit checks this).
 */
public final class FeatureMatrix {
    private final float[] data;
    private final int rows;
    private final int cols;

    private FeatureMatrix(int rows, int cols, float[] data) {
        this.rows = rows;
        this.cols = cols;
        this.data = data;
    }

    /** Wraps {@code data} (row-major, length rows*cols) without copying; the caller hands the array over. */
    public static FeatureMatrix wrap(int rows, int cols, float[] data) {
        if (rows < 0 || cols < 0) {
            throw new InvalidDataException("feature matrix shape must be non-negative, got " + rows + " x " + cols);
        }
        if ((long) rows * cols != data.length) {
            throw new InvalidDataException("feature matrix of shape " + rows + " x " + cols + " needs "
                    + ((long) rows * cols) + " values but got " + data.length);
        }
        return new FeatureMatrix(rows, cols, data);
    }

    /** Copies a rectangular double[][] (one array per row). */
    public static FeatureMatrix of(double[][] rowsData) {
        int n = rowsData.length;
        int d = n == 0 ? 0 : rowsData[0].length;
        float[] out = new float[n * d];
        for (int i = 0; i < n; i++) {
            if (rowsData[i].length != d) {
                throw new InvalidDataException("row " + i + " has " + rowsData[i].length + " values, row 0 has " + d);
            }
            for (int j = 0; j < d; j++) {
                out[i * d + j] = (float) rowsData[i][j];
            }
        }
        return new FeatureMatrix(n, d, out);
    }

    /** Copies a rectangular float[][] (one array per row). */
    public static FeatureMatrix of(float[][] rowsData) {
        int n = rowsData.length;
        int d = n == 0 ? 0 : rowsData[0].length;
        float[] out = new float[n * d];
        for (int i = 0; i < n; i++) {
            if (rowsData[i].length != d) {
                throw new InvalidDataException("row " + i + " has " + rowsData[i].length + " values, row 0 has " + d);
            }
            System.arraycopy(rowsData[i], 0, out, i * d, d);
        }
        return new FeatureMatrix(n, d, out);
    }

    public static FeatureMatrix empty(int cols) {
        return new FeatureMatrix(0, cols, new float[0]);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public float get(int row, int col) {
        return data[row * cols + col];
    }

    /** The backing row-major array. Read-only by contract; exposed so hot loops avoid copies. */
    public float[] rawData() {
        return data;
    }

    /** A copy of one row. */
    public float[] row(int row) {
        return Arrays.copyOfRange(data, row * cols, row * cols + cols);
    }

    /** Copies one row into {@code dst} as doubles. */
    public void copyRow(int row, double[] dst) {
        int off = row * cols;
        for (int j = 0; j < cols; j++) {
            dst[j] = data[off + j];
        }
    }

    /** The rows at the given indices, in that order (indices may repeat). */
    public FeatureMatrix selectRows(int[] indices) {
        float[] out = new float[indices.length * cols];
        for (int i = 0; i < indices.length; i++) {
            System.arraycopy(data, indices[i] * cols, out, i * cols, cols);
        }
        return new FeatureMatrix(indices.length, cols, out);
    }

    /** All entries as a new double[rows][cols]. */
    public double[][] toDoubleRows() {
        double[][] out = new double[rows][cols];
        for (int i = 0; i < rows; i++) {
            copyRow(i, out[i]);
        }
        return out;
    }

    /** Index of the first NaN/Inf entry in row-major order, or -1 when all entries are finite. */
    public int firstNonFinite() {
        for (int i = 0; i < data.length; i++) {
            if (!Float.isFinite(data[i])) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Throws {@link InvalidDataException} naming the first non-finite entry.
     *
     * @param what what the matrix is, for the message (e.g. "support features")
     * @return this matrix
     */
    public FeatureMatrix requireFinite(String what) {
        int bad = firstNonFinite();
        if (bad >= 0) {
            throw new InvalidDataException(what + " contain " + data[bad] + " at row " + (bad / cols) + ", column "
                    + (bad % cols) + ": features must be finite. Remove or impute NaN/Inf values before running.");
        }
        return this;
    }

    @Override
    public String toString() {
        return "FeatureMatrix[" + rows + " x " + cols + "]";
    }
}
