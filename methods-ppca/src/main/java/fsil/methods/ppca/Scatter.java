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
     * C prepared for repeated products with blocks of row vectors (the Krylov solver): copies of the stored matrix
     * as one array per row, the layout whose loops the JIT compiles to vector instructions (it does not for loops
     * over an offset into one flat array). Holds 2 r d doubles (factor rows and their transpose) or d^2 (dense).
     */
    Operator operator() {
        return new Operator(this);
    }

    /** Y = X C for blocks of row vectors, with C's storage copied into row arrays once (see {@link #operator}). */
    static final class Operator {
        private final int dim;
        private final double scale;
        /** factor rows f_i (r x d), or the dense rows (d x d). */
        private final double[][] rows;
        /** factor columns: row t holds f_1[t] .. f_r[t] (d x r); null for the dense form. */
        private final double[][] columns;
        /** projections of two vectors onto the factor rows (factor form). */
        private final double[] p0;
        private final double[] p1;

        private Operator(Scatter c) {
            this.dim = c.dim;
            this.scale = c.scale;
            DMatrixRMaj m = c.factor != null ? c.factor : c.dense;
            this.rows = RowKernels.rows(m.data, m.numRows, m.numCols);
            this.columns = c.factor != null ? RowKernels.transpose(m.data, m.numRows, m.numCols) : null;
            int r = c.factor != null ? m.numRows : 0;
            this.p0 = new double[r];
            this.p1 = new double[r];
        }

        /**
         * y_j = x_j C for j &lt; b. Factor form: p = s (x F^T) from the transposed rows, then y = p F, two vectors
         * per pass; dense form: y = (s x) M. Every product is a plain sum in ascending index order, so the result is
         * the one of the flat-array loops it replaces, bit for bit.
         */
        void apply(double[][] x, int b, double[][] y) {
            if (columns == null) {
                for (int j = 0; j < b; j++) {
                    RowKernels.combination(x[j], 0, scale, rows, dim, y[j]);
                }
                return;
            }
            int r = rows.length;
            for (int j = 0; j < b; j += 2) {
                boolean pair = j + 1 < b;
                double[] x1 = pair ? x[j + 1] : x[j];
                RowKernels.project(x[j], x1, columns, dim, r, p0, p1);
                if (pair) {
                    RowKernels.accumulate(p0, p1, scale, rows, r, dim, y[j], y[j + 1]);
                } else {
                    RowKernels.accumulate(p0, p0, scale, rows, r, dim, y[j], null);
                }
            }
        }
    }

    /** Multiply-adds of {@link Operator#apply} per row vector. */
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
