package fsil.core.gp;

import fsil.api.InvalidParameterException;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GP/PG benchmarks: a smoke run with tiny sizes in the default suite (registration, options, output), and
 * the full-size run tagged "bench" ({@code mvn -q -pl core -am verify -Pbench -Dtest=GpBenchmarksTest
 * -Dsurefire.failIfNoSpecifiedTests=false}).
 */
class GpBenchmarksTest {

    private static Map<String, Benchmark> registered() {
        Map<String, Benchmark> m = new HashMap<>();
        for (Benchmark b : ServiceLoader.load(Benchmark.class)) {
            m.put(b.id(), b);
        }
        return m;
    }

    @Test
    void registeredAndRunnableAtTinySizes() {
        Map<String, Benchmark> b = registered();
        assertTrue(b.containsKey("pg-sampler") && b.containsKey("gp-kernel-cholesky"), b.keySet().toString());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        b.get("pg-sampler").run(Map.of("draws", "2000"), out);
        b.get("gp-kernel-cholesky").run(Map.of("n", "40", "d", "5"), out);
        String text = buf.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("series PG(1,c), 200 terms (reference)") && text.contains("kernel + Cholesky"), text);
        assertThrows(InvalidParameterException.class, () -> b.get("pg-sampler").run(Map.of("bogus", "1"), out));
        assertThrows(InvalidParameterException.class, () -> b.get("gp-kernel-cholesky").run(Map.of("n", "1"), out));
    }

    @Test
    @Tag("bench")
    void fullSize() {
        Map<String, Benchmark> b = registered();
        b.get("pg-sampler").run(Map.of(), System.out);
        b.get("gp-kernel-cholesky").run(Map.of(), System.out);
    }
}
