package fsil.eval.metrics;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricsTest {

    @Test
    void forgettingMaxAndFirstDifferWhenAccuracyRisesAfterLearning() {
        // Class group 0 is learned badly at step 0 (0.5), improves at step 1 (0.9), ends at 0.6.
        double[][] a = {{0.5}, {0.9, 0.8}, {0.6, 0.7, 0.9}};
        double[] seen = {0.5, 0.85, 0.7};
        IncrementalMetrics m = IncrementalMetrics.of(a, seen);
        assertEquals((0.3 + 0.1) / 2, m.forgettingMax(), 1e-12, "max-based: (0.9-0.6 + 0.8-0.7)/2");
        assertEquals((-0.1 + 0.1) / 2, m.forgettingFirst(), 1e-12, "first-based: (0.5-0.6 + 0.8-0.7)/2");
        assertEquals(-m.forgettingFirst(), m.bwt(), 0);
        assertEquals((0.5 + 0.85 + 0.7) / 3, m.avgIncrementalAcc(), 1e-12, "step 0 included");
        assertEquals(0.7, m.finalAcc(), 0);
    }

    @Test
    void singleStepHasNoForgetting() {
        IncrementalMetrics m = IncrementalMetrics.of(new double[][]{{0.8}}, new double[]{0.8});
        assertTrue(Double.isNaN(m.forgettingMax()));
        assertTrue(Double.isNaN(m.bwt()));
        assertEquals(0.8, m.avgIncrementalAcc(), 0);
    }

    @Test
    void eceAndMceOnHandMadeBins() {
        CalibrationBins c = new CalibrationBins(15);
        // Bin (13/15, 14/15]: 4 predictions at 0.9, 3 correct -> |0.75 - 0.9| = 0.15
        for (int i = 0; i < 4; i++) {
            c.add(0.9, i < 3);
        }
        // Bin (0.6, 2/3]: 2 predictions at 0.65, both wrong -> gap 0.65
        c.add(0.65, false);
        c.add(0.65, false);
        assertEquals(13, c.binOf(0.9));
        assertEquals(9, c.binOf(0.65));
        assertEquals((4 * 0.15 + 2 * 0.65) / 6, c.ece(), 1e-12);
        assertEquals(0.65, c.mce(), 1e-12);
    }

    @Test
    void binEdgesAreOpenOnTheLeft() {
        CalibrationBins c = new CalibrationBins(15);
        assertEquals(0, c.binOf(1.0 / 15), "upper edge belongs to the lower bin");
        assertEquals(1, c.binOf(1.0 / 15 + 1e-12));
        assertEquals(14, c.binOf(1.0));
        assertEquals(0, c.binOf(0.0));
    }

    @Test
    void pooledEceFromMergedBinsEqualsEceOfAllPredictions() {
        CalibrationBins a = new CalibrationBins();
        CalibrationBins b = new CalibrationBins();
        CalibrationBins all = new CalibrationBins();
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            double conf = 0.2 + 0.8 * r.nextDouble();
            boolean ok = r.nextDouble() < conf * 0.9;
            (i % 3 == 0 ? a : b).add(conf, ok);
            all.add(conf, ok);
        }
        CalibrationBins merged = CalibrationBins.parse(a.encode());
        merged.addAll(CalibrationBins.parse(b.encode()));
        assertEquals(all.ece(), merged.ece(), 1e-12);
        assertEquals(all.mce(), merged.mce(), 1e-12);
        // Pooled ECE is not the mean of per-part ECEs (a classic reporting trap).
        assertTrue(Math.abs(all.ece() - 0.5 * (a.ece() + b.ece())) > 1e-6);
    }

    @Test
    void compactBinsKeepEveryStatisticTheTextAndMergeBothWays() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int trial = 0; trial < 200; trial++) {
            CalibrationBins dense = new CalibrationBins();
            int n = r.nextInt(0, 20);
            double lo = r.nextDouble(), hi = lo + (1 - lo) * r.nextDouble();
            for (int i = 0; i < n; i++) {
                double conf = lo + (hi - lo) * r.nextDouble();
                dense.add(conf, r.nextBoolean());
            }
            CalibrationBins compact = dense.compact();
            assertEquals(dense.encode(), compact.encode(), "same row text");
            assertEquals(dense.total(), compact.total());
            for (int b = 0; b < dense.bins(); b++) {
                assertEquals(dense.count(b), compact.count(b));
                assertEquals(dense.meanConfidence(b), compact.meanConfidence(b), 0.0);
                assertEquals(dense.accuracy(b), compact.accuracy(b), 0.0);
            }
            assertEquals(dense.ece(), compact.ece(), 0.0);
            assertEquals(dense.mce(), compact.mce(), 0.0);
            // A compact instance grows when it receives bins outside its range, on either side.
            CalibrationBins other = new CalibrationBins();
            other.add(0.01, true);
            other.add(0.99, false);
            CalibrationBins pooledDense = new CalibrationBins();
            pooledDense.addAll(dense);
            pooledDense.addAll(other);
            compact.addAll(other);
            compact.add(0.5, true);
            pooledDense.add(0.5, true);
            assertEquals(pooledDense.encode(), compact.encode());
            assertEquals(pooledDense.ece(), compact.ece(), 0.0);
        }
    }

    @Test
    void emptyCompactBinsHaveNoStatistics() {
        CalibrationBins empty = new CalibrationBins().compact();
        assertEquals(0, empty.total());
        assertTrue(Double.isNaN(empty.ece()));
        assertEquals(new CalibrationBins().encode(), empty.encode());
        org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class, () -> empty.count(15));
        empty.add(0.3, true);
        assertEquals(1, empty.count(4));
    }

    @Test
    void confidenceIntervalsBothConventions() {
        double[] v = {0.6, 0.8, 0.7, 0.9};
        MeanCi m = MeanCi.of(v);
        assertEquals(0.75, m.mean(), 1e-12);
        double std0 = Math.sqrt((0.0225 + 0.0025 + 0.0025 + 0.0225) / 4);
        assertEquals(std0, m.std(), 1e-12);
        assertEquals(1.96 * std0 / 2, m.ci95(), 1e-12);
        double sem1 = Math.sqrt(0.05 / 3) / 2;
        assertEquals(3.182446305284263 * sem1, m.ci95t(), 1e-9, "t quantile with 3 degrees of freedom");
        assertTrue(Double.isNaN(MeanCi.of(new double[]{1}).ci95t()));
    }
}
