package fsil.core.gp;

import fsil.api.InvalidDataException;
import fsil.api.InvalidParameterException;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.JitterPolicy;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KernelTest {

    /** Direct evaluation from the Euclidean distance of the normalised vectors (independent of the cosine path). */
    private static double direct(KernelFamily kernel, double s, double l, double[] a, double[] b) {
        double na = 0;
        double nb = 0;
        for (int j = 0; j < a.length; j++) {
            na += a[j] * a[j];
            nb += b[j] * b[j];
        }
        na = Math.sqrt(na);
        nb = Math.sqrt(nb);
        double d2 = 0;
        double dot = 0;
        for (int j = 0; j < a.length; j++) {
            double diff = a[j] / na - b[j] / nb;
            d2 += diff * diff;
            dot += a[j] / na * b[j] / nb;
        }
        switch (kernel) {
            case RBF:
                return s * Math.exp(-d2 / (2 * l * l));
            case MATERN52: {
                double r = Math.sqrt(d2) / l;
                return s * (1 + Math.sqrt(5) * r + 5 * r * r / 3) * Math.exp(-Math.sqrt(5) * r);
            }
            default:
                return s * dot;
        }
    }

    @Test
    void valuesMatchTheDefinitions() {
        Random r = new Random(3);
        DMatrixRMaj x1 = RandomMatrices_DDRM.rectangle(6, 5, -2, 2, r);
        DMatrixRMaj x2 = RandomMatrices_DDRM.rectangle(4, 5, -2, 2, r);
        for (KernelFamily name : KernelFamily.values()) {
            NormalisedKernel k = name.create(1.9, 0.8);
            DMatrixRMaj m = k.matrix(x1, x2);
            assertEquals(6, m.numRows);
            assertEquals(4, m.numCols);
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 4; j++) {
                    double expected = direct(name, 1.9, 0.8, row(x1, i), row(x2, j));
                    assertEquals(expected, m.get(i, j), 1e-12, name + " (" + i + "," + j + ")");
                }
            }
            double[] diag = k.diag(x1);
            DMatrixRMaj sym = k.matrix(x1);
            for (int i = 0; i < 6; i++) {
                assertEquals(1.9, diag[i], 1e-15, "diag = outputscale");
                assertEquals(1.9, sym.get(i, i), 1e-15);
                for (int j = 0; j < 6; j++) {
                    assertEquals(sym.get(i, j), sym.get(j, i), 0, "exactly symmetric");
                    assertEquals(direct(name, 1.9, 0.8, row(x1, i), row(x1, j)), sym.get(i, j), 1e-12);
                }
            }
        }
    }

    @Test
    void invariantToInputScaleAndMatchesGpTreeForms() {
        Random r = new Random(5);
        DMatrixRMaj x = RandomMatrices_DDRM.rectangle(5, 3, -1, 1, r);
        DMatrixRMaj x3 = x.copy();
        CommonOps_DDRM.scale(3.7, x3);
        for (KernelFamily name : KernelFamily.values()) {
            NormalisedKernel k = name.create(2, 1.3);
            assertTrue(KernelGradientTest.maxAbsDiff(k.matrix(x), k.matrix(x3)) < 1e-14, name.name());
        }
        // GP-Tree's RBF on unit vectors: s exp(-(1 - cos)/l^2)
        RbfKernel rbf = new RbfKernel(8, 1);
        double[] a = {1, 0};
        double[] b = {1, 1};
        DMatrixRMaj m = rbf.matrix(new DMatrixRMaj(new double[][]{a}), new DMatrixRMaj(new double[][]{b}));
        assertEquals(8 * Math.exp(-(1 - Math.sqrt(0.5))), m.get(0, 0), 1e-14);
    }

    @Test
    void kernelMatricesArePositiveSemiDefinite() {
        // property: on random inputs (n > d included, and with duplicated rows) the matrices have no eigenvalue
        // below -1e-12 trace and factor with a tiny relative jitter of 1e-10
        Random r = new Random(11);
        for (int trial = 0; trial < 12; trial++) {
            int n = 10 + r.nextInt(40);
            int d = 1 + r.nextInt(12);
            DMatrixRMaj x = RandomMatrices_DDRM.rectangle(n, d, -1, 1, r);
            if (trial % 3 == 0) {
                for (int j = 0; j < d; j++) {
                    x.set(1, j, x.get(0, j) * 2.5); // same direction as row 0
                }
            }
            for (KernelFamily name : KernelFamily.values()) {
                NormalisedKernel k = name.create(0.1 + 5 * r.nextDouble(), 0.2 + 3 * r.nextDouble());
                DMatrixRMaj km = k.matrix(x);
                double trace = CommonOps_DDRM.trace(km);
                EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, false, true);
                assertTrue(eig.decompose(km.copy()));
                for (int i = 0; i < n; i++) {
                    assertTrue(eig.getEigenvalue(i).real > -1e-12 * trace,
                            name + " n=" + n + " d=" + d + ": eigenvalue " + eig.getEigenvalue(i).real);
                }
                Cholesky.factor(km, JitterPolicy.fixed(1e-10, 0));
            }
        }
    }

    @Test
    void hyperparametersRoundTripInLogSpace() {
        RbfKernel k = new RbfKernel(4, 0.5);
        assertArrayEquals(new String[]{"log_outputscale", "log_lengthscale"}, k.hyperparameterNames());
        assertArrayEquals(new double[]{Math.log(4), Math.log(0.5)}, k.hyperparameters(), 1e-15);
        k.setHyperparameters(new double[]{0.1, -0.2});
        assertEquals(Math.exp(0.1), k.outputscale(), 1e-15);
        assertEquals(Math.exp(-0.2), k.lengthscale(), 1e-15);
        RbfKernel c = k.copy();
        k.setHyperparameters(new double[]{0, 0});
        assertEquals(Math.exp(0.1), c.outputscale(), 1e-15, "copy is independent");
        assertEquals(1, new CosineKernel(2).numHyperparameters());
        assertThrows(IllegalArgumentException.class, () -> k.setHyperparameters(new double[]{1}));
        assertThrows(IllegalArgumentException.class, () -> k.setHyperparameters(new double[]{1, Double.NaN}));
        assertThrows(InvalidParameterException.class, () -> new RbfKernel(0, 1));
        assertThrows(InvalidParameterException.class, () -> new Matern52Kernel(1, -1));
        assertEquals("linear", KernelFamily.LINEAR.create(1, 1).name());
    }

    @Test
    void badInputsGiveClearErrors() {
        RbfKernel k = new RbfKernel(1, 1);
        DMatrixRMaj zero = new DMatrixRMaj(new double[][]{{1, 2}, {0, 0}});
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> k.matrix(zero));
        assertTrue(e.getMessage().contains("row 1") && e.getMessage().contains("zero vector"), e.getMessage());
        DMatrixRMaj nan = new DMatrixRMaj(new double[][]{{1, Double.NaN}});
        assertTrue(assertThrows(InvalidDataException.class, () -> k.diag(nan)).getMessage().contains("non-finite"));
        assertThrows(IllegalArgumentException.class, () -> k.matrix(new DMatrixRMaj(2, 3), new DMatrixRMaj(2, 4)));
        DMatrixRMaj x = new DMatrixRMaj(new double[][]{{1, 2}, {3, 1}});
        assertThrows(IllegalArgumentException.class, () -> k.backward(x, new DMatrixRMaj(3, 3)));
        // huge but finite features are fine (norm computed with scaling)
        DMatrixRMaj huge = new DMatrixRMaj(new double[][]{{1e200, 1e200}, {1, 1}});
        assertEquals(1.0, k.matrix(huge).get(0, 1), 1e-15);
    }

    private static double[] row(DMatrixRMaj m, int i) {
        double[] r = new double[m.numCols];
        for (int j = 0; j < m.numCols; j++) {
            r[j] = m.get(i, j);
        }
        return r;
    }
}
