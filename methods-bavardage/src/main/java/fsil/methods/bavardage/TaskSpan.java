package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;

/**
 * Step S of the code's preprocessing: the task's own sample span. For the N x D task matrix X (rows already
 * centred and normalised) it finds an orthonormal basis U (D x r) of the row span and the coordinates
 * C = X U (N x r): C C^T = X X^T, so norms and distances do not change. It is lossless for the rows, not for
 * the later whitening: the restricted precision U^T S_w^-1 U and the s_max clamp act in the r-dimensional span,
 * so which directions are kept matters once gains are clamped ({@link SpanBasis}; {@link #authors} keeps
 * min(N, D) as the authors' code does).
 *
 * <p>Instead of a thin SVD of X^T (D x N) it eigendecomposes the N x N Gram matrix X X^T = V diag(sigma^2) V^T,
 * which is cheaper for N &lt;&lt; D: C = V diag(sigma) and U = X^T V diag(1/sigma). Directions with
 * sigma_i^2 &lt;= {@value #RELATIVE_TOLERANCE} * sigma_max^2 are dropped: the data extends less than 1e-5 of its
 * largest extent there (below float32 feature precision), and keeping them would only amplify rounding. So r is
 * the numerical rank (N when N &lt;= D and the samples are in general position, at most D).
 *
 * @param rows   N
 * @param dim    D
 * @param rank   r
 * @param coords row-major N x r coordinates C
 * @param basis  row-major D x r orthonormal basis U (null when not requested)
 */
record TaskSpan(int rows, int dim, int rank, double[] coords, double[] basis) {
    /** Relative threshold on the Gram eigenvalues below which a direction is dropped. */
    static final double RELATIVE_TOLERANCE = 1e-10;

    static TaskSpan of(double[] x, int n, int d) {
        return of(x, n, d, true);
    }

    /** As {@link #of(double[], int, int)}; without {@code withBasis} only the coordinates are computed. */
    static TaskSpan of(double[] x, int n, int d, boolean withBasis) {
        DMatrixRMaj xm = DMatrixRMaj.wrap(n, d, x);
        DMatrixRMaj gram = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multOuter(xm, gram);
        SymmetricEigen e = SymmetricEigen.of(gram);
        double max = n == 0 ? 0 : e.values()[0];
        int r = 0;
        if (max > Double.MIN_NORMAL) {
            while (r < n && e.values()[r] > RELATIVE_TOLERANCE * max) {
                r++;
            }
        }
        double[] sigma = new double[r];
        for (int i = 0; i < r; i++) {
            sigma[i] = Math.sqrt(e.values()[i]);
        }
        double[] v = e.vectors();
        double[] c = new double[n * r];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < r; k++) {
                c[i * r + k] = v[i * n + k] * sigma[k];
            }
        }
        if (!withBasis) {
            return new TaskSpan(n, d, r, c, null);
        }
        // U = X^T V_r diag(1/sigma) (D x r)
        DMatrixRMaj scaled = new DMatrixRMaj(n, r);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < r; k++) {
                scaled.data[i * r + k] = v[i * n + k] / sigma[k];
            }
        }
        DMatrixRMaj um = new DMatrixRMaj(d, r);
        CommonOps_DDRM.multTransA(xm, scaled, um);
        double[] u = um.data;
        return new TaskSpan(n, d, r, c, u);
    }

    /**
     * The authors' basis ({@link SpanBasis#AUTHORS}): min(N, D) directions. The numerical span of
     * {@link #of(double[], int, int, boolean)} (r directions) is completed, when r &lt; min(N, D), with the
     * trailing columns of the full Q of a Householder QR of U (orthonormal, orthogonal to the rows); the rows'
     * coordinates along them are 0. With N &gt;= D the basis is all of R^D.
     */
    static TaskSpan authors(double[] x, int n, int d, boolean withBasis) {
        TaskSpan s = of(x, n, d, withBasis);
        int m = Math.min(n, d);
        int r = s.rank();
        if (r >= m) {
            return s;
        }
        double[] c = new double[n * m];
        for (int i = 0; i < n; i++) {
            System.arraycopy(s.coords(), i * r, c, i * m, r);
        }
        if (!withBasis) {
            return new TaskSpan(n, d, m, c, null);
        }
        double[] u = new double[d * m];
        DMatrixRMaj q;
        if (r == 0) {
            q = CommonOps_DDRM.identity(d);
        } else {
            QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(d, r);
            if (!qr.decompose(DMatrixRMaj.wrap(d, r, s.basis().clone()))) {
                throw new IllegalStateException("QR of the task span basis failed");
            }
            q = qr.getQ(null, false);
        }
        for (int j = 0; j < d; j++) {
            if (r > 0) {
                System.arraycopy(s.basis(), j * r, u, j * m, r);
            }
            for (int k = r; k < m; k++) {
                u[j * m + k] = q.get(j, k);
            }
        }
        return new TaskSpan(n, d, m, c, u);
    }
}
