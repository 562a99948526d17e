package fsil.eval.metrics;

import fsil.api.Plugin;
import fsil.eval.protocol.TaskOutcome;

import java.util.Map;

/**
 * A named measurement of what methods do on tasks, as Avalanche's metric objects. A metric is one accumulator shape
 * and one summary: {@link #accumulator()} is updated with each task of a unit as it ends (so a unit never keeps its
 * tasks' predictions), merged when a unit's tasks were measured in parts, and its {@link Accumulator#result()} is
 * stored under {@link #id()} in the unit's row of {@code units.csv}; {@link #summarize} turns the stored values of a
 * group (one method on one dataset in one setting) into rows of {@code summary.csv}. Summaries are rebuilt from the
 * store alone, so a metric needs nothing but what it stored; and a group's values are streamed from the store, so a
 * summary that keeps one number per task, not per unit, grows with the run (use {@link MeanCi#of(DoubleSource)}).
 * A metric is a plugin: list it in {@code META-INF/services/fsil.eval.metrics.Metric}; {@code fsil metrics} lists
 * them. {@code fsil.testkit.MetricConformance} checks the contract.
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

    /** A fresh accumulator: the value of no task yet. */
    Accumulator accumulator();

    /**
     * One unit's value of a metric, built task by task (Avalanche's update/result). Not thread-safe: one unit's
     * tasks are measured in order.
     */
    interface Accumulator {
        /** Adds the next task. */
        void update(TaskOutcome task);

        /**
         * Adds the tasks that {@code later}, an accumulator of the same metric, was updated with: they follow this
         * one's tasks (e.g. a unit measured in parts by the workers of a distributed engine). The result must equal
         * that of one accumulator updated with all the tasks in order.
         */
        void merge(Accumulator later);

        /** What the tasks contribute, stored in the unit's row; null when the metric does not apply to them. */
        Value result();
    }

    /**
     * Summary rows of a group from the values its successful units stored (units where the metric did not apply
     * left out), in unit order. {@code units} may be iterated more than once, each time in the same order (it reads
     * the store again): a two-pass mean and deviation costs no memory per task.
     */
    void summarize(Iterable<Value> units, SummaryRows out);

    /**
     * Whether the metric reads the predicted probabilities (calibration, scoring rules), not only the predicted
     * labels: a temperature-scaled run ({@code fsil run --calibrate temperature}) stores such a metric a second time,
     * under {@code <name>_ts}, for the scaled probabilities, and summarises it into rows named {@code <row>_ts}.
     */
    default boolean usesProbabilities() {
        return false;
    }

    /**
     * The per-task numbers this metric's value of one unit holds, by summary-row name, one per task of the unit (NaN
     * where none): what paired comparisons of methods on identical tasks use (e.g. {@code episode_acc},
     * {@code final_acc}). Empty when the metric has none.
     */
    default Map<String, double[]> perTask(Value unit) {
        return Map.of();
    }
}
