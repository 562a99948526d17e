package fsil.core.calibration;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ScoringRulesTest {
    @Test
    void oneHotCorrectScoresZero() {
        double[] p = {0, 1, 0, 1, 0, 0, 0, 0, 1};
        int[] y = {1, 0, 2};
        assertArrayEquals(new double[]{0, 0, 0}, ScoringRules.nllPerRow(p, y, 3));
        assertArrayEquals(new double[]{0, 0, 0}, ScoringRules.brierPerRow(p, y, 3));
        assertEquals(0.0, ScoringRules.nllMean(p, y, 3));
        assertEquals(0.0, ScoringRules.brierMean(p, y, 3));
    }

    @Test
    void uniformScoresLogCAndCMinusOneOverC() {
        for (int c : new int[]{1, 2, 3, 5, 10, 100}) {
            double[] p = new double[4 * c];
            java.util.Arrays.fill(p, 1.0 / c);
            int[] y = {0, c - 1, c / 2, 0};
            assertEquals(Math.log(c), ScoringRules.nllMean(p, y, c), 1e-14, "C=" + c);
            assertEquals(4 * Math.log(c), ScoringRules.nllSum(p, y, c), 4e-14, "C=" + c);
            assertEquals((c - 1.0) / c, ScoringRules.brierMean(p, y, c), 1e-14, "C=" + c);
            assertEquals(4 * (c - 1.0) / c, ScoringRules.brierSum(p, y, c), 4e-14, "C=" + c);
        }
    }

    @Test
    void handComputedRows() {
        double[] p = {0.7, 0.2, 0.1, 0.2, 0.5, 0.3, 0.25, 0.25, 0.5};
        int[] y = {0, 2, 1};
        // row 0: -log 0.7; 0.3^2 + 0.2^2 + 0.1^2 = 0.14
        // row 1: -log 0.3; 0.2^2 + 0.5^2 + 0.7^2 = 0.78
        // row 2: -log 0.25; 0.25^2 + 0.75^2 + 0.5^2 = 0.875
        assertArrayEquals(new double[]{-Math.log(0.7), -Math.log(0.3), Math.log(4)}, ScoringRules.nllPerRow(p, y, 3), 1e-15);
        assertArrayEquals(new double[]{0.14, 0.78, 0.875}, ScoringRules.brierPerRow(p, y, 3), 1e-15);
        assertEquals((-Math.log(0.7) - Math.log(0.3) + Math.log(4)) / 3, ScoringRules.nllMean(p, y, 3), 1e-15);
        assertEquals((0.14 + 0.78 + 0.875) / 3, ScoringRules.brierMean(p, y, 3), 1e-15);
        assertEquals(-Math.log(0.3), ScoringRules.nll(p, 3, 1, 2), 0);
        assertEquals(0.78, ScoringRules.brier(p, 3, 1, 2), 1e-15);
    }

    @Test
    void certainAndWrongIsLargeButFinite() {
        double[] p = {1, 0};
        int[] y = {1};
        assertEquals(-Math.log(1e-300), ScoringRules.nllMean(p, y, 2), 0);
        assertEquals(690.7755278982137, ScoringRules.nllMean(p, y, 2), 1e-12);
        assertEquals(2.0, ScoringRules.brierMean(p, y, 2), 0);
        // a tiny but representable probability is not floored
        assertEquals(-Math.log(1e-200), ScoringRules.nll(new double[]{1 - 1e-200, 1e-200}, 2, 0, 1), 0);
    }

    @Test
    void confidentCorrectBrierHasNoCancellation() {
        double eps = 0x1p-40; // 1 - eps is exact
        double[] p = {1 - eps, eps};
        assertEquals(2 * eps * eps, ScoringRules.brier(p, 2, 0, 0), 0);
    }

    @Test
    void emptyAndMalformedInput() {
        assertEquals(0.0, ScoringRules.nllSum(new double[0], new int[0], 3));
        assertEquals(Double.NaN, ScoringRules.nllMean(new double[0], new int[0], 3));
        assertEquals(Double.NaN, ScoringRules.brierMean(new double[0], new int[0], 3));
        assertThrows(IllegalArgumentException.class, () -> ScoringRules.nllMean(new double[5], new int[2], 3));
        assertThrows(IllegalArgumentException.class, () -> ScoringRules.brierMean(new double[6], new int[]{0, 3}, 3));
        assertThrows(IllegalArgumentException.class, () -> ScoringRules.nllSum(new double[2], new int[]{-1}, 2));
        assertThrows(IllegalArgumentException.class, () -> ScoringRules.brierSum(new double[0], new int[0], 0));
    }
}
