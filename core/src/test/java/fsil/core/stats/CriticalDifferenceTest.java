package fsil.core.stats;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CriticalDifferenceTest {
    /** Demsar (2006), Table 5(a): q_0.05 and q_0.10 of the two-tailed Nemenyi test for k = 2..10. */
    private static final double[] DEMSAR_005 = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164};
    private static final double[] DEMSAR_010 = {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920};

    @Test
    void studentizedRangeQuantilesMatchScipy() {
        JsonNode quantiles = Fixtures.load("studentized_range.json").get("quantiles");
        assertEquals(2 * 49, quantiles.size());
        for (JsonNode c : quantiles) {
            int k = c.get("k").asInt();
            double alpha = c.get("alpha").asDouble();
            double q = StudentizedRange.quantile(1.0 - alpha, k);
            Fixtures.close(c.get("q").asDouble(), q, 1e-12, 1.0, "k=" + k + " alpha=" + alpha);
            Fixtures.close(c.get("q_over_sqrt2").asDouble(), CriticalDifference.qAlpha(k, alpha), 1e-12, 1.0,
                    "q_alpha k=" + k);
        }
    }

    @Test
    void studentizedRangeCdfMatchesScipy() {
        for (JsonNode c : Fixtures.load("studentized_range.json").get("cdf")) {
            int k = c.get("k").asInt();
            double q = c.get("q").asDouble();
            assertEquals(c.get("cdf").asDouble(), StudentizedRange.cdf(q, k), 1e-13, "k=" + k + " q=" + q);
        }
    }

    @Test
    void twoMeansIsAClosedForm() {
        // The range of two standard normals is |Z1 - Z2| ~ |N(0, 2)|: P(R <= q) = 2 Phi(q / sqrt 2) - 1.
        assertEquals(1.959963984540054 * Math.sqrt(2.0), StudentizedRange.quantile(0.95, 2), 1e-12);
        assertEquals(1.644853626951472 * Math.sqrt(2.0), StudentizedRange.quantile(0.90, 2), 1e-12);
        assertEquals(0.0, StudentizedRange.cdf(0.0, 5));
        assertEquals(1.0, StudentizedRange.cdf(Double.POSITIVE_INFINITY, 5));
    }

    @Test
    void matchesDemsarTable5ToItsPrintedDecimals() {
        // The table is q/sqrt 2 of three-decimal q tables, so it can be off by up to 7e-4 from the exact value
        // (k = 3 at 0.05: 2.34370 printed 2.343); every entry is within one unit of its third decimal.
        for (int k = 2; k <= 10; k++) {
            assertEquals(DEMSAR_005[k - 2], CriticalDifference.qAlpha(k, 0.05), 1e-3, "alpha 0.05 k=" + k);
            assertEquals(DEMSAR_010[k - 2], CriticalDifference.qAlpha(k, 0.10), 1e-3, "alpha 0.10 k=" + k);
        }
    }

    @Test
    void demsarWorkedExample() {
        // Section 3.2.2: four classifiers on 14 data sets, CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25 at 0.05.
        assertEquals(1.25, CriticalDifference.criticalDifference(4, 14, 0.05), 0.005);
        double[] avg = {3.143, 2.000, 2.893, 1.964};
        CriticalDifference cd = CriticalDifference.nemenyi(avg, 14, 0.05);
        assertEquals(4, cd.methods());
        assertArrayEquals(new int[][] {{3, 1, 2, 0}}, cd.cliques(), "no pair differs at 0.05");
        assertFalse(cd.differ(0, 3));
        // At 0.10, CD = 2.291 sqrt(20/84) = 1.12 and the best and worst (3.143 - 1.964 = 1.179) differ.
        CriticalDifference cd10 = CriticalDifference.nemenyi(avg, 14, 0.10);
        assertTrue(cd10.differ(0, 3));
        // Bars: {m+cf, m, cf} (1.964 .. 2.893) and {cf, C4.5} (2.893 .. 3.143); {m, cf} lies inside the first.
        assertArrayEquals(new int[][] {{3, 1, 2}, {2, 0}}, cd10.cliques());
    }

    @Test
    void cliquesAreMaximalRunsShorterThanCd() {
        // Sorted ranks 1.0, 1.5, 2.4, 3.8, 4.0, 6.0 with CD 1.5: runs from each method, nested {1.5, 2.4} dropped,
        // 6.0 alone (it differs from everything).
        double[] avg = {2.4, 1.0, 6.0, 1.5, 3.8, 4.0};
        assertArrayEquals(new int[][] {{1, 3, 0}, {0, 4}, {4, 5}}, CriticalDifference.cliques(avg, 1.5));
        // Exactly CD apart is a significant difference (Demsar: "differ by at least the critical difference").
        assertArrayEquals(new int[][] {{0, 1}, {1, 2}}, CriticalDifference.cliques(new double[] {1, 2, 3}, 1.0001));
        assertArrayEquals(new int[0][], CriticalDifference.cliques(new double[] {1, 2, 3}, 1.0));
        assertArrayEquals(new int[][] {{0, 1, 2}}, CriticalDifference.cliques(new double[] {2, 2, 2}, 0.5));
        CriticalDifference cd = CriticalDifference.nemenyi(avg, 30, 0.05);
        cd.cliques()[0][0] = 99;
        assertEquals(1, cd.cliques()[0][0], "accessor returns a copy");
    }

    @Test
    void supportsManyMethods() {
        double previous = 0.0;
        for (int k = 2; k <= 60; k++) {
            double q = CriticalDifference.qAlpha(k, 0.05);
            assertTrue(q > previous, "q grows with k");
            previous = q;
        }
        assertEquals(0.95, StudentizedRange.cdf(StudentizedRange.quantile(0.95, 100), 100), 1e-13);
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> StudentizedRange.quantile(0.95, 1));
        assertThrows(IllegalArgumentException.class, () -> StudentizedRange.quantile(1.0, 3));
        assertThrows(IllegalArgumentException.class, () -> StudentizedRange.cdf(Double.NaN, 3));
        assertThrows(IllegalArgumentException.class, () -> CriticalDifference.criticalDifference(3, 0, 0.05));
        assertThrows(IllegalArgumentException.class, () -> CriticalDifference.qAlpha(3, 0.0));
        assertThrows(IllegalArgumentException.class, () -> CriticalDifference.nemenyi(new double[] {1.0}, 5, 0.05));
        assertThrows(IllegalArgumentException.class, () -> CriticalDifference.cliques(new double[] {1, 2}, -1));
        assertThrows(IllegalArgumentException.class, () -> CriticalDifference.cliques(new double[0], 1));
    }
}
