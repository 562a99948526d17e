package fsil.methods.ppca;

import fsil.core.linalg.CholeskyFactor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Theorem 1 (Eq. 10) and Eq. (11) against the explicit d x d Gaussian, to 1e-9 relative. */
class TheoremTest {

    /** A fitted class model with n samples in dimension d. */
    private static ClassModel model(int n, int d, int q, double lambda, long seed) {
        double[] mean = TestData.randomMean(d, 2.0, seed);
        float[] x = TestData.gaussianClass(n, mean, TestData.powerLaw(Math.min(d, 12), 3.0, 1.0), 0.2, seed + 1);
        ClassStatistics s = ClassStatistics.ofRows(x, d, TestData.allRows(n), 0, n);
        return ClassModel.fit(s, q, lambda, 1.0, PpcaMethod.Solver.FULL, seed);
    }

    private static float[] queries(int m, ClassModel model, long seed) {
        // queries from a wider distribution than the class, plus the class mean itself (score 0)
        float[] q = TestData.gaussianClass(m, model.mean, TestData.powerLaw(Math.min(model.dim, 5), 6.0, 0.5), 0.7,
                seed);
        for (int t = 0; t < model.dim; t++) {
            q[t] = (float) model.mean[t];
        }
        return q;
    }

    private static double fastScore(ClassModel m, float[] q, int i, boolean logLik) {
        double[] x = TestData.row(q, m.dim, i);
        double[] out = new double[1];
        m.scoreBlock(x, 1, new double[2 * m.dim], logLik, out, 0, 1);
        return out[0];
    }

    @ParameterizedTest(name = "n={0} d={1} q={2} lambda={3}")
    @CsvSource({"40, 24, 5, 0.01", "40, 24, 0, 0.01", "200, 30, 20, 0.01", "8, 30, 20, 0.5", "60, 16, 16, 1e-4",
            "2, 10, 3, 0.01", "1, 10, 3, 0.01"})
    void fastScoreEqualsExplicitMahalanobis(int n, int d, int q, double lambda) {
        ClassModel m = model(n, d, q, lambda, 11 + n + d);
        assertEquals(Math.min(q, Math.min(n - 1, d)), m.rank, "q_c = min(q, n - 1, d)");
        CholeskyFactor chol = TestData.cholesky(m);
        float[] qs = queries(25, m, 5);
        for (int i = 0; i < 25; i++) {
            double explicit = TestData.explicitMahalanobis(chol, m, TestData.row(qs, d, i));
            double fast = fastScore(m, qs, i, false);
            double eq10 = m.scoreEq10(TestData.row(qs, d, i));
            double tol = 1e-9 * Math.max(explicit, 1e-300);
            if (i == 0) {
                assertEquals(0.0, fast, 1e-9, "the class mean has score 0");
                continue;
            }
            assertEquals(explicit, fast, tol, "query " + i + ": fast score vs explicit Sigma^-1");
            assertEquals(explicit, eq10, tol, "query " + i + ": Eq. 10 literally vs explicit Sigma^-1");
        }
    }

    @ParameterizedTest(name = "n={0} d={1} q={2} lambda={3}")
    @CsvSource({"40, 24, 5, 0.01", "40, 24, 0, 0.01", "200, 30, 20, 0.01", "8, 30, 20, 0.5", "60, 16, 16, 1e-4"})
    void logDeterminantEquation11(int n, int d, int q, double lambda) {
        ClassModel m = model(n, d, q, lambda, 3 + n);
        double direct = TestData.cholesky(m).logDet();
        assertEquals(direct, m.logDet, 1e-9 * Math.abs(direct), "Eq. 11 vs log|Sigma| from a Cholesky factor");
        float[] qs = queries(5, m, 9);
        for (int i = 1; i < 5; i++) {
            double s = fastScore(m, qs, i, true);
            double expected = fastScore(m, qs, i, false) + direct;
            assertEquals(expected, s, 1e-9 * Math.abs(expected), "loglik score = Mahalanobis + log|Sigma|");
        }
    }

    @Test
    void qZeroIsSquaredEuclideanDistanceOverLambda() {
        ClassModel m = model(30, 12, 0, 0.25, 4);
        float[] qs = queries(6, m, 2);
        for (int i = 0; i < 6; i++) {
            double[] x = TestData.row(qs, 12, i);
            double d2 = 0;
            for (int t = 0; t < 12; t++) {
                d2 += (x[t] - m.mean[t]) * (x[t] - m.mean[t]);
            }
            assertEquals(d2 / 0.25, fastScore(m, qs, i, false), 1e-12 * Math.max(1, d2));
            assertEquals(12 * Math.log(0.25), m.logDet, 1e-12);
        }
    }

    @Test
    void scoreStaysAccurateWhenResidualLiesInTheSubspace() {
        // A query on the principal axis with a tiny lambda: ||r||^2 and sum p^2 cancel; the score stays >= 0 and close.
        ClassModel m = model(100, 20, 4, 1e-6, 8);
        double[] x = m.mean.clone();
        for (int t = 0; t < 20; t++) {
            x[t] += 50 * m.basis[t];
        }
        double[] out = new double[1];
        m.scoreBlock(x, 1, new double[40], false, out, 0, 1);
        double exact = 2500 / (m.variances[0] + 1e-6);
        assertEquals(exact, out[0], 1e-8 * exact);
        assertTrue(out[0] >= 0);
    }
}
