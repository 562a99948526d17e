package fsil.testkit;

import fsil.api.Registry;
import fsil.eval.metrics.CalibrationMetrics;
import fsil.eval.metrics.Metric;
import fsil.eval.metrics.SummaryRows;
import fsil.eval.metrics.Value;
import fsil.eval.protocol.TaskOutcome;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricConformanceTest {

    /** Every metric fsil ships (those ServiceLoader finds, and the calibration run's curve). */
    static List<Metric> builtin() {
        List<Metric> all = new ArrayList<>(Registry.discover("metric", Metric.class, Metric::id).all());
        all.add(new CalibrationMetrics.TemperatureCurve());
        return all;
    }

    @TestFactory
    Stream<DynamicTest> everyBuiltinMetricConforms() {
        List<Metric> all = builtin();
        assertTrue(all.size() >= 13, "the built-in metrics are found: " + all.size());
        return all.stream().flatMap(m -> MetricConformance.of(m).tests());
    }

    /** The kit must be able to fail: a merge that drops tasks, a value that cannot be stored, a bad id. */
    @Test
    void kitCatchesMisbehavingMetrics() {
        assertEquals(List.of("count on episodes: an empty accumulator is neutral",
                        "count on episodes: merged parts equal one accumulator",
                        "count on streams: an empty accumulator is neutral",
                        "count on streams: merged parts equal one accumulator"),
                failures(new Count("count", false, false)));
        assertEquals(List.of("count on episodes: stored and live values summarise alike",
                "count on streams: stored and live values summarise alike"), failures(new Count("count", true, true)));
        assertEquals(List.of("count_ts: metadata and id"), failures(new Count("count_ts", true, false)));
    }

    private static List<String> failures(Metric m) {
        List<String> out = new ArrayList<>();
        MetricConformance.of(m).tests().forEach(t -> {
            try {
                t.getExecutable().execute();
            } catch (Throwable e) {
                out.add(t.getDisplayName());
            }
        });
        return out;
    }

    /**
     * Counts the tasks of a unit. With {@code mergeKeepsLater} false, a merge ignores the later part; with
     * {@code countsSummaries}, the summary counts how often it is called (a summary that is not a function of the
     * stored values).
     */
    static final class Count implements Metric {
        private final String id;
        private final boolean mergeKeepsLater;
        private final boolean countsSummaries;
        private int summaries;

        Count(String id, boolean mergeKeepsLater, boolean countsSummaries) {
            this.id = id;
            this.mergeKeepsLater = mergeKeepsLater;
            this.countsSummaries = countsSummaries;
        }

        public String id() {
            return id;
        }

        public String description() {
            return "tasks per unit";
        }

        public Accumulator accumulator() {
            return new Accumulator() {
                long n;

                public void update(TaskOutcome task) {
                    n++;
                }

                public void merge(Accumulator later) {
                    if (mergeKeepsLater) {
                        n += later.result().asLong();
                    }
                }

                public Value result() {
                    return Value.of(n);
                }
            };
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            long n = 0;
            for (Value v : units) {
                n += v.asLong();
            }
            out.add("tasks", n + (countsSummaries ? summaries++ : 0), 1);
        }
    }
}
