package fsil.eval.metrics;

import fsil.api.Prediction;
import fsil.core.calibration.AdaptiveEce;
import fsil.core.calibration.TemperatureFit;
import fsil.core.calibration.TemperatureScaling;
import fsil.eval.protocol.TaskOutcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CalibrationMetricsTest {

    static TaskOutcome task(int[] classes, double[] probs, int[] truth) {
        return new TaskOutcome(true, 0, 0, Prediction.of(classes, probs), truth, new double[0], new double[0][],
                new int[0], new double[0], 0, 0, -1, Map.of());
    }

    /** Summary rows of a metric over the given units, by name. */
    static Map<String, MeanCi> summarize(Metric m, List<Value> units) {
        Map<String, MeanCi> out = new java.util.HashMap<>();
        m.summarize(units, (metric, step, classes, v) -> out.put(metric, v));
        return out;
    }

    @Test
    void nllAndBrierAreTheClosedFormsPerTaskWithAnIntervalOverTasks() {
        // task 1: rows [0.7 0.2 0.1] truth 10, [0.5 0.25 0.25] truth 30; task 2: [0.2 0.8] truth 21 (classes 20, 21)
        TaskOutcome t1 = task(new int[]{10, 20, 30}, new double[]{0.7, 0.2, 0.1, 0.5, 0.25, 0.25}, new int[]{10, 30});
        TaskOutcome t2 = task(new int[]{20, 21}, new double[]{0.2, 0.8}, new int[]{21});
        // a class the prediction does not have: p_y = 0, floored at 1e-300
        TaskOutcome t3 = task(new int[]{1, 2}, new double[]{0.6, 0.4}, new int[]{3});
        Metric m = new CalibrationMetrics.ProperScores();
        Map<String, MeanCi> r = summarize(m, List.of(Measure.of(m, List.of(t1, t2)), Measure.of(m, List.of(t3))));
        double nll1 = (-Math.log(0.7) - Math.log(0.25)) / 2;
        double nll2 = -Math.log(0.8);
        double nll3 = -Math.log(1e-300);
        double brier1 = ((0.3 * 0.3 + 0.2 * 0.2 + 0.1 * 0.1) + (0.5 * 0.5 + 0.25 * 0.25 + 0.75 * 0.75)) / 2;
        double brier2 = 0.2 * 0.2 + 0.2 * 0.2;
        double brier3 = 0.6 * 0.6 + 0.4 * 0.4 + 1;
        assertEquals((nll1 + nll2 + nll3) / 3, r.get("nll").mean(), 1e-12);
        assertEquals((brier1 + brier2 + brier3) / 3, r.get("brier").mean(), 1e-15);
        assertEquals(3, r.get("nll").n());
        double mean = (brier1 + brier2 + brier3) / 3;
        double var = (Math.pow(brier1 - mean, 2) + Math.pow(brier2 - mean, 2) + Math.pow(brier3 - mean, 2)) / 3;
        assertEquals(Math.sqrt(var), r.get("brier").std(), 1e-12, "population std over tasks, as every metric");
        assertEquals(1.96 * Math.sqrt(var / 3), r.get("brier").ci95(), 1e-12);
        assertTrue(m.usesProbabilities());
    }

    /** Random predictions whose confidence clusters near 1 (where equal-width bins mislead). */
    static List<TaskOutcome> clustered(long seed, int tasks, int rows, int c) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] classes = new int[c];
        for (int k = 0; k < c; k++) {
            classes[k] = k;
        }
        List<TaskOutcome> out = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            double[] p = new double[rows * c];
            int[] truth = new int[rows];
            for (int i = 0; i < rows; i++) {
                double z = 0;
                double sharp = 1 + 12 * rnd.nextDouble() * rnd.nextDouble();
                for (int k = 0; k < c; k++) {
                    p[i * c + k] = Math.exp(sharp * rnd.nextGaussian());
                    z += p[i * c + k];
                }
                for (int k = 0; k < c; k++) {
                    p[i * c + k] /= z;
                }
                truth[i] = rnd.nextInt(c);
            }
            out.add(task(classes, p, truth));
        }
        return out;
    }

    @Test
    void adaptiveEceFromMicroBinsMatchesTheExactEqualMassEce() {
        for (long seed = 1; seed <= 5; seed++) {
            List<TaskOutcome> tasks = clustered(seed, 40, 75, 5);
            Metric m = new CalibrationMetrics.AdaptiveCalibration();
            // units of 7 tasks: pooling over units is pooling over predictions
            List<Value> units = new ArrayList<>();
            for (int i = 0; i < tasks.size(); i += 7) {
                units.add(Measure.of(m, tasks.subList(i, Math.min(tasks.size(), i + 7))));
            }
            double pooled = CalibrationMetrics.AdaptiveCalibration.adaptiveEce(units);
            double[] conf = new double[40 * 75];
            boolean[] correct = new boolean[conf.length];
            int j = 0;
            for (TaskOutcome t : tasks) {
                double[] c = t.prediction().confidences();
                int[] labels = t.prediction().labels();
                for (int i = 0; i < c.length; i++) {
                    conf[j] = c[i];
                    correct[j++] = labels[i] == t.truth()[i];
                }
            }
            double exact = AdaptiveEce.ece(conf, correct, 15);
            // only predictions within 1/1500 of a cut are shared pro rata: far below any difference that matters
            assertEquals(exact, pooled, 2e-3, "seed " + seed);
            assertEquals(pooled, CalibrationMetrics.AdaptiveCalibration.adaptiveEce(List.of(Measure.of(m, tasks))), 0,
                    "the same whatever the units");
        }
    }

    @Test
    void theTemperatureOfTheNllCurveIsTheGoldenSectionFit() {
        for (double sharpen : new double[]{0.25, 1, 3}) {
            List<TaskOutcome> tasks = new ArrayList<>();
            List<double[]> all = new ArrayList<>();
            List<Integer> labels = new ArrayList<>();
            SplittableRandom rnd = new SplittableRandom(42);
            int c = 4;
            for (int t = 0; t < 30; t++) {
                double[] p = new double[20 * c];
                int[] truth = new int[20];
                for (int i = 0; i < 20; i++) {
                    truth[i] = rnd.nextInt(c);
                    double z = 0;
                    for (int k = 0; k < c; k++) {
                        double logit = (k == truth[i] ? 1.0 : 0.0) + rnd.nextGaussian();
                        p[i * c + k] = Math.exp(sharpen * logit);
                        z += p[i * c + k];
                    }
                    for (int k = 0; k < c; k++) {
                        p[i * c + k] /= z;
                    }
                    all.add(java.util.Arrays.copyOfRange(p, i * c, i * c + c));
                    labels.add(truth[i]);
                }
                tasks.add(task(new int[]{0, 1, 2, 3}, p, truth));
            }
            Metric m = new CalibrationMetrics.TemperatureCurve();
            var fit = CalibrationMetrics.TemperatureCurve.fit(List.of(Measure.of(m, tasks.subList(0, 13)),
                    Measure.of(m, tasks.subList(13, 30))));
            double[] flat = all.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
            TemperatureFit exact = TemperatureScaling.fit(flat, labels.stream().mapToInt(Integer::intValue).toArray(), c);
            assertEquals(exact.temperature(), fit.temperature(), 2e-3 * exact.temperature(), "sharpen " + sharpen);
            assertEquals(exact.nllAfter(), fit.nllAfter(), 1e-5);
            assertEquals(exact.nllBefore(), fit.nllBefore(), 1e-12);
            assertFalse(fit.atBound());
            assertEquals(600, fit.n());
        }
    }
}
