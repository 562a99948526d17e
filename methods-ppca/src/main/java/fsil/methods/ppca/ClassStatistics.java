package fsil.methods.ppca;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Exact streaming moments of one class, in float64: the count n, the mean m and the centred scatter
 * M2 = sum_i (x_i - m)(x_i - m)^T.
 *
 * <p>A chunk's own moments come from a two-pass centred product; chunks are combined with the pairwise update of
 * Chan, Golub and LeVeque (1979): n = n_a + n_b, delta = m_b - m_a, m = m_a + delta n_b / n,
 * M2 = M2_a + M2_b + (n_a n_b / n) delta delta^T. Raw moments (sum x x^T) are never accumulated, so a large common
 * offset of the features does not cancel catastrophically.
 *
 * <p>M2 is kept in square-root form while that is smaller: factor rows F (r x d) with F^T F = M2 -- a chunk's
 * centred rows, and one row sqrt(n_a n_b / n) delta per merge, so a merge only appends rows. Once F would have more
 * than d rows, M2 is stored as a dense d x d matrix. Either form is exact; the factor also lets the eigen solvers
 * work with the n x n Gram matrix instead of the d x d covariance when n &lt; d.
 */
final class ClassStatistics {
    /** Rows per block when a large chunk is accumulated straight into a dense scatter. */
    private static final int BLOCK_ROWS = 256;

    private final int dim;
    private long count;
    private final double[] mean;
    /** r x d with factor^T factor = M2, or null when {@link #dense} holds M2. */
    private DMatrixRMaj factor;
    /** d x d M2, or null while the factor form is used. */
    private DMatrixRMaj dense;

    private ClassStatistics(int dim, long count, double[] mean, DMatrixRMaj factor, DMatrixRMaj dense) {
        this.dim = dim;
        this.count = count;
        this.mean = mean;
        this.factor = factor;
        this.dense = dense;
    }

    /**
     * Moments of the given rows of a row-major float matrix with {@code dim} columns (two passes: the mean, then
     * the centred rows).
     */
    static ClassStatistics ofRows(float[] x, int dim, int[] rows, int from, int to) {
        int n = to - from;
        if (n <= 0) {
            throw new IllegalArgumentException("a chunk needs at least one row");
        }
        double[] mean = new double[dim];
        for (int i = from; i < to; i++) {
            int off = rows[i] * dim;
            for (int j = 0; j < dim; j++) {
                mean[j] += x[off + j];
            }
        }
        for (int j = 0; j < dim; j++) {
            mean[j] /= n;
        }
        if (n <= dim) {
            DMatrixRMaj f = new DMatrixRMaj(n, dim);
            centre(x, dim, rows, from, to, mean, f.data);
            return new ClassStatistics(dim, n, mean, f, null);
        }
        DMatrixRMaj m2 = new DMatrixRMaj(dim, dim);
        DMatrixRMaj block = new DMatrixRMaj(BLOCK_ROWS, dim);
        for (int b = from; b < to; b += BLOCK_ROWS) {
            int e = Math.min(to, b + BLOCK_ROWS);
            block.reshape(e - b, dim);
            centre(x, dim, rows, b, e, mean, block.data);
            CommonOps_DDRM.multAddTransA(block, block, m2);
        }
        return new ClassStatistics(dim, n, mean, null, m2);
    }

    private static void centre(float[] x, int dim, int[] rows, int from, int to, double[] mean, double[] out) {
        for (int i = from; i < to; i++) {
            int src = rows[i] * dim;
            int dst = (i - from) * dim;
            for (int j = 0; j < dim; j++) {
                out[dst + j] = x[src + j] - mean[j];
            }
        }
    }

    /**
     * The moments a finalised rank-k model stands for: mean m, and M2 approximated by
     * sum_i (n - ddof) d_i l_i l_i^T over its k kept eigenpairs (the variance outside them is lost).
     *
     * @param basis     k x d row-major orthonormal rows l_i
     * @param variances the k covariance eigenvalues d_i
     */
    static ClassStatistics ofLowRank(int dim, long count, double[] mean, double[] basis, double[] variances,
                                     double ddof) {
        int k = variances.length;
        DMatrixRMaj f = new DMatrixRMaj(k, dim);
        double dof = count - ddof;
        for (int i = 0; i < k; i++) {
            double s = Math.sqrt(Math.max(0, variances[i] * dof));
            for (int j = 0; j < dim; j++) {
                f.data[i * dim + j] = s * basis[i * dim + j];
            }
        }
        return new ClassStatistics(dim, count, mean.clone(), f, null);
    }

    /** An independent copy. */
    ClassStatistics copy() {
        return new ClassStatistics(dim, count, mean.clone(), factor == null ? null : factor.copy(),
                dense == null ? null : dense.copy());
    }

    /** Adds the moments of {@code other} (Chan et al.); {@code other} is not modified. */
    void merge(ClassStatistics other) {
        if (other.dim != dim) {
            throw new IllegalArgumentException("dimension " + other.dim + " != " + dim);
        }
        long na = count;
        long nb = other.count;
        long n = na + nb;
        double[] delta = new double[dim];
        for (int j = 0; j < dim; j++) {
            delta[j] = other.mean[j] - mean[j];
        }
        double shift = (double) nb / n;
        for (int j = 0; j < dim; j++) {
            mean[j] += delta[j] * shift;
        }
        double c = Math.sqrt((double) na * nb / n);
        for (int j = 0; j < dim; j++) {
            delta[j] *= c;
        }
        count = n;
        if (factor != null && other.factor != null && factor.numRows + other.factor.numRows + 1 <= dim) {
            int ra = factor.numRows;
            int rb = other.factor.numRows;
            DMatrixRMaj f = new DMatrixRMaj(ra + rb + 1, dim);
            System.arraycopy(factor.data, 0, f.data, 0, ra * dim);
            System.arraycopy(other.factor.data, 0, f.data, ra * dim, rb * dim);
            System.arraycopy(delta, 0, f.data, (ra + rb) * dim, dim);
            factor = f;
            return;
        }
        DMatrixRMaj m2 = scatterMatrix();
        other.addScatterTo(m2);
        for (int i = 0; i < dim; i++) {
            double di = delta[i];
            int off = i * dim;
            for (int j = 0; j < dim; j++) {
                m2.data[off + j] += di * delta[j];
            }
        }
        dense = m2;
        factor = null;
    }

    /** M2 as a new dense d x d matrix (or this object's own dense matrix when that is the stored form). */
    private DMatrixRMaj scatterMatrix() {
        if (dense != null) {
            return dense;
        }
        DMatrixRMaj m2 = new DMatrixRMaj(dim, dim);
        CommonOps_DDRM.multAddTransA(factor, factor, m2);
        return m2;
    }

    private void addScatterTo(DMatrixRMaj m2) {
        if (dense != null) {
            CommonOps_DDRM.addEquals(m2, dense);
        } else {
            CommonOps_DDRM.multAddTransA(factor, factor, m2);
        }
    }

    long count() {
        return count;
    }

    int dimension() {
        return dim;
    }

    /** The mean (a copy). */
    double[] mean() {
        return mean.clone();
    }

    /**
     * The covariance M2 / (n - ddof) as an operator for the eigen solvers (sharing this object's arrays; valid until
     * the next merge).
     */
    Scatter covariance(double ddof) {
        double dof = count - ddof;
        double scale = dof > 0 ? 1.0 / dof : 0.0;
        return new Scatter(dim, factor, dense, scale);
    }

    /** The dense scatter M2 (a new matrix), for tests and the explicit reference scorers. */
    DMatrixRMaj scatterCopy() {
        return dense != null ? dense.copy() : scatterMatrix();
    }

    /** Bytes of the arrays this object keeps. */
    long memoryBytes() {
        long stored = dense != null ? (long) dim * dim : (long) factor.numRows * dim;
        return 8L * (stored + dim) + 64;
    }

    /** Rows of the square-root factor, or -1 when M2 is stored densely. */
    int factorRows() {
        return factor == null ? -1 : factor.numRows;
    }
}
