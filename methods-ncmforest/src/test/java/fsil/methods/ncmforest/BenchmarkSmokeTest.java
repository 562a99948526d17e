package fsil.methods.ncmforest;

import fsil.api.FsilException;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmarks are registered, run on a tiny configuration, and reject unknown options. */
class BenchmarkSmokeTest {

    private static Benchmark find(String id) {
        for (Benchmark b : ServiceLoader.load(Benchmark.class)) {
            if (b.id().equals(id)) {
                return b;
            }
        }
        throw new AssertionError("benchmark " + id + " is not registered");
    }

    private static String run(String id, Map<String, String> options) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        find(id).run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void bothBenchmarksAreRegistered() {
        Set<String> ids = new TreeSet<>();
        for (Benchmark b : ServiceLoader.load(Benchmark.class)) {
            ids.add(b.id());
        }
        assertTrue(ids.containsAll(Set.of("ncmf-incremental", "ncmf-test-time")), ids.toString());
    }

    @Test
    void incrementalBenchmarkRunsSmall() {
        String out = run("ncmf-incremental", Map.of("classes", "6", "dim", "4", "per_class", "20",
                "test_per_class", "5", "trees", "2", "warmup", "0"));
        for (String s : new String[]{"uls", "igt", "rtst", "rust", "retrain", "time/retr"}) {
            assertTrue(out.contains(s), out);
        }
    }

    @Test
    void testTimeBenchmarkRunsSmall() {
        String out = run("ncmf-test-time", Map.of("classes", "8", "dim", "5", "per_class", "20", "test", "16",
                "trees", "2", "reps", "1"));
        assertTrue(out.contains("ncmf, per tree") && out.contains("ncm (all class means)"), out);
    }

    @Test
    void unknownOptionsAndBadNumbersAreRejected() {
        FsilException e = assertThrows(FsilException.class, () -> run("ncmf-test-time", Map.of("clases", "8")));
        assertTrue(e.getMessage().contains("clases") && e.getMessage().contains("classes"), e.getMessage());
        e = assertThrows(FsilException.class, () -> run("ncmf-incremental", Map.of("trees", "zero")));
        assertTrue(e.getMessage().contains("trees"), e.getMessage());
        assertEquals("ncmf-incremental", find("ncmf-incremental").id());
    }
}
