package fsil.methods.ppca;

import fsil.api.FsilException;
import fsil.core.bench.BenchResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ppca-scale} returns its two-row table at a tiny size and rejects unknown or bad options. */
class ScaleBenchmarkTest {

    @Test
    void tinyRunReturnsPpcaAndReferenceRows() {
        BenchResult r = new ScaleBenchmark().run(Map.of("classes", "40", "per_class", "12", "dim", "32",
                "chunk", "15", "queries", "30", "batch", "7", "threads", "2"));
        assertEquals(List.of("model", "fit_s", "ms/class", "fit/ref", "pairs/s", "score/ref", "accuracy",
                "memory_MiB"), r.columns());
        assertEquals(List.of("ppca q=20", "q=0 (reference)"), r.values("model"));
        assertEquals(1.0, r.number("q=0 (reference)", "fit/ref"));
        assertEquals(1.0, r.number("q=0 (reference)", "score/ref"));
        for (String c : List.of("fit_s", "ms/class", "fit/ref", "pairs/s", "score/ref", "memory_MiB")) {
            for (double v : r.numbers(c)) {
                assertTrue(Double.isFinite(v) && v > 0, c + " = " + v);
            }
        }
        // 40 separated classes (chance 0.025): both models classify, q = 20 components cost memory
        for (double a : r.numbers("accuracy")) {
            assertTrue(a > 0.3 && a <= 1, "accuracy " + a);
        }
        assertTrue(r.number("ppca q=20", "memory_MiB") > 5 * r.number("q=0 (reference)", "memory_MiB"),
                r.toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("peak during fit and scoring")), r.notes().toString());
    }

    @Test
    void unknownOptionsAreRejected() {
        FsilException e = assertThrows(FsilException.class, () -> new ScaleBenchmark().run(Map.of("clases", "3")));
        assertTrue(e.getMessage().contains("clases") && e.getMessage().contains("classes"), e.getMessage());
        FsilException bad = assertThrows(FsilException.class,
                () -> new ScaleBenchmark().run(Map.of("classes", "x")));
        assertEquals("parameter 'classes' got 'x', expected integer in [1, 10000000]", bad.getMessage());
        FsilException model = assertThrows(FsilException.class,
                () -> new ScaleBenchmark().run(Map.of("model", "gaussian")));
        assertTrue(model.getMessage().startsWith("parameter 'model' got 'gaussian'")
                && model.getMessage().contains("shared") && model.getMessage().contains("power-law"), model.getMessage());
    }
}
