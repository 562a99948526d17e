package fsil.methods.gptree;

import fsil.api.InvalidParameterException;
import fsil.core.bench.BenchResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code gptree-classes-sweep} returns one row per tree variant at a tiny size. */
class ClassesSweepBenchmarkTest {

    @Test
    void tinyRunReturnsOneRowPerVariant() {
        BenchResult r = new ClassesSweepBenchmark().run(Map.of("classes", "5", "per_class", "4", "d", "6",
                "chains", "2", "steps", "1"));
        assertEquals(List.of("variant", "s", "time/ref", "accuracy"), r.columns());
        assertEquals(List.of("kmeans tree, chains=2 (reference)", "stick-break chain (SBM-GP)",
                "random balanced tree (GP-Tree Rnd)", "kmeans tree, chains=1", "kmeans tree, plug-in predictive"),
                r.values("variant"));
        assertEquals(1.0, r.number("kmeans tree, chains=2 (reference)", "time/ref"));
        for (String c : List.of("s", "time/ref")) {
            for (double v : r.numbers(c)) {
                assertTrue(Double.isFinite(v) && v > 0, c + " = " + v);
            }
        }
        // class centres N(0, I) with within-class noise 0.7 in 6 dimensions: far above chance (0.2) for every variant
        for (double a : r.numbers("accuracy")) {
            assertTrue(a > 0.5 && a <= 1, "accuracy " + a + " in " + r);
        }
    }

    @Test
    void unknownOptionsAreRejected() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> new ClassesSweepBenchmark().run(Map.of("bogus", "1")));
        assertTrue(e.getMessage().contains("bogus"), e.getMessage());
        assertThrows(InvalidParameterException.class, () -> new ClassesSweepBenchmark().run(Map.of("classes", "1")));
    }
}
