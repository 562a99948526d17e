package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.Params;
import fsil.core.random.EpisodeSampler;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EpisodeAccuracy}: the shared-preparation path the {@code auto} preset tunes with gives exactly the accuracy of
 * an independent learner, for any executor.
 */
class EpisodeAccuracyTest {
    private static final BavardageMethod METHOD = new BavardageMethod();
    private static final SyntheticEpisodes DATA = SyntheticEpisodes.generate(21, 48, 24, 40, 10, 40, 0.8, 6, 1.0);
    private static final Background BG = new Background(DATA.base(), ClassTable.numbered(100), "episode-accuracy", 1,
            Optional.empty());

    private static List<LabeledEpisode> episodes() {
        UniformRandomProvider rng = RandomStreams.create(4);
        List<LabeledEpisode> out = new ArrayList<>();
        for (int e = 0; e < 6; e++) {
            out.add(DATA.episode(rng, 5, 1, EpisodeSampler.Queries.dirichlet(75, 2.0)));
        }
        return out;
    }

    /** Configurations over variant x T_vb (x s_max pinned or chosen by auto), one preprocessing. */
    private static List<Params> grid(String preprocessing) {
        List<Params> out = new ArrayList<>();
        for (String variant : new String[]{"softkmeans", "vb-no-plda", "bavardage"}) {
            for (String tVb : new String[]{"0.5", "50"}) {
                for (String sMax : new String[]{"0", "2"}) {
                    out.add(METHOD.params(Map.of("preprocessing", preprocessing, "variant", variant, "t_vb", tVb,
                            "s_max", sMax)));
                }
            }
        }
        return out;
    }

    @Test
    void sharedPreparationGivesTheAccuracyOfAnIndependentLearner() {
        List<LabeledEpisode> eps = episodes();
        for (String preprocessing : new String[]{"code", "paper"}) {
            List<Params> params = grid(preprocessing);
            BaseStatistics stats = BaseStatistics.fromBase(BG.base(), Preprocessing.valueOf(preprocessing.toUpperCase()));
            List<BavardageConfig> configs = params.stream()
                    .map(p -> AutoTuning.choose(p, BG, stats, AutoTuning.Options.defaults()).config()).toList();
            double[][] acc = EpisodeAccuracy.accuracies(stats, configs, eps, Runnable::run);
            assertEquals(params.size(), acc.length);
            for (int i = 0; i < params.size(); i++) {
                double[] independent = EpisodeAccuracy.evaluate(METHOD.learner(params.get(i), BG), eps);
                assertArrayEquals(independent, acc[i], 0.0, params.get(i).toString());
            }
        }
    }

    @Test
    void resultsDoNotDependOnTheExecutor() {
        List<LabeledEpisode> eps = episodes();
        BaseStatistics stats = BaseStatistics.fromBase(BG.base(), Preprocessing.CODE);
        List<BavardageConfig> configs = new ArrayList<>();
        for (String tKm : new String[]{"1", "10", "100"}) {
            configs.add(BavardageConfig.from(METHOD.params(Map.of("preset", "official", "t_km", tKm))));
        }
        double[][] seq = EpisodeAccuracy.accuracies(stats, configs, eps, Runnable::run);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            double[][] par = EpisodeAccuracy.accuracies(stats, configs, eps, pool);
            for (int i = 0; i < seq.length; i++) {
                assertArrayEquals(seq[i], par[i], 0.0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void meanAndInterval() {
        assertEquals(2.5, EpisodeAccuracy.mean(new double[]{1, 2, 3, 4}), 0.0);
        // unbiased std of {1, 2, 3, 4} is sqrt(5/3)
        assertEquals(1.96 * Math.sqrt(5.0 / 3.0) / 2, EpisodeAccuracy.ci95(new double[]{1, 2, 3, 4}), 1e-15);
        assertEquals(0, EpisodeAccuracy.ci95(new double[]{0.7}), 0.0);
        assertTrue(EpisodeAccuracy.ci95(new double[]{0.5, 0.5, 0.5}) == 0);
    }
}
