package fsil.methods.gptree;

import fsil.api.InvalidParameterException;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchmarkSmokeTest {

    @Test
    void benchmarksAreRegisteredAndRunAtTinySizes() {
        Set<String> ids = ServiceLoader.load(Benchmark.class).stream().map(p -> p.get().id()).collect(Collectors.toSet());
        assertTrue(ids.containsAll(Set.of("gptree-gibbs-sweep", "gptree-classes-sweep")), ids.toString());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        new GibbsSweepBenchmark().run(Map.of("n", "40", "d", "4", "chains", "2", "queries", "10"), out);
        new ClassesSweepBenchmark().run(Map.of("classes", "5", "per_class", "4", "d", "6", "chains", "2", "steps", "1"), out);
        String text = buf.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("ratio to Cholesky") && text.contains("time ratio"), text);
        assertThrows(InvalidParameterException.class, () -> new GibbsSweepBenchmark().run(Map.of("bogus", "1"), out));
    }
}
