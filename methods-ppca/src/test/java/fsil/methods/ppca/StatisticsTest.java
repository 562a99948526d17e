package fsil.methods.ppca;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Streaming moments: Chan merges over random chunkings equal the two-pass batch moments. */
class StatisticsTest {

    private static ClassStatistics chunked(float[] x, int n, int d, int[] cuts) {
        int[] rows = TestData.allRows(n);
        ClassStatistics s = null;
        int from = 0;
        for (int cut : cuts) {
            ClassStatistics c = ClassStatistics.ofRows(x, d, rows, from, cut);
            if (s == null) {
                s = c;
            } else {
                s.merge(c);
            }
            from = cut;
        }
        return s;
    }

    /** Random increasing cut points ending at n. */
    private static int[] randomCuts(int n, int pieces, UniformRandomProvider rng) {
        java.util.TreeSet<Integer> set = new java.util.TreeSet<>();
        while (set.size() < pieces - 1) {
            set.add(1 + rng.nextInt(n - 1));
        }
        set.add(n);
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    @ParameterizedTest(name = "n={0} d={1} pieces={2}")
    @CsvSource({"50, 12, 5", "50, 12, 49", "300, 12, 7", "30, 40, 4", "700, 40, 9", "25, 40, 25"})
    void mergedChunksEqualBatchMoments(int n, int d, int pieces) {
        UniformRandomProvider rng = RandomStreams.create(n * 31L + d);
        float[] x = TestData.gaussianClass(n, TestData.randomMean(d, 3, 1), TestData.powerLaw(8, 2, 1), 0.3, 2);
        double[][] ref = TestData.meanAndScatter(x, n, d);
        for (int trial = 0; trial < 3; trial++) {
            ClassStatistics s = chunked(x, n, d, randomCuts(n, pieces, rng));
            assertEquals(n, s.count());
            double[] mean = s.mean();
            for (int t = 0; t < d; t++) {
                assertEquals(ref[0][t], mean[t], 1e-12 * (1 + Math.abs(ref[0][t])));
            }
            DMatrixRMaj m2 = s.scatterCopy();
            double scale = 0;
            for (double v : ref[1]) {
                scale = Math.max(scale, Math.abs(v));
            }
            for (int i = 0; i < d * d; i++) {
                assertEquals(ref[1][i], m2.data[i], 1e-10 * scale, "scatter entry " + i);
            }
        }
    }

    @Test
    void factorFormSwitchesToDenseOnlyWhenLarger() {
        int d = 10;
        float[] x = TestData.gaussianClass(30, new double[d], TestData.powerLaw(4, 1, 1), 0.1, 3);
        int[] rows = TestData.allRows(30);
        ClassStatistics s = ClassStatistics.ofRows(x, d, rows, 0, 4);
        assertEquals(4, s.factorRows());
        s.merge(ClassStatistics.ofRows(x, d, rows, 4, 8));
        assertEquals(9, s.factorRows(), "4 + 4 rows plus one mean-shift row");
        s.merge(ClassStatistics.ofRows(x, d, rows, 8, 9));
        assertEquals(-1, s.factorRows(), "11 rows > d: dense");
        assertEquals(-1, ClassStatistics.ofRows(x, d, rows, 0, 30).factorRows(), "a chunk with n > d starts dense");
        assertTrue(s.memoryBytes() >= 8L * d * d);
    }

    @Test
    void largeOffsetDoesNotCancel() {
        // Features with a common offset 1000 and unit spread: raw moments in float32 lose everything;
        // the centred two-pass chunks and Chan merges keep the covariance to float64 accuracy.
        int n = 400;
        int d = 6;
        double[] mean = new double[d];
        java.util.Arrays.fill(mean, 1000);
        float[] x = TestData.gaussianClass(n, mean, new double[]{1, 0.5}, 0.05, 7);
        double[][] ref = TestData.meanAndScatter(x, n, d);
        ClassStatistics s = chunked(x, n, d, new int[]{3, 90, 91, 250, 400});
        DMatrixRMaj m2 = s.scatterCopy();
        for (int i = 0; i < d * d; i++) {
            assertEquals(ref[1][i], m2.data[i], 1e-9 * Math.abs(ref[1][0]));
        }
    }

    @Test
    void copyIsIndependent() {
        int d = 5;
        float[] x = TestData.gaussianClass(20, new double[d], new double[]{1}, 0.1, 9);
        int[] rows = TestData.allRows(20);
        ClassStatistics a = ClassStatistics.ofRows(x, d, rows, 0, 10);
        ClassStatistics b = a.copy();
        b.merge(ClassStatistics.ofRows(x, d, rows, 10, 20));
        assertEquals(10, a.count());
        assertArrayEquals(ClassStatistics.ofRows(x, d, rows, 0, 10).scatterCopy().data, a.scatterCopy().data);
    }

    @Test
    void lowRankModelMergesExactlyWhenNothingWasTruncated() {
        // scatter=drop keeps sum (n - 1) d_i l_i l_i^T; with q >= n - 1 that is the whole scatter, so merging a later
        // chunk into it is exact.
        int d = 30;
        int n1 = 8;
        float[] x = TestData.gaussianClass(20, TestData.randomMean(d, 1, 4), TestData.powerLaw(10, 1, 1), 0.1, 5);
        int[] rows = TestData.allRows(20);
        ClassStatistics first = ClassStatistics.ofRows(x, d, rows, 0, n1);
        ClassModel m = ClassModel.fit(first, 50, 0.01, 1.0, PpcaMethod.Solver.FULL, 1);
        assertEquals(n1 - 1, m.rank);
        ClassStatistics low = ClassStatistics.ofLowRank(d, m.count, m.mean, m.basis, m.variances, 1.0);
        low.merge(ClassStatistics.ofRows(x, d, rows, n1, 20));
        double[][] ref = TestData.meanAndScatter(x, 20, d);
        DMatrixRMaj m2 = low.scatterCopy();
        for (int i = 0; i < d * d; i++) {
            assertEquals(ref[1][i], m2.data[i], 1e-10 * Math.abs(ref[1][0]) + 1e-12);
        }
    }
}
