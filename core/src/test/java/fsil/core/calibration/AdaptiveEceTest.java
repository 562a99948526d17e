package fsil.core.calibration;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AdaptiveEceTest {
    private static final double TOL = 1e-15;

    @Test
    void handComputedBins() {
        // sorted: 0.5(1) 0.55(5) 0.6(2) | 0.7(4) 0.8(3) | 0.9(0) 0.95(6); n = 7 = 2*3 + 1, so sizes 3, 2, 2
        double[] conf = {0.9, 0.5, 0.6, 0.8, 0.7, 0.55, 0.95};
        boolean[] correct = {true, false, true, true, false, false, true};
        AdaptiveEce a = AdaptiveEce.of(conf, correct, 3);
        assertEquals(3, a.bins());
        assertEquals(7, a.total());
        assertArrayEquals(new int[]{3, 2, 2}, new int[]{a.count(0), a.count(1), a.count(2)});
        assertArrayEquals(new double[]{0.55, 0.75, 0.925},
                new double[]{a.meanConfidence(0), a.meanConfidence(1), a.meanConfidence(2)}, TOL);
        assertArrayEquals(new double[]{1 / 3.0, 0.5, 1}, new double[]{a.accuracy(0), a.accuracy(1), a.accuracy(2)}, TOL);
        assertEquals(1.3 / 7, a.ece(), TOL);
    }

    @Test
    void remainderGoesToTheLowestConfidenceBins() {
        // n = 4, B = 3: sizes 2, 1, 1 (np.array_split); 1, 1, 2 would give 0.35
        double[] conf = {0.1, 0.2, 0.3, 0.4};
        boolean[] correct = {true, false, false, true};
        AdaptiveEce a = AdaptiveEce.of(conf, correct, 3);
        assertArrayEquals(new int[]{2, 1, 1}, new int[]{a.count(0), a.count(1), a.count(2)});
        assertEquals(0.4, a.ece(), TOL);
    }

    @Test
    void tiesAreSplitByRowIndex() {
        // rows 0 and 1 tie at 0.5 across the boundary: stable order puts row 0 in the low bin (0.425); the reverse
        // order would give 0.275
        double[] conf = {0.5, 0.5, 0.2, 0.9};
        boolean[] correct = {true, false, false, false};
        assertEquals(0.425, AdaptiveEce.ece(conf, correct, 2), TOL);
    }

    @Test
    void emptyBinsWhenFewerRowsThanBins() {
        double[] conf = {0.9, 0.6};
        boolean[] correct = {true, true};
        AdaptiveEce a = AdaptiveEce.of(conf, correct, 5);
        assertArrayEquals(new int[]{1, 1, 0, 0, 0}, new int[]{a.count(0), a.count(1), a.count(2), a.count(3), a.count(4)});
        assertEquals(0.6, a.meanConfidence(0), 0);
        assertEquals(Double.NaN, a.meanConfidence(4));
        assertEquals(Double.NaN, a.accuracy(4));
        assertEquals(0.5 * 0.4 + 0.5 * 0.1, a.ece(), TOL);
    }

    @Test
    void oneBinIsTheOverallGap() {
        double[] conf = {0.9, 0.6, 0.7};
        boolean[] correct = {true, false, false};
        assertEquals(Math.abs(1 / 3.0 - (0.9 + 0.6 + 0.7) / 3), AdaptiveEce.ece(conf, correct, 1), TOL);
    }

    @Test
    void probabilityMatrixUsesMaxAndFirstArgmax() {
        // row 0: tie 0.4/0.4, predicted column 0, label 1 -> wrong; row 1: correct at 0.7; row 2: wrong at 0.5
        double[] p = {0.4, 0.4, 0.2, 0.1, 0.7, 0.2, 0.5, 0.3, 0.2};
        int[] y = {1, 1, 2};
        AdaptiveEce a = AdaptiveEce.of(p, y, 3, 3);
        assertArrayEquals(new double[]{0.4, 0.5, 0.7}, new double[]{a.meanConfidence(0), a.meanConfidence(1), a.meanConfidence(2)});
        assertArrayEquals(new double[]{0, 0, 1}, new double[]{a.accuracy(0), a.accuracy(1), a.accuracy(2)});
        assertEquals((0.4 + 0.5 + 0.3) / 3, AdaptiveEce.ece(p, y, 3, 3), TOL);
        y[0] = 0;
        assertEquals((0.6 + 0.5 + 0.3) / 3, AdaptiveEce.ece(p, y, 3, 3), TOL);
    }

    @Test
    void perfectlyCalibratedBinsGiveZero() {
        // each bin: confidence 0.5 with half correct, or confidence 1 all correct
        double[] conf = {0.5, 0.5, 1, 1};
        boolean[] correct = {true, false, true, true};
        assertEquals(0.0, AdaptiveEce.ece(conf, correct, 2), 0);
    }

    @Test
    void emptyAndMalformedInput() {
        assertEquals(Double.NaN, AdaptiveEce.ece(new double[0], new boolean[0], 15));
        assertEquals(0, AdaptiveEce.of(new double[0], new int[0], 4, 15).total());
        assertThrows(IllegalArgumentException.class, () -> AdaptiveEce.ece(new double[]{0.5}, new boolean[]{true}, 0));
        assertThrows(IllegalArgumentException.class, () -> AdaptiveEce.ece(new double[]{0.5}, new boolean[0], 3));
        assertThrows(IllegalArgumentException.class, () -> AdaptiveEce.ece(new double[]{Double.NaN}, new boolean[]{true}, 3));
        assertThrows(IllegalArgumentException.class, () -> AdaptiveEce.ece(new double[]{0.5, 0.5}, new int[]{2}, 2, 3));
    }

    @Test
    void stableOrderMatchesAStableLibrarySort() {
        UniformRandomProvider rng = RandomStreams.create(11);
        for (int n : new int[]{0, 1, 2, 3, 5, 16, 17, 100, 1000, 1025}) {
            double[] key = new double[n];
            for (int i = 0; i < n; i++) {
                key[i] = rng.nextInt(7) / 7.0; // many ties
            }
            Integer[] expected = new Integer[n];
            for (int i = 0; i < n; i++) {
                expected[i] = i;
            }
            Arrays.sort(expected, Comparator.comparingDouble(i -> key[i])); // object sort is stable
            assertArrayEquals(Arrays.stream(expected).mapToInt(Integer::intValue).toArray(), AdaptiveEce.stableOrder(key),
                    "n=" + n);
        }
    }
}
