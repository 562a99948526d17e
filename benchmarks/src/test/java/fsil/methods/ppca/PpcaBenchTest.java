package fsil.methods.ppca;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PPCA benchmarks at a small size (outside JMH): their setups check that the fast and explicit scores agree
 * and that auto and gram fit the full decomposition's model (they throw otherwise); the bodies run.
 */
class PpcaBenchTest {

    @Test
    void scoreFormsAgreeAndRun() {
        PpcaScoreBench b = new PpcaScoreBench();
        b.classes = 3;
        b.dim = 40;
        b.q = 4;
        b.queries = 30;
        b.lambda = 0.01;
        b.threads = 2;
        b.setup();
        try {
            double[] fast = b.fastOneThread();
            assertEquals(90, fast.length);
            assertArrayEquals(fast, b.fastThreads(), 0, "the tiles give the same scores on 2 threads");
            double[] prec = b.explicitPrecision();
            for (int i = 0; i < fast.length; i++) {
                assertEquals(fast[i], prec[i], 1e-9 * fast[i]);
            }
        } finally {
            b.tearDown();
        }
    }

    @Test
    void fitPathsAgreeAndRun() {
        PpcaFitBench b = new PpcaFitBench();
        b.dim = 48;
        b.q = 4;
        b.perClass = 30;
        b.alpha = 1.0;
        b.setup();
        long memory = b.fullReference();
        assertTrue(memory > 0);
        assertEquals(memory, b.auto());
        assertEquals(memory, b.gram());
    }
}
