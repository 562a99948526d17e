package fsil.methods.bavardage;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tridiagonal QL eigensolver: A v = lambda v and orthonormal vectors on random, degenerate and graded input. */
class HouseholderQlTest {

    private static void check(double[] a, int n, String name) {
        double[] values = new double[n];
        double[][] rows = new double[n][n];
        assertTrue(HouseholderQl.decompose(a, n, values, rows), name + ": converged");
        double norm = 0;
        for (double v : a) {
            norm = Math.max(norm, Math.abs(v));
        }
        double scale = Math.max(norm * n, Double.MIN_NORMAL);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += rows[i][k] * rows[j][k];
                }
                assertEquals(i == j ? 1 : 0, s, 1e-13 * n, name + ": orthonormal rows " + i + ", " + j);
            }
            for (int r = 0; r < n; r++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += a[r * n + k] * rows[i][k];
                }
                assertEquals(values[i] * rows[i][r], s, 1e-14 * scale, name + ": A v = lambda v");
            }
        }
    }

    @Test
    void randomSymmetricMatrices() {
        Random rnd = new Random(1);
        for (int n : new int[]{0, 1, 2, 3, 7, 40, 100}) {
            double[] a = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j <= i; j++) {
                    double g = rnd.nextGaussian();
                    a[i * n + j] = g;
                    a[j * n + i] = g;
                }
            }
            check(a, n, "random " + n);
        }
    }

    @Test
    void traceEqualsSumOfEigenvaluesForAKnownSpectrum() {
        // diag(1..n) rotated by a Householder reflection: eigenvalues exactly 1..n
        int n = 20;
        Random rnd = new Random(2);
        double[] u = new double[n];
        double nu = 0;
        for (int i = 0; i < n; i++) {
            u[i] = rnd.nextGaussian();
            nu += u[i] * u[i];
        }
        double[] a = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    double hik = (i == k ? 1 : 0) - 2 * u[i] * u[k] / nu;
                    double hjk = (j == k ? 1 : 0) - 2 * u[j] * u[k] / nu;
                    s += hik * (k + 1) * hjk;
                }
                a[i * n + j] = s;
            }
        }
        double[] values = new double[n];
        assertTrue(HouseholderQl.decompose(a, n, values, new double[n][n]));
        java.util.Arrays.sort(values);
        for (int i = 0; i < n; i++) {
            assertEquals(i + 1, values[i], 1e-12);
        }
    }

    @Test
    void nearlyRankOneGramMatricesKeepOrthonormalVectors() {
        // +-1 entries up to an ulp: the reduction leaves subnormal entries, which EISPACK's running-maximum test
        // would rotate with (non-orthogonal rotations); the norm-based test splits them off
        int n = 84;
        for (int t = 0; t < 30; t++) {
            double[] v = signsUpToAnUlp(new Random(t), n);
            double[] g = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    g[i * n + j] = v[i] * v[j];
                }
            }
            check(g, n, "rank one " + t);
        }
    }

    /** +-1 entries that are +-1 only up to an ulp: x / |x| for float x, computed as x * (1 / sqrt(x * x)). */
    static double[] signsUpToAnUlp(Random r, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            double x = (float) ((r.nextBoolean() ? 1 : -1) * (0.01 + 3 * r.nextDouble()));
            v[i] = x * (1 / Math.sqrt(x * x));
        }
        return v;
    }

    @Test
    void zeroAndDiagonalMatrices() {
        check(new double[9], 3, "zero");
        check(new double[]{3, 0, 0, 0, 1e-300, 0, 0, 0, -2}, 3, "diagonal");
    }
}
