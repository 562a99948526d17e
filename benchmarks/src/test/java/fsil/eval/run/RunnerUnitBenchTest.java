package fsil.eval.run;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paired benchmark outside JMH: both halves run, the pairs are kept when measuring, the report reads them. */
class RunnerUnitBenchTest {

    @Test
    void pairsRunBothHalvesAndReportTheDifference() throws IOException {
        RunnerUnitBench b = new RunnerUnitBench();
        b.episodes = 400;
        b.setup();
        try {
            long stored = b.withoutRunner();
            assertTrue(stored > 400, "every metric's values of every block: " + stored);
            b.paired(); // a warm-up call: not kept
            assertEquals(0, b.pairs.size());
            b.measuring = true;
            b.paired();
            b.paired();
            assertEquals(2, b.pairs.size());
            b.pairs.forEach(p -> assertTrue(p[0] > 0 && p[1] > 0, "both halves timed"));
            assertEquals(3 * (stored + 400), b.sink, "each call ran both halves over the same episodes");
            assertTrue(b.unitsBytes > 400, "the run's units.csv was measured: " + b.unitsBytes);
            assertTrue(b.report().matches("# runner's own time over 2 pairs of 400 episodes \\(all\\): .* us per "
                    + "episode without the runner; units\\.csv [0-9.]+ bytes per episode"), b.report());
        } finally {
            b.tearDown();
        }
    }
}
