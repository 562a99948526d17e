package fsil.eval.metrics;

import fsil.eval.protocol.TaskOutcome;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The accumulator of a metric with one value per task: a unit stores the array of its tasks' values ({@link
 * Value#NULL} where the metric does not apply), or nothing when it applies to none of them. {@link #of} gives the
 * summary the values of a group's tasks, task by task over its units.
 */
public final class TaskValues implements Metric.Accumulator {
    private final Function<TaskOutcome, Value> measure;
    private final List<Value> values = new ArrayList<>();
    private boolean any;

    /** @param measure what one task contributes, or null when the metric does not apply to it */
    public TaskValues(Function<TaskOutcome, Value> measure) {
        this.measure = measure;
    }

    @Override
    public void update(TaskOutcome task) {
        Value v = measure.apply(task);
        values.add(v == null ? Value.NULL : v);
        any |= v != null;
    }

    @Override
    public void merge(Metric.Accumulator later) {
        TaskValues o = (TaskValues) later;
        values.addAll(o.values);
        any |= o.any;
    }

    @Override
    public Value result() {
        return any ? Value.array(values) : null;
    }

    /** The values of the tasks where the metric applied, in task order over the units (each pass reads again). */
    public static Iterable<Value> of(Iterable<Value> units) {
        return () -> new Iterator<>() {
            final Iterator<Value> unit = units.iterator();
            Value current;
            int next;
            Value ahead;

            public boolean hasNext() {
                while (ahead == null) {
                    if (current != null && next < current.size()) {
                        Value v = current.get(next++);
                        if (!v.isNull()) {
                            ahead = v;
                        }
                    } else if (unit.hasNext()) {
                        current = unit.next();
                        next = 0;
                    } else {
                        return false;
                    }
                }
                return true;
            }

            public Value next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Value v = ahead;
                ahead = null;
                return v;
            }
        };
    }

    /** The first value, or null when there is none. */
    public static Value first(Iterable<Value> values) {
        Iterator<Value> it = values.iterator();
        return it.hasNext() ? it.next() : null;
    }

    /** A number of each value, in order. */
    public static DoubleSource numbers(Iterable<Value> values, java.util.function.ToDoubleFunction<Value> number) {
        return each -> values.forEach(v -> each.accept(number.applyAsDouble(v)));
    }
}
