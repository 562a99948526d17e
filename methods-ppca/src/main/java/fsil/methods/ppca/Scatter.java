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
            applyFactor(x, y);
        } else {
            CommonOps_DDRM.mult(scale, x, dense, y);
        }
    }

    /**
     * Y = s X F^T F as sum_i (s X f_i) f_i^T over the factor rows f_i: each row is read once for the dot products and
     * again from the L1 cache for the updates, where two EJML products would stream F twice; the results are
     * bit-identical. Its cost is part of the fit time that {@code PpcaFitBench} measures (benchmarks module,
     * benchmarks/README.md).
     */
    private void applyFactor(DMatrixRMaj x, DMatrixRMaj y) {
        int b = x.numRows;
        int d = dim;
        double[] f = factor.data;
        double[] xs = x.data;
        double[] ys = y.data;
        java.util.Arrays.fill(ys, 0, b * d, 0.0);
        int r = 0;
        for (; r + 2 <= b; r += 2) {
            int x0 = r * d;
            int x1 = x0 + d;
            for (int i = 0; i < factor.numRows; i++) {
                int fo = i * d;
                double c0 = 0;
                double c1 = 0;
                for (int t = 0; t < d; t++) {
                    double ft = f[fo + t];
                    c0 += xs[x0 + t] * ft;
                    c1 += xs[x1 + t] * ft;
                }
                c0 *= scale;
                c1 *= scale;
                for (int t = 0; t < d; t++) {
                    double ft = f[fo + t];
                    ys[x0 + t] += c0 * ft;
                    ys[x1 + t] += c1 * ft;
                }
            }
        }
        for (; r < b; r++) {
            int xo = r * d;
            for (int i = 0; i < factor.numRows; i++) {
                int fo = i * d;
                double c = scale * TopEigen.dot(xs, xo, f, fo, d);
                for (int t = 0; t < d; t++) {
                    ys[xo + t] += c * f[fo + t];
                }
            }
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
