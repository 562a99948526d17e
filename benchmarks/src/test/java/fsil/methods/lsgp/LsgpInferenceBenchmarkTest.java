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

/** {@code lsgp-inference} is registered and returns its inference variants on tiny episodes. */
class LsgpInferenceBenchmarkTest {

    static Benchmark benchmark() {
        return ServiceLoader.load(Benchmark.class).stream().map(ServiceLoader.Provider::get)
                .filter(x -> x.id().equals("lsgp-inference")).findFirst().orElseThrow();
    }

    @Test
    void tinyRunReturnsTheVariantsAgainstTheDefaultMeanField() {
        BenchResult r = benchmark().run(Map.of("dim", "8", "episodes", "3", "reps", "3", "warmups", "0",
                "mc_samples", "50", "gibbs", "2+2,3+1", "check_episodes", "1", "ref_draws", "20000", "fixed_steps", "2000"));
        assertEquals(List.of("variant", "learn ms", "predict ms", "total ms", "total/ref", "ratio min", "ratio max",
                "accuracy", "acc ci95", "diff vs ref", "diff ci95", "mf steps"), r.columns());
        assertEquals(List.of("mean-field (ref.)", "mean-field 20 steps, MC", "gibbs 2+2", "gibbs 3+1"),
                r.values("variant"));
        assertTrue(r.title().contains("median of 3 repetitions (round robin, order rotating)"), r.title());
        // the reference against itself in every repetition: exactly 1
        assertEquals(1.0, r.number("mean-field (ref.)", "total/ref"));
        assertEquals(1.0, r.number("mean-field (ref.)", "ratio min"));
        assertEquals(1.0, r.number("mean-field (ref.)", "ratio max"));
        assertEquals(0.0, r.number("mean-field (ref.)", "diff vs ref"));
        for (String c : List.of("learn ms", "predict ms", "total ms", "total/ref", "ratio min", "ratio max")) {
            for (double v : r.numbers(c)) {
                assertTrue(Double.isFinite(v) && v > 0, c + " = " + v);
            }
        }
        // the median of the per-repetition ratios lies in their range
        for (Object row : r.values("variant")) {
            String v = (String) row;
            double lo = r.number(v, "ratio min");
            double mid = r.number(v, "total/ref");
            double hi = r.number(v, "ratio max");
            assertTrue(lo <= mid && mid <= hi, v + ": " + lo + " " + mid + " " + hi);
        }
        for (double a : r.numbers("accuracy")) {
            assertTrue(a >= 0 && a <= 1, "accuracy " + a);
        }
        // the mean-field rows report their steps: 20 for the fixed count, at most the cap for the tolerance
        assertEquals(20.0, r.number("mean-field 20 steps, MC", "mf steps"));
        double st = r.number("mean-field (ref.)", "mf steps");
        assertTrue(st >= 1 && st <= 200, "steps " + st);
        assertEquals("", r.row("gibbs 2+2").get(r.column("mf steps")));
        // the synthetic clusters are well separated: mean-field classifies them (chance is 0.2)
        assertTrue(r.number("mean-field (ref.)", "accuracy") > 0.6, r.toString());
        // the fidelity notes: distances from the fixed point and the predictive's errors
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("fixed point (1 episodes")), r.notes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("predictive (375 probabilities")), r.notes().toString());
        assertThrows(FsilException.class, () -> benchmark().run(Map.of("gibbs", "20")));
    }

    @Test
    void unknownOptionsAreRejected() {
        FsilException e = assertThrows(FsilException.class, () -> benchmark().run(Map.of("bogus", "1")));
        assertTrue(e.getMessage().contains("bogus"), e.getMessage());
    }
}
