package fsil.methods.ppca;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The row-array kernels of the Krylov solver give the plain loops' results bit for bit (sums in ascending order,
 * evaluated left to right), for sizes that exercise the blocked parts and the remainders; the prepared operator
 * equals the EJML products it replaced.
 */
class RowKernelsTest {
    private static double[][] random(int r, int c, long seed) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        double[][] a = new double[r][c];
        for (double[] row : a) {
            for (int i = 0; i < c; i++) {
                row[i] = rng.nextDouble() * 2 - 1;
            }
        }
        return a;
    }

    private static double[] flat(double[][] a) {
        int c = a.length == 0 ? 0 : a[0].length;
        double[] f = new double[a.length * c];
        for (int i = 0; i < a.length; i++) {
            System.arraycopy(a[i], 0, f, i * c, c);
        }
        return f;
    }

    @ParameterizedTest(name = "rows={0} d={1}")
    @CsvSource({"1, 1", "3, 5", "4, 8", "7, 13", "16, 64", "37, 91"})
    void kernelsEqualThePlainLoopsBitForBit(int r, int d) {
        double[][] f = random(r, d, r * 100L + d);
        double[][] x = random(2, d, 7);
        double[] fFlat = flat(f);
        // transpose and rows
        double[][] cols = RowKernels.transpose(fFlat, r, d);
        for (int i = 0; i < r; i++) {
            assertArrayEquals(f[i], RowKernels.rows(fFlat, r, d)[i]);
            for (int t = 0; t < d; t++) {
                assertEquals(f[i][t], cols[t][i]);
            }
        }
        // project: p[i] = sum_t x[t] f_i[t]
        double[] p0 = new double[r];
        double[] p1 = new double[r];
        RowKernels.project(x[0], x[1], cols, d, r, p0, p1);
        for (int i = 0; i < r; i++) {
            double s0 = 0;
            double s1 = 0;
            for (int t = 0; t < d; t++) {
                s0 += x[0][t] * f[i][t];
                s1 += x[1][t] * f[i][t];
            }
            assertEquals(s0, p0[i]);
            assertEquals(s1, p1[i]);
        }
        // accumulate: y = sum_i (p[i] s) f_i
        double[] y0 = new double[d];
        double[] y1 = new double[d];
        RowKernels.accumulate(p0, p1, 0.37, f, r, d, y0, y1);
        double[] e0 = new double[d];
        double[] e1 = new double[d];
        for (int i = 0; i < r; i++) {
            double a = p0[i] * 0.37;
            double b = p1[i] * 0.37;
            for (int t = 0; t < d; t++) {
                e0[t] += a * f[i][t];
                e1[t] += b * f[i][t];
            }
        }
        assertArrayEquals(e0, y0);
        assertArrayEquals(e1, y1);
        double[] single = new double[d];
        RowKernels.accumulate(p0, p0, 0.37, f, r, d, single, null);
        assertArrayEquals(e0, single);
        // combination: EJML's row-reordered product c^T F (first term assigned, then added in order)
        double[] c = random(1, r, 3)[0];
        double[] comb = new double[d];
        RowKernels.combination(c, 0, 1.0, f, r, comb, d);
        DMatrixRMaj ejml = new DMatrixRMaj(1, d);
        if (d >= 15) {
            CommonOps_DDRM.mult(DMatrixRMaj.wrap(1, r, c.clone()), DMatrixRMaj.wrap(r, d, fFlat), ejml);
            assertArrayEquals(ejml.data, comb);
        }
        double[] plain = new double[d];
        for (int t = 0; t < d; t++) {
            plain[t] = c[0] * f[0][t];
        }
        for (int i = 1; i < r; i++) {
            for (int t = 0; t < d; t++) {
                plain[t] += c[i] * f[i][t];
            }
        }
        assertArrayEquals(plain, comb);
        // subtract: z -= sum_l c[l] f_l
        double[] z = x[0].clone();
        double[] expect = x[0].clone();
        RowKernels.subtract(z, c, 0, f, r, d);
        for (int i = 0; i < r; i++) {
            for (int t = 0; t < d; t++) {
                expect[t] -= c[i] * f[i][t];
            }
        }
        assertArrayEquals(expect, z);
        // dots: EJML's multTransB
        double[][] a = random(3, d, 11);
        double[] out = new double[3 * r];
        RowKernels.dots(a, 3, f, r, d, out, r);
        DMatrixRMaj ref = new DMatrixRMaj(3, r);
        CommonOps_DDRM.multTransB(DMatrixRMaj.wrap(3, d, flat(a)), DMatrixRMaj.wrap(r, d, fFlat), ref);
        assertArrayEquals(ref.data, out);
    }

    @ParameterizedTest(name = "rows={0} d={1}")
    @CsvSource({"5, 20", "30, 16", "40, 64"})
    void operatorAppliesTheCovariance(int r, int d) {
        double[][] f = random(r, d, 5);
        DMatrixRMaj factor = DMatrixRMaj.wrap(r, d, flat(f));
        Scatter factored = new Scatter(d, factor, null, 0.25);
        Scatter dense = Scatter.ofDense(factored.toDense());
        double[][] x = random(3, d, 9);
        double[][] yf = new double[3][d];
        double[][] yd = new double[3][d];
        factored.operator().apply(x, 3, yf);
        dense.operator().apply(x, 3, yd);
        DMatrixRMaj expected = new DMatrixRMaj(3, d);
        CommonOps_DDRM.mult(DMatrixRMaj.wrap(3, d, flat(x)), factored.toDense(), expected);
        for (int j = 0; j < 3; j++) {
            for (int t = 0; t < d; t++) {
                double e = expected.data[j * d + t];
                assertEquals(e, yf[j][t], 1e-12 * (1 + Math.abs(e)));
                assertEquals(e, yd[j][t], 1e-12 * (1 + Math.abs(e)));
            }
        }
    }
}
