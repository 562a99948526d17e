package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Eigendecomposition of a symmetric matrix (EJML's symmetric QR algorithm), with the eigenvalues sorted in
 * descending order and the eigenvectors as the columns of a row-major n x n matrix.
 *
 * @param values  eigenvalues, descending
 * @param vectors row-major n x n, column i is the unit eigenvector of values[i]
 */
record SymmetricEigen(double[] values, double[] vectors) {

    static SymmetricEigen of(DMatrixRMaj a) {
        int n = a.numRows;
        if (n == 0) {
            return new SymmetricEigen(new double[0], new double[0]);
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, true, true);
        if (!eig.decompose(a.copy())) {
            throw new ArithmeticException("symmetric eigendecomposition of a " + n + " x " + n + " matrix failed");
        }
        int[] order = new int[n];
        double[] raw = new double[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            raw[i] = eig.getEigenvalue(i).real;
        }
        // insertion sort of the indices by descending eigenvalue (stable, no boxing)
        for (int i = 1; i < n; i++) {
            int cur = order[i];
            int j = i - 1;
            while (j >= 0 && raw[order[j]] < raw[cur]) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = cur;
        }
        double[] values = new double[n];
        double[] vectors = new double[n * n];
        for (int c = 0; c < n; c++) {
            int src = order[c];
            values[c] = raw[src];
            DMatrixRMaj v = eig.getEigenVector(src);
            for (int r = 0; r < n; r++) {
                vectors[r * n + c] = v.data[r];
            }
        }
        return new SymmetricEigen(values, vectors);
    }
}
