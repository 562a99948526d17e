package fsil.core.bench;

import java.io.PrintStream;
import java.util.Map;

/**
 * A performance benchmark that prints its timings as ratios against a reference measured in the same run
 * (never absolute times alone). Method modules register benchmarks in
 * {@code META-INF/services/fsil.core.bench.Benchmark}; {@code fsil bench} lists and runs them.
 */
public interface Benchmark {

    /** Stable id, e.g. {@code ppca-score}. */
    String id();

    /** One line: what is measured against what. */
    String description();

    /**
     * Runs the benchmark and prints a small table.
     *
     * @param options free-form {@code key=value} options (e.g. {@code classes=1000}); unknown keys are an error
     * @param out     where to print
     */
    void run(Map<String, String> options, PrintStream out);
}
