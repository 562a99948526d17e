package fsil.eval.metrics;

import java.util.function.DoubleConsumer;

/**
 * Numbers that can be gone through more than once, each time in the same order (a group's per-task values streamed
 * from the store): what a two-pass statistic needs without holding the numbers.
 */
@FunctionalInterface
public interface DoubleSource {
    void forEach(DoubleConsumer each);

    static DoubleSource of(double[] values) {
        return each -> {
            for (double v : values) {
                each.accept(v);
            }
        };
    }

    /** The numbers that are not NaN. */
    default DoubleSource finite() {
        return each -> forEach(v -> {
            if (!Double.isNaN(v)) {
                each.accept(v);
            }
        });
    }
}
