package fsil.methods.ppca;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Gram and randomized block Krylov solvers against the full d x d eigen decomposition: the scores of the
 * resulting PPCA models agree within 1e-6 relative (the required agreement) on every query.
 */
class EigenSolverTest {
    private static final double LAMBDA = 0.01;

    private static ClassStatistics stats(int n, int d, double[] spectrum, double noise, long seed) {
        float[] x = TestData.gaussianClass(n, TestData.randomMean(d, 1.0, seed), spectrum, noise, seed + 1);
        return ClassStatistics.ofRows(x, d, TestData.allRows(n), 0, n);
    }

    /** Max relative score difference between two models over queries around the class. */
    private static double scoreDifference(ClassModel a, ClassModel b, int queries, long seed) {
        int d = a.dim;
        float[] q = TestData.gaussianClass(queries, a.mean, TestData.powerLaw(Math.min(d, 30), 2.0, 1.0), 0.3, seed);
        double[] x = TestData.toDouble(q);
        double[] sa = new double[queries];
        double[] sb = new double[queries];
        a.scoreBlock(x, queries, new double[2 * d], false, sa, 0, 1);
        b.scoreBlock(x, queries, new double[2 * d], false, sb, 0, 1);
        return TestData.maxRelative(sb, sa, 1e-300);
    }

    private static ClassModel fit(ClassStatistics s, int q, PpcaMethod.Solver solver) {
        return ClassModel.fit(s, q, LAMBDA, 1.0, solver, 42);
    }

    @ParameterizedTest(name = "n={0} d={1} q={2}")
    @CsvSource({"30, 80, 10", "60, 200, 20", "10, 50, 20", "79, 80, 20"})
    void gramMatchesFull(int n, int d, int q) {
        ClassStatistics s = stats(n, d, TestData.powerLaw(40, 4.0, 1.0), 0.1, n + d);
        ClassModel full = fit(s, q, PpcaMethod.Solver.FULL);
        ClassModel gram = fit(s, q, PpcaMethod.Solver.GRAM);
        assertEquals(TopEigen.Method.GRAM, gram.eigen.method());
        assertEquals(full.rank, gram.rank);
        for (int i = 0; i < full.rank; i++) {
            assertEquals(full.variances[i], gram.variances[i], 1e-10 * full.variances[0]);
        }
        assertOrthonormal(gram);
        assertTrue(scoreDifference(full, gram, 200, 3) < 1e-9, "Gram vs full scores");
    }

    @ParameterizedTest(name = "n={0} d={1} q={2} alpha={3}")
    @CsvSource({"600, 640, 20, 1.0", "300, 200, 20, 1.0", "2000, 128, 20, 0.7", "150, 300, 10, 1.5",
            "400, 256, 50, 1.0"})
    void randomizedMatchesFullWithin1e6(int n, int d, int q, double alpha) {
        ClassStatistics s = stats(n, d, TestData.powerLaw(Math.min(d, 200), 10.0, alpha), 0.05, n + 7L * d);
        ClassModel full = fit(s, q, PpcaMethod.Solver.FULL);
        ClassModel rand = fit(s, q, PpcaMethod.Solver.RANDOMIZED);
        assertEquals(TopEigen.Method.KRYLOV, rand.eigen.method(), "converged without the exact fallback");
        assertEquals(full.rank, rand.rank);
        assertOrthonormal(rand);
        double diff = scoreDifference(full, rand, 300, 5);
        assertTrue(diff < 1e-6, "randomized vs full relative score difference " + diff);
        ClassModel auto = fit(s, q, PpcaMethod.Solver.AUTO);
        assertTrue(scoreDifference(full, auto, 300, 6) < 1e-6, "auto vs full");
    }

    @Test
    void randomizedFallsBackToExactWhenTheGapIsTiny() {
        // Eigenvalues 10 (x 10) then a 1e-9 relative gap at q = 5 inside a flat cluster: the stop rule cannot be met,
        // the exact solver is used and the result still matches the full decomposition.
        int d = 120;
        double[] spectrum = new double[10];
        java.util.Arrays.fill(spectrum, 10.0);
        float[] x = TestData.gaussianClass(4000, new double[2 * d], spectrum, 0.0, 3);
        ClassStatistics s = ClassStatistics.ofRows(x, d, TestData.allRows(4000), 0, 4000);
        ClassModel rand = ClassModel.fit(s, 5, LAMBDA, 1.0, PpcaMethod.Solver.RANDOMIZED, 1);
        ClassModel full = fit(s, 5, PpcaMethod.Solver.FULL);
        if (rand.eigen.fallback()) {
            assertEquals(TopEigen.Method.FULL, rand.eigen.method());
        }
        assertTrue(scoreDifference(full, rand, 200, 8) < 1e-6);
    }

    @Test
    void exactlyDegenerateClusterFallsBack() {
        // A covariance with eigenvalue 1 of multiplicity 8 and q = 3: the top-3 subspace is not unique, so no solver
        // can promise a score; the randomized attempt must notice (no convergence) and fall back.
        int d = 64;
        org.ejml.data.DMatrixRMaj c = new org.ejml.data.DMatrixRMaj(d, d);
        for (int i = 0; i < 8; i++) {
            c.data[i * d + i] = 1.0;
        }
        for (int i = 8; i < d; i++) {
            c.data[i * d + i] = 0.01 / (i + 1);
        }
        TopEigen.Pairs p = TopEigen.solve(Scatter.ofDense(c), 3, LAMBDA, PpcaMethod.Solver.RANDOMIZED, 5);
        assertTrue(p.fallback(), "the stop rule must not accept an arbitrary subspace of a degenerate cluster");
        assertEquals(TopEigen.Method.FULL, p.method());
    }

    @Test
    void autoPicksGramForFewSamplesAndExactWhenQIsLarge() {
        ClassStatistics few = stats(40, 300, TestData.powerLaw(20, 1, 1), 0.1, 1);
        assertEquals(TopEigen.Method.GRAM, fit(few, 20, PpcaMethod.Solver.AUTO).eigen.method());
        ClassStatistics many = stats(500, 40, TestData.powerLaw(20, 1, 1), 0.1, 2);
        assertEquals(TopEigen.Method.FULL, fit(many, 20, PpcaMethod.Solver.AUTO).eigen.method(), "q = 20 of d = 40");
    }

    @Test
    void numericallyZeroEigenvaluesAreDropped() {
        // 10 samples that span exactly 3 directions (integer coordinates on 3 axes of a rotated frame are not exact
        // in float32, so the data lives on the axes): q_c = min(q, n - 1) = 9 would keep 6 arbitrary null directions.
        int d = 20;
        int n = 10;
        org.apache.commons.rng.UniformRandomProvider rng = fsil.core.random.RandomStreams.create(4);
        float[] x = new float[n * d];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                x[i * d + 5 * a + 1] = rng.nextInt(21) - 10;
            }
        }
        ClassStatistics s = ClassStatistics.ofRows(x, d, TestData.allRows(n), 0, n);
        for (PpcaMethod.Solver solver : PpcaMethod.Solver.values()) {
            ClassModel m = fit(s, 20, solver);
            assertEquals(3, m.rank, solver + " keeps the 3 real components");
        }
        assertEquals(3, TopEigen.krylov(s.covariance(1), 9, LAMBDA, 1, Double.POSITIVE_INFINITY).count(),
                "Krylov drops them too");
    }

    @Test
    void smallClassesKeepAtMostNMinusOneComponents() {
        int d = 16;
        float[] x = TestData.gaussianClass(3, new double[2 * d], TestData.powerLaw(8, 1, 1), 0.1, 6);
        int[] rows = TestData.allRows(3);
        assertEquals(0, fit(ClassStatistics.ofRows(x, d, rows, 0, 1), 20, PpcaMethod.Solver.AUTO).rank, "1-shot");
        assertEquals(1, fit(ClassStatistics.ofRows(x, d, rows, 0, 2), 20, PpcaMethod.Solver.AUTO).rank, "2-shot");
        assertEquals(2, fit(ClassStatistics.ofRows(x, d, rows, 0, 3), 20, PpcaMethod.Solver.AUTO).rank, "3-shot");
        ClassModel biased = ClassModel.fit(ClassStatistics.ofRows(x, d, rows, 0, 1), 20, LAMBDA, 0.0,
                PpcaMethod.Solver.AUTO, 1);
        assertEquals(0, biased.rank, "biased covariance of one sample is 0");
    }

    @Test
    void biasedAndUnbiasedDifferByTheDivisorOnly() {
        ClassStatistics s = stats(25, 30, TestData.powerLaw(10, 1, 1), 0.1, 9);
        ClassModel u = ClassModel.fit(s, 5, LAMBDA, 1.0, PpcaMethod.Solver.FULL, 1);
        ClassModel b = ClassModel.fit(s, 5, LAMBDA, 0.0, PpcaMethod.Solver.FULL, 1);
        for (int i = 0; i < 5; i++) {
            assertEquals(u.variances[i] * 24 / 25, b.variances[i], 1e-12 * u.variances[0]);
        }
    }

    @Test
    void krylovIsDeterministicForASeed() {
        ClassStatistics s = stats(300, 200, TestData.powerLaw(100, 5, 1), 0.05, 12);
        ClassModel a = fit(s, 20, PpcaMethod.Solver.RANDOMIZED);
        ClassModel b = fit(s, 20, PpcaMethod.Solver.RANDOMIZED);
        assertFalse(a.eigen.fallback());
        assertEquals(java.util.Arrays.toString(a.variances), java.util.Arrays.toString(b.variances));
        assertEquals(java.util.Arrays.hashCode(a.basis), java.util.Arrays.hashCode(b.basis));
    }

    static void assertOrthonormal(ClassModel m) {
        int d = m.dim;
        for (int i = 0; i < m.rank; i++) {
            for (int j = 0; j <= i; j++) {
                double dot = TopEigen.dot(m.basis, i * d, m.basis, j * d, d);
                assertEquals(i == j ? 1.0 : 0.0, dot, 1e-12, "rows " + i + ", " + j);
            }
        }
    }
}
