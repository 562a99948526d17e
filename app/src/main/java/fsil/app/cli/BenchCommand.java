package fsil.app.cli;

import fsil.api.FsilException;
import fsil.api.Registry;
import fsil.core.bench.Benchmark;
import fsil.app.Plugins;
import jakarta.inject.Inject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Lists or runs the registered end-to-end benchmarks and prints the table each returns (ratios against a reference
 * row measured in the same run). Micro-benchmarks are JMH benchmarks in the benchmarks module.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = {"List the end-to-end benchmarks, or run one: fsil bench <id> [key=value ...].",
        "Each prints a table of whole-method variants with ratios against a reference row measured in the same run.",
        "Micro-benchmarks (single operations) are JMH benchmarks: see benchmarks/README.md."})
final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", description = "benchmark id (omit to list them)")
    String id;
    @Parameters(index = "1..*", description = "parameters key=value (listed with the benchmark)")
    List<String> options = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Inject
    Plugins plugins;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Registry<Benchmark> all = plugins.benchmarks();
        if (id == null) {
            int width = spec.commandLine().getUsageHelpWidth();
            for (Benchmark b : all.all()) {
                out.println(TextWrap.wrap(String.format("%-24s ", b.id()), b.description(), 25, width));
                out.println(MethodsCommand.parameters(b.parameters(), width));
            }
            return 0;
        }
        Benchmark b = all.get(id);
        Map<String, String> opts = new LinkedHashMap<>();
        for (String kv : options) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new FsilException("benchmark options are key=value, got '" + kv + "'");
            }
            opts.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        out.print(BenchTable.format(b.run(b.params(opts))));
        out.flush();
        return 0;
    }
}
