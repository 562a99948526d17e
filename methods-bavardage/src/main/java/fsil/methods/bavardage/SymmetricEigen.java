package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;

/**
 * Eigendecomposition of a symmetric positive semi-definite matrix (every matrix this module decomposes is one: Gram
 * matrices, B^T B, scatter matrices), with the eigenvalues sorted in descending order and the eigenvectors as the
 * columns of a row-major n x n matrix.
 *
 * <p>Householder tridiagonalisation and the implicit QL algorithm ({@link HouseholderQl}) are used first; if they
 * do not converge, EJML's symmetric QR algorithm. That gives up (iteration limit) on some highly degenerate inputs,
 * e.g. the rank-1 Gram matrix of a task in dimension 1, whose entries are +-1 up to an ulp; then the matrix is
 * decomposed by an SVD instead, which for A = A^T &gt;= 0 gives the same eigenpairs (A = V diag(sigma) V^T: for
 * sigma &gt; 0 the left and right singular vectors coincide, for sigma = 0 any null-space basis is an eigenbasis).
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
        double[] ql = new double[n];
        double[][] rows = new double[n][n];
        if (HouseholderQl.decompose(a.data, n, ql, rows)) {
            return sorted(ql, rows);
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, true, true);
        if (!eig.decompose(a.copy())) {
            return bySvd(a);
        }
        double[] raw = new double[n];
        DMatrixRMaj vectors = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            raw[i] = eig.getEigenvalue(i).real;
            DMatrixRMaj v = eig.getEigenVector(i);
            for (int r = 0; r < n; r++) {
                vectors.set(r, i, v.data[r]);
            }
        }
        return sorted(raw, vectors);
    }

    private static SymmetricEigen bySvd(DMatrixRMaj a) {
        int n = a.numRows;
        SingularValueDecomposition_F64<DMatrixRMaj> svd = DecompositionFactory_DDRM.svd(n, n, false, true, false);
        if (!svd.decompose(a.copy())) {
            throw new ArithmeticException("eigendecomposition of a " + n + " x " + n + " symmetric positive "
                    + "semi-definite matrix failed (symmetric QR and SVD)");
        }
        return sorted(svd.getSingularValues().clone(), svd.getV(null, false));
    }

    /** Eigenpairs sorted by descending value; row i of {@code rows} belongs to {@code raw[i]}. */
    private static SymmetricEigen sorted(double[] raw, double[][] rows) {
        int n = raw.length;
        int[] order = descending(raw);
        double[] values = new double[n];
        double[] vectors = new double[n * n];
        for (int c = 0; c < n; c++) {
            values[c] = raw[order[c]];
            double[] v = rows[order[c]];
            for (int r = 0; r < n; r++) {
                vectors[r * n + c] = v[r];
            }
        }
        return new SymmetricEigen(values, vectors);
    }

    /** Eigenpairs sorted by descending value; column i of {@code columns} belongs to {@code raw[i]}. */
    private static SymmetricEigen sorted(double[] raw, DMatrixRMaj columns) {
        int n = raw.length;
        int[] order = descending(raw);
        double[] values = new double[n];
        double[] vectors = new double[n * n];
        for (int c = 0; c < n; c++) {
            values[c] = raw[order[c]];
            for (int r = 0; r < n; r++) {
                vectors[r * n + c] = columns.get(r, order[c]);
            }
        }
        return new SymmetricEigen(values, vectors);
    }

    /** Indices of {@code raw} by descending value (stable insertion sort, no boxing). */
    private static int[] descending(double[] raw) {
        int n = raw.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
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
        return order;
    }
}
