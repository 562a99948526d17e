package fsil.methods.lsgp;

import fsil.api.FsilException;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LsgpInferenceBenchmarkTest {

    static Benchmark benchmark() {
        return ServiceLoader.load(Benchmark.class).stream().map(ServiceLoader.Provider::get)
                .filter(x -> x.id().equals("lsgp-inference")).findFirst().orElseThrow();
    }

    /** Registered and runnable on tiny data (no timing asserted). */
    @Test
    void registeredAndRunsOnTinyData() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        benchmark().run(Map.of("dim", "8", "episodes", "2", "reps", "1", "warmups", "0", "mc_samples", "50",
                "gibbs_burnin", "2", "gibbs_samples", "2"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("mean-field 20 steps (ref.)") && out.contains("gibbs"), out);
        assertThrows(FsilException.class, () -> benchmark().run(Map.of("bogus", "1"), System.out));
    }

    /** The full benchmark: mvn -pl methods-lsgp -am verify -Pbench (or bin/fsil bench lsgp-inference). */
    @Test
    @Tag("bench")
    void fullBenchmark() {
        benchmark().run(Map.of(), System.out);
    }
}
