package fsil.eval.metrics;

import fsil.api.Prediction;
import fsil.eval.protocol.TaskOutcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    void episodeAccuracyStoresTheCountsOfEachEpisode() throws Exception {
        Value episodes = Measure.of(new BuiltinMetrics.EpisodeAccuracy(), List.of(episode(3), episode(2)));
        assertEquals("{\"correct\":[3,2],\"queries\":[4,4]}", Measure.json(episodes));
    }

    /** An episode of 4 queries over 2 classes with {@code correct} of them right. */
    private static TaskOutcome episode(int correct) {
        int[] truth = {0, 1, 0, 1};
        double[] p = new double[8];
        for (int i = 0; i < 4; i++) {
            int predicted = i < correct ? truth[i] : 1 - truth[i];
            p[2 * i + predicted] = 1;
        }
        return new TaskOutcome(true, correct / 4.0, correct, Prediction.of(new int[]{0, 1}, p), truth, null, null,
                null, null, 0, 0, -1, Map.of());
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
        CalibrationBins c = new CalibrationBins();
        // Bin (13/15, 14/15]: 4 predictions at 0.9, 3 correct -> |0.75 - 0.9| = 0.15
        for (int i = 0; i < 4; i++) {
            c.add(0.9, i < 3);
        }
        // Bin (0.6, 2/3]: 2 predictions at 0.65, both wrong -> gap 0.65
        c.add(0.65, false);
        c.add(0.65, false);
        assertEquals(13, CalibrationBins.binOf(0.9));
        assertEquals(9, CalibrationBins.binOf(0.65));
        assertEquals((4 * 0.15 + 2 * 0.65) / 6, c.ece(), 1e-12);
        assertEquals(0.65, c.mce(), 1e-12);
        assertTrue(Double.isNaN(new CalibrationBins().ece()), "no predictions: no ECE");
    }

    @Test
    void binEdgesAreOpenOnTheLeft() {
        assertEquals(0, CalibrationBins.binOf(1.0 / 15), "upper edge belongs to the lower bin");
        assertEquals(1, CalibrationBins.binOf(1.0 / 15 + 1e-12));
        assertEquals(14, CalibrationBins.binOf(1.0));
        assertEquals(0, CalibrationBins.binOf(0.0));
    }

    /**
     * Bins stored as JSON and pooled give the ECE of all predictions at once; the double-double sums make it the same
     * bit for bit whichever way the predictions are grouped.
     */
    @Test
    void pooledBinsFromStoredJsonEqualBinsOfAllPredictions() throws Exception {
        Random r = new Random(5);
        CalibrationBins all = new CalibrationBins();
        List<Value> stored = new ArrayList<>();
        for (int task = 0; task < 20; task++) {
            CalibrationBins one = new CalibrationBins();
            for (int i = 0; i < 30; i++) {
                double conf = 0.2 + 0.8 * r.nextDouble();
                boolean ok = r.nextDouble() < conf;
                one.add(conf, ok);
                all.add(conf, ok);
            }
            stored.add(Measure.roundTrip(one.toValue())); // through the text of a row
        }
        CalibrationBins pooled = BuiltinMetrics.Calibration.pooled(stored);
        assertEquals(all.total(), pooled.total());
        assertEquals(all.ece(), pooled.ece(), 0.0);
        assertEquals(all.mce(), pooled.mce(), 0.0);
        List<Value> reversed = new ArrayList<>(stored);
        java.util.Collections.reverse(reversed);
        assertEquals(all.ece(), BuiltinMetrics.Calibration.pooled(reversed).ece(), 0.0, "any order");
        for (int b = 0; b < CalibrationBins.BINS; b++) {
            assertEquals(all.count(b), pooled.count(b));
        }
    }

    /** The bins of a prediction: max-probability confidence, correct when the most probable class is the label. */
    @Test
    void binsOfAPredictionMatchTheDefinition() {
        Random rnd = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            int c = 1 + rnd.nextInt(6);
            int n = rnd.nextInt(90);
            int[] classes = new int[c];
            for (int k = 0; k < c; k++) {
                classes[k] = 3 * k + rnd.nextInt(3);
            }
            double[] prob = new double[n * c];
            int[] truth = new int[n];
            for (int i = 0; i < n; i++) {
                double sum = 0;
                double sharp = rnd.nextDouble() * 20;
                for (int k = 0; k < c; k++) {
                    prob[i * c + k] = rnd.nextInt(10) == 0 ? 1 : Math.exp(sharp * rnd.nextDouble());
                    sum += prob[i * c + k];
                }
                for (int k = 0; k < c; k++) {
                    prob[i * c + k] /= sum;
                }
                truth[i] = classes[rnd.nextInt(c)];
            }
            Prediction p = Prediction.of(classes, prob);
            int[] labels = p.labels();
            double[] conf = p.confidences();
            CalibrationBins reference = new CalibrationBins();
            for (int i = 0; i < n; i++) {
                reference.add(conf[i], labels[i] == truth[i]);
            }
            CalibrationBins bins = CalibrationBins.of(p, truth);
            assertEquals(reference.toValue(), bins.toValue());
        }
    }

    /** Per-task metrics store one value per task of a unit, null where they do not apply. */
    @Test
    void perTaskMetricsStoreOneValuePerTask() {
        Prediction p = Prediction.of(new int[]{0, 1}, new double[]{0.9, 0.1, 0.2, 0.8});
        TaskOutcome episode = new TaskOutcome(true, 0.5, 1, p, new int[]{0, 0}, new double[0], new double[0][],
                new int[0], new double[0], 0.01, 0.02, 100, Map.of("elbo", -3.0));
        TaskOutcome other = new TaskOutcome(true, 1.0, 2, p, new int[]{0, 1}, new double[0], new double[0][],
                new int[0], new double[0], 0.03, 0.04, -1, Map.of());
        Value acc = Measure.of(new BuiltinMetrics.EpisodeAccuracy(), List.of(episode, other));
        assertEquals("{\"correct\":[1,2],\"queries\":[2,2]}", Measure.json(acc));
        org.junit.jupiter.api.Assertions.assertArrayEquals(new double[]{0.5, 1.0},
                BuiltinMetrics.EpisodeAccuracy.accuracies(acc));
        Value mem = Measure.of(new BuiltinMetrics.MemoryBytes(), List.of(episode, other));
        assertEquals("[100,null]", Measure.json(mem), "-1: not reported");
        Value fit = Measure.of(new BuiltinMetrics.FitSeconds(), List.of(episode, other));
        assertEquals(2, fit.get("n").asInt());
        assertEquals(0.04, fit.get("sum").asDouble(), 1e-15);
        assertNull(Measure.of(new BuiltinMetrics.AccuracySeen(), List.of(episode)), "not a stream");
        List<String> rows = new ArrayList<>();
        new BuiltinMetrics.Diagnostics().summarize(List.of(Measure.of(new BuiltinMetrics.Diagnostics(),
                List.of(episode, other))), (m, step, classes, v) -> rows.add(m + "=" + v.mean() + "/" + v.n()));
        assertEquals(List.of("elbo=-3.0/1"), rows);
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
