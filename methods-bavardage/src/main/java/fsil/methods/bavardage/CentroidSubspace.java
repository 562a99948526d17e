package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.qr.QRColPivDecompositionHouseholderColumn_DDRM;

/**
 * The between-class part of the PLDA step (paper Eq. 8-10; the authors' {@code Basic_ADR.pLDA}), re-estimated at
 * every VB iteration from the current responsibilities r:
 * <ol>
 *   <li>shrunk centroids c_k = sum_n r_nk y_n / (N_k + gamma) with N_k = sum_n r_nk (support included);</li>
 *   <li>an orthonormal basis P of span{c_k - c_1, k = 2..K}, at most K-1 columns;</li>
 *   <li>projection z_n = P^T y_n.</li>
 * </ol>
 * The paper takes the K-1 leading eigenvectors of the between-class scatter sum_k (c_k - cbar)(c_k - cbar)^T; its
 * range is exactly span{c_k - c_1}, and the isotropic VB model that follows is invariant to rotations inside that
 * subspace, so a basis from a column-pivoted Householder QR (EJML) gives the same results, as in the authors'
 * code. The pivoted QR also reveals the rank: when the centroid differences are linearly dependent (K-1 larger
 * than the dimension, or coinciding centroids) P has fewer columns, where the code would keep arbitrary extra
 * directions.
 *
 * @param dim       dimension p of the data y
 * @param rank      number q of columns of P
 * @param basis     row-major p x q, orthonormal columns
 * @param centroids row-major K x p shrunk centroids
 */
record CentroidSubspace(int dim, int rank, double[] basis, double[] centroids) {
    /** Columns whose pivoted-QR diagonal is below this fraction of the largest entry count as dependent. */
    static final double RANK_TOLERANCE = 1e-10;

    static CentroidSubspace fit(double[] y, int n, int p, double[] r, int k, double gamma) {
        double[] c = new double[k * p];
        double[] nk = new double[k];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < k; j++) {
                double w = r[i * k + j];
                if (w == 0) {
                    continue;
                }
                nk[j] += w;
                int co = j * p;
                int yo = i * p;
                for (int t = 0; t < p; t++) {
                    c[co + t] += w * y[yo + t];
                }
            }
        }
        for (int j = 0; j < k; j++) {
            double inv = 1 / (nk[j] + gamma);
            for (int t = 0; t < p; t++) {
                c[j * p + t] *= inv;
            }
        }
        return new CentroidSubspace(p, 0, new double[0], c).withBasisOfDifferences(k);
    }

    private CentroidSubspace withBasisOfDifferences(int k) {
        int p = dim;
        int m = k - 1;
        if (m == 0 || p == 0) {
            return new CentroidSubspace(p, 0, new double[0], centroids);
        }
        DMatrixRMaj diff = new DMatrixRMaj(p, m);
        double maxAbs = 0;
        for (int j = 0; j < m; j++) {
            for (int t = 0; t < p; t++) {
                double v = centroids[(j + 1) * p + t] - centroids[t];
                diff.set(t, j, v);
                maxAbs = Math.max(maxAbs, Math.abs(v));
            }
        }
        double scale = 0;
        for (double v : centroids) {
            scale = Math.max(scale, Math.abs(v));
        }
        if (maxAbs == 0 || maxAbs <= 1e-14 * scale) {
            // all centroids coincide (to rounding): no between-class direction
            return new CentroidSubspace(p, 0, new double[0], centroids);
        }
        QRColPivDecompositionHouseholderColumn_DDRM qrp =
                new QRColPivDecompositionHouseholderColumn_DDRM(RANK_TOLERANCE);
        if (!qrp.decompose(diff)) {
            throw new ArithmeticException("QR of the " + p + " x " + m + " centroid differences failed");
        }
        int q = qrp.getRank();
        DMatrixRMaj qm = qrp.getQ(null, true);
        double[] basis = new double[p * q];
        for (int t = 0; t < p; t++) {
            for (int j = 0; j < q; j++) {
                basis[t * q + j] = qm.get(t, j);
            }
        }
        return new CentroidSubspace(p, q, basis, centroids);
    }

    /** z = Y P (N x q). */
    double[] project(double[] y, int n) {
        int p = dim;
        int q = rank;
        double[] z = new double[n * q];
        for (int i = 0; i < n; i++) {
            int yo = i * p;
            for (int t = 0; t < p; t++) {
                double v = y[yo + t];
                if (v == 0) {
                    continue;
                }
                int bo = t * q;
                for (int j = 0; j < q; j++) {
                    z[i * q + j] += v * basis[bo + j];
                }
            }
        }
        return z;
    }

    /**
     * z = Y P (N x q) from the transposed data Y^T (p x N, row-major): for each column of P an accumulation of
     * rows of Y^T (axpy over the N samples), the same products as {@link #project} in another order.
     */
    double[] projectTransposed(double[] yt, int n) {
        int p = dim;
        int q = rank;
        double[] zt = new double[q * n];
        for (int j = 0; j < q; j++) {
            int zo = j * n;
            for (int t = 0; t < p; t++) {
                double b = basis[t * q + j];
                if (b == 0) {
                    continue;
                }
                int yo = t * n;
                for (int i = 0; i < n; i++) {
                    zt[zo + i] += b * yt[yo + i];
                }
            }
        }
        double[] z = new double[n * q];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < q; j++) {
                z[i * q + j] = zt[j * n + i];
            }
        }
        return z;
    }
}
