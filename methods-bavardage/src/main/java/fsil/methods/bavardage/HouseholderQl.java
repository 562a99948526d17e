package fsil.methods.bavardage;

/**
 * Eigendecomposition of a dense symmetric matrix by Householder reduction to tridiagonal form with the
 * transformations accumulated, then the implicit QL algorithm with shifts on the tridiagonal matrix (the EISPACK
 * procedures tred2 and tql2, Wilkinson and Reinsch, Handbook for Automatic Computation II, 1971; the formulation
 * of the public-domain JAMA library), with one change: a subdiagonal entry counts as zero when it is below machine
 * epsilon times the norm of the tridiagonal matrix (see {@code ql}).
 *
 * <p>The accumulated orthogonal matrix is stored transposed, one eigenvector per row, so that every inner loop of
 * both stages (the Householder updates and the plane rotations of the QL sweeps) runs over contiguous memory.
 * For the N x N matrices BAVARDAGE decomposes per task (N = 80-100) this is several times faster than EJML's
 * symmetric QR algorithm, whose rotation updates stride across rows.
 */
final class HouseholderQl {
    /** Iterations of the QL sweep allowed per eigenvalue before giving up (typically 1-3 are needed). */
    private static final int MAX_ITERATIONS_PER_VALUE = 60;

    private HouseholderQl() {
    }

    /**
     * @param a row-major n x n symmetric matrix (only read)
     * @param n order
     * @param values out: the n eigenvalues (unsorted)
     * @param rows   out: rows[i] is the unit eigenvector of values[i]
     * @return false when the QL iteration did not converge (the outputs are then undefined)
     */
    static boolean decompose(double[] a, int n, double[] values, double[][] rows) {
        double[][] w = rows;
        for (int i = 0; i < n; i++) {
            System.arraycopy(a, i * n, w[i], 0, n);
        }
        double[] d = values;
        double[] e = new double[n];
        tridiagonalise(w, n, d, e);
        return ql(w, n, d, e);
    }

    /**
     * tred2 on W = V^T: on return d is the diagonal, e[1..n-1] the subdiagonal of the tridiagonal matrix and row i
     * of w the i-th column of the accumulated transformation (transposed storage).
     */
    private static void tridiagonalise(double[][] w, int n, double[] d, double[] e) {
        if (n == 0) {
            return;
        }
        for (int j = 0; j < n; j++) {
            d[j] = w[j][n - 1];
        }
        for (int i = n - 1; i > 0; i--) {
            double scale = 0;
            double h = 0;
            for (int k = 0; k < i; k++) {
                scale += Math.abs(d[k]);
            }
            if (scale == 0) {
                e[i] = d[i - 1];
                for (int j = 0; j < i; j++) {
                    d[j] = w[j][i - 1];
                    w[j][i] = 0;
                    w[i][j] = 0;
                }
            } else {
                for (int k = 0; k < i; k++) {
                    d[k] /= scale;
                    h += d[k] * d[k];
                }
                double f = d[i - 1];
                double g = Math.sqrt(h);
                if (f > 0) {
                    g = -g;
                }
                e[i] = scale * g;
                h -= f * g;
                d[i - 1] = f - g;
                for (int j = 0; j < i; j++) {
                    e[j] = 0;
                }
                for (int j = 0; j < i; j++) {
                    double[] wj = w[j];
                    f = d[j];
                    w[i][j] = f;
                    for (int k = j + 1; k <= i - 1; k++) {
                        e[k] += wj[k] * f;
                    }
                    e[j] = e[j] + wj[j] * f + dot(wj, d, j + 1, i);
                }
                f = 0;
                for (int j = 0; j < i; j++) {
                    e[j] /= h;
                    f += e[j] * d[j];
                }
                double hh = f / (h + h);
                for (int j = 0; j < i; j++) {
                    e[j] -= hh * d[j];
                }
                for (int j = 0; j < i; j++) {
                    double[] wj = w[j];
                    f = d[j];
                    g = e[j];
                    for (int k = j; k <= i - 1; k++) {
                        wj[k] -= f * e[k] + g * d[k];
                    }
                    d[j] = wj[i - 1];
                    wj[i] = 0;
                }
            }
            d[i] = h;
        }
        // accumulate the transformations
        for (int i = 0; i < n - 1; i++) {
            double[] wi = w[i];
            double[] wi1 = w[i + 1];
            wi[n - 1] = wi[i];
            wi[i] = 1;
            double h = d[i + 1];
            if (h != 0) {
                for (int k = 0; k <= i; k++) {
                    d[k] = wi1[k] / h;
                }
                for (int j = 0; j <= i; j++) {
                    double[] wj = w[j];
                    double g = dot(wi1, wj, 0, i + 1);
                    for (int k = 0; k <= i; k++) {
                        wj[k] -= g * d[k];
                    }
                }
            }
            for (int k = 0; k <= i; k++) {
                wi1[k] = 0;
            }
        }
        for (int j = 0; j < n; j++) {
            d[j] = w[j][n - 1];
            w[j][n - 1] = 0;
        }
        w[n - 1][n - 1] = 1;
        e[0] = 0;
    }

    /** tql2 on the transposed accumulation: rotations combine two contiguous rows of w. */
    private static boolean ql(double[][] w, int n, double[] d, double[] e) {
        if (n == 0) {
            return true;
        }
        for (int i = 1; i < n; i++) {
            e[i - 1] = e[i];
        }
        e[n - 1] = 0;
        double f = 0;
        // Negligible off-diagonal entries are judged against the norm of the whole tridiagonal matrix, not against
        // the running maximum of EISPACK's tql2: after the reduction of a nearly low-rank matrix the leading entries
        // can be subnormal (1e-323), and rotations built from them are not orthogonal.
        double tst1 = 0;
        for (int i = 0; i < n; i++) {
            tst1 = Math.max(tst1, Math.abs(d[i]) + Math.abs(e[i]));
        }
        double eps = 0x1.0p-52;
        for (int l = 0; l < n; l++) {
            int m = l;
            while (m < n) {
                if (Math.abs(e[m]) <= eps * tst1) {
                    break;
                }
                m++;
            }
            if (m > l) {
                int iter = 0;
                do {
                    if (++iter > MAX_ITERATIONS_PER_VALUE) {
                        return false;
                    }
                    double g = d[l];
                    double p = (d[l + 1] - g) / (2 * e[l]);
                    double r = Math.hypot(p, 1);
                    if (p < 0) {
                        r = -r;
                    }
                    d[l] = e[l] / (p + r);
                    d[l + 1] = e[l] * (p + r);
                    double dl1 = d[l + 1];
                    double h = g - d[l];
                    for (int i = l + 2; i < n; i++) {
                        d[i] -= h;
                    }
                    f += h;
                    p = d[m];
                    double c = 1;
                    double c2 = c;
                    double c3 = c;
                    double el1 = e[l + 1];
                    double s = 0;
                    double s2 = 0;
                    for (int i = m - 1; i >= l; i--) {
                        c3 = c2;
                        c2 = c;
                        s2 = s;
                        g = c * e[i];
                        h = c * p;
                        r = Math.hypot(p, e[i]);
                        e[i + 1] = s * r;
                        s = e[i] / r;
                        c = p / r;
                        p = c * d[i] - s * g;
                        d[i + 1] = h + s * (c * g + s * d[i]);
                        double[] wi = w[i];
                        double[] wi1 = w[i + 1];
                        for (int k = 0; k < n; k++) {
                            double t = wi1[k];
                            wi1[k] = s * wi[k] + c * t;
                            wi[k] = c * wi[k] - s * t;
                        }
                    }
                    p = -s * s2 * c3 * el1 * e[l] / dl1;
                    e[l] = s * p;
                    d[l] = c * p;
                } while (Math.abs(e[l]) > eps * tst1);
            }
            d[l] += f;
            e[l] = 0;
        }
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(d[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * sum_{k in [from, to)} a[k] b[k] with four partial sums (independent additions instead of one dependent chain;
     * the loop is then limited by throughput, not by the latency of each addition).
     */
    static double dot(double[] a, double[] b, int from, int to) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int k = from;
        for (; k + 3 < to; k += 4) {
            s0 += a[k] * b[k];
            s1 += a[k + 1] * b[k + 1];
            s2 += a[k + 2] * b[k + 2];
            s3 += a[k + 3] * b[k + 3];
        }
        for (; k < to; k++) {
            s0 += a[k] * b[k];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
