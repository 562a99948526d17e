package fsil.methods.bavardage;

import fsil.core.math.Softmax;
import org.apache.commons.numbers.gamma.Digamma;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PLDA + VB updates against values computed by hand on a 2-class toy task, and the special functions. */
class IsotropicVbGmmTest {
    private static final double EULER = 0.5772156649015329;

    // Toy task in a 2-D whitened space: two support rows (one per class), then two queries.
    private static final double[] Y = {2, 0, -2, 0, 1, 1, -1, 1};
    private static final int[] SUPPORT = {0, 1};
    private static final double[] R = {1, 0, 0, 1, 0.9, 0.1, 0.6, 0.4};

    /** Projection of the toy task, with the sign of the 1-D basis fixed so that the first support row is > 0. */
    private static double[] projectedToy() {
        CentroidSubspace s = CentroidSubspace.fit(Y, 4, 2, R, 2, 10);
        double[] z = s.project(Y, 4);
        if (z[0] < 0) {
            for (int i = 0; i < z.length; i++) {
                z[i] = -z[i];
            }
        }
        return z;
    }

    @Test
    void pldaStepMatchesHandComputation() {
        CentroidSubspace s = CentroidSubspace.fit(Y, 4, 2, R, 2, 10);
        // N_0 = 1 + 0.9 + 0.6 = 2.5, N_1 = 1 + 0.1 + 0.4 = 1.5
        // c_0 = ((2,0) + 0.9 (1,1) + 0.6 (-1,1)) / (2.5 + 10) = (2.3, 1.5) / 12.5
        // c_1 = ((-2,0) + 0.1 (1,1) + 0.4 (-1,1)) / (1.5 + 10) = (-2.3, 0.5) / 11.5
        assertArrayEquals(new double[]{2.3 / 12.5, 1.5 / 12.5, -2.3 / 11.5, 0.5 / 11.5}, s.centroids(), 1e-15);
        assertEquals(1, s.rank());
        double dx = -2.3 / 11.5 - 2.3 / 12.5;
        double dy = 0.5 / 11.5 - 1.5 / 12.5;
        double norm = Math.hypot(dx, dy);
        double[] z = projectedToy();
        double[] expected = new double[4];
        for (int n = 0; n < 4; n++) {
            expected[n] = -(Y[2 * n] * dx + Y[2 * n + 1] * dy) / norm; // sign: first support row positive
        }
        assertArrayEquals(expected, z, 1e-14);
    }

    @Test
    void mStepAndEStepMatchHandComputationUnbalanced() {
        double[] z = projectedToy();
        IsotropicVbGmm vb = new IsotropicVbGmm(2, 2.0, 10.0, 4.0, false, false, false);
        vb.mStep(z, 4, 1, R, 2, null);
        // N_k include the support; alpha_k counts the queries only
        assertArrayEquals(new double[]{2.5, 1.5}, vb.counts(), 1e-15);
        assertArrayEquals(new double[]{12.5, 11.5}, vb.beta(), 1e-15);
        assertArrayEquals(new double[]{2 + 1.5, 2 + 0.5}, vb.alpha(), 1e-15);
        double m0 = (z[0] + 0.9 * z[2] + 0.6 * z[3]) / 12.5;
        double m1 = (z[1] + 0.1 * z[2] + 0.4 * z[3]) / 11.5;
        assertArrayEquals(new double[]{m0, m1}, vb.means(), 1e-15);

        // psi(3.5) = psi(1/2) + 2 + 2/3 + 2/5, psi(2.5) = psi(1/2) + 2 + 2/3, psi(1/2) = -gamma - 2 ln 2,
        // psi(6) = -gamma + 1 + 1/2 + 1/3 + 1/4 + 1/5
        double psiHalf = -EULER - 2 * Math.log(2);
        double psi35 = psiHalf + 2 + 2.0 / 3 + 0.4;
        double psi25 = psiHalf + 2 + 2.0 / 3;
        double psi6 = -EULER + 1 + 0.5 + 1.0 / 3 + 0.25 + 0.2;
        double[] logRho = vb.logRho(z, 4);
        for (int n = 0; n < 4; n++) {
            double l0 = psi35 - psi6 - 2 * (z[n] - m0) * (z[n] - m0) - 1 / (2 * 12.5);
            double l1 = psi25 - psi6 - 2 * (z[n] - m1) * (z[n] - m1) - 1 / (2 * 11.5);
            assertEquals(l0, logRho[2 * n], 1e-13);
            assertEquals(l1, logRho[2 * n + 1], 1e-13);
        }
        double[] r = new double[8];
        vb.eStep(z, 4, r, SUPPORT);
        assertArrayEquals(new double[]{1, 0, 0, 1}, java.util.Arrays.copyOf(r, 4), 0.0, "support rows clamped");
        for (int n = 2; n < 4; n++) {
            double p0 = 1 / (1 + Math.exp(logRho[2 * n + 1] - logRho[2 * n]));
            assertEquals(p0, r[2 * n], 1e-14);
            assertEquals(1 - p0, r[2 * n + 1], 1e-14);
        }
    }

    @Test
    void paperDirichletCountsIncludeTheSupport() {
        IsotropicVbGmm vb = new IsotropicVbGmm(2, 2.0, 10.0, 4.0, false, true, false);
        vb.mStep(projectedToy(), 4, 1, R, 2, null);
        assertArrayEquals(new double[]{2 + 2.5, 2 + 1.5}, vb.alpha(), 1e-15);
    }

    @Test
    void balancedDropsTheMixtureTerm() {
        double[] z = projectedToy();
        IsotropicVbGmm vb = new IsotropicVbGmm(2, 2.0, 10.0, 4.0, true, false, false);
        vb.mStep(z, 4, 1, R, 2, null);
        double[] m = vb.means();
        double[] logRho = vb.logRho(z, 4);
        for (int n = 0; n < 4; n++) {
            assertEquals(-2 * (z[n] - m[0]) * (z[n] - m[0]) - 1 / 25.0, logRho[2 * n], 1e-14);
            assertEquals(-2 * (z[n] - m[1]) * (z[n] - m[1]) - 1 / 23.0, logRho[2 * n + 1], 1e-14);
        }
    }

    @Test
    void priorMeanEntersTheMStep() {
        double[] z = projectedToy();
        IsotropicVbGmm vb = new IsotropicVbGmm(2, 2.0, 10.0, 4.0, false, false, false);
        vb.mStep(z, 4, 1, R, 2, new double[]{0.3});
        double m0 = (10 * 0.3 + z[0] + 0.9 * z[2] + 0.6 * z[3]) / 12.5;
        double m1 = (10 * 0.3 + z[1] + 0.1 * z[2] + 0.4 * z[3]) / 11.5;
        assertArrayEquals(new double[]{m0, m1}, vb.means(), 1e-15);
    }

    @Test
    void zeroQueryClassKeepsThePriorCount() {
        // class 1 has its support row only: alpha_1 = alpha0, N_1 = 1, nothing breaks
        double[] r = {1, 0, 0, 1, 1, 0, 1, 0};
        double[] z = {1, -1, 0.5, 0.7};
        IsotropicVbGmm vb = new IsotropicVbGmm(2, 2.0, 10.0, 4.0, false, false, false);
        vb.mStep(z, 4, 1, r, 2, null);
        assertArrayEquals(new double[]{4, 2}, vb.alpha(), 0);
        double[] out = new double[8];
        vb.eStep(z, 4, out, SUPPORT);
        for (double v : out) {
            assertTrue(Double.isFinite(v) && v >= 0);
        }
    }

    @Test
    void digammaDifferencesAtExtremeArguments() {
        // psi(1) - psi(2) = -1
        assertArrayEquals(new double[]{-1, -1}, IsotropicVbGmm.expectedLogWeights(new double[]{1, 1}), 1e-14);
        // large equal arguments: psi(a) - psi(2a) = -ln 2 - 1/(2a) + 1/(4a) + O(1/a^2) = -ln 2 - 1/(4a) + ...
        for (double a : new double[]{1e6, 1e12, 1e15}) {
            double[] e = IsotropicVbGmm.expectedLogWeights(new double[]{a, a});
            assertEquals(-Math.log(2) - 1 / (4 * a), e[0], 1e-13);
        }
        // tiny argument: psi(x) = -1/x - gamma + (pi^2/6) x + O(x^2), and psi(x) - psi(x + 1) = -1/x exactly
        for (double x : new double[]{1e-9, 1e-100, 1e-300}) {
            assertEquals(-1 / x - EULER + Math.PI * Math.PI / 6 * x, Digamma.value(x), 1e-15 / x);
            double[] e = IsotropicVbGmm.expectedLogWeights(new double[]{x, 1});
            assertEquals(-1 / x, e[0], 1e-15 / x + 1e-12);
            assertTrue(Double.isFinite(e[1]));
        }
        // large argument: psi(x) = ln x - 1/(2x) - 1/(12 x^2) + 1/(120 x^4) + O(x^-6)
        for (double x : new double[]{1e3, 1e8, 1e15, 1e300}) {
            double x2 = x * x;
            double asymptotic = Math.log(x) - 1 / (2 * x) - 1 / (12 * x2) + 1 / (120 * x2 * x2);
            assertEquals(asymptotic, Digamma.value(x), 1e-15 * Math.abs(asymptotic));
        }
    }

    @Test
    void responsibilitiesStayFiniteAtExtremeLogits() {
        double[] z = projectedToy();
        for (double t : new double[]{1e-12, 1e9}) {
            for (boolean eps : new boolean[]{false, true}) {
                IsotropicVbGmm vb = new IsotropicVbGmm(2, 1e-9, 10.0, t, false, false, eps);
                vb.mStep(z, 4, 1, R, 2, null);
                double[] r = new double[8];
                vb.eStep(z, 4, r, SUPPORT);
                for (int n = 0; n < 4; n++) {
                    double sum = r[2 * n] + r[2 * n + 1];
                    assertTrue(Double.isFinite(sum) && r[2 * n] >= 0 && r[2 * n + 1] >= 0);
                    assertEquals(1, sum, eps ? 2 * BavardageConfig.FLOAT32_EPSILON : 1e-15);
                }
            }
        }
    }

    @Test
    void logSumExpAndEpsilonSoftmaxAtExtremeValues() {
        assertEquals(1e308, Softmax.logSumExp(new double[]{1e308, 1e308}), 1e292);
        assertEquals(-1e308 + Math.log(2), Softmax.logSumExp(new double[]{-1e308, -1e308}), 1e292);
        assertEquals(0, Softmax.logSumExp(new double[]{Double.NEGATIVE_INFINITY, 0}), 0);
        double eps = BavardageConfig.FLOAT32_EPSILON;
        double[] l = {-1e308, 0, 1e308};
        IsotropicVbGmm.epsilonSoftmax(l, 1, 3);
        assertArrayEquals(new double[]{eps / (1 + eps), eps / (1 + eps), 1}, l, 1e-16);
        double[] allInf = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        IsotropicVbGmm.epsilonSoftmax(allInf, 1, 2);
        assertArrayEquals(new double[]{(1 + eps) / (2 + eps), (1 + eps) / (2 + eps)}, allInf, 1e-16);
        // the code's softmax: e_k = exp(l_k - max), then (e_k + eps) / (sum_j e_j + eps)
        double[] two = {0, Math.log(3)};
        IsotropicVbGmm.epsilonSoftmax(two, 1, 2);
        assertArrayEquals(new double[]{(1.0 / 3 + eps) / (4.0 / 3 + eps), (1 + eps) / (4.0 / 3 + eps)}, two, 1e-16);
    }
}
