package fsil.methods.ppca;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * A symmetric positive semi-definite d x d matrix C = scale * F^T F (factor rows F, r x d) or C = scale * M (dense
 * M, d x d): the covariance of one class, as the eigen solvers see it. Exactly one of {@code factor} and
 * {@code dense} is non-null.
 */
record Scatter(int dim, DMatrixRMaj factor, DMatrixRMaj dense, double scale) {

    Scatter {
        if ((factor == null) == (dense == null)) {
            throw new IllegalArgumentException("exactly one of factor and dense must be given");
        }
    }

    /** A dense covariance (tests, benchmarks). */
    static Scatter ofDense(DMatrixRMaj c) {
        return new Scatter(c.numCols, null, c, 1.0);
    }

    boolean factored() {
        return factor != null;
    }

    /** Rows of the factor (r), or d for the dense form. */
    int rows() {
        return factor != null ? factor.numRows : dim;
    }

    /** An upper bound on the rank of C. */
    int rankBound() {
        return Math.min(rows(), dim);
    }

    /**
     * Y = X C for a block of row vectors X (b x d); {@code y} is reshaped. Cost b r d multiply-adds twice (factor)
     * or b d^2 (dense).
     */
    void apply(DMatrixRMaj x, DMatrixRMaj y) {
        y.reshape(x.numRows, dim);
        if (factor != null) {
            DMatrixRMaj xf = new DMatrixRMaj(x.numRows, factor.numRows);
            CommonOps_DDRM.multTransB(x, factor, xf);
            CommonOps_DDRM.mult(scale, xf, factor, y);
        } else {
            CommonOps_DDRM.mult(scale, x, dense, y);
        }
    }

    /** Multiply-adds of {@link #apply} per row vector. */
    double applyCost() {
        return factor != null ? 2.0 * factor.numRows * dim : (double) dim * dim;
    }

    /** C as a new dense, exactly symmetric d x d matrix. */
    DMatrixRMaj toDense() {
        DMatrixRMaj c = new DMatrixRMaj(dim, dim);
        if (factor != null) {
            CommonOps_DDRM.multAddTransA(factor, factor, c);
        } else {
            c.setTo(dense);
        }
        int d = dim;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                double v = 0.5 * scale * (c.data[i * d + j] + c.data[j * d + i]);
                c.data[i * d + j] = v;
                c.data[j * d + i] = v;
            }
        }
        return c;
    }
}
