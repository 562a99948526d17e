package fsil.methods.gptree;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark bodies run at a small size (outside JMH) and return what they claim to. */
class GibbsNodeBenchTest {

    @Test
    void bodiesRunAtSmallSize() {
        GibbsNodeBench b = new GibbsNodeBench();
        b.n = 40;
        b.d = 4;
        b.chains = 2;
        b.queries = 10;
        b.setup();
        assertEquals(40, b.choleskyReference().size());
        assertEquals(40, b.sweepPathwise().length);
        assertEquals(40, b.sweepCovariance().length);
        assertTrue(Double.isFinite(b.fitOneChain()) && Double.isFinite(b.fitChains()));
        for (double[] p : new double[][]{b.predictGaussHermite(), b.predictPlugIn()}) {
            assertEquals(10, p.length);
            for (double v : p) {
                assertTrue(v >= 0 && v <= 1, "probability " + v);
            }
        }
    }
}
