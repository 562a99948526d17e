package fsil.methods.bavardage;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.random.EpisodeSampler;
import fsil.core.random.RandomStreams;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AutoTuningTest {
    private static final BavardageMethod METHOD = new BavardageMethod();
    /** 32 base classes x 60 rows, anisotropic within-class noise (whitening matters). */
    private static final SyntheticEpisodes DATA = SyntheticEpisodes.generate(12, 64, 32, 60, 10, 60, 1.0, 8,
            1.0);
    private static final Background MANY = background(DATA.base(), 3);
    private static final Learner SOFTKMEANS = METHOD.learner(METHOD.params(Map.of("variant", "softkmeans")), MANY);

    private static Background background(LabeledData base, long seed) {
        return new Background(base, ClassTable.numbered(100), "auto-test", seed, Optional.empty());
    }

    /** The rows of the first {@code classes} base classes, at most {@code perClass} each. */
    private static LabeledData firstClasses(int classes, int perClass) {
        int[] count = new int[1000];
        LabeledData b = DATA.base();
        int[] rows = IntStream.range(0, b.size())
                .filter(i -> b.labels()[i] < classes && count[b.labels()[i]]++ < perClass).toArray();
        return b.select(rows);
    }

    private static boolean contains(double[] grid, double v) {
        return Arrays.stream(grid).anyMatch(g -> g == v);
    }

    @Test
    void choosesAGridPointDeterministically() {
        AutoTuning.Choice a = AutoTuning.choose(METHOD.defaults(), MANY);
        AutoTuning.Choice b = AutoTuning.choose(METHOD.defaults(), MANY);
        assertEquals(a.candidates(), b.candidates());
        assertEquals(a.config(), b.config());
        AutoTuning.Options o = AutoTuning.Options.defaults();
        assertTrue(a.tuned() && a.tunedTVb() && a.tunedSMax());
        assertEquals(AutoTuning.Split.CLASSES, a.split(), "32 base classes: held-out classes");
        assertEquals(o.episodes(), a.episodes());
        assertEquals(5, a.ways());
        assertEquals(o.tau().length * o.varsigma().length, a.candidates().size());
        assertTrue(contains(o.tau(), a.tau()) && contains(o.varsigma(), a.varsigma()));
        // the learner's values are the scale-free choice times the FULL statistics' scales
        assertEquals(a.tau() * a.scales().precision(), a.config().tVb(), 0.0);
        assertEquals(a.varsigma() * a.scales().gain(), a.config().sMax(), 0.0);
        // grid order: tau outer, varsigma inner
        assertEquals(o.tau()[0], a.candidates().get(0).tau());
        assertEquals(o.varsigma()[1], a.candidates().get(1).varsigma());
        double max = a.candidates().stream().mapToDouble(AutoTuning.Candidate::accuracy).max().orElseThrow();
        assertTrue(a.accuracy() >= max - 0.05, "the choice is not far from the best: " + a.accuracy() + " " + max);
        // every other setting is the auto preset's
        BavardageConfig c = a.config();
        assertEquals(10, c.tKm());
        assertEquals(5, c.nStep());
        assertFalse(c.balanced(), "auto keeps the official unbalanced mixture");
        // another background seed draws other episodes (and may choose otherwise), deterministically too
        AutoTuning.Choice other = AutoTuning.choose(METHOD.defaults(), background(DATA.base(), 4));
        assertFalse(a.candidates().equals(other.candidates()));
        assertEquals(other.candidates(), AutoTuning.choose(METHOD.defaults(), background(DATA.base(), 4))
                .candidates());
    }

    @Test
    void selectionPrefersTheDefaultPointAmongIndistinguishableCandidates() {
        double[] taus = {0.5, 8, 128};
        double[] sigmas = {0.25, 1};
        int episodes = 50;
        // candidate order: (0.5,0.25) (0.5,1) (8,0.25) (8,1) (128,0.25) (128,1); the default point is index 3
        double[][] flat = new double[6][episodes];
        for (double[] row : flat) {
            Arrays.fill(row, 0.9);
        }
        assertEquals(3, AutoTuning.selectNearest(flat, taus, sigmas), "all equal: the default point");
        // index 5 is best by a hair on noisy episodes: not significant, the default point stays
        double[][] noisy = new double[6][episodes];
        for (int e = 0; e < episodes; e++) {
            for (int i = 0; i < 6; i++) {
                noisy[i][e] = 0.8 + 0.1 * ((e * 7 + i * 3) % 5) / 4.0;
            }
            noisy[5][e] = noisy[3][e] + (e % 2 == 0 ? 0.02 : -0.018);
        }
        assertTrue(EpisodeAccuracy.mean(noisy[5]) > EpisodeAccuracy.mean(noisy[3]));
        assertEquals(3, AutoTuning.selectNearest(noisy, taus, sigmas));
        // a clear winner far from the default point wins
        double[][] clear = new double[6][episodes];
        for (int i = 0; i < 6; i++) {
            Arrays.fill(clear[i], 0.7);
        }
        for (int e = 0; e < episodes; e++) {
            clear[0][e] = 0.75 + 0.01 * (e % 3);
        }
        assertEquals(0, AutoTuning.selectNearest(clear, taus, sigmas));
        // only one axis chosen (NaN on the other): the distance uses the chosen axis alone
        assertEquals(1, AutoTuning.selectNearest(new double[][]{flat[0], flat[1], flat[2]}, taus,
                new double[]{Double.NaN}));
    }

    /** Accuracies per episode: {@code level} plus a pattern shared by every candidate (paired noise). */
    private static double[] episodes(double level, int episodes) {
        double[] a = new double[episodes];
        for (int e = 0; e < episodes; e++) {
            a[e] = level + 0.1 * ((e * 7) % 5) / 4.0;
        }
        return a;
    }

    @Test
    void plateauRuleKeepsTheDefaultTauAmongIndistinguishableCandidates() {
        double[] taus = {0.5, 8, 128};
        double[] sigmas = {0.25, 1};
        int episodes = 50;
        // candidate order: (0.5,0.25) (0.5,1) (8,0.25) (8,1) (128,0.25) (128,1); the default point is index 3
        double[][] flat = new double[6][episodes];
        for (double[] row : flat) {
            Arrays.fill(row, 0.9);
        }
        assertEquals(3, AutoTuning.selectPlateau(flat, taus, sigmas), "all equal: the default point");
        // index 5 is best by a hair on noisy episodes, index 2 worst by a hair: not significant, the default
        // point stays
        double[][] noisy = new double[6][episodes];
        for (int e = 0; e < episodes; e++) {
            for (int i = 0; i < 6; i++) {
                noisy[i][e] = 0.8 + 0.1 * ((e * 7 + i * 3) % 5) / 4.0;
            }
            noisy[5][e] = noisy[3][e] + (e % 2 == 0 ? 0.02 : -0.018);
            noisy[2][e] = noisy[3][e] - (e % 2 == 0 ? 0.02 : -0.018);
        }
        assertTrue(EpisodeAccuracy.mean(noisy[5]) > EpisodeAccuracy.mean(noisy[3]));
        // tau: the default's, as 128 is not significantly better; varsigma: the higher mean at tau 8
        assertEquals(3, AutoTuning.selectPlateau(noisy, taus, sigmas));
        // varsigma alone (tau pinned): the higher mean of the indistinguishable pair, not the default varsigma
        assertEquals(0, AutoTuning.selectPlateau(new double[][]{noisy[5], noisy[3]}, new double[]{Double.NaN},
                new double[]{4, 1}));
        // only one axis chosen (NaN on the other): the distance uses the chosen axis alone
        assertEquals(1, AutoTuning.selectPlateau(new double[][]{flat[0], flat[1], flat[2]}, taus,
                new double[]{Double.NaN}));
    }

    @Test
    void plateauRuleTakesAClearlyBetterPlateauWhereverItLies() {
        double[] taus = {0.5, 8, 128};
        double[] sigmas = {0.25, 1};
        int episodes = 50;
        double[][] acc = new double[6][];
        for (int i = 0; i < 6; i++) {
            acc[i] = episodes(0.7, episodes);
        }
        acc[4] = episodes(0.8, episodes); // (128, 0.25) alone: its floor is itself
        assertEquals(4, AutoTuning.selectPlateau(acc, taus, sigmas));
        // a plateau from tau 0.5 up at varsigma 0.25: the tau nearest the default on it, with that varsigma
        acc[0] = episodes(0.8, episodes);
        acc[2] = episodes(0.8, episodes);
        assertEquals(2, AutoTuning.selectPlateau(acc, taus, sigmas));
    }

    @Test
    void plateauRuleDoesNotTakeThePlateausLowerEdgeForAHair() {
        // the shape of digits' tuning landscape: at varsigma 4 the smallest tau is best by 0.3-0.5 points,
        // significantly on these episodes, and every larger tau is flat; varsigma 1 is lower everywhere
        double[] taus = {0.5, 2, 8, 32, 128};
        double[] sigmas = {0.25, 1, 4};
        int episodes = 100;
        double[][] acc = new double[15][];
        for (int t = 0; t < 5; t++) {
            acc[3 * t] = episodes(0.6, episodes);
            acc[3 * t + 1] = episodes(0.970, episodes);
            acc[3 * t + 2] = episodes(t == 0 ? 0.985 : 0.981, episodes);
        }
        double[] diff = new double[episodes];
        for (int e = 0; e < episodes; e++) {
            diff[e] = acc[2][e] - acc[8][e];
        }
        assertTrue(EpisodeAccuracy.mean(diff) > EpisodeAccuracy.ci95(diff), "the edge is significantly higher");
        assertEquals(8, AutoTuning.selectPlateau(acc, taus, sigmas), "tau 8, varsigma 4: the plateau, not its edge");
        // when the larger tau values fall off, the peak's floor is their level: no better than the rest
        acc[2] = episodes(0.99, episodes);
        for (int t = 1; t < 5; t++) {
            acc[3 * t + 2] = episodes(0.95, episodes);
        }
        assertEquals(7, AutoTuning.selectPlateau(acc, taus, sigmas), "floors 0.95 against 0.97: varsigma 1 at tau 8");
    }

    @Test
    void plateauRuleDoesNotTakeTheSmallestVarsigmaForAHair() {
        // every tau alike; varsigma 0.25 best and varsigma 4 worst by 0.1 point, far inside the episodes' noise
        double[] taus = {0.5, 8, 128};
        double[] sigmas = {0.25, 1, 4};
        int episodes = 50;
        double[][] acc = new double[9][episodes];
        for (int i = 0; i < 9; i++) {
            for (int e = 0; e < episodes; e++) {
                acc[i][e] = 0.8 + 0.1 * ((e * 7 + i * 3) % 5) / 4.0 + 0.001 * (1 - i % 3);
            }
        }
        assertTrue(EpisodeAccuracy.mean(acc[3]) > EpisodeAccuracy.mean(acc[4]));
        assertEquals(4, AutoTuning.selectPlateau(acc, taus, sigmas), "tau 8, and the default varsigma 1");
    }

    @Test
    void plateauRuleChoosesTheSameValuesOnDigitsWhateverTheTuningSeed() {
        // digits: 5 base classes, so the tuning episodes come from the row split, which changes with the seed
        fsil.data.FeatureSet digits = fsil.data.Datasets.load("digits");
        int[] base = digits.splits().base();
        LabeledData all = LabeledData.concat(java.util.List.of(digits.train(), digits.test()));
        LabeledData rows = all.select(IntStream.range(0, all.size())
                .filter(i -> Arrays.stream(base).anyMatch(c -> c == all.labels()[i])).toArray());
        Params plateau = METHOD.params(Map.of("auto_rule", "plateau"));
        java.util.Set<String> nearest = new java.util.TreeSet<>();
        for (long seed = 0; seed < 5; seed++) {
            Background bg = background(rows, RandomStreams.derive(seed, "background"));
            AutoTuning.Choice c = AutoTuning.choose(plateau, bg);
            assertEquals(AutoTuning.Split.ROWS, c.split());
            assertEquals(8.0, c.tau(), "seed " + seed);
            assertEquals(4.0, c.varsigma(), "seed " + seed);
            AutoTuning.Choice n = AutoTuning.choose(METHOD.params(Map.of("auto_rule", "nearest")), bg);
            nearest.add(n.tau() + "/" + n.varsigma());
        }
        assertTrue(nearest.size() > 1, "the nearest rule's choice moves with the seed: " + nearest);
    }

    @Test
    void explicitValuesAndNamedPresetsAreNotTuned() {
        AutoTuning.Choice both = AutoTuning.choose(METHOD.params(Map.of("t_vb", "7", "s_max", "2")), MANY);
        assertFalse(both.tuned() || both.tunedTVb() || both.tunedSMax());
        assertEquals(7, both.config().tVb());
        assertEquals(2, both.config().sMax());
        assertEquals(Map.of(), both.diagnostics());

        AutoTuning.Choice onlySMax = AutoTuning.choose(METHOD.params(Map.of("t_vb", "7")), MANY);
        assertTrue(onlySMax.tuned() && onlySMax.tunedSMax());
        assertFalse(onlySMax.tunedTVb());
        assertEquals(7, onlySMax.config().tVb());
        assertEquals(AutoTuning.Options.defaults().varsigma().length, onlySMax.candidates().size());
        assertEquals(Map.of("s_max", Double.toString(onlySMax.config().sMax())), onlySMax.pinned());
        assertFalse(onlySMax.diagnostics().containsKey("auto_t_vb"));

        AutoTuning.Choice preset = AutoTuning.choose(METHOD.params(Map.of("preset", "glyphs-balanced")), MANY);
        assertFalse(preset.tuned());
        assertEquals(300, preset.config().tVb());
        assertEquals(5, preset.config().sMax());
        assertTrue(preset.config().balanced());

        AutoTuning.Choice skm = AutoTuning.choose(METHOD.params(Map.of("variant", "softkmeans")), MANY);
        assertFalse(skm.tuned() || skm.tunedTVb() || skm.tunedSMax(), "softkmeans uses neither value");

        AutoTuning.Choice vb = AutoTuning.choose(METHOD.params(Map.of("variant", "vb-no-plda")), MANY);
        assertTrue(vb.tunedTVb());
        assertFalse(vb.tunedSMax(), "vb-no-plda does not whiten");
        assertEquals(AutoTuning.Options.defaults().tau().length, vb.candidates().size());
    }

    @Test
    void balancedMixtureIsTunedOnBalancedEpisodes() {
        AutoTuning.Choice c = AutoTuning.choose(METHOD.params(Map.of("mixture", "balanced")), MANY);
        assertTrue(c.config().balanced());
        AutoTuning.Tuning t = AutoTuning.Tuning.of(MANY, Preprocessing.CODE, Variant.BAVARDAGE, true,
                AutoTuning.Options.defaults());
        for (LabeledEpisode ep : t.episodes()) {
            int[] perClass = Arrays.stream(ep.support().classes())
                    .map(k -> (int) Arrays.stream(ep.queryLabels()).filter(l -> l == k).count()).toArray();
            assertTrue(Arrays.stream(perClass).allMatch(q -> q == perClass[0]), Arrays.toString(perClass));
        }
    }

    @Test
    void tuningEpisodesComeFromHeldOutClassesAndAlternateShots() {
        AutoTuning.Tuning t = AutoTuning.Tuning.of(MANY, Preprocessing.CODE, Variant.BAVARDAGE, false,
                AutoTuning.Options.defaults());
        assertEquals(AutoTuning.Split.CLASSES, t.split());
        int[] episodeClasses = t.episodes().stream().flatMapToInt(e -> Arrays.stream(e.support().classes()))
                .distinct().sorted().toArray();
        assertEquals(8, episodeClasses.length, "a quarter of 32 classes is held out");
        for (int k = 0; k < t.episodes().size(); k++) {
            LabeledEpisode e = t.episodes().get(k);
            assertEquals(5, e.support().classes().length);
            assertEquals(k % 2 == 0 ? 5 : 25, e.support().size(), "1 and 5 shots alternate");
            assertEquals(75, e.queryLabels().length);
        }
        // the held-out classes did not feed the tuning statistics: rebuilding them from the other classes gives
        // the same scales
        LabeledData b = MANY.base();
        int[] fitRows = IntStream.range(0, b.size()).filter(i -> Arrays.binarySearch(episodeClasses,
                b.labels()[i]) < 0).toArray();
        LabeledData fit = b.select(fitRows);
        assertEquals(ScatterScales.of(fit, BaseStatistics.fromBase(fit, Preprocessing.CODE), Variant.BAVARDAGE),
                t.scales());
    }

    @Test
    void fewBaseClassesAreSplitByRows() {
        AutoTuning.Tuning five = AutoTuning.Tuning.of(background(firstClasses(5, 60), 1), Preprocessing.CODE,
                Variant.BAVARDAGE, false, AutoTuning.Options.defaults());
        assertEquals(AutoTuning.Split.ROWS, five.split());
        assertEquals(5, five.ways());
        // half of each class's rows feed S_w, the other half the episodes: the two never share a row
        for (LabeledEpisode e : five.episodes()) {
            assertEquals(5, e.support().classes().length);
        }
        AutoTuning.Tuning two = AutoTuning.Tuning.of(background(firstClasses(2, 60), 1), Preprocessing.CODE,
                Variant.BAVARDAGE, false, AutoTuning.Options.defaults());
        assertEquals(AutoTuning.Split.ROWS, two.split());
        assertEquals(2, two.ways());
        AutoTuning.Tuning eight = AutoTuning.Tuning.of(background(firstClasses(8, 20), 1), Preprocessing.CODE,
                Variant.BAVARDAGE, false, AutoTuning.Options.defaults());
        assertEquals(AutoTuning.Split.CLASSES, eight.split(), "8 classes: 5 held out, 3 left for S_w");
        // glyphs-like classes of 20 rows: a 5-shot class has at most 15 queries
        for (LabeledEpisode e : eight.episodes()) {
            assertTrue(e.queryLabels().length <= 75);
        }
    }

    @Test
    void rowSplitHalvesTheScaleAndTheScaleFreeValuesAccountForIt() {
        LabeledData five = firstClasses(5, 60);
        ScatterScales full = ScatterScales.of(five, BaseStatistics.fromBase(five, Preprocessing.CODE),
                Variant.BAVARDAGE);
        AutoTuning.Tuning t = AutoTuning.Tuning.of(background(five, 1), Preprocessing.CODE, Variant.BAVARDAGE, false,
                AutoTuning.Options.defaults());
        // the code's S_w sums over the rows of a class: half the rows, about half the scale
        double precisionRatio = t.scales().precision() / full.precision();
        double gainRatio = Math.pow(t.scales().gain() / full.gain(), 2);
        assertTrue(precisionRatio > 0.35 && precisionRatio < 0.65, "precision ratio " + precisionRatio);
        assertTrue(gainRatio > 1.5 && gainRatio < 2.9, "gain^2 ratio " + gainRatio);
    }

    @Test
    void learnerReportsTheChosenValuesAndPinningThemReproducesIt() {
        Learner auto = METHOD.learner(METHOD.defaults(), MANY);
        AutoTuning.Choice c = AutoTuning.choose(METHOD.defaults(), MANY);
        LabeledEpisode ep = DATA.episode(RandomStreams.create(5), 5, 5, EpisodeSampler.Queries.upTo(15));
        Session s = auto.newSession(SessionContext.forEpisode(ep.episode(), 1));
        s.learn(ep.support());
        Prediction p = s.predict(ep.queries());
        assertEquals(c.config().tVb(), s.diagnostics().get("auto_t_vb"));
        assertEquals(c.config().sMax(), s.diagnostics().get("auto_s_max"));
        assertEquals(1.0, s.diagnostics().get("auto_tuned"));
        assertEquals(c.accuracy(), s.diagnostics().get("auto_tuning_acc"));
        assertTrue(s.diagnostics().containsKey("vb_dim"), "the task's own numbers are still there");

        Params pinned = METHOD.params(c.pinned());
        Session sp = METHOD.learner(pinned, MANY).newSession(SessionContext.forEpisode(ep.episode(), 1));
        sp.learn(ep.support());
        assertArrayEquals(p.rawProbabilities(), sp.predict(ep.queries()).rawProbabilities(), 0.0);
        assertFalse(sp.diagnostics().containsKey("auto_t_vb"), "nothing chosen when the values are pinned");
        // whitening matters on these data: the chosen values keep BAVARDAGE far above its soft k-means init
        assertTrue(accuracy(auto) > accuracy(SOFTKMEANS) + 0.3, "auto " + accuracy(auto));
    }

    private static double accuracy(Learner l) {
        var rng = RandomStreams.create(8);
        double s = 0;
        for (int e = 0; e < 6; e++) {
            LabeledEpisode ep = DATA.episode(rng, 5, 1 + 4 * (e % 2), EpisodeSampler.Queries.upTo(15));
            s += ep.accuracy(l.solve(ep.episode(), e).labels());
        }
        return s / 6;
    }

    @Test
    void paperPreprocessingIsTunedOnItsOwnScale() {
        Params paper = METHOD.params(Map.of("preprocessing", "paper"));
        AutoTuning.Choice c = AutoTuning.choose(paper, MANY);
        assertTrue(c.tuned());
        // the pooled covariance whitens the base rows to unit variance in every direction: precision D / rank = 1
        assertEquals(1.0, c.scales().precision(), 1e-9);
        assertTrue(accuracy(METHOD.learner(paper, MANY)) > accuracy(SOFTKMEANS) + 0.3);
    }

    @Test
    void withoutAPossibleTuningEpisodeTheScaleFreeDefaultsAreUsed() {
        for (LabeledData base : new LabeledData[]{firstClasses(1, 60), firstClasses(4, 3)}) {
            Background bg = background(base, 1);
            AutoTuning.Choice c = AutoTuning.choose(METHOD.defaults(), bg);
            assertFalse(c.tuned());
            assertEquals(AutoTuning.Split.NONE, c.split());
            assertEquals(AutoTuning.DEFAULT_TAU * c.scales().precision(), c.config().tVb(), 0.0);
            assertEquals(AutoTuning.DEFAULT_VARSIGMA * c.scales().gain(), c.config().sMax(), 0.0);
            assertEquals(0.0, c.diagnostics().get("auto_tuned"));
            LabeledEpisode ep = DATA.episode(RandomStreams.create(2), 5, 1,
                    EpisodeSampler.Queries.upTo(4));
            Prediction p = METHOD.learner(METHOD.defaults(), bg).solve(ep.episode(), 1);
            assertEquals(20, p.size());
        }
    }

    @Test
    void baseRowsWithoutWithinClassSpreadAreAClearError() {
        Background singletons = background(firstClasses(6, 1), 1);
        FsilException e = assertThrows(FsilException.class, () -> METHOD.learner(METHOD.defaults(), singletons));
        assertTrue(e.getMessage().contains("within-class spread") && e.getMessage().contains("t_vb"),
                e.getMessage());
        // explicit values need no scale
        METHOD.learner(METHOD.params(Map.of("t_vb", "4", "s_max", "5")), singletons);
    }

    @Test
    void emptyBackgroundKeepsTheModulesError() {
        FsilException e = assertThrows(FsilException.class,
                () -> AutoTuning.choose(METHOD.defaults(), Background.none(8)));
        assertTrue(e.getMessage().contains("needs base classes"), e.getMessage());
    }
}
