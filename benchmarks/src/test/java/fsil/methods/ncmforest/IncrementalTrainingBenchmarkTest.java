package fsil.methods.ncmforest;

import fsil.api.FsilException;
import fsil.core.bench.BenchResult;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ncmf-incremental} returns one row per strategy on a tiny stream and rejects bad options. */
class IncrementalTrainingBenchmarkTest {

    private static final Map<String, String> TINY = Map.of("classes", "6", "dim", "4", "per_class", "20",
            "test_per_class", "5", "trees", "2", "warmup", "0");

    @Test
    void tinyRunReturnsAStrategyTableAgainstRetrain() {
        BenchResult r = new IncrementalTrainingBenchmark().run(TINY);
        assertEquals(IncrementalComparison.SUMMARY_COLUMNS, r.columns());
        assertEquals(List.of("uls", "igt", "rtst", "rust", "retrain"), r.values("strategy"));
        for (String ratio : List.of("time/retr", "cmp/retrain", "rel_final", "rel_mean")) {
            assertEquals(1.0, r.number("retrain", ratio), ratio);
        }
        for (double v : r.numbers("time/retr")) {
            assertTrue(Double.isFinite(v) && v > 0, "time ratio " + v);
        }
        for (double v : r.numbers("final_acc")) {
            assertTrue(v > 0 && v <= 1, "accuracy " + v);
        }
        // comparison counts are deterministic: updating leaf statistics (ULS) is cheaper than growing the leaves
        // (IGT), which is cheaper than retraining every tree
        assertTrue(r.number("uls", "cmp/retrain") < r.number("igt", "cmp/retrain"), r.toString());
        assertTrue(r.number("igt", "cmp/retrain") < 1, r.toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("reference: nearest class mean on all 6 classes")),
                r.notes().toString());
    }

    @Test
    void unknownOptionsAndBadNumbersAreRejected() {
        IncrementalTrainingBenchmark b = new IncrementalTrainingBenchmark();
        FsilException e = assertThrows(FsilException.class, () -> b.run(Map.of("clases", "8")));
        assertTrue(e.getMessage().contains("clases") && e.getMessage().contains("classes"), e.getMessage());
        e = assertThrows(FsilException.class, () -> b.run(Map.of("trees", "zero")));
        assertTrue(e.getMessage().contains("trees") && e.getMessage().contains("zero"), e.getMessage());
    }
}
