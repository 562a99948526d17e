package fsil.core.cluster;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KMeansTest {

    /** n points per cluster around k well-separated centres in d dimensions; returns the points, row-major. */
    private static double[] blobs(int k, int per, int d, double spread, long seed) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] x = new double[k * per * d];
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < per; i++) {
                for (int j = 0; j < d; j++) {
                    x[((c * per) + i) * d + j] = (j == c % d ? 10.0 * (1 + c / d) : 0) + spread * g.sample();
                }
            }
        }
        return x;
    }

    @Test
    void recoversSeparatedClustersAndInertiaIsConsistent() {
        int k = 4, per = 30, d = 5;
        double[] x = blobs(k, per, d, 0.3, 1);
        KMeans.Result r = KMeans.of(k, 5).fit(x, k * per, d, 42);
        for (int c = 0; c < k; c++) {
            int l = r.labels()[c * per];
            for (int i = 0; i < per; i++) {
                assertEquals(l, r.labels()[c * per + i], "cluster " + c + " was split");
            }
        }
        assertEquals(k, r.nonEmpty());
        double inertia = 0;
        for (int i = 0; i < k * per; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                double t = x[i * d + j] - r.centres()[r.labels()[i] * d + j];
                s += t * t;
            }
            inertia += s;
        }
        assertEquals(inertia, r.inertia(), 1e-9 * inertia);
        // centres are the means of their clusters (Lloyd fixed point)
        for (int l = 0; l < k; l++) {
            for (int j = 0; j < d; j++) {
                double m = 0;
                for (int i = 0; i < k * per; i++) {
                    m += r.labels()[i] == l ? x[i * d + j] : 0;
                }
                assertEquals(m / r.sizes()[l], r.centres()[l * d + j], 1e-9);
            }
        }
    }

    @Test
    void deterministicForASeedAndRestartsNeverHurt() {
        double[] x = blobs(6, 10, 3, 2.5, 7);
        KMeans.Result a = KMeans.of(6, 10).fit(x, 60, 3, 5);
        KMeans.Result b = KMeans.of(6, 10).fit(x, 60, 3, 5);
        assertArrayEquals(a.labels(), b.labels());
        assertArrayEquals(a.centres(), b.centres());
        // the best of 10 restarts includes restart 0, which is the single-restart run
        KMeans.Result one = KMeans.of(6, 1).fit(x, 60, 3, 5);
        assertTrue(a.inertia() <= one.inertia());
    }

    @Test
    void oneClusterIsTheMean() {
        double[] x = {1, 2, 3, 4, 5, 9};
        KMeans.Result r = KMeans.of(1, 3).fit(x, 3, 2, 0);
        assertArrayEquals(new double[]{3, 5}, r.centres(), 1e-12);
        assertEquals((4 + 9) + (0 + 1) + (4 + 16), r.inertia(), 1e-12);
    }

    @Test
    void coincidingPointsStillGiveNonEmptyClusters() {
        double[] x = new double[8 * 3];
        java.util.Arrays.fill(x, 0.5);
        KMeans.Result r = KMeans.of(2, 4).fit(x, 8, 3, 3);
        assertEquals(2, r.nonEmpty());
        assertEquals(0.0, r.inertia(), 0.0);
        // two distinct values among many copies: exactly the two groups
        double[] y = {0, 0, 0, 0, 1, 1};
        KMeans.Result s = KMeans.of(2, 2).fit(y, 6, 1, 9);
        assertEquals(s.labels()[0], s.labels()[3]);
        assertEquals(s.labels()[4], s.labels()[5]);
        assertTrue(s.labels()[0] != s.labels()[4]);
    }

    @Test
    void badInputIsRejectedWithAClearMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KMeans.of(3, 1).fit(new double[]{1, 2}, 2, 1, 0));
        assertTrue(e.getMessage().contains("at least 3 points"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KMeans.of(1, 1).fit(new double[]{Double.NaN}, 1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new KMeans(0, 1, 1, 0));
    }
}
