package fsil.methods.ncmforest;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark bodies run at a small size (outside JMH): the forest (both paths, identical posteriors) and the NCM
 * reference label the test set, and the setup's forest classifies far above chance on the benchmark's data.
 */
class NcmForestTestTimeBenchTest {

    private static NcmForestTestTimeBench.Forest forest(int classes, int dim, double noise) {
        NcmForestTestTimeBench.Forest f = new NcmForestTestTimeBench.Forest();
        f.classes = classes;
        f.dim = dim;
        f.perClass = 20;
        f.noise = noise;
        f.setupData();
        f.setupForest();
        return f;
    }

    @Test
    void bodiesRunAtSmallSize() {
        NcmForestTestTimeBench b = new NcmForestTestTimeBench();
        NcmForestTestTimeBench.Forest f = forest(20, 10, 0.3);
        assertEquals(NcmForestTestTimeBench.TEST, b.forestPerTree(f).size());
        assertArrayEquals(b.forestPerTree(f).rawProbabilities(), b.forestPerTreeOneQueryAtATime(f),
                "grouped and one-query-at-a-time posteriors are identical");
        int[] ncm = b.nearestClassMeanReference(f);
        assertEquals(NcmForestTestTimeBench.TEST, ncm.length);
        for (int c : ncm) {
            assertTrue(c >= 0 && c < 20, "class " + c);
        }
    }

    /**
     * The forest the benchmark times must classify: on the benchmark's data (d = classes here, to stay fast) it is
     * far above chance (the earlier data, noise 1.0 in d = 1,000, left 5 trees at 2.4% with 1,000 classes), and the
     * setup refuses to time a forest that is not above 5 x chance.
     */
    @Test
    void setupForestClassifiesFarAboveChance() {
        NcmForestTestTimeBench.Forest f = forest(200, 200, 0.3);
        double chance = 1.0 / 200;
        assertTrue(f.forestAccuracy > 5 * chance, "forest accuracy " + f.forestAccuracy);
        assertTrue(f.forestAccuracy > 0.5, "forest accuracy " + f.forestAccuracy);
        assertTrue(f.ncmAccuracy > 0.5, "NCM accuracy " + f.ncmAccuracy);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> forest(20, 10, 20.0),
                "noise 20 in d = 10 leaves every classifier near chance");
        assertTrue(e.getMessage().contains("chance"), e.getMessage());
    }
}
