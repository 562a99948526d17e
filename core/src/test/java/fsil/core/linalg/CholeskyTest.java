package fsil.core.linalg;

import fsil.api.FsilException;
import fsil.core.math.NumericalException;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CholeskyTest {

    /** B B^T / d + 0.1 I: SPD with a moderate condition number. */
    static DMatrixRMaj randomSpd(int n, long seed) {
        Random r = new Random(seed);
        DMatrixRMaj b = RandomMatrices_DDRM.rectangle(n, n + 3, -1, 1, r);
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(b, b, a);
        CommonOps_DDRM.scale(1.0 / (n + 3), a);
        for (int i = 0; i < n; i++) {
            a.add(i, i, 0.1);
        }
        return a;
    }

    /** Q diag(eigs) Q^T with a random orthogonal Q. */
    static DMatrixRMaj withEigenvalues(double[] eigs, long seed) {
        int n = eigs.length;
        DMatrixRMaj g = RandomMatrices_DDRM.rectangle(n, n, -1, 1, new Random(seed));
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(n, n);
        qr.decompose(g);
        DMatrixRMaj q = qr.getQ(null, false);
        DMatrixRMaj qd = q.copy();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                qd.set(i, j, q.get(i, j) * eigs[j]);
            }
        }
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(qd, q, a);
        // exact symmetry
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                double v = 0.5 * (a.get(i, j) + a.get(j, i));
                a.set(i, j, v);
                a.set(j, i, v);
            }
        }
        return a;
    }

    private static double maxAbsDiff(DMatrixRMaj a, DMatrixRMaj b) {
        double m = 0;
        for (int i = 0; i < a.data.length; i++) {
            m = Math.max(m, Math.abs(a.data[i] - b.data[i]));
        }
        return m;
    }

    @Test
    void factorReproducesMatrixAndLogDet() {
        for (int n : new int[]{1, 2, 7, 40, 130}) {
            DMatrixRMaj a = randomSpd(n, n);
            DMatrixRMaj copy = a.copy();
            CholeskyFactor f = Cholesky.factor(a, JitterPolicy.none());
            assertEquals(0.0, maxAbsDiff(a, copy), 0, "input must not be modified");
            assertEquals(0.0, f.jitter(), 0);
            assertEquals(1, f.attempts());
            DMatrixRMaj llt = new DMatrixRMaj(n, n);
            CommonOps_DDRM.multTransB(f.lower(), f.lower(), llt);
            assertTrue(maxAbsDiff(llt, a) < 1e-13, "L L^T = A");
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    assertEquals(0.0, f.lower().get(i, j), 0, "strict upper triangle is zero");
                }
            }
            assertEquals(Math.log(CommonOps_DDRM.det(a)), f.logDet(), 1e-10 * Math.max(1, Math.abs(f.logDet())));
        }
    }

    @Test
    void solvesAgreeWithLuAndEachOther() {
        int n = 50;
        int m = 7;
        DMatrixRMaj a = randomSpd(n, 3);
        CholeskyFactor f = Cholesky.factor(a, JitterPolicy.none());
        DMatrixRMaj b = RandomMatrices_DDRM.rectangle(n, m, -1, 1, new Random(4));
        LinearSolverDense<DMatrixRMaj> lu = LinearSolverFactory_DDRM.lu(n);
        lu.setA(a.copy());
        DMatrixRMaj ref = new DMatrixRMaj(n, m);
        lu.solve(b, ref);
        DMatrixRMaj x = f.solve(b);
        assertTrue(maxAbsDiff(x, ref) < 1e-11);
        // residual
        DMatrixRMaj ax = new DMatrixRMaj(n, m);
        CommonOps_DDRM.mult(a, x, ax);
        assertTrue(maxAbsDiff(ax, b) < 1e-12);
        // L^{-1} then L^{-T} equals the full solve; L (L^{-1} B) = B
        DMatrixRMaj y = f.solveLower(b);
        DMatrixRMaj ly = f.multiplyLower(y);
        assertTrue(maxAbsDiff(ly, b) < 1e-12);
        assertTrue(maxAbsDiff(f.solveLowerTranspose(y), x) < 1e-12);
        // vector versions agree with the matrix versions column by column
        for (int j = 0; j < m; j++) {
            double[] col = new double[n];
            for (int i = 0; i < n; i++) {
                col[i] = b.get(i, j);
            }
            double[] xs = f.solve(col);
            double[] yl = col.clone();
            f.solveLowerInPlace(yl);
            double[] back = f.multiplyLower(yl);
            for (int i = 0; i < n; i++) {
                assertEquals(x.get(i, j), xs[i], 1e-12);
                assertEquals(y.get(i, j), yl[i], 1e-12);
                assertEquals(col[i], back[i], 1e-12);
            }
            f.solveLowerTransposeInPlace(yl);
            for (int i = 0; i < n; i++) {
                assertEquals(x.get(i, j), yl[i], 1e-12);
            }
        }
    }

    @Test
    void quadraticFormsTracesAndInverseDiagonal() {
        int n = 30;
        DMatrixRMaj a = randomSpd(n, 11);
        CholeskyFactor f = Cholesky.factor(a, JitterPolicy.none());
        DMatrixRMaj x = RandomMatrices_DDRM.rectangle(n, 4, -1, 1, new Random(12));
        double[] q = f.columnQuadForms(x);
        DMatrixRMaj sx = f.solve(x);
        for (int j = 0; j < 4; j++) {
            double ref = 0;
            double[] col = new double[n];
            for (int i = 0; i < n; i++) {
                ref += x.get(i, j) * sx.get(i, j);
                col[i] = x.get(i, j);
            }
            assertEquals(ref, q[j], 1e-11 * Math.abs(ref));
            assertEquals(ref, f.quadForm(col), 1e-11 * Math.abs(ref));
        }
        double[] diag = f.inverseDiagonal();
        double trace = 0;
        for (int i = 0; i < n; i++) {
            double[] e = new double[n];
            e[i] = 1;
            double ref = f.solve(e)[i];
            assertEquals(ref, diag[i], 1e-12 * ref);
            trace += ref;
        }
        assertEquals(trace, f.traceInverse(), 1e-11 * trace);
        DMatrixRMaj m = randomSpd(n, 13);
        DMatrixRMaj sm = f.solve(m);
        assertEquals(CommonOps_DDRM.trace(sm), f.traceSolve(m), 1e-11 * Math.abs(CommonOps_DDRM.trace(sm)));
    }

    @Test
    void fixedPolicyAlwaysAddsRelativeJitter() {
        DMatrixRMaj a = randomSpd(10, 5);
        double meanDiag = CommonOps_DDRM.trace(a) / 10;
        CholeskyFactor f = Cholesky.factor(a);
        assertEquals(1e-6 * meanDiag, f.jitter(), 1e-22);
        assertEquals(1, f.attempts());
        DMatrixRMaj llt = new DMatrixRMaj(10, 10);
        CommonOps_DDRM.multTransB(f.lower(), f.lower(), llt);
        for (int i = 0; i < 10; i++) {
            a.add(i, i, f.jitter());
        }
        assertTrue(maxAbsDiff(llt, a) < 1e-14, "factor of A + jI");
    }

    @Test
    void singularMatrixNeedsTheFirstEscalation() {
        DMatrixRMaj ones = new DMatrixRMaj(new double[][]{{1, 1}, {1, 1}});
        assertThrows(NumericalException.class, () -> Cholesky.factor(ones, JitterPolicy.none()));
        CholeskyFactor f = Cholesky.factor(ones, JitterPolicy.onFailure(1e-6, 3));
        assertEquals(2, f.attempts(), "exact attempt fails, 1e-6 works");
        assertEquals(1e-6, f.jitter(), 1e-20);
        assertEquals(Math.log(2e-6 + 1e-12), f.logDet(), 1e-6);
    }

    @Test
    void escalationStopsAtTheFirstSufficientJitter() {
        // smallest eigenvalue -5e-10 x mean diagonal (other eigenvalues in [1, 2]): jitters 1e-12, 1e-11, 1e-10
        // are too small, 1e-9 x mean diagonal is enough, so exactly 4 attempts
        int n = 12;
        double[] eigs = new double[n];
        for (int i = 0; i < n; i++) {
            eigs[i] = 1 + i / (double) (n - 1);
        }
        double mean = 0;
        for (int i = 1; i < n; i++) {
            mean += eigs[i];
        }
        mean /= n;
        eigs[0] = -5e-10 * mean;
        DMatrixRMaj a = withEigenvalues(eigs, 21);
        double meanDiag = CommonOps_DDRM.trace(a) / n;
        CholeskyFactor f = Cholesky.factor(a, JitterPolicy.fixed(1e-12, 6));
        assertEquals(4, f.attempts());
        assertEquals(1e-9 * meanDiag, f.jitter(), 1e-9 * meanDiag * 1e-12);
        // and a policy that stops at 1e-10 fails, reporting the negative eigenvalue
        NumericalException e = assertThrows(NumericalException.class,
                () -> Cholesky.factor(a, JitterPolicy.fixed(1e-12, 2)));
        assertTrue(e.getMessage().contains("12 x 12"), e.getMessage());
        assertTrue(e.getMessage().contains("not positive definite at all"), e.getMessage());
    }

    @Test
    void nearlySingularHilbertMatrix() {
        // 12 x 12 Hilbert matrix: condition number ~1.7e16, numerically singular in double precision
        int n = 12;
        DMatrixRMaj h = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                h.set(i, j, 1.0 / (i + j + 1));
            }
        }
        CholeskyFactor f = Cholesky.factor(h, JitterPolicy.onFailure(1e-10, 5));
        DMatrixRMaj llt = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(f.lower(), f.lower(), llt);
        for (int i = 0; i < n; i++) {
            h.add(i, i, f.jitter());
        }
        assertTrue(maxAbsDiff(llt, h) < 1e-14, "the factor is of H + jI with the jitter it reports");
        assertTrue(f.jitter() <= 1e-5, "jitter stays bounded: " + f.jitter());
        // solves with the regularised matrix are accurate (residual against H + jI)
        double[] b = new double[n];
        java.util.Arrays.fill(b, 1.0);
        double[] x = f.solve(b);
        DMatrixRMaj xm = new DMatrixRMaj(n, 1, true, x);
        DMatrixRMaj hx = new DMatrixRMaj(n, 1);
        CommonOps_DDRM.mult(h, xm, hx);
        for (int i = 0; i < n; i++) {
            assertEquals(1.0, hx.get(i), 1e-6);
        }
    }

    @Test
    void notPositiveDefiniteFailsWithSizeAndConditionEstimate() {
        DMatrixRMaj a = withEigenvalues(new double[]{-1, 0.5, 2, 3, 4}, 7);
        NumericalException e = assertThrows(NumericalException.class, () -> Cholesky.factor(a));
        assertTrue(e instanceof FsilException);
        String msg = e.getMessage();
        assertTrue(msg.contains("5 x 5"), msg);
        assertTrue(msg.contains("Eigenvalues from -1.000e+00 to 4.000e+00"), msg);
        assertTrue(msg.contains("condition estimate |max|/|min| = 4.000e+00"), msg);
        assertTrue(msg.contains("5 attempts"), msg);
    }

    @Test
    void conditionEstimateOfAnSpdMatrix() {
        DMatrixRMaj a = withEigenvalues(new double[]{1e-3, 0.5, 1}, 8);
        assertTrue(Cholesky.conditionEstimate(a).contains("condition estimate |max|/|min| = 1.000e+03"),
                Cholesky.conditionEstimate(a));
    }

    @Test
    void largeMatrixFailureReportsDiagonalBound() {
        int n = Cholesky.EIGEN_ESTIMATE_MAX_SIZE + 1;
        DMatrixRMaj a = CommonOps_DDRM.identity(n);
        a.set(0, 0, -1);
        NumericalException e = assertThrows(NumericalException.class,
                () -> Cholesky.factor(a, JitterPolicy.fixed(1e-6, 0)));
        assertTrue(e.getMessage().contains(n + " x " + n) && e.getMessage().contains("Diagonal from"), e.getMessage());
    }

    @Test
    void invalidInputs() {
        assertThrows(IllegalArgumentException.class, () -> Cholesky.factor(new DMatrixRMaj(2, 3)));
        DMatrixRMaj nan = CommonOps_DDRM.identity(3);
        nan.set(2, 1, Double.NaN);
        NumericalException e1 = assertThrows(NumericalException.class, () -> Cholesky.factor(nan));
        assertTrue(e1.getMessage().contains("non-finite"), e1.getMessage());
        DMatrixRMaj asym = CommonOps_DDRM.identity(3);
        asym.set(0, 2, 0.5);
        NumericalException e2 = assertThrows(NumericalException.class, () -> Cholesky.factor(asym));
        assertTrue(e2.getMessage().contains("not symmetric"), e2.getMessage());
        NumericalException e3 = assertThrows(NumericalException.class, () -> Cholesky.factor(new DMatrixRMaj(3, 3)));
        assertTrue(e3.getMessage().contains("mean diagonal 0.00 <= 0"), e3.getMessage());
        CholeskyFactor empty = Cholesky.factor(new DMatrixRMaj(0, 0));
        assertEquals(0.0, empty.logDet(), 0);
        assertEquals(0, empty.solve(new double[0]).length);
    }

    @Test
    void lowerTimesStandardNormalHasTheRightCovariance() {
        // the sampling use: L z ~ N(0, A); empirical covariance of 20000 draws within 5 standard errors
        int n = 3;
        DMatrixRMaj a = new DMatrixRMaj(new double[][]{{2, 0.6, -0.3}, {0.6, 1, 0.2}, {-0.3, 0.2, 0.5}});
        CholeskyFactor f = Cholesky.factor(a, JitterPolicy.none());
        UniformRandomProvider rng = RandomStreams.create(5);
        var gauss = org.apache.commons.rng.sampling.distribution.ZigguratSampler.NormalizedGaussian.of(rng);
        int draws = 20000;
        double[][] cov = new double[n][n];
        double[] z = new double[n];
        double[] x = new double[n];
        for (int t = 0; t < draws; t++) {
            for (int i = 0; i < n; i++) {
                z[i] = gauss.sample();
            }
            Triangular.multiplyLower(f.lower(), z, x);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    cov[i][j] += x[i] * x[j] / draws;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                // Var(x_i x_j) = a_ii a_jj + a_ij^2 for Gaussians
                double se = Math.sqrt((a.get(i, i) * a.get(j, j) + a.get(i, j) * a.get(i, j)) / draws);
                assertEquals(a.get(i, j), cov[i][j], 5 * se);
            }
        }
    }

    @Test
    void factorIsBitForBitEjmlsInnerProductCholesky() {
        // the own kernel replaces EJML's below its block-size switch and must give the same bits (same sums in the
        // same order), for every residue of n modulo the four rows it computes at once; also on a failing matrix
        for (int n : new int[]{1, 2, 3, 4, 5, 6, 7, 8, 9, 33, 130, 257}) {
            DMatrixRMaj a = randomSpd(n, 100 + n);
            DMatrixRMaj ejml = a.copy();
            assertTrue(new org.ejml.dense.row.decomposition.chol.CholeskyDecompositionInner_DDRM(true).decompose(ejml));
            DMatrixRMaj own = a.copy();
            assertTrue(Cholesky.decomposeLower(own.data, n));
            for (int i = 0; i < n * n; i++) {
                assertEquals(Double.doubleToRawLongBits(ejml.data[i]), Double.doubleToRawLongBits(own.data[i]),
                        "n = " + n + ", entry " + i);
            }
            DMatrixRMaj viaFactor = Cholesky.factor(a, JitterPolicy.none()).lower();
            assertEquals(0.0, maxAbsDiff(viaFactor, ejml), 0);
        }
        DMatrixRMaj indefinite = withEigenvalues(new double[]{1, 2, -0.5, 3, 4, 5}, 3);
        assertTrue(!Cholesky.decomposeLower(indefinite.copy().data, 6));
    }

    @Test
    void blockedForwardSubstitutionIsBitForBitThePlainOne() {
        // rows four at a time and column blocks: every residue of n modulo 4, more columns than one block, and a
        // factor with exact zeros (skipped updates) must give the bits of the plain row-by-row substitution
        for (int n : new int[]{1, 2, 3, 4, 5, 6, 7, 9, 37}) {
            int m = Triangular.COLUMN_BLOCK + 7;
            DMatrixRMaj lower = Cholesky.factor(randomSpd(n, 5 + n), JitterPolicy.none()).lower().copy();
            if (n > 5) {
                lower.set(5, 2, 0.0);
                lower.set(n - 1, 4, 0.0);
            }
            DMatrixRMaj b = RandomMatrices_DDRM.rectangle(n, m, -1, 1, new Random(9));
            DMatrixRMaj plain = b.copy();
            double[] x = plain.data;
            double[] l = lower.data;
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < i; k++) {
                    if (l[i * n + k] != 0) {
                        for (int j = 0; j < m; j++) {
                            x[i * m + j] -= l[i * n + k] * x[k * m + j];
                        }
                    }
                }
                double inv = 1.0 / l[i * n + i];
                for (int j = 0; j < m; j++) {
                    x[i * m + j] *= inv;
                }
            }
            DMatrixRMaj blocked = b.copy();
            Triangular.solveLower(lower, blocked);
            for (int i = 0; i < n * m; i++) {
                assertEquals(Double.doubleToRawLongBits(plain.data[i]), Double.doubleToRawLongBits(blocked.data[i]),
                        "n = " + n + ", entry " + i);
            }
        }
    }
}
