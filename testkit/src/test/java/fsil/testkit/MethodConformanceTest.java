package fsil.testkit;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MethodConformanceTest {

    @TestFactory
    Stream<DynamicTest> toyMethodPassesConformance() {
        return MethodConformance.of(new ToyNearestMeanMethod()).tests();
    }

    /** The kit must be able to fail: a method that writes into its inputs or ignores the seed is caught. */
    @Test
    void kitCatchesMisbehavingMethods() {
        long mutateFailures = MethodConformance.of(new ToyNearestMeanMethod()).withParams(Map.of("mutate", "true"))
                .tests().filter(MethodConformanceTest::fails).count();
        assertTrue(mutateFailures >= 1, "mutation of inputs must be detected");
        long noisyFailures = MethodConformance.of(new ToyNearestMeanMethod()).withParams(Map.of("noisy", "true"))
                .tests().filter(t -> t.getDisplayName().contains("deterministic"))
                .filter(MethodConformanceTest::fails).count();
        assertEquals(2, noisyFailures, "ignoring the seed must be detected for episodes and streams");
    }

    private static boolean fails(DynamicTest t) {
        try {
            t.getExecutable().execute();
            return false;
        } catch (Throwable e) {
            return true;
        }
    }
}
