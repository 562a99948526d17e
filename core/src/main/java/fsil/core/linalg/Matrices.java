package fsil.core.linalg;

import fsil.api.FeatureMatrix;
import org.ejml.data.DMatrixRMaj;

/** Conversions between the api's float32 feature matrices and the float64 EJML matrices GP code works on. */
public final class Matrices {
    private Matrices() {
    }

    /** All rows of {@code x} as an n x d double matrix. */
    public static DMatrixRMaj fromFeatures(FeatureMatrix x) {
        float[] src = x.rawData();
        DMatrixRMaj m = new DMatrixRMaj(x.rows(), x.cols());
        for (int i = 0; i < src.length; i++) {
            m.data[i] = src[i];
        }
        return m;
    }

    /** The given rows of {@code x}, in that order, as a double matrix. */
    public static DMatrixRMaj fromFeatures(FeatureMatrix x, int[] rows) {
        int d = x.cols();
        float[] src = x.rawData();
        DMatrixRMaj m = new DMatrixRMaj(rows.length, d);
        for (int r = 0; r < rows.length; r++) {
            int row = rows[r];
            if (row < 0 || row >= x.rows()) {
                throw new IndexOutOfBoundsException("row " + row + " of a " + x.rows() + "-row feature matrix");
            }
            for (int j = 0; j < d; j++) {
                m.data[r * d + j] = src[row * d + j];
            }
        }
        return m;
    }
}
