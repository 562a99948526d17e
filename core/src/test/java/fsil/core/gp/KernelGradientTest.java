package fsil.core.gp;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Central finite-difference checks of every gradient of every kernel: inputs (both argument slots, the
 * symmetric K(x, x) case with the same matrix in both slots) and log hyperparameters, for the objective
 * L = sum_ij W_ij K_ij with a random W (any dL/dK is such a W at a point). Tolerance: relative error &lt; 1e-6.
 */
class KernelGradientTest {
    private static final double H = 1e-5;
    private static final double TOL = 1e-6;

    static List<NormalisedKernel> kernels() {
        return List.of(new RbfKernel(2.5, 0.7), new RbfKernel(0.3, 2.0), new Matern52Kernel(1.7, 0.6),
                new Matern52Kernel(4.0, 1.5), new CosineKernel(3.0));
    }

    private static double dot(DMatrixRMaj w, DMatrixRMaj k) {
        double s = 0;
        for (int i = 0; i < w.data.length; i++) {
            s += w.data[i] * k.data[i];
        }
        return s;
    }

    /** Central differences of f with respect to every entry of x (x is restored). */
    private static double[] numericalGradient(DMatrixRMaj x, ToDoubleFunction<DMatrixRMaj> f) {
        double[] g = new double[x.data.length];
        for (int i = 0; i < g.length; i++) {
            double v = x.data[i];
            double h = H * Math.max(1, Math.abs(v));
            x.data[i] = v + h;
            double fp = f.applyAsDouble(x);
            x.data[i] = v - h;
            double fm = f.applyAsDouble(x);
            x.data[i] = v;
            g[i] = (fp - fm) / (2 * h);
        }
        return g;
    }

    private static double[] numericalHyperGradient(Kernel k, ToDoubleFunction<Kernel> f) {
        double[] theta = k.hyperparameters();
        double[] g = new double[theta.length];
        for (int i = 0; i < theta.length; i++) {
            double[] t = theta.clone();
            t[i] = theta[i] + H;
            k.setHyperparameters(t);
            double fp = f.applyAsDouble(k);
            t[i] = theta[i] - H;
            k.setHyperparameters(t);
            double fm = f.applyAsDouble(k);
            g[i] = (fp - fm) / (2 * H);
        }
        k.setHyperparameters(theta);
        return g;
    }

    /** Norm-wise relative error below TOL, and each entry within TOL relative to the largest entry. */
    static void assertGradient(double[] analytic, double[] numeric, String what) {
        double diff = 0;
        double norm = 0;
        double max = 0;
        for (int i = 0; i < analytic.length; i++) {
            diff += (analytic[i] - numeric[i]) * (analytic[i] - numeric[i]);
            norm += numeric[i] * numeric[i];
            max = Math.max(max, Math.abs(numeric[i]));
        }
        assertTrue(norm > 0, what + ": gradient is identically zero, the check would be vacuous");
        double rel = Math.sqrt(diff / norm);
        assertTrue(rel < TOL, what + ": relative error " + rel);
        for (int i = 0; i < analytic.length; i++) {
            assertEquals(numeric[i], analytic[i], TOL * Math.max(Math.abs(numeric[i]), max * 1e-2) + 1e-12,
                    what + " entry " + i);
        }
    }

    @TestFactory
    Stream<DynamicTest> gradientsOfEveryKernel() {
        List<DynamicTest> tests = new ArrayList<>();
        for (NormalisedKernel kernel : kernels()) {
            String id = kernel.name() + " s=" + kernel.outputscale();
            tests.add(DynamicTest.dynamicTest(id + ": K(x1, x2), both slots and hyperparameters", () -> {
                Random r = new Random(17);
                DMatrixRMaj x1 = RandomMatrices_DDRM.rectangle(5, 4, -1, 1, r);
                DMatrixRMaj x2 = RandomMatrices_DDRM.rectangle(6, 4, -1, 1, r);
                CommonScaling.scaleRows(x1, r);
                DMatrixRMaj w = RandomMatrices_DDRM.rectangle(5, 6, -1, 1, r);
                KernelGradients g = kernel.backward(x1, x2, w);
                assertGradient(g.dx1().data, numericalGradient(x1, x -> dot(w, kernel.matrix(x, x2))), id + " dx1");
                assertGradient(g.dx2().data, numericalGradient(x2, x -> dot(w, kernel.matrix(x1, x))), id + " dx2");
                assertGradient(g.dHyper(), numericalHyperGradient(kernel, k -> dot(w, k.matrix(x1, x2))), id + " dHyper");
            }));
            tests.add(DynamicTest.dynamicTest(id + ": symmetric K(x, x)", () -> {
                Random r = new Random(23);
                DMatrixRMaj x = RandomMatrices_DDRM.rectangle(7, 3, -1, 1, r);
                CommonScaling.scaleRows(x, r);
                DMatrixRMaj w = RandomMatrices_DDRM.rectangle(7, 7, -1, 1, r); // not symmetric on purpose
                SymmetricKernelGradients g = kernel.backward(x, w);
                double[] numeric = numericalGradient(x, v -> dot(w, kernel.matrix(v)));
                assertGradient(g.dx().data, numeric, id + " symmetric dx");
                assertGradient(g.dHyper(), numericalHyperGradient(kernel, k -> dot(w, k.matrix(x))), id + " symmetric dHyper");
                // the same matrix in both slots: the two partials add up to the total gradient
                KernelGradients aliased = kernel.backward(x, x, w);
                double[] total = aliased.dx1().data.clone();
                for (int i = 0; i < total.length; i++) {
                    total[i] += aliased.dx2().data[i];
                }
                assertGradient(total, numeric, id + " aliased dx1 + dx2");
                assertGradient(aliased.dHyper(), g.dHyper(), id + " aliased dHyper");
                // and K(x, x) through the two-argument forward is the symmetric matrix
                assertEquals(0.0, maxAbsDiff(kernel.matrix(x, x), kernel.matrix(x)), 0);
            }));
            tests.add(DynamicTest.dynamicTest(id + ": diagonal", () -> {
                Random r = new Random(29);
                DMatrixRMaj x = RandomMatrices_DDRM.rectangle(4, 3, -1, 1, r);
                double[] w = {0.3, -1.2, 0.8, 2.0};
                double[] numeric = numericalHyperGradient(kernel, k -> {
                    double[] d = k.diag(x);
                    double s = 0;
                    for (int i = 0; i < d.length; i++) {
                        s += w[i] * d[i];
                    }
                    return s;
                });
                double[] analytic = kernel.backwardDiag(x, w);
                // only the outputscale moves the diagonal of a kernel on unit vectors
                assertEquals(numeric[0], analytic[0], 1e-8 * Math.abs(numeric[0]));
                for (int i = 1; i < analytic.length; i++) {
                    assertEquals(0.0, analytic[i], 1e-12);
                    assertEquals(0.0, numeric[i], 1e-9);
                }
            }));
        }
        return tests.stream();
    }

    static double maxAbsDiff(DMatrixRMaj a, DMatrixRMaj b) {
        double m = 0;
        for (int i = 0; i < a.data.length; i++) {
            m = Math.max(m, Math.abs(a.data[i] - b.data[i]));
        }
        return m;
    }

    /** Rows with different norms, so the normalisation's backward pass is exercised. */
    static final class CommonScaling {
        static void scaleRows(DMatrixRMaj x, Random r) {
            for (int i = 0; i < x.numRows; i++) {
                double f = 0.2 + 3 * r.nextDouble();
                for (int j = 0; j < x.numCols; j++) {
                    x.set(i, j, x.get(i, j) * f);
                }
            }
        }
    }
}
