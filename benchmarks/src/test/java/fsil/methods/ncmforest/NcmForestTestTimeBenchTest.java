package fsil.methods.ncmforest;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark bodies run at a small size (outside JMH): the forest (both paths, identical posteriors) and the NCM
 * reference label the test set.
 */
class NcmForestTestTimeBenchTest {

    @Test
    void bodiesRunAtSmallSize() {
        NcmForestTestTimeBench b = new NcmForestTestTimeBench();
        b.classes = 20;
        b.dim = 10;
        b.perClass = 15;
        b.setup();
        assertEquals(NcmForestTestTimeBench.TEST, b.forestPerTree().size());
        org.junit.jupiter.api.Assertions.assertArrayEquals(b.forestPerTree().rawProbabilities(),
                b.forestPerTreeOneQueryAtATime(), "grouped and one-query-at-a-time posteriors are identical");
        int[] ncm = b.nearestClassMeanReference();
        assertEquals(NcmForestTestTimeBench.TEST, ncm.length);
        for (int c : ncm) {
            assertTrue(c >= 0 && c < 20, "class " + c);
        }
    }
}
