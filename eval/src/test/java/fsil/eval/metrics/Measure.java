package fsil.eval.metrics;

import fsil.eval.protocol.TaskOutcome;
import fsil.eval.store.ValueJson;

import java.util.List;

/** Tests' shorthand: a metric's value of tasks, and a value as the JSON a row stores. */
final class Measure {
    private Measure() {
    }

    /** What a unit of these tasks stores: one accumulator updated with each, in order. */
    static Value of(Metric m, List<TaskOutcome> tasks) {
        Metric.Accumulator a = m.accumulator();
        tasks.forEach(a::update);
        return a.result();
    }

    /** The JSON text a row of units.csv holds for a value. */
    static String json(Value v) {
        return ValueJson.text(v);
    }

    /** A value through the text of a row and back. */
    static Value roundTrip(Value v) {
        return ValueJson.parse(json(v));
    }
}
