package fsil.methods.ncmforest;

import fsil.core.bench.Benchmark;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Runs a registered benchmark from the command line until the CLI's {@code fsil bench} exists:
 * {@code java -cp <classpath> fsil.methods.ncmforest.RunBenchmark ncmf-test-time classes=100 dim=100}.
 */
public final class RunBenchmark {
    private RunBenchmark() {
    }

    public static void main(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        for (Benchmark b : ServiceLoader.load(Benchmark.class)) {
            if (b.id().equals(args[0])) {
                b.run(options, System.out);
                return;
            }
        }
        throw new IllegalArgumentException("no benchmark " + args[0]);
    }
}
