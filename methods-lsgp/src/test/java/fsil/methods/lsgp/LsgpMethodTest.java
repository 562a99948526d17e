package fsil.methods.lsgp;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.ClassTable;
import fsil.api.Episode;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.InvalidParameterException;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.testkit.ToyData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LsgpMethodTest {
    static final int[] BASE = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113};
    static final int[] TASK = {3, 17, 42, 8, 25};
    final LsgpMethod method = new LsgpMethod();

    static Background background(long seed, Optional<Path> cache) {
        LabeledData base = ToyData.clusters(BASE, 20, 12, 3.0, 0.8, 77);
        List<String> names = new ArrayList<>();
        for (int i = 0; i <= 113; i++) {
            names.add("c" + i);
        }
        return new Background(base, new ClassTable(names, List.of()), "toy-base-12", seed, cache);
    }

    static Episode episode(int shots) {
        LabeledData s = ToyData.clusters(TASK, shots, 12, 3.0, 0.8, 5);
        LabeledData q = ToyData.clusters(TASK, 6, 12, 3.0, 0.8, 6);
        return new Episode(s, q.features(), 5, shots, false);
    }

    Learner learner(Map<String, String> p, Background bg) {
        return method.learner(method.params(p), bg);
    }

    static final Map<String, String> FAST = Map.of("train_episodes", "25", "mc_samples", "200", "val_episodes", "10",
            "hidden", "32");

    @Test
    void metaTrainingIsCachedOnDiskAndTrainsOnce(@TempDir Path dir) throws IOException {
        Background bg = background(5, Optional.of(dir));
        Learner first = learner(FAST, bg);
        Session s1 = first.newSession(SessionContext.forEpisode(episode(1), 3));
        s1.learn(episode(1).support());
        assertEquals(0.0, s1.diagnostics().get("model_from_cache"));
        List<Path> files;
        try (Stream<Path> st = Files.list(dir.resolve("lsgp"))) {
            files = st.toList();
        }
        assertEquals(1, files.size(), "one model file, no temporary file left: " + files);
        assertTrue(files.get(0).getFileName().toString().startsWith("model-"));
        Learner second = learner(FAST, bg);
        Session s2 = second.newSession(SessionContext.forEpisode(episode(1), 3));
        s2.learn(episode(1).support());
        assertEquals(1.0, s2.diagnostics().get("model_from_cache"));
        assertArrayEquals(first.solve(episode(1), 9).rawProbabilities(), second.solve(episode(1), 9).rawProbabilities(),
                "the cached model predicts exactly like the trained one");
        // another training parameter is another file; a test-time parameter the checkpoint selection does not use
        // is not (CheckpointSelectionTest: the ones it uses, and select=last)
        learner(Map.of("train_episodes", "25", "mc_samples", "200", "val_episodes", "10", "hidden", "32",
                "calibrate", "true", "gibbs_samples", "3"), bg);
        try (Stream<Path> st = Files.list(dir.resolve("lsgp"))) {
            assertEquals(1, st.count());
        }
        learner(Map.of("train_episodes", "26", "val_episodes", "0", "hidden", "32"), bg);
        try (Stream<Path> st = Files.list(dir.resolve("lsgp"))) {
            assertEquals(2, st.count());
        }
    }

    @Test
    void corruptCacheFileIsRetrainedNotTrusted(@TempDir Path dir) throws IOException {
        Background bg = background(5, Optional.of(dir));
        String key = LsgpModel.cacheKey(LsgpConfig.from(method.params(FAST)), bg, true);
        Path file = ModelCache.file(dir, key);
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[]{1, 2, 3});
        Session s = learner(FAST, bg).newSession(SessionContext.forEpisode(episode(1), 3));
        s.learn(episode(1).support());
        assertEquals(0.0, s.diagnostics().get("model_from_cache"));
        assertTrue(Files.size(file) > 1000, "rewritten");
    }

    @Test
    void trainingIsDeterministicPerBackgroundSeed() {
        // the last iterate: select=best may keep step 0, which is the same kernel for every seed
        Map<String, String> last = new java.util.HashMap<>(FAST);
        last.put("select", "last");
        Prediction a = learner(last, background(5, Optional.empty())).solve(episode(5), 1);
        Prediction b = learner(last, background(5, Optional.empty())).solve(episode(5), 1);
        Prediction c = learner(last, background(6, Optional.empty())).solve(episode(5), 1);
        assertArrayEquals(a.rawProbabilities(), b.rawProbabilities());
        assertFalse(java.util.Arrays.equals(a.rawProbabilities(), c.rawProbabilities()), "another seed, another model");
    }

    @Test
    void heldOutValidationClassesAreFixedAndDisjoint() {
        int[][] s1 = LsgpModel.split(BASE, 0.3, 5);
        int[][] s2 = LsgpModel.split(BASE, 0.3, 5);
        assertArrayEquals(s1[0], s2[0]);
        assertEquals(4, s1[1].length);
        assertEquals(10, s1[0].length);
        for (int v : s1[1]) {
            assertTrue(java.util.Arrays.binarySearch(s1[0], v) < 0);
        }
        assertEquals(0, LsgpModel.split(new int[]{1, 2, 3}, 0.3, 5)[1].length, "too few classes: no validation");
    }

    @Test
    void smallBackgroundsStillHoldOutTwoValidationClasses() {
        assertEquals(2, LsgpModel.validationClasses(5, 0.15), "digits / fashion-mnist: 2 of 5, 3 left to train");
        assertEquals(2, LsgpModel.validationClasses(4, 0.15));
        assertEquals(0, LsgpModel.validationClasses(3, 0.15), "fewer than 2 would remain for training");
        assertEquals(253, LsgpModel.validationClasses(1688, 0.15), "large backgrounds: the fraction");
        assertEquals(0, LsgpModel.validationClasses(100, 0), "val_fraction=0 switches meta-validation off");
        assertEquals(2, LsgpModel.split(new int[]{1, 2, 3, 4, 5}, 0.15, 5)[1].length);
    }

    @Test
    void calibrationFitsATemperatureOnValidationEpisodes() {
        Session s = learner(Map.of("meta_train", "false", "calibrate", "true", "val_fraction", "0.3",
                "val_episodes", "30", "mc_samples", "200"), background(5, Optional.empty()))
                .newSession(SessionContext.forEpisode(episode(1), 3));
        s.learn(episode(1).support());
        double t = s.diagnostics().get("calibration_temperature");
        assertTrue(t > 0 && t != 1.0, "temperature " + t);
        assertTrue(s.diagnostics().get("val_acc") > 0.5);
    }

    @Test
    void emptyBackgroundFallsBackToTheFixedKernel() {
        Learner l = learner(Map.of("mc_samples", "200"), Background.none(12));
        Session s = l.newSession(SessionContext.forEpisode(episode(5), 3));
        s.learn(episode(5).support());
        assertEquals(0.0, s.diagnostics().get("meta_trained"));
        assertEquals(30, s.predict(episode(5).queries()).size());
    }

    @Test
    void oneClassTaskPredictsThatClass() {
        Learner l = learner(Map.of("meta_train", "false"), Background.none(12));
        LabeledData one = ToyData.clusters(new int[]{9}, 3, 12, 3.0, 0.5, 1);
        Session s = l.newSession(SessionContext.forEpisode(episode(1), 1));
        s.learn(one);
        Prediction p = s.predict(one.features());
        assertArrayEquals(new int[]{9}, p.classes());
        assertEquals(1.0, p.probability(0, 0));
    }

    @Test
    void aSecondLearnAddsToTheConditioningSet() {
        Learner l = learner(Map.of("meta_train", "false", "mc_samples", "200"), Background.none(12));
        Session s = l.newSession(SessionContext.forEpisode(episode(1), 1));
        s.learn(ToyData.clusters(new int[]{3, 17}, 2, 12, 3.0, 0.5, 1));
        s.learn(ToyData.clusters(new int[]{42}, 2, 12, 3.0, 0.5, 2));
        assertArrayEquals(new int[]{3, 17, 42}, s.predict(episode(1).queries()).classes());
    }

    @Test
    void negativeMeanAndTemperatureChangeThePrediction() {
        Background bg = Background.none(12);
        Prediction a = learner(Map.of("meta_train", "false", "mean", "-5"), bg).solve(episode(1), 1);
        Prediction b = learner(Map.of("meta_train", "false", "mean", "0"), bg).solve(episode(1), 1);
        Prediction c = learner(Map.of("meta_train", "false", "mean", "0", "query_mean", "authors"), bg)
                .solve(episode(1), 1);
        assertNotEquals(a.probability(0, 0), b.probability(0, 0));
        assertArrayEquals(b.rawProbabilities(), c.rawProbabilities(), 1e-12,
                "with a = 0 the authors' query mean equals the correct one");
        Prediction d = learner(Map.of("meta_train", "false", "query_mean", "authors"), bg).solve(episode(1), 1);
        assertNotEquals(a.probability(0, 0), d.probability(0, 0), "with a = -5 they differ");
    }

    @Test
    void clearErrors() {
        Learner l = learner(Map.of("meta_train", "false"), Background.none(12));
        Session s = l.newSession(SessionContext.forEpisode(episode(1), 1));
        FsilException early = assertThrows(FsilException.class, () -> s.predict(episode(1).queries()));
        assertTrue(early.getMessage().contains("before learn"), early.getMessage());
        InvalidDataException empty = assertThrows(InvalidDataException.class, () -> s.learn(LabeledData.empty(12)));
        assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
        s.learn(episode(1).support());
        InvalidDataException dim = assertThrows(InvalidDataException.class,
                () -> s.predict(FeatureMatrix.of(new double[][]{{1, 2, 3}})));
        assertTrue(dim.getMessage().contains("dimension 3") && dim.getMessage().contains("12"), dim.getMessage());
        Learner trained = learner(FAST, background(5, Optional.empty()));
        Session t = trained.newSession(SessionContext.forEpisode(episode(1), 1));
        InvalidDataException map = assertThrows(InvalidDataException.class,
                () -> t.learn(ToyData.clusters(TASK, 1, 7, 3.0, 0.5, 1)));
        assertTrue(map.getMessage().contains("feature map expects 12"), map.getMessage());
        InvalidParameterException tau = assertThrows(InvalidParameterException.class,
                () -> method.params(Map.of("tau", "0")));
        assertTrue(tau.getMessage().contains("tau"));
        InvalidParameterException inf = assertThrows(InvalidParameterException.class,
                () -> method.params(Map.of("inference", "laplace")));
        assertTrue(inf.getMessage().contains("mean-field") && inf.getMessage().contains("gibbs"), inf.getMessage());
    }

    @Test
    void onlyInductiveFewShotIsDeclared() {
        assertEquals(java.util.EnumSet.of(Capability.INDUCTIVE_FEWSHOT), method.capabilities());
    }
}
