package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Task span, restricted and global whitening, and the within-class scatter formulas. */
class WhiteningTest {

    static double[] gaussian(SplittableRandom rnd, int len) {
        double[] a = new double[len];
        for (int i = 0; i < len; i++) {
            double u = rnd.nextDouble();
            double v = rnd.nextDouble();
            a[i] = Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
        }
        return a;
    }

    /** A random symmetric positive definite d x d matrix with condition number around 1e3. */
    static DMatrixRMaj spd(SplittableRandom rnd, int d) {
        DMatrixRMaj a = DMatrixRMaj.wrap(d, d, gaussian(rnd, d * d));
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(a, a, s);
        for (int j = 0; j < d; j++) {
            s.add(j, j, 0.01 * d);
        }
        return s;
    }

    static DMatrixRMaj gram(double[] y, int n, int p) {
        DMatrixRMaj g = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(DMatrixRMaj.wrap(n, p, y), DMatrixRMaj.wrap(n, p, y), g);
        return g;
    }

    /** X S^-1 X^T via EJML's general solver (the reference, no whitening code involved). */
    private static DMatrixRMaj mahalanobisGram(double[] x, int n, int d, DMatrixRMaj s) {
        DMatrixRMaj xm = DMatrixRMaj.wrap(n, d, x);
        DMatrixRMaj xt = new DMatrixRMaj(d, n);
        CommonOps_DDRM.transpose(xm, xt);
        DMatrixRMaj z = new DMatrixRMaj(d, n);
        assertTrue(CommonOps_DDRM.solve(s, xt, z));
        DMatrixRMaj out = new DMatrixRMaj(n, n);
        CommonOps_DDRM.mult(xm, z, out);
        return out;
    }

    private static void assertMatrixEquals(DMatrixRMaj expected, DMatrixRMaj actual, double relTol) {
        double scale = 0;
        for (double v : expected.data) {
            scale = Math.max(scale, Math.abs(v));
        }
        assertArrayEquals(expected.data, actual.data, relTol * scale);
    }

    @Test
    void taskSpanIsALosslessChangeOfBasis() {
        SplittableRandom rnd = new SplittableRandom(1);
        int n = 12;
        int d = 30;
        double[] x = gaussian(rnd, n * d);
        TaskSpan s = TaskSpan.of(x, n, d);
        assertEquals(n, s.rank());
        assertMatrixEquals(gram(x, n, d), gram(s.coords(), n, s.rank()), 1e-12);
        // U^T U = I and X = C U^T
        DMatrixRMaj u = DMatrixRMaj.wrap(d, s.rank(), s.basis());
        DMatrixRMaj utu = new DMatrixRMaj(s.rank(), s.rank());
        CommonOps_DDRM.multTransA(u, u, utu);
        assertMatrixEquals(CommonOps_DDRM.identity(s.rank()), utu, 1e-12);
        DMatrixRMaj back = new DMatrixRMaj(n, d);
        CommonOps_DDRM.multTransB(DMatrixRMaj.wrap(n, s.rank(), s.coords()), u, back);
        assertArrayEquals(x, back.data, 1e-12);
    }

    @Test
    void taskSpanRankIsTheNumericalRank() {
        SplittableRandom rnd = new SplittableRandom(2);
        // more samples than dimensions
        double[] x = gaussian(rnd, 20 * 5);
        assertEquals(5, TaskSpan.of(x, 20, 5).rank());
        // duplicated rows
        double[] dup = gaussian(rnd, 6 * 10);
        System.arraycopy(dup, 0, dup, 10, 10);
        System.arraycopy(dup, 20, dup, 30, 10);
        TaskSpan s = TaskSpan.of(dup, 6, 10);
        assertEquals(4, s.rank());
        assertMatrixEquals(gram(dup, 6, 10), gram(s.coords(), 6, 4), 1e-12);
        // all rows at the origin
        assertEquals(0, TaskSpan.of(new double[12], 3, 4).rank());
    }

    @Test
    void forwardSubstitutionSolvesTheLowerTriangularSystem() {
        SplittableRandom rnd = new SplittableRandom(3);
        int d = 15;
        int r = 4;
        DMatrixRMaj l = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                l.set(i, j, i == j ? 1 + rnd.nextDouble() : rnd.nextDouble(-1, 1));
            }
        }
        double[] b = gaussian(rnd, d * r);
        double[] x = b.clone();
        Whitening.forwardSubstitution(l.data, d, x, r);
        DMatrixRMaj lx = new DMatrixRMaj(d, r);
        CommonOps_DDRM.mult(l, DMatrixRMaj.wrap(d, r, x), lx);
        assertArrayEquals(b, lx.data, 1e-12);
    }

    @Test
    void unclampedRestrictedWhiteningGivesTheMahalanobisGram() {
        SplittableRandom rnd = new SplittableRandom(4);
        int n = 9;
        int d = 14;
        double[] x = gaussian(rnd, n * d);
        DMatrixRMaj s = spd(rnd, d);
        BaseStatistics code = BaseStatistics.code(new double[d], s);
        Whitening.Result w = Whitening.restricted(TaskSpan.of(x, n, d), code, 1e12);
        assertEquals(0, w.clampedFraction(1e12));
        assertMatrixEquals(mahalanobisGram(x, n, d, s), gram(w.data(), n, w.dim()), 1e-9);
    }

    @Test
    void unclampedGlobalSpheringGivesTheSameGram() {
        // Without the clamp, the code's restricted whitening and the paper's global sphering agree on the Gram
        // matrix of the whitened task, hence on every later step.
        SplittableRandom rnd = new SplittableRandom(5);
        int n = 9;
        int d = 14;
        double[] x = gaussian(rnd, n * d);
        DMatrixRMaj s = spd(rnd, d);
        BaseStatistics paper = BaseStatistics.paper(new double[d], s);
        Whitening.Result w = Whitening.global(x, n, d, paper).clamp(1e12);
        assertMatrixEquals(mahalanobisGram(x, n, d, s), gram(w.data(), n, d), 1e-9);
    }

    @Test
    void gainsAreClampedAtSMax() {
        SplittableRandom rnd = new SplittableRandom(6);
        int n = 8;
        int d = 10;
        double[] x = gaussian(rnd, n * d);
        DMatrixRMaj s = spd(rnd, d);
        CommonOps_DDRM.scale(1e-6, s); // tiny scatter: every gain above the bound
        double sMax = 0.5;
        Whitening.Result code = Whitening.restricted(TaskSpan.of(x, n, d), BaseStatistics.code(new double[d], s), sMax);
        BaseStatistics paper = BaseStatistics.paper(new double[d], s);
        Whitening.Result glob = Whitening.global(x, n, d, paper).clamp(sMax);
        DMatrixRMaj expected = gram(x, n, d);
        CommonOps_DDRM.scale(sMax * sMax, expected);
        assertEquals(1.0, code.clampedFraction(sMax));
        assertEquals(1.0, glob.clampedFraction(sMax));
        assertMatrixEquals(expected, gram(code.data(), n, code.dim()), 1e-12);
        assertMatrixEquals(expected, gram(glob.data(), n, d), 1e-12);
        // partial clamping never exceeds the bound
        DMatrixRMaj s2 = spd(rnd, d);
        Whitening.Result part = Whitening.restricted(TaskSpan.of(x, n, d), BaseStatistics.code(new double[d], s2), 0.3);
        for (double g : part.gains()) {
            assertTrue(g <= 0.3 && g > 0);
        }
    }

    @Test
    void codeScatterIsFrobeniusNormalisedAndRescaled() {
        // class 1: (1,0), (-1,0) -> C = [[2,0],[0,0]], f = 2
        // class 2: (0,2), (0,-2) -> C = [[0,0],[0,8]], f = 8
        // class 3: a single sample -> no scatter, left out
        double[] x = {1, 0, -1, 0, 0, 2, 0, -2, 5, 5};
        int[] labels = {1, 1, 2, 2, 3};
        DMatrixRMaj code = WithinClassScatter.code(x, 5, 2, labels);
        // S_w = mean(C/f) * mean(f) + 1e-6 I = ([[1,0],[0,0]] + [[0,0],[0,1]]) / 2 * 5 + 1e-6 I
        assertArrayEquals(new double[]{2.5 + 1e-6, 0, 0, 2.5 + 1e-6}, code.data, 1e-15);
        // Eq. 6: (C_1 + C_2 + C_3) / N_base
        DMatrixRMaj pooled = WithinClassScatter.pooled(x, 5, 2, labels);
        assertArrayEquals(new double[]{2.0 / 5, 0, 0, 8.0 / 5}, pooled.data, 1e-15);
    }

    @Test
    void scatterWithoutAnyWithinClassSpreadIsTheRidge() {
        double[] x = {1, 0, 0, 1};
        DMatrixRMaj code = WithinClassScatter.code(x, 2, 2, new int[]{0, 1});
        assertArrayEquals(new double[]{1e-6, 0, 0, 1e-6}, code.data, 0);
    }
}
