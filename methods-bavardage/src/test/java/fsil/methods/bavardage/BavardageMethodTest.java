package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.Episode;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.InvalidParameterException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.api.Capability;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BavardageMethodTest {
    private static final BavardageMethod METHOD = new BavardageMethod();
    /** Well-separated clusters with isotropic noise. */
    private static final SyntheticEpisodes EASY = SyntheticEpisodes.generate(11, 32, 16, 30, 10, 80, 3.0, 0, 0);
    /** Hard for unwhitened methods: large within-class noise along a few shared directions. */
    private static final SyntheticEpisodes NUISANCE = SyntheticEpisodes.generate(12, 64, 32, 60, 10, 60, 1.0,
            8, 1.0);

    private static Background background(SyntheticEpisodes data) {
        return new Background(data.base(), ClassTable.numbered(1000), "test", 1, Optional.empty());
    }

    private static Learner learner(SyntheticEpisodes data, Map<String, String> params) {
        return METHOD.learner(METHOD.params(params), background(data));
    }

    private static List<LabeledEpisode> episodes(SyntheticEpisodes data, long seed, int count, int shots,
                                                 boolean dirichlet) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        List<LabeledEpisode> out = new ArrayList<>();
        for (int e = 0; e < count; e++) {
            EpisodeSampler.Queries counts = dirichlet ? EpisodeSampler.Queries.dirichlet(75, 2.0)
                    : EpisodeSampler.Queries.upTo(15);
            out.add(data.episode(rng, 5, shots, counts));
        }
        return out;
    }

    private static double accuracy(Learner l, List<LabeledEpisode> eps) {
        return EpisodeAccuracy.mean(EpisodeAccuracy.evaluate(l, eps));
    }

    @Test
    void wellSeparatedClustersAreClassifiedAlmostPerfectly() {
        for (String preprocessing : new String[]{"code", "paper"}) {
            for (String variant : new String[]{"bavardage", "vb-no-plda", "softkmeans"}) {
                // the official values; the VB without whitening sees L2-normalised data, whose within-class spread
                // is far below the preset's 1/T_vb = 0.25 per dimension: it needs a larger T_vb
                String tVb = variant.equals("vb-no-plda") ? "50" : "0";
                Learner official = learner(EASY, Map.of("preset", "official", "preprocessing", preprocessing,
                        "variant", variant, "t_vb", tVb));
                // and the values the auto preset chooses
                Learner auto = learner(EASY, Map.of("preprocessing", preprocessing, "variant", variant));
                for (Learner l : List.of(official, auto)) {
                    for (int shots : new int[]{1, 5}) {
                        for (boolean dirichlet : new boolean[]{false, true}) {
                            double acc = accuracy(l, episodes(EASY, 7, 8, shots, dirichlet));
                            assertTrue(acc >= 0.99, preprocessing + "/" + variant + " " + shots + "-shot dirichlet="
                                    + dirichlet + (l == auto ? " (auto)" : "") + ": accuracy " + acc);
                        }
                    }
                }
            }
        }
    }

    @Test
    void whiteningAndPldaBeatSoftKMeansUnderAnisotropicNoise() {
        List<LabeledEpisode> eps = episodes(NUISANCE, 3, 10, 5, true);
        double skm = accuracy(learner(NUISANCE, Map.of("variant", "softkmeans")), eps);
        double vb = accuracy(learner(NUISANCE, Map.of("variant", "vb-no-plda", "t_vb", "50")), eps);
        double bav = accuracy(learner(NUISANCE, Map.of()), eps);
        assertTrue(bav > skm + 0.2 && bav > vb + 0.2,
                "bavardage " + bav + ", vb-no-plda " + vb + ", softkmeans " + skm);
    }

    @Test
    void emptyBackgroundIsAUserError() {
        FsilException e = assertThrows(FsilException.class,
                () -> METHOD.learner(METHOD.defaults(), Background.none(8)));
        assertTrue(e.getMessage().contains("base classes"), e.getMessage());
    }

    @Test
    void nonFiniteBaseFeaturesAreRejected() {
        float[] x = EASY.base().features().rawData().clone();
        x[5] = Float.NaN;
        LabeledData bad = new LabeledData(FeatureMatrix.wrap(EASY.base().size(), 32, x), EASY.base().labels());
        Background bg = new Background(bad, ClassTable.numbered(1000), "bad", 1, Optional.empty());
        assertThrows(InvalidDataException.class, () -> METHOD.learner(METHOD.defaults(), bg));
    }

    @Test
    void wrongDimensionIsRejectedWithAClearMessage() {
        Learner l = learner(EASY, Map.of());
        LabeledEpisode ep = episodes(EASY, 1, 1, 5, false).get(0);
        Session s = l.newSession(SessionContext.forEpisode(ep.episode(), 1));
        LabeledData wrong = new LabeledData(FeatureMatrix.wrap(1, 3, new float[3]), new int[]{0});
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> s.learn(wrong));
        assertTrue(e.getMessage().contains("dimension 3"), e.getMessage());
        assertThrows(FsilException.class, () -> l.newSession(SessionContext.forEpisode(ep.episode(), 1))
                .predict(ep.queries()), "predict before learn");
    }

    @Test
    void presetsAndOverridesResolve() {
        BavardageConfig mini = BavardageConfig.from(METHOD.params(Map.of("preset", "mini-unbalanced")));
        assertEquals(50, mini.tKm());
        assertEquals(50, mini.tVb());
        assertEquals(1, mini.sMax());
        assertEquals(5, mini.nStep());
        assertEquals(false, mini.balanced());
        BavardageConfig tiered = BavardageConfig.from(METHOD.params(Map.of("preset", "tiered-balanced", "t_vb", "7",
                "n_step", "3", "mixture", "unbalanced")));
        assertEquals(10, tiered.tKm());
        assertEquals(7, tiered.tVb());
        assertEquals(2, tiered.sMax());
        assertEquals(3, tiered.nStep());
        assertEquals(false, tiered.balanced());
        BavardageConfig official = BavardageConfig.from(METHOD.params(Map.of("preset", "official")));
        assertEquals(new BavardageConfig(Variant.BAVARDAGE, Preprocessing.CODE, 10, 5, 4, 5, 5, false, 2, 10, 10,
                false, false), official);
        for (Preset p : Preset.values()) {
            if (p != Preset.AUTO) {
                assertEquals(p.tVb(), BavardageConfig.from(METHOD.params(Map.of("preset", p.id()))).tVb());
            }
        }
        // the default preset needs the base classes to resolve, unless both values are given
        assertEquals(Preset.AUTO, METHOD.defaults().get(BavardageMethod.PRESET));
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> BavardageConfig.from(METHOD.defaults()));
        assertTrue(e.getMessage().contains("t_vb and s_max"), e.getMessage());
        assertEquals(new BavardageConfig(Variant.BAVARDAGE, Preprocessing.CODE, 10, 5, 7, 3, 5, false, 2, 10, 10,
                false, false), BavardageConfig.from(METHOD.params(Map.of("t_vb", "7", "s_max", "3"))));
        assertEquals(10, BavardageConfig.from(METHOD.params(Map.of("variant", "softkmeans"))).tKm(),
                "softkmeans uses neither T_vb nor s_max: resolvable without base data");
        BavardageConfig glyphs = BavardageConfig.from(METHOD.params(Map.of("preset", "glyphs-unbalanced")));
        assertEquals(10, glyphs.tKm());
        assertEquals(1000, glyphs.tVb());
        assertEquals(10, glyphs.sMax());
        assertEquals(false, glyphs.balanced());
        BavardageConfig fashion = BavardageConfig.from(METHOD.params(Map.of("preset", "fashion-mnist-balanced")));
        assertEquals(100_000, fashion.tVb());
        assertEquals(0.3, fashion.sMax());
        assertEquals(true, fashion.balanced());
    }

    @Test
    void codeAndPaperPreprocessingAgreeWithoutClampingForTheSameScatter() {
        LabeledEpisode ep = episodes(NUISANCE, 9, 1, 5, true).get(0);
        // a common scatter: the code's scatter from the base data
        int d = NUISANCE.dimension();
        BaseStatistics fromBase = BaseStatistics.fromBase(NUISANCE.base(), Preprocessing.CODE);
        double[] l = fromBase.cholesky();
        DMatrixRMaj lm = DMatrixRMaj.wrap(d, d, l);
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        org.ejml.dense.row.CommonOps_DDRM.multTransB(lm, lm, s);
        Params p = METHOD.params(Map.of("s_max", "1e12", "t_vb", "0.5"));
        BavardageConfig codeCfg = BavardageConfig.from(p);
        BavardageConfig paperCfg = BavardageConfig.from(p.withText("preprocessing", "paper"));
        Prediction a = BavardageMethod.learner(codeCfg, BaseStatistics.code(fromBase.mean(), s)).solve(ep.episode(), 1);
        Prediction b = BavardageMethod.learner(paperCfg, BaseStatistics.paper(fromBase.mean(), s))
                .solve(ep.episode(), 1);
        assertArrayEquals(a.rawProbabilities(), b.rawProbabilities(), 1e-7);
    }

    @Test
    void predictionsAreEquivariantToQueryOrderAndClassIds() {
        LabeledEpisode ep = episodes(NUISANCE, 4, 1, 5, true).get(0);
        Learner l = learner(NUISANCE, Map.of());
        Prediction base = l.solve(ep.episode(), 1);
        // reversed query order
        int nq = ep.queries().rows();
        int[] rev = new int[nq];
        for (int i = 0; i < nq; i++) {
            rev[i] = nq - 1 - i;
        }
        Prediction reversed = l.solve(new Episode(ep.support(), ep.queries().selectRows(rev), 5, 5, true), 1);
        for (int i = 0; i < nq; i++) {
            assertArrayEquals(base.row(i), reversed.row(nq - 1 - i), 1e-9);
        }
        // new global ids in the opposite sort order: the same probabilities, columns reversed
        int[] classes = base.classes();
        int[] relabelled = new int[ep.support().size()];
        for (int i = 0; i < relabelled.length; i++) {
            int col = java.util.Arrays.binarySearch(classes, ep.support().labels()[i]);
            relabelled[i] = 1000 - col;
        }
        Prediction renamed = l.solve(new Episode(new LabeledData(ep.support().features(), relabelled),
                ep.queries(), 5, 5, true), 1);
        for (int i = 0; i < nq; i++) {
            for (int c = 0; c < 5; c++) {
                assertEquals(base.probability(i, c), renamed.probabilityOfClass(i, 1000 - c), 1e-12);
            }
        }
    }

    @Test
    void supportRowsAreClampedInTheOutputOfEveryStep() {
        BavardageConfig cfg = BavardageConfig.from(METHOD.params(Map.of("preset", "official", "t_vb", "1e-3")));
        BavardageSolver solver = new BavardageSolver(cfg, BaseStatistics.fromBase(NUISANCE.base(), Preprocessing.CODE));
        LabeledEpisode ep = episodes(NUISANCE, 5, 1, 5, false).get(0);
        int[] classes = ep.support().classes();
        int[] sc = new int[ep.support().size()];
        for (int i = 0; i < sc.length; i++) {
            sc[i] = java.util.Arrays.binarySearch(classes, ep.support().labels()[i]);
        }
        BavardageSolver.Result r = solver.solve(ep.support().features().rawData(), sc.length, sc, 5,
                ep.queries().rawData(), ep.queries().rows());
        for (int i = 0; i < sc.length; i++) {
            for (int c = 0; c < 5; c++) {
                assertEquals(c == sc[i] ? 1.0 : 0.0, r.responsibilities()[i * 5 + c], 0.0);
            }
        }
        assertEquals(64.0, r.diagnostics().get("task_span_dim"), "min(N = 100, D = 64)");
        assertEquals(4.0, r.diagnostics().get("vb_dim"));
    }

    @Test
    void authorsEpsilonSoftmaxChangesProbabilitiesOnlyMarginally() {
        LabeledEpisode ep = episodes(NUISANCE, 6, 1, 1, true).get(0);
        Prediction exact = learner(NUISANCE, Map.of()).solve(ep.episode(), 1);
        Prediction eps = learner(NUISANCE, Map.of("eps_softmax", "true")).solve(ep.episode(), 1);
        assertArrayEquals(exact.rawProbabilities(), eps.rawProbabilities(), 1e-4);
        assertArrayEquals(exact.labels(), eps.labels());
    }

    @Test
    void inductiveContextSolvesEveryQueryOnItsOwn() {
        LabeledEpisode ep = episodes(EASY, 8, 1, 5, false).get(0);
        Learner l = learner(EASY, Map.of());
        Session s = l.newSession(new SessionContext(Capability.INDUCTIVE_FEWSHOT, 32, 1, SessionContext.DIRECT));
        s.learn(ep.support());
        Prediction all = s.predict(ep.queries());
        for (int i = 0; i < ep.queries().rows(); i += 13) {
            Prediction one = l.solve(new Episode(ep.support(), ep.queries().selectRows(new int[]{i}), 5, 5, true), 1);
            assertArrayEquals(one.row(0), all.row(i), 0.0);
        }
    }

    @Test
    void classWithoutQueriesAndSingleClassTasksWork() {
        UniformRandomProvider rng = RandomStreams.create(3);
        LabeledEpisode ep = NUISANCE.episode(rng, 5, 1, SyntheticEpisodes.counts(0, 40, 20, 15, 0));
        Prediction p = learner(NUISANCE, Map.of()).solve(ep.episode(), 1);
        assertEquals(75, p.size());
        LabeledEpisode one = NUISANCE.episode(rng, 1, 3, SyntheticEpisodes.counts(10));
        Prediction single = learner(NUISANCE, Map.of()).solve(one.episode(), 1);
        for (int i = 0; i < 10; i++) {
            assertEquals(1.0, single.probability(i, 0), 0.0);
        }
    }
}
