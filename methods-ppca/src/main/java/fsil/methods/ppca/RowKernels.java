package fsil.methods.ppca;

/**
 * The dense kernels of the Krylov solver on matrices stored as one array per row. The JIT turns their inner loops
 * into vector instructions, which it does not do for the same loops over an offset into one flat row-major array
 * (JDK 17). Every kernel forms each output as a plain sum in ascending index order, evaluated left to right (blocks
 * of four terms are written out, not re-associated). The results are therefore those of the straightforward loops
 * and of the EJML products they replace, bit for bit.
 */
final class RowKernels {
    private RowKernels() {
    }

    /** The rows of a flat row-major r x c matrix, copied into r arrays. */
    static double[][] rows(double[] flat, int r, int c) {
        double[][] out = new double[r][];
        for (int i = 0; i < r; i++) {
            out[i] = java.util.Arrays.copyOfRange(flat, i * c, (i + 1) * c);
        }
        return out;
    }

    /** The columns of a flat row-major r x c matrix: c arrays of length r (the transpose), copied in tiles. */
    static double[][] transpose(double[] flat, int r, int c) {
        double[][] out = new double[c][r];
        final int tile = 16;
        for (int i0 = 0; i0 < r; i0 += tile) {
            int i1 = Math.min(r, i0 + tile);
            for (int t = 0; t < c; t++) {
                double[] col = out[t];
                for (int i = i0; i < i1; i++) {
                    col[i] = flat[i * c + t];
                }
            }
        }
        return out;
    }

    /**
     * p0[i] = sum_t x0[t] F[i][t] and p1[i] = sum_t x1[t] F[i][t] for i &lt; r, given the columns of F
     * ({@code columns[t][i] = F[i][t]}, t &lt; d): each a sum over ascending t.
     */
    static void project(double[] x0, double[] x1, double[][] columns, int d, int r, double[] p0, double[] p1) {
        java.util.Arrays.fill(p0, 0, r, 0.0);
        java.util.Arrays.fill(p1, 0, r, 0.0);
        int t = 0;
        for (; t + 4 <= d; t += 4) {
            double[] c0 = columns[t];
            double[] c1 = columns[t + 1];
            double[] c2 = columns[t + 2];
            double[] c3 = columns[t + 3];
            double a0 = x0[t];
            double a1 = x0[t + 1];
            double a2 = x0[t + 2];
            double a3 = x0[t + 3];
            double b0 = x1[t];
            double b1 = x1[t + 1];
            double b2 = x1[t + 2];
            double b3 = x1[t + 3];
            for (int i = 0; i < r; i++) {
                double f0 = c0[i];
                double f1 = c1[i];
                double f2 = c2[i];
                double f3 = c3[i];
                p0[i] = p0[i] + a0 * f0 + a1 * f1 + a2 * f2 + a3 * f3;
                p1[i] = p1[i] + b0 * f0 + b1 * f1 + b2 * f2 + b3 * f3;
            }
        }
        for (; t < d; t++) {
            double[] c0 = columns[t];
            double a0 = x0[t];
            double b0 = x1[t];
            for (int i = 0; i < r; i++) {
                p0[i] = p0[i] + a0 * c0[i];
                p1[i] = p1[i] + b0 * c0[i];
            }
        }
    }

    /**
     * y0 = sum_i (p0[i] s) F[i] and y1 = sum_i (p1[i] s) F[i] over ascending i &lt; r, from zero ({@code y1} may be
     * null).
     */
    static void accumulate(double[] p0, double[] p1, double s, double[][] rows, int r, int d, double[] y0,
                           double[] y1) {
        java.util.Arrays.fill(y0, 0, d, 0.0);
        if (y1 == null) {
            for (int i = 0; i < r; i++) {
                axpy(p0[i] * s, rows[i], y0, d);
            }
            return;
        }
        java.util.Arrays.fill(y1, 0, d, 0.0);
        int i = 0;
        for (; i + 4 <= r; i += 4) {
            double[] f0 = rows[i];
            double[] f1 = rows[i + 1];
            double[] f2 = rows[i + 2];
            double[] f3 = rows[i + 3];
            double a0 = p0[i] * s;
            double a1 = p0[i + 1] * s;
            double a2 = p0[i + 2] * s;
            double a3 = p0[i + 3] * s;
            double b0 = p1[i] * s;
            double b1 = p1[i + 1] * s;
            double b2 = p1[i + 2] * s;
            double b3 = p1[i + 3] * s;
            for (int t = 0; t < d; t++) {
                double v0 = f0[t];
                double v1 = f1[t];
                double v2 = f2[t];
                double v3 = f3[t];
                y0[t] = y0[t] + a0 * v0 + a1 * v1 + a2 * v2 + a3 * v3;
                y1[t] = y1[t] + b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3;
            }
        }
        for (; i < r; i++) {
            double[] f0 = rows[i];
            double a0 = p0[i] * s;
            double b0 = p1[i] * s;
            for (int t = 0; t < d; t++) {
                y0[t] = y0[t] + a0 * f0[t];
                y1[t] = y1[t] + b0 * f0[t];
            }
        }
    }

    /** y += a x over the first d entries. */
    private static void axpy(double a, double[] x, double[] y, int d) {
        for (int t = 0; t < d; t++) {
            y[t] = y[t] + a * x[t];
        }
    }

    /**
     * out = sum_k (s c[k]) rows[k] for k &lt; count, the first term assigned and the others added in ascending k
     * (the order of EJML's row-reordered product); the first {@code d} entries of {@code out} are written.
     */
    static void combination(double[] c, int cOffset, double s, double[][] rows, int count, double[] out) {
        int d = out.length;
        combination(c, cOffset, s, rows, count, out, d);
    }

    /** As {@link #combination(double[], int, double, double[][], int, double[])} over the first {@code d} entries. */
    static void combination(double[] c, int cOffset, double s, double[][] rows, int count, double[] out, int d) {
        if (count == 0) {
            java.util.Arrays.fill(out, 0, d, 0.0);
            return;
        }
        double a = s * c[cOffset];
        double[] r0 = rows[0];
        for (int t = 0; t < d; t++) {
            out[t] = a * r0[t];
        }
        int k = 1;
        for (; k + 4 <= count; k += 4) {
            double[] f0 = rows[k];
            double[] f1 = rows[k + 1];
            double[] f2 = rows[k + 2];
            double[] f3 = rows[k + 3];
            double a0 = s * c[cOffset + k];
            double a1 = s * c[cOffset + k + 1];
            double a2 = s * c[cOffset + k + 2];
            double a3 = s * c[cOffset + k + 3];
            for (int t = 0; t < d; t++) {
                out[t] = out[t] + a0 * f0[t] + a1 * f1[t] + a2 * f2[t] + a3 * f3[t];
            }
        }
        for (; k < count; k++) {
            axpy(s * c[cOffset + k], rows[k], out, d);
        }
    }

    /** z -= sum_l c[cOffset + l] rows[l] for ascending l &lt; count, over the first d entries. */
    static void subtract(double[] z, double[] c, int cOffset, double[][] rows, int count, int d) {
        int l = 0;
        for (; l + 4 <= count; l += 4) {
            double[] f0 = rows[l];
            double[] f1 = rows[l + 1];
            double[] f2 = rows[l + 2];
            double[] f3 = rows[l + 3];
            double a0 = c[cOffset + l];
            double a1 = c[cOffset + l + 1];
            double a2 = c[cOffset + l + 2];
            double a3 = c[cOffset + l + 3];
            for (int t = 0; t < d; t++) {
                z[t] = z[t] - a0 * f0[t] - a1 * f1[t] - a2 * f2[t] - a3 * f3[t];
            }
        }
        for (; l < count; l++) {
            double a0 = c[cOffset + l];
            double[] f0 = rows[l];
            for (int t = 0; t < d; t++) {
                z[t] = z[t] - a0 * f0[t];
            }
        }
    }

    /**
     * out[i * stride + j] = a_i . b_j for i &lt; na, j &lt; nb: each a sum over ascending t &lt; d from zero, two rows
     * of a against four of b at a time (eight independent sums).
     */
    static void dots(double[][] a, int na, double[][] b, int nb, int d, double[] out, int stride) {
        int i = 0;
        for (; i + 2 <= na; i += 2) {
            double[] x0 = a[i];
            double[] x1 = a[i + 1];
            int j = 0;
            for (; j + 4 <= nb; j += 4) {
                double[] y0 = b[j];
                double[] y1 = b[j + 1];
                double[] y2 = b[j + 2];
                double[] y3 = b[j + 3];
                double s00 = 0;
                double s01 = 0;
                double s02 = 0;
                double s03 = 0;
                double s10 = 0;
                double s11 = 0;
                double s12 = 0;
                double s13 = 0;
                for (int t = 0; t < d; t++) {
                    double u = x0[t];
                    double w = x1[t];
                    double v0 = y0[t];
                    double v1 = y1[t];
                    double v2 = y2[t];
                    double v3 = y3[t];
                    s00 += u * v0;
                    s01 += u * v1;
                    s02 += u * v2;
                    s03 += u * v3;
                    s10 += w * v0;
                    s11 += w * v1;
                    s12 += w * v2;
                    s13 += w * v3;
                }
                int o0 = i * stride + j;
                int o1 = o0 + stride;
                out[o0] = s00;
                out[o0 + 1] = s01;
                out[o0 + 2] = s02;
                out[o0 + 3] = s03;
                out[o1] = s10;
                out[o1 + 1] = s11;
                out[o1 + 2] = s12;
                out[o1 + 3] = s13;
            }
            for (; j < nb; j++) {
                out[i * stride + j] = dot(x0, b[j], d);
                out[(i + 1) * stride + j] = dot(x1, b[j], d);
            }
        }
        for (; i < na; i++) {
            for (int j = 0; j < nb; j++) {
                out[i * stride + j] = dot(a[i], b[j], d);
            }
        }
    }

    /** sum_t x[t] y[t] over ascending t &lt; d. */
    static double dot(double[] x, double[] y, int d) {
        double s = 0;
        for (int t = 0; t < d; t++) {
            s += x[t] * y[t];
        }
        return s;
    }
}
