package fsil.methods.lsgp;

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

/** {@code lsgp-inference} is registered and returns its three inference variants on tiny episodes. */
class LsgpInferenceBenchmarkTest {

    static Benchmark benchmark() {
        return ServiceLoader.load(Benchmark.class).stream().map(ServiceLoader.Provider::get)
                .filter(x -> x.id().equals("lsgp-inference")).findFirst().orElseThrow();
    }

    @Test
    void tinyRunReturnsTheVariantsAgainstTwentyMeanFieldSteps() {
        BenchResult r = benchmark().run(Map.of("dim", "8", "episodes", "2", "reps", "1", "warmups", "0",
                "mc_samples", "50", "gibbs_burnin", "2", "gibbs_samples", "2"));
        assertEquals(List.of("variant", "learn ms", "learn/ref", "predict ms", "episodes/s", "total/ref", "accuracy"),
                r.columns());
        assertEquals(List.of("mean-field 20 steps (ref.)", "mean-field 1 step", "gibbs 2+2 sweeps"),
                r.values("variant"));
        assertEquals(1.0, r.number("mean-field 20 steps (ref.)", "learn/ref"));
        assertEquals(1.0, r.number("mean-field 20 steps (ref.)", "total/ref"));
        for (String c : List.of("learn ms", "learn/ref", "predict ms", "episodes/s", "total/ref")) {
            for (double v : r.numbers(c)) {
                assertTrue(Double.isFinite(v) && v > 0, c + " = " + v);
            }
        }
        for (double a : r.numbers("accuracy")) {
            assertTrue(a >= 0 && a <= 1, "accuracy " + a);
        }
        // the synthetic clusters are well separated: mean-field classifies them (chance is 0.2)
        assertTrue(r.number("mean-field 20 steps (ref.)", "accuracy") > 0.6, r.toString());
    }

    @Test
    void unknownOptionsAreRejected() {
        FsilException e = assertThrows(FsilException.class, () -> benchmark().run(Map.of("bogus", "1")));
        assertTrue(e.getMessage().contains("bogus"), e.getMessage());
    }
}
