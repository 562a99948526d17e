package fsil.methods.bavardage;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The benchmark bodies run at a small size (outside JMH) and the stages are the solver's own results. */
class BavardageStagesBenchTest {

    @Test
    void stagesRecomputeTheSolversIntermediates() {
        BavardageStagesBench b = new BavardageStagesBench();
        b.dim = 16;
        b.setup();
        assertEquals(BavardageStagesBench.WAYS * BavardageStagesBench.QUERIES_PER_CLASS, b.episode().size());
        int r = b.span().rank();
        assertEquals(r * r, b.innerProduct().length);
        assertEquals(r, b.eigen().values().length);
        assertEquals(r, b.restrictedWhitening().dim());
        int rows = BavardageStagesBench.WAYS * (BavardageStagesBench.SHOTS + BavardageStagesBench.QUERIES_PER_CLASS);
        assertEquals(rows * BavardageStagesBench.WAYS, b.softKMeans().length);
        assertEquals(rows * BavardageStagesBench.WAYS, b.finish().responsibilities().length);
        assertEquals(rows * rows, b.gram().length);
        assertEquals(16 * b.span().rank(), b.triangularSolve().length);
    }

    @Test
    void thePreparedStagesAreTheLearnersTasks() {
        BavardageStagesBench b = new BavardageStagesBench();
        b.dim = 16;
        b.setup();
        for (int t = 0; t < BavardageStagesBench.TASKS; t++) {
            LabeledEpisode e = b.episodes.get(t);
            BavardageSolver.Result r = BavardageSolver.finish(b.prepared.get(t), b.config);
            double[] viaStages = BavardageSession.prediction(e.support().classes(), r, e.support().size(),
                    e.queries().rows()).rawProbabilities();
            assertArrayEquals(b.learner.solve(e.episode(), t).rawProbabilities(), viaStages, "task " + t);
        }
    }
}
