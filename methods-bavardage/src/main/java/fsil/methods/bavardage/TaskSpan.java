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
 * <p>Instead of a thin SVD of X^T (D x N) it factorises the N x N Gram matrix X X^T by a Cholesky decomposition with
 * diagonal pivoting (LAPACK's dpstrf rule: the next pivot is the row farthest from the span of the rows already
 * chosen), which costs N r^2 / 2 after the Gram matrix: C is the N x r factor (C C^T = X X^T) and the pivot rows
 * X_p, whose r x r block of C is lower triangular, give U = X_p^T C_p^-T by one triangular solve. The basis and
 * the coordinates differ from an SVD's by a rotation inside the span, which changes nothing downstream: the
 * restricted whitening's rotated rows C W are the same for any orthonormal basis of the span (the eigenvectors W
 * of U^T S_w^-1 U rotate with it), and soft k-means and the PLDA + VB loop depend on distances only.
 *
 * <p>Rank: a row whose squared distance to the span of the pivot rows is at most {@value #RELATIVE_TOLERANCE}
 * times the largest squared row norm adds no direction (it extends less than 1e-5 of the largest row there,
 * below float32 feature precision; keeping it would only amplify rounding). So r is the numerical rank (N when
 * N &lt;= D and the samples are in general position, at most D).
 *
 * @param rows   N
 * @param dim    D
 * @param rank   r
 * @param coords row-major N x r coordinates C
 * @param basis  row-major D x r orthonormal basis U (null when not requested)
 */
record TaskSpan(int rows, int dim, int rank, double[] coords, double[] basis) {
    /** Relative threshold on the pivots (squared distances to the span so far) below which rows add no direction. */
    static final double RELATIVE_TOLERANCE = 1e-10;

    static TaskSpan of(double[] x, int n, int d) {
        return of(x, n, d, true);
    }

    /** As {@link #of(double[], int, int)}; without {@code withBasis} only the coordinates are computed. */
    static TaskSpan of(double[] x, int n, int d, boolean withBasis) {
        double[] g = gram(x, n, d);
        // pivoted Cholesky, outer-product form; lc holds the factor column by column (lc[k * n + i] = C[i][k]) so
        // that every update is an axpy over the N rows
        double[] rest = new double[n];
        double max = 0;
        for (int i = 0; i < n; i++) {
            rest[i] = g[i * n + i];
            max = Math.max(max, rest[i]);
        }
        double[] lc = new double[n * n];
        int[] pivot = new int[n];
        boolean[] used = new boolean[n];
        double[] v = new double[n];
        int r = 0;
        double threshold = RELATIVE_TOLERANCE * max;
        while (r < n && max > Double.MIN_NORMAL) {
            int p = -1;
            double best = threshold;
            for (int i = 0; i < n; i++) {
                if (!used[i] && rest[i] > best) {
                    best = rest[i];
                    p = i;
                }
            }
            if (p < 0) {
                break;
            }
            used[p] = true;
            pivot[r] = p;
            // v = G[:, p] - sum_j C[:, j] C[p, j]
            System.arraycopy(g, p * n, v, 0, n);
            for (int j = 0; j < r; j++) {
                double cpj = lc[j * n + p];
                if (cpj == 0) {
                    continue;
                }
                int jo = j * n;
                for (int i = 0; i < n; i++) {
                    v[i] -= cpj * lc[jo + i];
                }
            }
            double lpp = Math.sqrt(rest[p]);
            double inv = 1 / lpp;
            int ro = r * n;
            for (int i = 0; i < n; i++) {
                if (!used[i]) {
                    double c = v[i] * inv;
                    lc[ro + i] = c;
                    rest[i] -= c * c;
                }
            }
            lc[ro + p] = lpp;
            rest[p] = 0;
            r++;
        }
        double[] l = new double[n * n];
        for (int k = 0; k < r; k++) {
            for (int i = 0; i < n; i++) {
                l[i * n + k] = lc[k * n + i];
            }
        }
        double[] c = new double[n * r];
        for (int i = 0; i < n; i++) {
            System.arraycopy(l, i * n, c, i * r, r);
        }
        if (!withBasis) {
            return new TaskSpan(n, d, r, c, null);
        }
        // U^T = C_p^-1 X_p by forward substitution with the lower-triangular r x r block C_p of the pivot rows
        // (r x d right-hand sides, the pivot rows of X), then transposed
        double[] cp = new double[r * r];
        double[] ut = new double[r * d];
        for (int k = 0; k < r; k++) {
            System.arraycopy(l, pivot[k] * n, cp, k * r, k + 1);
            System.arraycopy(x, pivot[k] * d, ut, k * d, d);
        }
        Whitening.forwardSubstitution(cp, r, ut, d);
        double[] u = new double[d * r];
        for (int k = 0; k < r; k++) {
            for (int t = 0; t < d; t++) {
                u[t * r + k] = ut[k * d + t];
            }
        }
        return new TaskSpan(n, d, r, c, u);
    }

    /**
     * X X^T (N x N, symmetric): the inner products of the columns of X^T, as rank-1 updates over the D columns of X
     * (each an axpy over N), by {@link Whitening#innerProduct}.
     */
    static double[] gram(double[] x, int n, int d) {
        double[] xt = new double[d * n];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                xt[t * n + i] = x[i * d + t];
            }
        }
        return Whitening.innerProduct(xt, d, n);
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
