package fsil.methods.bavardage;

import fsil.api.FsilException;
import fsil.core.bench.BenchResult;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bavardage-episodes} is registered and returns one row per variant against soft k-means on tiny data. */
class BavardageEpisodesBenchmarkTest {

    @Test
    void tinyRunReturnsTheVariantsAgainstSoftKMeans() {
        Benchmark b = ServiceLoader.load(Benchmark.class).stream().map(ServiceLoader.Provider::get)
                .filter(x -> x.id().equals("bavardage-episodes")).findFirst().orElseThrow();
        BenchResult r = b.run(Map.of("dim", "8", "episodes", "2", "reps", "1", "warmups", "0", "base-classes", "6",
                "base-per-class", "10", "novel-classes", "6", "novel-per-class", "20"));
        assertEquals(List.of("variant", "learner s", "episodes/s", "ms/episode", "rate/ref", "accuracy",
                "10k eps 2 cores s"), r.columns());
        assertEquals(List.of("softkmeans (reference)", "bavardage, code preprocessing",
                "bavardage, paper preprocessing", "vb-no-plda, code preprocessing", "bavardage, auto (default)"),
                r.values("variant"));
        assertEquals(1.0, r.number("softkmeans (reference)", "rate/ref"));
        for (String c : List.of("learner s", "episodes/s", "ms/episode", "rate/ref", "10k eps 2 cores s")) {
            for (double v : r.numbers(c)) {
                assertTrue(Double.isFinite(v) && v > 0, c + " = " + v);
            }
        }
        for (double a : r.numbers("accuracy")) {
            assertTrue(a >= 0 && a <= 1, "accuracy " + a);
        }
        // the columns agree with each other: ms/episode = 1000 / episodes/s; 10,000 episodes on 2 cores
        for (List<Object> row : r.rows()) {
            double rate = ((Number) row.get(2)).doubleValue();
            assertEquals(1000 / rate, ((Number) row.get(3)).doubleValue(), 1e-9 * (1000 / rate));
            assertEquals(5000 / rate, ((Number) row.get(6)).doubleValue(), 1e-9 * (5000 / rate));
        }
        assertThrows(FsilException.class, () -> b.run(Map.of("bogus", "1")));
    }
}
