package fsil.testkit;

import fsil.api.Prediction;
import fsil.eval.metrics.MeanCi;
import fsil.eval.metrics.Metric;
import fsil.eval.metrics.Value;
import fsil.eval.protocol.TaskOutcome;
import fsil.eval.store.ValueJson;
import org.junit.jupiter.api.DynamicTest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance kit of a metric plugin (the contract of {@link Metric}):
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> conformance() {
 *     return MetricConformance.of(new MyMetric()).tests();
 * }
 * }</pre>
 *
 * Checks, on a unit of few-shot episodes and a unit of incremental streams (random predictions, times, memory and
 * diagnostics; or {@link #withTasks} for a metric that needs other tasks): metadata and id rules; an empty
 * accumulator is neutral in a merge; an accumulator merged from parts split anywhere gives the value of one
 * accumulator over all the tasks (stored alike, or summarised alike with the same per-task numbers); the value survives a row of {@code units.csv} unchanged; the summary of stored
 * values equals the summary of live ones, and is the same on a second call (a summary may go through the values
 * more than once); per-task numbers have one entry per task of the unit.
 */
public final class MetricConformance {
    private final Metric metric;
    private final List<List<TaskOutcome>> units = new ArrayList<>();

    private MetricConformance(Metric metric) {
        this.metric = metric;
        units.add(episodes(new Random(7), 9));
        units.add(streams(new Random(8), 5));
    }

    public static MetricConformance of(Metric metric) {
        return new MetricConformance(metric);
    }

    /** Checks on these tasks (one unit's, in order) instead of the kit's episodes and streams. */
    public MetricConformance withTasks(List<TaskOutcome> tasks) {
        units.clear();
        units.add(List.copyOf(tasks));
        return this;
    }

    public Stream<DynamicTest> tests() {
        String id = metric.id();
        List<DynamicTest> t = new ArrayList<>();
        t.add(DynamicTest.dynamicTest(id + ": metadata and id", this::metadata));
        for (int u = 0; u < units.size(); u++) {
            List<TaskOutcome> tasks = units.get(u);
            String what = id + " on " + (tasks.get(0).episodic() ? "episodes" : "streams") + ": ";
            t.add(DynamicTest.dynamicTest(what + "an empty accumulator is neutral", () -> emptyIsNeutral(tasks)));
            t.add(DynamicTest.dynamicTest(what + "merged parts equal one accumulator", () -> mergeEqualsOne(tasks)));
            t.add(DynamicTest.dynamicTest(what + "the value survives a row of units.csv", () -> roundTrip(tasks)));
            t.add(DynamicTest.dynamicTest(what + "stored and live values summarise alike", () -> summaries(tasks)));
            t.add(DynamicTest.dynamicTest(what + "one per-task number per task", () -> perTask(tasks)));
        }
        return t.stream();
    }

    void metadata() {
        PluginChecks.metadata(metric);
        assertEquals("metric", metric.kind());
        assertTrue(metric.id().matches("[a-z][a-z0-9_]*"), "a metric id is a JSON key and a column value in lower "
                + "snake case: " + metric.id());
        assertFalse(metric.id().endsWith(Metric.TEMPERATURE_SCALED), metric.id() + " ends with "
                + Metric.TEMPERATURE_SCALED + ", the suffix of temperature-scaled values");
    }

    /** One accumulator updated with the tasks from..to, in order. */
    private Metric.Accumulator over(List<TaskOutcome> tasks, int from, int to) {
        Metric.Accumulator a = metric.accumulator();
        assertNotNull(a, metric.id() + ": accumulator() returned null");
        for (TaskOutcome t : tasks.subList(from, to)) {
            a.update(t);
        }
        return a;
    }

    /** What a row stores of a value, as text. */
    private static String stored(Value v) {
        return v == null ? "(not stored)" : v.toString();
    }

    /**
     * Two values of a unit alike: stored alike, or at least summarised alike with the same per-task numbers (a
     * double-double sum may hold the same total as another pair of doubles).
     */
    private void same(Value expected, Value actual, String message) {
        if (stored(expected).equals(stored(actual))) {
            return;
        }
        assertEquals(expected == null, actual == null, message + ": stored " + stored(actual) + ", expected "
                + stored(expected));
        assertEquals(summary(List.of(expected)), summary(List.of(actual)), message + ": another summary");
        Map<String, double[]> e = metric.perTask(expected);
        Map<String, double[]> a = metric.perTask(actual);
        assertEquals(e.keySet(), a.keySet(), message + ": other per-task numbers");
        e.forEach((k, v) -> assertTrue(java.util.Arrays.equals(v, a.get(k)), message + ": other per-task " + k));
    }

    void emptyIsNeutral(List<TaskOutcome> tasks) {
        Value whole = over(tasks, 0, tasks.size()).result();
        Metric.Accumulator a = over(tasks, 0, tasks.size());
        a.merge(metric.accumulator());
        same(whole, a.result(), "merging an empty accumulator changed the value");
        Metric.Accumulator e = metric.accumulator();
        e.merge(over(tasks, 0, tasks.size()));
        same(whole, e.result(), "an empty accumulator merged with all tasks differs from them");
    }

    void mergeEqualsOne(List<TaskOutcome> tasks) {
        int n = tasks.size();
        Value whole = over(tasks, 0, n).result();
        for (int k = 0; k <= n; k++) {
            Metric.Accumulator a = over(tasks, 0, k);
            a.merge(over(tasks, k, n));
            same(whole, a.result(), "tasks 0.." + k + " merged with " + k + ".." + n);
        }
        Metric.Accumulator a = over(tasks, 0, 1);
        a.merge(over(tasks, 1, n / 2));
        a.merge(over(tasks, n / 2, n));
        same(whole, a.result(), "three parts");
    }

    void roundTrip(List<TaskOutcome> tasks) {
        Value v = over(tasks, 0, tasks.size()).result();
        assertEquals(stored(v), stored(ValueJson.throughRow(metric.id(), v)),
                "a value must be numbers, arrays and objects that a row stores as they are");
    }

    /** The tasks as units of 1, 2, 3, ... tasks: each unit's value, live or through a row. */
    private List<Value> values(List<TaskOutcome> tasks, boolean throughRow) {
        List<Value> out = new ArrayList<>();
        for (int from = 0, size = 1; from < tasks.size(); from += size, size++) {
            Value v = over(tasks, from, Math.min(tasks.size(), from + size)).result();
            v = throughRow ? ValueJson.throughRow(metric.id(), v) : v;
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    private Map<String, MeanCi> summary(List<Value> values) {
        Map<String, MeanCi> rows = new HashMap<>();
        if (!values.isEmpty()) {
            metric.summarize(values, (name, step, classes, v) -> {
                MeanCi before = rows.put(name + "@" + step + "/" + classes, v);
                assertTrue(before == null, "summary row " + name + " (step " + step + ") twice");
            });
        }
        return rows;
    }

    void summaries(List<TaskOutcome> tasks) {
        Map<String, MeanCi> live = summary(values(tasks, false));
        assertEquals(live, summary(values(tasks, true)), "the summary of stored values differs from the live one");
        assertEquals(live, summary(values(tasks, false)), "a second summary of the same values differs");
    }

    void perTask(List<TaskOutcome> tasks) {
        for (int from = 0, size = 1; from < tasks.size(); from += size, size++) {
            int to = Math.min(tasks.size(), from + size);
            Value v = ValueJson.throughRow(metric.id(), over(tasks, from, to).result());
            if (v == null) {
                continue;
            }
            for (Map.Entry<String, double[]> e : metric.perTask(v).entrySet()) {
                assertEquals(to - from, e.getValue().length, e.getKey() + ": one number per task of the unit");
            }
        }
    }

    // --- the kit's tasks -------------------------------------------------------------------------------------------

    /** Random probabilities over {@code classes}, rows summing to one, sometimes one-hot. */
    private static Prediction prediction(Random r, int[] classes, int rows) {
        int c = classes.length;
        double[] p = new double[rows * c];
        for (int i = 0; i < rows; i++) {
            double sum = 0;
            for (int k = 0; k < c; k++) {
                p[i * c + k] = r.nextInt(8) == 0 ? 0 : Math.exp(3 * r.nextDouble());
                sum += p[i * c + k];
            }
            for (int k = 0; k < c; k++) {
                p[i * c + k] = sum == 0 ? (k == 0 ? 1 : 0) : p[i * c + k] / sum;
            }
        }
        return Prediction.of(classes, p);
    }

    private static int[] truth(Random r, int[] classes, int rows) {
        int[] t = new int[rows];
        for (int i = 0; i < rows; i++) {
            t[i] = r.nextInt(10) == 0 ? 99 : classes[r.nextInt(classes.length)]; // now and then a class not predicted
        }
        return t;
    }

    private static int correct(Prediction p, int[] truth) {
        int[] labels = p.labels();
        int n = 0;
        for (int i = 0; i < truth.length; i++) {
            n += labels[i] == truth[i] ? 1 : 0;
        }
        return n;
    }

    /** 5-way episodes of 1 to 15 queries, with times, memory (sometimes unreported) and a diagnostic. */
    static List<TaskOutcome> episodes(Random r, int n) {
        List<TaskOutcome> out = new ArrayList<>();
        for (int e = 0; e < n; e++) {
            int[] classes = {3 * e, 3 * e + 1, 3 * e + 2, 40, 41};
            int rows = 1 + r.nextInt(15);
            Prediction p = prediction(r, classes, rows);
            int[] truth = truth(r, classes, rows);
            int correct = correct(p, truth);
            out.add(new TaskOutcome(true, correct / (double) rows, correct, p, truth, new double[0], new double[0][],
                    new int[0], new double[0], 1e-4 * r.nextDouble(), 1e-5 * r.nextDouble(),
                    r.nextInt(4) == 0 ? -1 : 1000 + r.nextInt(5000),
                    r.nextBoolean() ? Map.of("iterations", (double) r.nextInt(20)) : Map.of()));
        }
        return out;
    }

    /** Incremental streams of 3 steps (4, 6, 8 classes), with the ncmf protocol's retraining numbers. */
    static List<TaskOutcome> streams(Random r, int n) {
        List<TaskOutcome> out = new ArrayList<>();
        int[] seen = {4, 6, 8};
        for (int s = 0; s < n; s++) {
            int steps = seen.length;
            double[][] a = new double[steps][];
            double[] acc = new double[steps];
            double[] relative = new double[steps];
            Map<String, Double> extra = new HashMap<>();
            for (int t = 0; t < steps; t++) {
                a[t] = new double[t + 1];
                for (int k = 0; k <= t; k++) {
                    a[t][k] = r.nextInt(12) / 12.0;
                }
                acc[t] = r.nextInt(20) / 20.0;
                relative[t] = t == 0 ? Double.NaN : 0.5 + r.nextDouble();
                extra.put("fit_s_step" + t, 1e-3 * r.nextDouble());
                extra.put("retrain_fit_s_step" + t, 1e-3 * r.nextDouble());
            }
            extra.put("retrain_fit_s", 1e-2 * r.nextDouble());
            extra.put("support_vectors", (double) r.nextInt(100));
            int[] classes = {0, 1, 2, 3, 4, 5, 6, 7};
            Prediction p = prediction(r, classes, 10);
            int[] truth = truth(r, classes, 10);
            int correct = correct(p, truth);
            out.add(new TaskOutcome(false, acc[steps - 1], correct, p, truth, acc, a, seen.clone(), relative,
                    1e-3 * r.nextDouble(), 1e-4 * r.nextDouble(), 2000 + r.nextInt(100), extra));
        }
        return out;
    }
}
