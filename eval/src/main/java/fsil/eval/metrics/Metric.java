package fsil.eval.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import fsil.api.Plugin;
import fsil.eval.protocol.TaskOutcome;

import java.util.List;

/**
 * A named measurement of what methods do on tasks, as Avalanche's metric objects: {@link #measure} says what one
 * unit (a block of episodes, or an incremental stream) contributes, stored under {@link #id()} in the unit's row
 * of {@code units.csv}; {@link #summarize} turns the stored values of a group (one method on one dataset in one
 * setting) into rows of {@code summary.csv}. Summaries are rebuilt from the store alone, so a metric must need
 * nothing but what it stored. Most metrics store one value per task ({@link PerTask}); a metric that only needs
 * totals (e.g. calibration bins) pools them per unit. The runner measures a unit task by task through
 * {@link #accumulator()}, so a unit's predictions are not kept until it ends. A metric is a plugin: list it in
 * {@code META-INF/services/fsil.eval.metrics.Metric}; {@code fsil metrics} lists them.
 */
public interface Metric extends Plugin {
    /** Suffix of the stored values and summary rows of a metric on temperature-scaled probabilities. */
    String TEMPERATURE_SCALED = "_ts";

    /** Stable lower-case id: the key in a row's metrics, e.g. {@code calibration}. */
    @Override
    String id();

    @Override
    default String kind() {
        return "metric";
    }

    /** What a unit's tasks contribute (a number, an array, an object), or null when the metric does not apply. */
    JsonNode measure(List<TaskOutcome> tasks);

    /**
     * What {@link #measure} gives for a unit, folded task by task as the unit runs (Avalanche's update/result), so
     * the unit need not keep its tasks' predictions: each task's data is measured while it is still in the cache,
     * and a unit's memory does not grow with its size. The default keeps the tasks and calls {@link #measure}; a
     * metric that overrides it must give the same value as {@link #measure} over the same tasks in the same order.
     */
    default Accumulator accumulator() {
        List<TaskOutcome> tasks = new java.util.ArrayList<>();
        return new Accumulator() {
            public void add(TaskOutcome task) {
                tasks.add(task);
            }

            public JsonNode result() {
                return measure(tasks);
            }
        };
    }

    /** One unit's value of a metric, built task by task: {@link #add} each task in order, then {@link #result}. */
    interface Accumulator {
        void add(TaskOutcome task);

        /** What the tasks added contribute (as {@link Metric#measure}), or null when the metric does not apply. */
        JsonNode result();
    }

    /** A metric defined by its {@link #accumulator()}: {@link #measure} folds the tasks through a fresh one. */
    interface Folding extends Metric {
        @Override
        Accumulator accumulator();

        @Override
        default JsonNode measure(List<TaskOutcome> tasks) {
            Accumulator a = accumulator();
            tasks.forEach(a::add);
            return a.result();
        }
    }

    /** Summary rows of a group from the values {@link #measure} stored for its units, in unit order. */
    void summarize(List<JsonNode> units, SummaryRows out);

    /**
     * Whether the metric reads the predicted probabilities (calibration, scoring rules), not only the predicted
     * labels: a temperature-scaled run ({@code fsil run --calibrate temperature}) stores such a metric a second time,
     * under {@code <name>_ts}, for the scaled probabilities, and summarises it into rows named {@code <row>_ts}.
     */
    default boolean usesProbabilities() {
        return false;
    }

    /**
     * The per-task numbers this metric's value of one unit holds, by name, one per task of the unit (NaN where
     * none): what paired comparisons of methods on identical tasks use (e.g. {@code episode_acc},
     * {@code final_acc}). Empty when the metric has none.
     */
    default java.util.Map<String, double[]> perTask(JsonNode unit) {
        return java.util.Map.of();
    }

    /**
     * A metric with one value per task: a unit stores the array of its tasks' values (null where it does not
     * apply), and the summary sees the values of every task of the group in task order.
     */
    interface PerTask extends Folding {

        /** What one task contributes, or null when the metric does not apply to it. */
        JsonNode measure(TaskOutcome task);

        /** Summary rows from the values of the group's tasks (those where the metric applied), in task order. */
        void summarizeTasks(List<JsonNode> values, SummaryRows out);

        @Override
        default Accumulator accumulator() {
            var values = Values.JSON.arrayNode();
            return new Accumulator() {
                boolean any;

                public void add(TaskOutcome task) {
                    JsonNode v = measure(task);
                    values.add(v == null ? com.fasterxml.jackson.databind.node.NullNode.instance : v);
                    any |= v != null;
                }

                public JsonNode result() {
                    return any ? values : null;
                }
            };
        }

        @Override
        default void summarize(List<JsonNode> units, SummaryRows out) {
            List<JsonNode> values = new java.util.ArrayList<>();
            for (JsonNode u : units) {
                u.forEach(v -> {
                    if (!v.isNull()) {
                        values.add(v);
                    }
                });
            }
            if (!values.isEmpty()) {
                summarizeTasks(values, out);
            }
        }
    }
}
