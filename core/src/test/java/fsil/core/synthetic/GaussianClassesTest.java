package fsil.core.synthetic;

import fsil.api.LabeledData;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GaussianClassesTest {

    private static GaussianClasses.Builder everything(int dim, long seed) {
        return GaussianClasses.builder(dim, seed).means(4, 1.5).modes(2).subspaceNoise(0.7).offset(0.5, 0.25)
                .noiseLogUniform(0.3, 3).nuisance(3, 2.0).classDirections(5, 1.0, 1.0);
    }

    @Test
    void aClassDoesNotDependOnTheOtherClassesOrTheSeedOfAnother() {
        GaussianClasses m = everything(12, 7).build();
        LabeledData few = m.classes(0, 3, 10, 0);
        LabeledData many = m.classes(0, 40, 10, 0);
        float[] a = few.features().rawData();
        assertArrayEquals(a, Arrays.copyOf(many.features().rawData(), a.length));
        assertArrayEquals(a, everything(12, 7).build().classes(0, 3, 10, 0).features().rawData(), "deterministic");
        assertFalse(Arrays.equals(a, everything(12, 8).build().classes(0, 3, 10, 0).features().rawData()));
        LabeledData one = m.sample(new int[]{2}, 10, 0);
        assertArrayEquals(Arrays.copyOfRange(a, 20 * 12, 30 * 12), one.features().rawData());
        assertArrayEquals(new int[]{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, one.labels());
    }

    @Test
    void partsAreIndependentStreamsAndFewerRowsArePrefixes() {
        GaussianClasses m = everything(6, 3).build();
        float[] five = new float[5 * 6];
        float[] eight = new float[8 * 6];
        m.sample(1, 0, 5, five, 0);
        m.sample(1, 0, 8, eight, 0);
        assertArrayEquals(five, Arrays.copyOf(eight, five.length));
        float[] test = new float[5 * 6];
        m.sample(1, 1, 5, test, 0);
        assertFalse(Arrays.equals(five, test));
        float[] again = new float[7 * 6];
        m.sample(1, 1, 5, again, 2);
        assertArrayEquals(test, Arrays.copyOfRange(again, 12, 42), "written from the row asked for");
    }

    @Test
    void basisIsOrthonormal() {
        double[] u = GaussianClasses.builder(20, 4).means(20, 1).build().basis();
        for (int a = 0; a < 20; a++) {
            for (int b = 0; b < 20; b++) {
                double dot = 0;
                for (int i = 0; i < 20; i++) {
                    dot += u[a * 20 + i] * u[b * 20 + i];
                }
                assertEquals(a == b ? 1 : 0, dot, 1e-12);
            }
        }
    }

    /** Default parts: mean U mu_c and covariance s^2 U U^T + noise^2 I, entry by entry. */
    @Test
    void defaultModelHasItsClosedFormMoments() {
        int d = 6;
        int n = 40_000;
        GaussianClasses m = GaussianClasses.builder(d, 11).means(2, 3).subspaceNoise(0.8).noise(0.5).build();
        double[] u = m.basis();
        double[][] cov = covariance(m, 0, n);
        double[] mean = columnMeans(m, 0, n);
        double[] truth = m.mean(0, 0);
        for (int i = 0; i < d; i++) {
            assertEquals(truth[i], mean[i], 0.02, "mean " + i);
            for (int j = 0; j < d; j++) {
                double expected = (i == j ? 0.25 : 0);
                for (int k = 0; k < 2; k++) {
                    expected += 0.64 * u[k * d + i] * u[k * d + j];
                }
                assertEquals(expected, cov[i][j], 0.03, "covariance " + i + "," + j);
            }
        }
    }

    @Test
    void logUniformNoiseScalesStayInTheirRangeAndSpanIt() {
        int d = 200;
        GaussianClasses m = GaussianClasses.builder(d, 5).means(1, 0).subspaceNoise(0).noiseLogUniform(0.3, 3)
                .build();
        double[][] cov = covariance(m, 0, 4000);
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        int below = 0;
        for (int j = 0; j < d; j++) {
            double sd = Math.sqrt(cov[j][j]);
            assertTrue(sd > 0.3 * 0.93 && sd < 3 * 1.07, "sd " + sd);
            lo = Math.min(lo, sd);
            hi = Math.max(hi, sd);
            below += sd < Math.sqrt(0.3 * 3) ? 1 : 0;
        }
        assertTrue(lo < 0.33 && hi > 2.7, lo + " .. " + hi);
        assertEquals(100, below, 25, "log-uniform: half the scales below the geometric midpoint");
    }

    /** Nuisance directions only: covariance of rank k, the same for every class, with trace about k sd^2. */
    @Test
    void nuisanceDirectionsAreSharedAndLowRank() {
        int d = 30;
        GaussianClasses m = GaussianClasses.builder(d, 9).means(3, 2).subspaceNoise(0).noise(0).nuisance(3, 2)
                .build();
        double[] e0 = eigenvalues(covariance(m, 0, 3000));
        double[] e1 = eigenvalues(covariance(m, 1, 3000));
        for (int i = 0; i < d - 3; i++) {
            assertEquals(0, e0[i], 1e-9);
        }
        double trace = e0[d - 1] + e0[d - 2] + e0[d - 3];
        assertEquals(12, trace, 12 * 0.6, "k sd^2 with nearly unit directions");
        double[][] a = covariance(m, 0, 3000);
        double[][] b = covariance(m, 1, 3000);
        assertEquals(a[0][1], b[0][1], 0.15 * trace, "one B for all classes");
        assertEquals(e0[d - 1], e1[d - 1], 0.2 * e0[d - 1]);
    }

    /** Class directions only: eigenvalues about scale i^-decay along nearly orthonormal directions of its own. */
    @Test
    void classDirectionsFollowThePowerLawAndDifferByClass() {
        int d = 400;
        GaussianClasses m = GaussianClasses.builder(d, 13).means(1, 0).subspaceNoise(0).noise(0)
                .classDirections(4, 2.0, 2.0).build();
        double[][] c0 = covariance(m, 0, 6000);
        double[] e = eigenvalues(c0);
        for (int i = 1; i <= 4; i++) {
            double expected = 2.0 * Math.pow(i, -2.0);
            assertEquals(expected, e[d - i], 0.25 * expected, "eigenvalue " + i);
        }
        assertEquals(0, e[d - 5], 1e-9, "rank 4");
        double[][] c1 = covariance(m, 1, 6000);
        double overlap = 0;
        double norm = 0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                overlap += c0[i][j] * c1[i][j];
                norm += c0[i][j] * c0[i][j];
            }
        }
        assertTrue(overlap < 0.1 * norm, "another class's directions are (nearly) orthogonal: " + overlap / norm);
    }

    @Test
    void modesAreEquallyLikelyAndEachSampleSitsNearOne() {
        int d = 8;
        GaussianClasses m = GaussianClasses.builder(d, 2).means(8, 10).modes(3).subspaceNoise(0).noise(0.01)
                .offset(1.0, 0.5).build();
        double[][] means = {m.mean(4, 0), m.mean(4, 1), m.mean(4, 2)};
        float[] x = new float[3000 * d];
        m.sample(4, 0, 3000, x, 0);
        int[] counts = new int[3];
        for (int r = 0; r < 3000; r++) {
            int nearest = -1;
            for (int k = 0; k < 3; k++) {
                double dist = 0;
                for (int j = 0; j < d; j++) {
                    dist += Math.pow(x[r * d + j] - means[k][j], 2);
                }
                if (dist < 0.01) {
                    nearest = k;
                }
            }
            assertTrue(nearest >= 0, "sample " + r + " is near a mode");
            counts[nearest]++;
        }
        for (int k = 0; k < 3; k++) {
            assertEquals(1000, counts[k], 100, "mode " + k);
        }
    }

    @Test
    void theOffsetIsSharedByEveryClass() {
        int d = 50;
        GaussianClasses m = GaussianClasses.builder(d, 21).means(5, 0).subspaceNoise(0).offset(0.5, 0.25).build();
        double[] a = m.mean(0, 0);
        assertArrayEquals(a, m.mean(17, 0), "spread 0: every class's mean is the offset");
        double s = 0;
        for (double v : a) {
            s += v;
        }
        assertEquals(0.5, s / d, 3 * 0.25 / Math.sqrt(d));
    }

    @Test
    void rejectsImpossibleParts() {
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(0, 1));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).means(5, 1));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).means(2, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).modes(0));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).noise(-1));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).noiseLogUniform(2, 1));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).nuisance(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).classDirections(2, 1,
                Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> GaussianClasses.builder(4, 1).build().mean(0, 1));
    }

    private static double[] columnMeans(GaussianClasses m, int c, int n) {
        int d = m.dim();
        float[] x = new float[n * d];
        m.sample(c, 0, n, x, 0);
        double[] mean = new double[d];
        for (int r = 0; r < n; r++) {
            for (int j = 0; j < d; j++) {
                mean[j] += x[r * d + j] / (double) n;
            }
        }
        return mean;
    }

    private static double[][] covariance(GaussianClasses m, int c, int n) {
        int d = m.dim();
        float[] x = new float[n * d];
        m.sample(c, 0, n, x, 0);
        double[] mean = columnMeans(m, c, n);
        double[][] cov = new double[d][d];
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < d; i++) {
                double a = x[r * d + i] - mean[i];
                for (int j = 0; j < d; j++) {
                    cov[i][j] += a * (x[r * d + j] - mean[j]) / (n - 1);
                }
            }
        }
        return cov;
    }

    /** Eigenvalues in ascending order. */
    private static double[] eigenvalues(double[][] a) {
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(a.length, false, true);
        assertTrue(eig.decompose(new DMatrixRMaj(a)));
        double[] e = new double[a.length];
        for (int i = 0; i < e.length; i++) {
            e[i] = eig.getEigenvalue(i).getReal();
        }
        Arrays.sort(e);
        return e;
    }
}
