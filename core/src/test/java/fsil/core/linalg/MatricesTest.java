package fsil.core.linalg;

import fsil.api.FeatureMatrix;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MatricesTest {
    @Test
    void convertsFloatFeaturesExactly() {
        FeatureMatrix f = FeatureMatrix.of(new float[][]{{1.5f, -2f}, {0.1f, 3f}, {7f, 8f}});
        DMatrixRMaj all = Matrices.fromFeatures(f);
        assertEquals(3, all.numRows);
        assertEquals(2, all.numCols);
        assertEquals((double) 0.1f, all.get(1, 0), 0);
        DMatrixRMaj sel = Matrices.fromFeatures(f, new int[]{2, 0});
        assertEquals(7.0, sel.get(0, 0), 0);
        assertEquals(-2.0, sel.get(1, 1), 0);
        assertThrows(IndexOutOfBoundsException.class, () -> Matrices.fromFeatures(f, new int[]{3}));
    }
}
