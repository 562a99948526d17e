package fsil.eval.metrics;

/** Where a {@link Metric} puts its summary rows: a metric name, an optional step, and a value with its interval. */
public interface SummaryRows {

    /**
     * @param metric  the row's metric name, e.g. {@code episode_acc}
     * @param step    incremental step, or null
     * @param classes classes seen after that step, or null
     */
    void add(String metric, Integer step, Integer classes, MeanCi value);

    /** A value without an interval (pooled statistics such as ECE), over {@code n} items. */
    default void add(String metric, double value, int n) {
        add(metric, null, null, new MeanCi(value, Double.NaN, Double.NaN, Double.NaN, n));
    }
}
