package fsil.methods.bavardage;

import fsil.api.FsilException;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark is registered and runs (a smoke run on tiny data; no timing is asserted). */
class BavardageEpisodesBenchmarkTest {

    @Test
    void registeredAndRunsOnTinyData() {
        Benchmark b = ServiceLoader.load(Benchmark.class).stream().map(ServiceLoader.Provider::get)
                .filter(x -> x.id().equals("bavardage-episodes")).findFirst().orElseThrow();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        b.run(Map.of("dim", "8", "episodes", "2", "reps", "1", "warmups", "0", "base-classes", "6",
                "base-per-class", "10", "novel-classes", "6", "novel-per-class", "20"),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("softkmeans (reference)") && out.contains("bavardage, code preprocessing"), out);
        assertThrows(FsilException.class, () -> b.run(Map.of("bogus", "1"), System.out));
    }
}
