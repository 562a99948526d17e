package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import fsil.methods.baselines.SoftKMeansMethod;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soft k-means baseline of methods-baselines with its default preprocessing (centre on the base mean, then
 * L2) is BAVARDAGE's Table 2 row 1, {@code bavardage[variant=softkmeans]}: the same predictions, and the same
 * probabilities up to the last bit (BAVARDAGE renormalises its output rows).
 */
class SoftKMeansBaselineTest {
    /** Features with a large common offset (0.5 ± 0.25 per dimension), so centring on the base mean matters. */
    private static final SyntheticEpisodes DATA = SyntheticEpisodes.generate(21, 48, 12, 40, 10, 60, 0.7, 4,
            0.5);

    private static Learner learner(Method m, Map<String, String> params) {
        Background bg = new Background(DATA.base(), ClassTable.numbered(100), "skm", 3, Optional.empty());
        return m.learner(m.params(params), bg);
    }

    @Test
    void defaultEqualsBavardageSoftKMeansVariantPredictionByPrediction() {
        Learner baseline = learner(new SoftKMeansMethod(), Map.of());
        Learner l2 = learner(new SoftKMeansMethod(), Map.of("preprocessing", "l2"));
        Learner bav = learner(new BavardageMethod(), Map.of("variant", "softkmeans"));
        UniformRandomProvider rng = RandomStreams.create(5);
        int differentFromL2 = 0;
        int queries = 0;
        for (int e = 0; e < 24; e++) {
            int shots = e % 2 == 0 ? 1 : 5;
            EpisodeSampler.Queries counts = e % 4 < 2 ? EpisodeSampler.Queries.upTo(15)
                    : EpisodeSampler.Queries.dirichlet(50, 2.0);
            LabeledEpisode ep = DATA.episode(rng, 5, shots, counts);
            Prediction a = baseline.solve(ep.episode(), e);
            Prediction b = bav.solve(ep.episode(), e);
            assertArrayEquals(b.classes(), a.classes());
            // the same doubles up to BAVARDAGE's output renormalisation (each row divided by its sum, which is 1
            // within an ulp for a plain softmax): the last bit of a probability may differ, never a prediction
            assertArrayEquals(b.rawProbabilities(), a.rawProbabilities(), 1e-15, "episode " + e);
            assertArrayEquals(b.labels(), a.labels(), "episode " + e);
            int[] old = l2.solve(ep.episode(), e).labels();
            for (int i = 0; i < old.length; i++) {
                differentFromL2 += old[i] != a.labels()[i] ? 1 : 0;
            }
            queries += old.length;
        }
        assertTrue(differentFromL2 > 0, "centring must matter on these features (" + queries + " queries)");
    }

    @Test
    void withoutBaseClassesTheDefaultFallsBackToL2AndSaysSo() {
        SoftKMeansMethod m = new SoftKMeansMethod();
        Background none = Background.none(DATA.dimension());
        LabeledEpisode ep = DATA.episode(RandomStreams.create(9), 5, 1, EpisodeSampler.Queries.upTo(10));
        Session paper = m.learner(m.defaults(), none).newSession(SessionContext.forEpisode(ep.episode(), 0));
        paper.learn(ep.support());
        Prediction p = paper.predict(ep.queries());
        assertEquals(0.0, paper.diagnostics().get("base_centred"));
        Prediction l2 = m.learner(m.params(Map.of("preprocessing", "l2")), none).solve(ep.episode(), 0);
        assertArrayEquals(l2.rawProbabilities(), p.rawProbabilities(), 0.0);
        Session centred = learner(m, Map.of()).newSession(SessionContext.forEpisode(ep.episode(), 0));
        centred.learn(ep.support());
        centred.predict(ep.queries());
        assertEquals(1.0, centred.diagnostics().get("base_centred"));
        assertTrue(Arrays.stream(p.rawProbabilities()).allMatch(Double::isFinite));
    }
}
