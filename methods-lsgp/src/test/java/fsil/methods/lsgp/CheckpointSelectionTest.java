package fsil.methods.lsgp;

import fsil.api.Background;
import fsil.api.ClassTable;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.testkit.ToyData;
import fsil.core.nn.Dense;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code select=best}: checkpoint selection on meta-validation accuracy, and {@code select=last}. */
class CheckpointSelectionTest {
    static final int[] CLASSES = {1, 2, 3, 4, 5, 6, 7, 8};
    static final LabeledData BASE = ToyData.clusters(CLASSES, 12, 10, 3.0, 0.8, 21);
    final LsgpMethod method = new LsgpMethod();

    static LsgpConfig config(String... kv) {
        Map<String, String> p = new HashMap<>(Map.of("train_episodes", "50", "hidden", "16", "train_queries", "4"));
        for (int i = 0; i < kv.length; i += 2) {
            p.put(kv[i], kv[i + 1]);
        }
        LsgpMethod m = new LsgpMethod();
        return LsgpConfig.from(m.params(p));
    }

    static MetaTrainer.Result train(LsgpConfig cfg, ToDoubleFunction<LsgpKernel> validator) {
        return MetaTrainer.train(cfg, BASE, CLASSES, 11, validator, fsil.api.ProgressSink.SILENT);
    }

    static double[] embed(LsgpKernel k) {
        return k.embed(BASE.features()).data;
    }

    /** Sum of squares of the map's last layer: 0 for the untrained residual map, growing as training moves it. */
    static double lastLayerNorm(LsgpKernel k) {
        Dense last = k.map().mlp().layers().get(k.map().mlp().layers().size() - 1);
        double s = 0;
        for (double w : last.weights()) {
            s += w * w;
        }
        return s;
    }

    @Test
    void whenTrainingOnlyHurtsValidationTheUntrainedKernelIsKept() {
        // a validator whose accuracy falls as soon as the map moves: training only hurts it
        MetaTrainer.Result r = train(config("val_every", "10"), k -> 1.0 - lastLayerNorm(k));
        assertEquals(0, r.selection().step());
        assertEquals(6, r.selection().evaluations(), "steps 0, 10, 20, 30, 40, 50");
        assertEquals(1.0, r.selection().accuracy());
        assertTrue(r.selection().lastAccuracy() < 1.0);
        assertEquals(0.0, lastLayerNorm(r.kernel()));
        LsgpKernel fixed = LsgpKernel.fixed(config().outputscale());
        assertArrayEquals(embed(fixed), embed(r.kernel()), 1e-6, "step 0 of the residual map is the fixed kernel");
        assertEquals(config().outputscale(), r.kernel().outputscale(), 0.0);
        MetaTrainer.Result last = train(config("val_every", "10"), null);
        assertFalse(java.util.Arrays.equals(embed(last.kernel()), embed(r.kernel())), "training did move the map");
    }

    @Test
    void theChosenCheckpointIsTheIterateOfThatStepAndTiesKeepTheEarlierOne() {
        List<Integer> calls = new ArrayList<>();
        // accuracies by checkpoint 0, 10, 20, 30, 40, 50: the best (0.9) first reached at step 20, tied at 40
        double[] acc = {0.5, 0.7, 0.9, 0.8, 0.9, 0.6};
        MetaTrainer.Result r = train(config("val_every", "10"), k -> {
            calls.add(calls.size());
            return acc[calls.size() - 1];
        });
        assertEquals(20, r.selection().step());
        assertEquals(0.9, r.selection().accuracy());
        assertEquals(0.6, r.selection().lastAccuracy());
        // the trajectory does not depend on train_episodes or on the validator: 20 steps of it are the kept kernel
        MetaTrainer.Result twenty = train(config("train_episodes", "20"), null);
        assertArrayEquals(embed(twenty.kernel()), embed(r.kernel()), 0.0);
        assertEquals(twenty.kernel().logOutputscale(), r.kernel().logOutputscale(), 0.0);
        assertEquals(0, train(config("val_every", "10"), k -> 0.5).selection().step(), "all tied: step 0");
    }

    @Test
    void theDefaultIntervalIsATenthOfTheTrainingAndTheLastStepIsAlwaysEvaluated() {
        assertEquals(11, train(config(), k -> 0).selection().evaluations(), "0, 5, ..., 50");
        assertEquals(1, config("val_every", "0", "train_episodes", "3").checkpointEvery(), "at least 1");
        assertEquals(100, config("train_episodes", "1000").checkpointEvery());
        // 50 steps every 15: 0, 15, 30, 45 and the last iterate
        MetaTrainer.Result r = train(config("val_every", "15"), k -> lastLayerNorm(k));
        assertEquals(5, r.selection().evaluations());
        assertEquals(50, r.selection().step(), "a validator that always prefers more training keeps the last");
    }

    @Test
    void selectionDoesNotChangeTheTrainingTrajectory() {
        MetaTrainer.Result plain = train(config(), null);
        MetaTrainer.Result selectedLast = train(config(), k -> lastLayerNorm(k));
        assertNull(plain.selection());
        assertArrayEquals(embed(plain.kernel()), embed(selectedLast.kernel()), 0.0);
        assertEquals(plain.initialLoss(), selectedLast.initialLoss());
        assertEquals(plain.finalLoss(), selectedLast.finalLoss());
    }

    static Background background(int[] classes, Optional<Path> cache) {
        LabeledData base = ToyData.clusters(classes, 16, 12, 3.0, 0.8, 77);
        List<String> names = new ArrayList<>();
        for (int i = 0; i <= 120; i++) {
            names.add("c" + i);
        }
        return new Background(base, new ClassTable(names, List.of()), "toy-sel-12", 5, cache);
    }

    static final int[] MANY = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111};
    static final Map<String, String> FAST = Map.of("train_episodes", "24", "mc_samples", "100", "val_episodes", "6",
            "hidden", "16", "val_fraction", "0.34", "train_queries", "4");

    Map<String, String> with(Map<String, String> base, String... kv) {
        Map<String, String> m = new HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    Session session(Map<String, String> p, Background bg) {
        Learner l = method.learner(method.params(p), bg);
        Session s = l.newSession(SessionContext.forEpisode(LsgpMethodTest.episode(1), 3));
        s.learn(LsgpMethodTest.episode(1).support());
        return s;
    }

    Prediction solve(Map<String, String> p, Background bg) {
        return method.learner(method.params(p), bg).solve(LsgpMethodTest.episode(1), 3);
    }

    @Test
    void bestIsTheDefaultAndReportsItsChoiceDeterministically() {
        Background bg = background(MANY, Optional.empty());
        Map<String, Double> d = session(FAST, bg).diagnostics();
        double step = d.get("selected_step");
        assertTrue(step >= 0 && step <= 24 && step % 2 == 0, "step " + step);
        assertEquals(13.0, d.get("val_checkpoints"), "0, 2, ..., 24");
        assertTrue(d.get("val_acc_selected") >= d.get("val_acc_last"));
        assertEquals(d.get("val_acc_selected"), d.get("val_acc"), 0.0,
                "the validation diagnostic of the kept kernel is the accuracy it was selected with");
        assertEquals(0.0, d.get("select_fallback_last"));
        Map<String, Double> again = session(FAST, bg).diagnostics();
        for (String k : List.of("selected_step", "val_acc_selected", "val_acc_last", "val_acc", "outputscale")) {
            assertEquals(d.get(k), again.get(k), k);
        }
        assertArrayEquals(solve(FAST, bg).rawProbabilities(), solve(FAST, bg).rawProbabilities());
    }

    @Test
    void lastKeepsThePreviousBehaviourAndItsCacheKey() {
        Background bg = background(MANY, Optional.empty());
        Map<String, String> last = with(FAST, "select", "last");
        // before select existed the model was the last iterate; a run without meta-validation is that model
        Prediction noValidation = solve(with(FAST, "val_episodes", "0"), bg);
        assertArrayEquals(noValidation.rawProbabilities(), solve(last, bg).rawProbabilities(), 0.0);
        Map<String, Double> d = session(last, bg).diagnostics();
        assertEquals(24.0, d.get("selected_step"));
        assertFalse(d.containsKey("val_acc_selected"));
        assertEquals(0.0, d.get("select_fallback_last"));
        String key = LsgpModel.cacheKey(LsgpConfig.from(method.params(last)), bg);
        assertFalse(key.contains("select"), "the select=last key is the key of before: " + key);
        assertEquals(key, LsgpModel.cacheKey(LsgpConfig.from(method.params(last)), bg, false));
        assertTrue(LsgpModel.cacheKey(LsgpConfig.from(method.params(FAST)), bg, true).contains("select=best"));
    }

    @Test
    void withoutValidationClassesBestFallsBackToLastAndSaysSo() {
        // 3 base classes: holding out 2 would leave fewer than 2 to train on, so none is held out
        Background bg = background(new int[]{100, 101, 102}, Optional.empty());
        Map<String, String> p = with(FAST, "val_fraction", "0.15");
        Map<String, Double> d = session(p, bg).diagnostics();
        assertEquals(0.0, d.get("meta_val_classes"));
        assertEquals(1.0, d.get("select_fallback_last"));
        assertEquals(24.0, d.get("selected_step"));
        assertFalse(d.containsKey("val_acc"));
        assertArrayEquals(solve(with(p, "select", "last"), bg).rawProbabilities(), solve(p, bg).rawProbabilities(),
                0.0);
        assertEquals(1.0, session(with(FAST, "val_episodes", "0"), background(MANY, Optional.empty())).diagnostics()
                .get("select_fallback_last"), "val_episodes=0: no meta-validation either");
    }

    @Test
    void fiveBaseClassesHoldOutTwoForSelectionUnderANewKey() {
        // as on digits and fashion-mnist: 0.15 x 5 rounds to 1, raised to 2 held-out classes, 3 left to train on
        Background bg = background(new int[]{100, 101, 102, 103, 104}, Optional.empty());
        Map<String, String> p = with(FAST, "val_fraction", "0.15");
        Map<String, Double> d = session(p, bg).diagnostics();
        assertEquals(2.0, d.get("meta_val_classes"));
        assertEquals(3.0, d.get("meta_train_classes"));
        assertEquals(0.0, d.get("select_fallback_last"));
        assertTrue(d.containsKey("val_acc_selected"));
        // the models of before (trained on all 5 classes) are not read back for the 3-class training
        assertTrue(LsgpModel.cacheKey(LsgpConfig.from(method.params(with(p, "select", "last"))), bg).endsWith("|val-min-2"));
        Background many = background(MANY, Optional.empty());
        assertFalse(LsgpModel.cacheKey(LsgpConfig.from(method.params(with(FAST, "select", "last"))), many).contains("val-min"));
    }

    @Test
    void theSelectedModelIsCachedWithItsChoiceUnderItsOwnKey(@TempDir Path dir) throws IOException {
        Background bg = background(MANY, Optional.of(dir));
        Map<String, Double> trained = session(FAST, bg).diagnostics();
        Map<String, Double> cached = session(FAST, bg).diagnostics();
        assertEquals(0.0, trained.get("model_from_cache"));
        assertEquals(1.0, cached.get("model_from_cache"));
        for (String k : List.of("selected_step", "val_acc_selected", "val_acc_last", "val_checkpoints", "val_acc")) {
            assertEquals(trained.get(k), cached.get(k), k);
        }
        assertEquals(1, files(dir));
        session(with(FAST, "calibrate", "true"), bg);
        assertEquals(1, files(dir), "a test-time parameter the selection does not use shares the model");
        session(with(FAST, "mean", "0"), bg);
        assertEquals(2, files(dir), "the test-time mean changes the validation accuracy, so the selection");
        session(with(FAST, "select", "last"), bg);
        session(with(FAST, "select", "last", "mean", "0"), bg);
        assertEquals(3, files(dir), "select=last: one model for every test-time setting, as before");
    }

    static long files(Path dir) throws IOException {
        try (Stream<Path> st = Files.list(dir.resolve("lsgp"))) {
            return st.count();
        }
    }

    @Test
    void selectionValidatesWithMeanFieldEvenForGibbs() {
        LsgpConfig gibbs = config("inference", "gibbs", "steps", "7", "mean", "-2");
        LsgpConfig v = gibbs.selectionValidation();
        assertFalse(v.gibbs());
        assertEquals(7, v.steps());
        assertEquals(-2.0, v.mean());
        assertEquals(gibbs.trainingKey(), v.trainingKey());
    }
}
