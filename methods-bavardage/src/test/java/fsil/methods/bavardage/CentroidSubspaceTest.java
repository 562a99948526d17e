package fsil.methods.bavardage;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The PLDA between-class step: orthonormal basis spanning the shrunk-centroid differences. */
class CentroidSubspaceTest {

    private static double[] random(SplittableRandom rnd, int len) {
        double[] a = new double[len];
        for (int i = 0; i < len; i++) {
            a[i] = rnd.nextDouble(-1, 1);
        }
        return a;
    }

    /** Random responsibilities with one-hot rows for the first k rows (one support row per class). */
    private static double[] responsibilities(SplittableRandom rnd, int n, int k) {
        double[] r = new double[n * k];
        for (int i = 0; i < n; i++) {
            if (i < k) {
                r[i * k + i] = 1;
                continue;
            }
            double s = 0;
            for (int c = 0; c < k; c++) {
                r[i * k + c] = rnd.nextDouble();
                s += r[i * k + c];
            }
            for (int c = 0; c < k; c++) {
                r[i * k + c] /= s;
            }
        }
        return r;
    }

    private static void assertOrthonormal(CentroidSubspace s) {
        int p = s.dim();
        int q = s.rank();
        double[] b = s.basis();
        for (int a = 0; a < q; a++) {
            for (int c = 0; c < q; c++) {
                double dot = 0;
                for (int t = 0; t < p; t++) {
                    dot += b[t * q + a] * b[t * q + c];
                }
                assertEquals(a == c ? 1 : 0, dot, 1e-12, "P^T P at " + a + "," + c);
            }
        }
    }

    /** ||(I - P P^T) v|| / ||v|| for every centroid difference v = c_k - c_1. */
    private static void assertSpansDifferences(CentroidSubspace s, int k) {
        int p = s.dim();
        int q = s.rank();
        double[] b = s.basis();
        double[] c = s.centroids();
        for (int j = 1; j < k; j++) {
            double[] v = new double[p];
            double norm = 0;
            for (int t = 0; t < p; t++) {
                v[t] = c[j * p + t] - c[t];
                norm += v[t] * v[t];
            }
            double[] coef = new double[q];
            for (int a = 0; a < q; a++) {
                for (int t = 0; t < p; t++) {
                    coef[a] += b[t * q + a] * v[t];
                }
            }
            double res = 0;
            for (int t = 0; t < p; t++) {
                double proj = 0;
                for (int a = 0; a < q; a++) {
                    proj += b[t * q + a] * coef[a];
                }
                res += (v[t] - proj) * (v[t] - proj);
            }
            assertEquals(0, Math.sqrt(res / Math.max(norm, 1e-300)), 1e-12, "difference " + j + " outside span(P)");
        }
    }

    @Test
    void basisIsOrthonormalAndSpansTheCentroidDifferences() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int trial = 0; trial < 20; trial++) {
            int k = 2 + trial % 6;
            int p = k + rnd.nextInt(20);
            int n = k + 10;
            double[] y = random(rnd, n * p);
            CentroidSubspace s = CentroidSubspace.fit(y, n, p, responsibilities(rnd, n, k), k, 10);
            assertEquals(k - 1, s.rank());
            assertOrthonormal(s);
            assertSpansDifferences(s, k);
        }
    }

    @Test
    void sameSubspaceAsTheLeadingEigenvectorsOfTheBetweenClassScatter() {
        // Paper Eq. 9: Psi = sum_k (c_k - cbar)(c_k - cbar)^T; its K-1 leading eigenvectors span the same
        // subspace, so the projectors P P^T agree.
        SplittableRandom rnd = new SplittableRandom(5);
        int k = 5;
        int p = 12;
        int n = 30;
        double[] y = random(rnd, n * p);
        CentroidSubspace s = CentroidSubspace.fit(y, n, p, responsibilities(rnd, n, k), k, 10);
        double[] c = s.centroids();
        double[] mean = new double[p];
        for (int j = 0; j < k; j++) {
            for (int t = 0; t < p; t++) {
                mean[t] += c[j * p + t] / k;
            }
        }
        DMatrixRMaj psi = new DMatrixRMaj(p, p);
        for (int j = 0; j < k; j++) {
            for (int a = 0; a < p; a++) {
                for (int b = 0; b < p; b++) {
                    psi.add(a, b, (c[j * p + a] - mean[a]) * (c[j * p + b] - mean[b]));
                }
            }
        }
        SymmetricEigen e = SymmetricEigen.of(psi);
        assertEquals(0, e.values()[k - 1], 1e-12 * e.values()[0], "Psi has at most K-1 non-zero eigenvalues");
        int q = s.rank();
        for (int a = 0; a < p; a++) {
            for (int b = 0; b < p; b++) {
                double pp = 0;
                double vv = 0;
                for (int t = 0; t < q; t++) {
                    pp += s.basis()[a * q + t] * s.basis()[b * q + t];
                }
                for (int t = 0; t < k - 1; t++) {
                    vv += e.vectors()[a * p + t] * e.vectors()[b * p + t];
                }
                assertEquals(vv, pp, 1e-10);
            }
        }
    }

    @Test
    void rankDropsWhenDifferencesAreDependent() {
        SplittableRandom rnd = new SplittableRandom(7);
        // 5 classes in 2 dimensions: at most 2 independent differences
        int n = 15;
        CentroidSubspace low = CentroidSubspace.fit(random(rnd, n * 2), n, 2, responsibilities(rnd, n, 5), 5, 10);
        assertEquals(2, low.rank());
        assertOrthonormal(low);
        assertSpansDifferences(low, 5);
        // 1 dimension (the conformance kit's dimension-1 task)
        CentroidSubspace line = CentroidSubspace.fit(random(rnd, n), n, 1, responsibilities(rnd, n, 5), 5, 10);
        assertEquals(1, line.rank());
        assertOrthonormal(line);
        // two classes with identical data and assignments: the centroids coincide
        double[] y = {1, 2, 1, 2, 3, 4};
        double[] r = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
        CentroidSubspace none = CentroidSubspace.fit(y, 3, 2, r, 2, 10);
        assertEquals(0, none.rank());
        assertEquals(0, none.project(y, 3).length);
    }

    @Test
    void projectionIsPTransposeY() {
        SplittableRandom rnd = new SplittableRandom(9);
        int k = 4;
        int p = 7;
        int n = 11;
        double[] y = random(rnd, n * p);
        CentroidSubspace s = CentroidSubspace.fit(y, n, p, responsibilities(rnd, n, k), k, 3);
        double[] z = s.project(y, n);
        int q = s.rank();
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < q; a++) {
                double v = 0;
                for (int t = 0; t < p; t++) {
                    v += s.basis()[t * q + a] * y[i * p + t];
                }
                assertEquals(v, z[i * q + a], 1e-14);
            }
        }
    }
}
