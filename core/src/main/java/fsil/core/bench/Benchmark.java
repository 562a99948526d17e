package fsil.core.bench;

import java.util.Map;

/**
 * An end-to-end benchmark: whole methods or method variants compared on the same data in one run, as a table of
 * several rows with ratios against a reference row measured in the same run (never absolute times alone).
 * Method modules register them in {@code META-INF/services/fsil.core.bench.Benchmark}; {@code fsil bench} lists
 * them, runs one and prints its {@link BenchResult}. Micro-benchmarks of single operations are JMH benchmarks in
 * the {@code benchmarks} module, not implementations of this interface.
 */
public interface Benchmark {

    /** Stable id, e.g. {@code ppca-scale}. */
    String id();

    /** One line: what is compared with what. */
    String description();

    /**
     * Runs the benchmark.
     *
     * @param options free-form {@code key=value} options (e.g. {@code classes=1000}); unknown keys are an error
     * @return the table: one row per variant, the reference row included
     */
    BenchResult run(Map<String, String> options);
}
