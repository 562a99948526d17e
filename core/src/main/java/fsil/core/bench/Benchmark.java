package fsil.core.bench;

import fsil.api.Params;
import fsil.api.Plugin;

import java.util.stream.Collectors;

/**
 * An end-to-end benchmark: whole methods or method variants compared on the same data in one run, as a table of
 * several rows with ratios against a reference row measured in the same run (never absolute times alone). A plugin
 * like the others: typed {@link #parameters()}, given as {@code key=value} ({@code fsil bench ppca-scale
 * classes=1000}), checked before it runs. Register an implementation in
 * {@code META-INF/services/fsil.core.bench.Benchmark}; {@code fsil bench} lists them with their parameters, runs one
 * and prints its {@link BenchResult}. Micro-benchmarks of single operations are JMH benchmarks in the
 * {@code benchmarks} module, not implementations of this interface.
 */
public interface Benchmark extends Plugin {

    @Override
    default String kind() {
        return "benchmark";
    }

    /**
     * Runs the benchmark.
     *
     * @param params resolved parameters ({@link #params(java.util.Map)})
     * @return the table: one row per variant, the reference row included
     */
    BenchResult run(Params params);

    /** Runs with these values over the defaults; unknown names and bad values are an error naming the valid ones. */
    default BenchResult run(java.util.Map<String, String> values) {
        return run(params(values));
    }

    /** {@code id: key=value ...}: a result table's title, saying every setting of the run. */
    default String title(Params params) {
        return id() + ": " + params.asText().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }
}
