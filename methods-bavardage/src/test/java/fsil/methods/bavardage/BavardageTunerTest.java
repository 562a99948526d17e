package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.InvalidParameterException;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BavardageTunerTest {
    private static final BavardageMethod METHOD = new BavardageMethod();
    private static final SyntheticFewShotData DATA = SyntheticFewShotData.generate(21, 48, 24, 40, 10, 40, 0.8, 6, 1.0);
    private static final Background BG = new Background(DATA.base(), ClassTable.numbered(100), "tuner", 1,
            Optional.empty());

    private static List<LabeledEpisode> validation() {
        UniformRandomProvider rng = RandomStreams.create(4);
        List<LabeledEpisode> out = new ArrayList<>();
        for (int e = 0; e < 6; e++) {
            out.add(DATA.episode(rng, 5, 1, SyntheticFewShotData.dirichletCounts(rng, 5, 75, 2.0)));
        }
        return out;
    }

    @Test
    void gridCombinationsRunInOrderWithTheLastAxisFastest() {
        BavardageTuner.Grid g = BavardageTuner.Grid.of().axis("t_vb", "1", "4").axis("s_max", "1", "2", "5");
        assertEquals(6, g.size());
        assertEquals(Map.of("t_vb", "1", "s_max", "1"), g.combination(0));
        assertEquals(Map.of("t_vb", "1", "s_max", "2"), g.combination(1));
        assertEquals(Map.of("t_vb", "4", "s_max", "5"), g.combination(5));
    }

    @Test
    void bestCandidateHasTheHighestValidationAccuracyAndMatchesAnIndependentRun() {
        List<LabeledEpisode> val = validation();
        BavardageTuner.Grid g = BavardageTuner.Grid.of().axis("variant", "softkmeans", "bavardage")
                .axis("t_vb", "0.5", "4").axis("preprocessing", "code", "paper");
        BavardageTuner.Result r = new BavardageTuner(BG).tune(METHOD.defaults(), g, val);
        assertEquals(8, r.candidates().size());
        double max = r.candidates().stream().mapToDouble(BavardageTuner.Candidate::accuracy).max().orElseThrow();
        assertEquals(max, r.best().accuracy());
        assertEquals(r.candidates().stream().filter(c -> c.accuracy() == max).findFirst().orElseThrow(), r.best());
        for (BavardageTuner.Candidate c : r.candidates()) {
            double independent = BavardageTuner.mean(BavardageTuner.evaluate(METHOD.learner(c.params(), BG), val));
            assertEquals(independent, c.accuracy(), 0.0);
            assertTrue(c.ci95() >= 0);
            assertEquals(Double.valueOf(c.values().get("t_vb")), c.params().get("t_vb"));
            assertEquals(c.values().get("variant"), c.params().text("variant"));
        }
        assertEquals("bavardage", r.best().values().get("variant"), "whitening + PLDA win on nuisance data");
    }

    @Test
    void resultsDoNotDependOnTheExecutor() {
        List<LabeledEpisode> val = validation();
        BavardageTuner.Grid g = BavardageTuner.Grid.of().axis("t_km", "1", "10", "100");
        BavardageTuner.Result seq = new BavardageTuner(BG).tune(METHOD.defaults(), g, val);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            BavardageTuner.Result par = new BavardageTuner(BG).withExecutor(pool).tune(METHOD.defaults(), g, val);
            assertArrayEquals(seq.candidates().stream().mapToDouble(BavardageTuner.Candidate::accuracy).toArray(),
                    par.candidates().stream().mapToDouble(BavardageTuner.Candidate::accuracy).toArray(), 0.0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void badGridsAreRejected() {
        BavardageTuner t = new BavardageTuner(BG);
        assertThrows(InvalidParameterException.class, () -> t.tune(METHOD.defaults(),
                BavardageTuner.Grid.of().axis("no_such_param", "1"), validation()));
        assertThrows(InvalidParameterException.class, () -> t.tune(METHOD.defaults(),
                BavardageTuner.Grid.of().axis("t_vb", "-1"), validation()));
        assertThrows(InvalidParameterException.class,
                () -> BavardageTuner.Grid.of().axis("t_vb", "1").axis("t_vb", "2"));
        assertThrows(InvalidParameterException.class, () -> t.tune(METHOD.defaults(), BavardageTuner.Grid.of(),
                List.of()));
    }
}
