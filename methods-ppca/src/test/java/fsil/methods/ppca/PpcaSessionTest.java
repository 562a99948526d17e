package fsil.methods.ppca;

import fsil.api.Background;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.SessionContext;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sessions: streaming and step invariance, the q = 0 baseline, probabilities, parallel scoring, memory, errors. */
class PpcaSessionTest {
    private static final int D = 24;
    private static final double[] SPECTRUM = TestData.powerLaw(10, 2.0, 1.0);

    private static PpcaSession session(Map<String, String> params, long seed, Executor ex) {
        PpcaMethod m = new PpcaMethod();
        return (PpcaSession) m.learner(m.params(params), Background.none(D))
                .newSession(SessionContext.incremental(D, seed).withExecutor(ex));
    }

    private static PpcaSession session(Map<String, String> params) {
        return session(params, 7, SessionContext.DIRECT);
    }

    private static int[] ids(int n, int first) {
        int[] c = new int[n];
        for (int i = 0; i < n; i++) {
            c[i] = first + 3 * i;
        }
        return c;
    }

    private static LabeledData train(int[] classes, int perClass) {
        return TestData.classes(classes, perClass, D, SPECTRUM, 0.3, 1.0, 5);
    }

    private static LabeledData test(int[] classes) {
        return TestData.queries(classes, 6, D, SPECTRUM, 0.3, 1.0, 5);
    }

    /** Rows of {@code data} whose label is in {@code classes}. */
    private static LabeledData ofClasses(LabeledData data, int[] classes) {
        int[] sorted = classes.clone();
        Arrays.sort(sorted);
        return data.select(java.util.stream.IntStream.range(0, data.size())
                .filter(i -> Arrays.binarySearch(sorted, data.labels()[i]) >= 0).toArray());
    }

    /** A reference logit of query x for the class in a column. */
    private interface Logit {
        double of(double[] x, int column);
    }

    /** Every row of {@code p} equals the softmax over the columns of the reference logits (1e-9). */
    private static void assertSoftmaxOf(Prediction p, LabeledData queries, Logit logit, String what) {
        int k = p.numClasses();
        for (int i = 0; i < queries.size(); i++) {
            double[] x = TestData.row(queries.features().rawData(), D, i);
            double[] l = new double[k];
            for (int c = 0; c < k; c++) {
                l[c] = logit.of(x, c);
            }
            fsil.core.math.Softmax.inPlaceRows(l, 1, k);
            for (int c = 0; c < k; c++) {
                assertEquals(l[c], p.probability(i, c), 1e-9, what);
            }
        }
    }

    @Test
    void qZeroIsNearestClassMean() {
        int[] classes = ids(6, 10);
        LabeledData tr = train(classes, 20);
        LabeledData te = test(classes);
        PpcaSession s = session(Map.of("q", "0", "lambda", "0.5"));
        s.learn(tr);
        int[] sorted = s.classes();
        double[][] means = new double[sorted.length][D];
        for (int k = 0; k < sorted.length; k++) {
            LabeledData rows = ofClasses(tr, new int[]{sorted[k]});
            for (int r = 0; r < rows.size(); r++) {
                for (int t = 0; t < D; t++) {
                    means[k][t] += rows.features().get(r, t) / (double) rows.size();
                }
            }
        }
        assertSoftmaxOf(s.predict(te.features()), te, (x, k) -> {
            double d2 = 0;
            for (int t = 0; t < D; t++) {
                d2 += (x[t] - means[k][t]) * (x[t] - means[k][t]);
            }
            return -d2 / (2 * 0.5);
        }, "softmax(-||x - mu||^2 / (2 lambda))");
    }

    @Test
    void logLikelihoodProbabilitiesAreTheGaussianPosterior() {
        int[] classes = ids(4, 2);
        LabeledData tr = train(classes, 15);
        LabeledData te = test(classes);
        PpcaSession s = session(Map.of("score", "loglik", "q", "4", "lambda", "0.3"));
        s.learn(tr);
        int[] sorted = s.classes();
        ClassModel[] models = new ClassModel[sorted.length];
        CholeskyFactor[] chol = new CholeskyFactor[sorted.length];
        for (int k = 0; k < sorted.length; k++) {
            models[k] = s.model(sorted[k]);
            chol[k] = TestData.cholesky(models[k]);
        }
        assertSoftmaxOf(s.predict(te.features()), te, (x, k) -> -0.5 * (TestData.explicitMahalanobis(chol[k],
                        models[k], x) + chol[k].logDet() + D * Math.log(2 * Math.PI)),
                "N(x | mu_k, Sigma_k) / sum_j N(x | mu_j, Sigma_j)");
    }

    @Test
    void temperatureDividesTheLogits() {
        int[] classes = ids(3, 1);
        LabeledData tr = train(classes, 12);
        LabeledData te = test(classes);
        PpcaSession a = session(Map.of());
        PpcaSession b = session(Map.of("temperature", "40"));
        a.learn(tr);
        b.learn(tr);
        double[] scores = a.scores(te.features());
        Prediction pb = b.predict(te.features());
        double[] logits = scores.clone();
        for (int i = 0; i < logits.length; i++) {
            logits[i] = -logits[i] / 80;
        }
        fsil.core.math.Softmax.inPlaceRows(logits, te.size(), 3);
        assertArrayEquals(logits, pb.rawProbabilities(), 1e-12);
    }

    @Test
    void exactScatterStreamingEqualsBatch() {
        // classes arrive in a random order, each split into random pieces over several learn() calls
        int[] classes = ids(8, 4);
        LabeledData tr = train(classes, 40);
        LabeledData te = test(classes);
        Map<String, String> params = Map.of("scatter", "keep", "q", "6");
        PpcaSession batch = session(params);
        batch.learn(tr);
        PpcaSession stream = session(params);
        UniformRandomProvider rng = RandomStreams.create(3);
        int[] rows = RandomStreams.permutation(tr.size(), rng);
        int at = 0;
        int calls = 0;
        while (at < rows.length) {
            int len = Math.min(rows.length - at, 1 + rng.nextInt(60));
            stream.learn(tr.select(Arrays.copyOfRange(rows, at, at + len)));
            at += len;
            calls++;
        }
        assertTrue(calls > 5);
        assertTrue(stream.diagnostics().containsKey("exact_merges"));
        double[] a = batch.scores(te.features());
        double[] b = stream.scores(te.features());
        assertTrue(TestData.maxRelative(b, a, 1e-300) < 1e-9, "streamed vs batch scores");
        assertArrayEquals(batch.predict(te.features()).labels(), stream.predict(te.features()).labels());
    }

    /** A session that learned row i of {@code data} in call i % parts. */
    private static PpcaSession learnInParts(Map<String, String> params, LabeledData data, int parts) {
        PpcaSession s = session(params);
        for (int part = 0; part < parts; part++) {
            int p = part;
            s.learn(data.select(java.util.stream.IntStream.range(0, data.size()).filter(i -> i % parts == p).toArray()));
        }
        return s;
    }

    @Test
    void droppedScatterIsExactWhileNothingIsTruncated() {
        // scatter=drop: with q >= n_c - 1 the rank-q model holds the whole scatter, so merging later pieces is exact
        int[] classes = ids(4, 0);
        LabeledData tr = train(classes, 9);
        LabeledData te = test(classes);
        PpcaSession batch = session(Map.of("q", "50"));
        batch.learn(tr);
        PpcaSession stream = learnInParts(Map.of("q", "50"), tr, 3);
        assertTrue(stream.diagnostics().get("approximate_merges") > 0);
        assertTrue(TestData.maxRelative(stream.scores(te.features()), batch.scores(te.features()), 1e-300) < 1e-8);
    }

    @Test
    void droppedScatterMergesApproximatelyWhenTruncated() {
        int[] classes = ids(5, 0);
        LabeledData tr = train(classes, 60);
        LabeledData te = test(classes);
        PpcaSession batch = session(Map.of("q", "3"));
        batch.learn(tr);
        PpcaSession stream = learnInParts(Map.of("q", "3"), tr, 2);
        double diff = TestData.maxRelative(stream.scores(te.features()), batch.scores(te.features()), 1e-300);
        assertTrue(diff > 1e-6, "variance outside the kept components is lost");
        assertTrue(diff < 0.5, "but the model stays close: " + diff);
        for (int c : classes) {
            assertEquals(batch.model(c).count, stream.model(c).count);
            assertArrayEquals(batch.model(c).mean, stream.model(c).mean, 1e-12, "means merge exactly");
        }
    }

    /** Final predictions of a stream of the classes in the given order, cut into {@code steps} steps. */
    private static double[] finalProbabilities(int[] order, int steps, LabeledData tr, LabeledData te,
                                               Map<String, String> params, Executor ex) {
        PpcaSession s = session(params, 11, ex);
        int base = order.length / 2;
        s.learn(ofClasses(tr, Arrays.copyOfRange(order, 0, base)));
        int rest = order.length - base;
        int at = base;
        for (int t = 0; t < steps; t++) {
            int size = rest / steps + (t < rest % steps ? 1 : 0);
            s.learn(ofClasses(tr, Arrays.copyOfRange(order, at, at + size)));
            at += size;
        }
        return s.predict(te.features()).rawProbabilities();
    }

    @Test
    void fiveAndTenStepsGiveIdenticalPredictions() {
        // Classes are independent: the final model is the same for any step count, class order and thread count,
        // bit for bit (the paper's identical 5- and 10-step numbers).
        int[] classes = ids(30, 1);
        LabeledData tr = train(classes, 30);
        LabeledData te = test(classes);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (Map<String, String> params : List.of(Map.<String, String>of(), Map.of("solver", "randomized", "q", "8"),
                    Map.of("score", "loglik", "scatter", "keep"))) {
                double[] five = finalProbabilities(classes, 5, tr, te, params, SessionContext.DIRECT);
                double[] ten = finalProbabilities(classes, 10, tr, te, params, SessionContext.DIRECT);
                assertArrayEquals(five, ten, 0.0, "5 vs 10 steps " + params);
                int[] shuffled = classes.clone();
                RandomStreams.shuffle(shuffled, RandomStreams.create(9));
                assertArrayEquals(five, finalProbabilities(shuffled, 7, tr, te, params, pool), 0.0,
                        "another class order, 7 steps, 3 threads " + params);
                assertArrayEquals(five, finalProbabilities(classes, 1, tr, te, params, pool), 0.0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tiledParallelScoringEqualsOneQueryAtATime() {
        int[] classes = ids(300, 0);   // more than one class block
        LabeledData tr = TestData.classes(classes, 6, D, SPECTRUM, 0.3, 1.0, 8);
        LabeledData te = TestData.queries(Arrays.copyOf(classes, 25), 6, D, SPECTRUM, 0.3, 1.0, 8);   // 150 queries
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            PpcaSession direct = session(Map.of(), 1, SessionContext.DIRECT);
            PpcaSession parallel = session(Map.of(), 1, pool);
            direct.learn(tr);
            parallel.learn(tr);
            double[] a = direct.scores(te.features());
            assertArrayEquals(a, parallel.scores(te.features()), 0.0, "3 threads");
            int[] sorted = direct.classes();
            double[] one = new double[1];
            for (int i = 0; i < te.size(); i += 13) {
                double[] x = TestData.row(te.features().rawData(), D, i);
                for (int k = 0; k < sorted.length; k += 17) {
                    direct.model(sorted[k]).scoreBlock(x, 1, new double[2 * D], false, one, 0, 1);
                    assertEquals(one[0], a[i * sorted.length + k], 0.0);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void memoryIsModelSizeWithDroppedScatter() {
        int[] classes = ids(5, 0);
        LabeledData tr = train(classes, 30);
        PpcaSession drop = session(Map.of("q", "4"));
        drop.learn(tr);
        long expected = 16L * 5;
        for (int c : classes) {
            expected += 8L * (D + 4L * D + 2 * 4) + 96;
        }
        assertEquals(expected, drop.memoryBytes());
        PpcaSession keep = session(Map.of("q", "4", "scatter", "keep"));
        keep.learn(tr);
        // 30 samples > d = 24: the exact scatter is a dense d x d matrix per class
        assertEquals(expected + 5L * (8L * (D * D + D) + 64), keep.memoryBytes());
    }

    @Test
    void clearErrors() {
        PpcaSession s = session(Map.of());
        FsilException early = assertThrows(FsilException.class, () -> s.predict(FeatureMatrix.empty(D)));
        assertTrue(early.getMessage().contains("before any class was learned"), early.getMessage());
        LabeledData wrong = TestData.classes(new int[]{1}, 3, D + 1, SPECTRUM, 0.1, 1, 1);
        InvalidDataException dim = assertThrows(InvalidDataException.class, () -> s.learn(wrong));
        assertTrue(dim.getMessage().contains("dimension " + (D + 1)) && dim.getMessage().contains("dimension " + D),
                dim.getMessage());
        s.learn(LabeledData.empty(D));
        assertEquals(0, s.classes().length, "an empty learn() is a no-op");
        s.learn(train(new int[]{4}, 5));
        InvalidDataException q = assertThrows(InvalidDataException.class,
                () -> s.predict(FeatureMatrix.wrap(1, 3, new float[3])));
        assertTrue(q.getMessage().contains("query features"), q.getMessage());
        assertEquals(0, s.predict(FeatureMatrix.empty(D)).size());
    }

    @Test
    void tooManyProbabilitiesForOneArrayAreRefusedWithAdvice() {
        PpcaMethod m = new PpcaMethod();
        PpcaSession s = (PpcaSession) m.learner(m.defaults(), Background.none(1))
                .newSession(SessionContext.incremental(1, 1));
        int classes = 1000;
        float[] x = new float[classes];
        int[] y = new int[classes];
        for (int c = 0; c < classes; c++) {
            x[c] = c;
            y[c] = c;
        }
        s.learn(new LabeledData(FeatureMatrix.wrap(classes, 1, x), y));
        int n = Integer.MAX_VALUE / classes + 1;
        FsilException e = assertThrows(FsilException.class, () -> s.predict(FeatureMatrix.wrap(n, 1, new float[n])));
        assertTrue(e.getMessage().contains("batches of at most 2147483 queries"), e.getMessage());
    }

    @Test
    void diagnosticsDescribeTheFit() {
        PpcaSession s = session(Map.of("q", "5"));
        int[] classes = ids(4, 0);
        s.learn(train(classes, 3));   // 3-shot classes: q_c = 2
        Map<String, Double> d = s.diagnostics();
        assertEquals(4.0, d.get("classes"));
        assertEquals(2.0, d.get("components_mean"));
        assertEquals(4.0, d.get("fit_classes"));
        assertEquals(4.0, d.get("fit_gram") + d.get("fit_full") + d.get("fit_randomized"));
        s.predict(test(classes).features());
        assertEquals(24.0 * 4, s.diagnostics().get("score_pairs"));
        List<String> keys = new ArrayList<>(s.diagnostics().keySet());
        for (String k : keys) {
            assertTrue(k.matches("[a-z][a-z0-9_]*"), "lower_snake_case: " + k);
        }
    }

    @Test
    void nearSingularClassesAreCounted() {
        // D = 24: 13 samples span 12 directions, half the space; with q = 20 the model keeps all of them
        int[] classes = ids(4, 0);
        PpcaSession flagged = session(Map.of());
        flagged.learn(train(classes, 13));
        assertEquals(12.0, flagged.diagnostics().get("components_mean"));
        assertEquals(4.0, flagged.diagnostics().get("near_singular_classes"));
        assertEquals(1.0, flagged.diagnostics().get("near_singular_fraction"));
        // the same classes with q = 5 (5 of 12 directions), and 5-shot classes with q = 20 (4 directions of 24)
        PpcaSession fewComponents = session(Map.of("q", "5"));
        fewComponents.learn(train(classes, 13));
        assertEquals(5.0, fewComponents.diagnostics().get("components_mean"));
        assertEquals(0.0, fewComponents.diagnostics().get("near_singular_classes"));
        PpcaSession fewShots = session(Map.of());
        fewShots.learn(train(classes, 5));
        assertEquals(4.0, fewShots.diagnostics().get("components_mean"));
        assertEquals(0.0, fewShots.diagnostics().get("near_singular_fraction"));
        // many samples: 20 components of 24 dimensions, but from 200 samples (rank 199)
        PpcaSession manySamples = session(Map.of());
        manySamples.learn(train(classes, 200));
        assertEquals(20.0, manySamples.diagnostics().get("components_mean"));
        assertEquals(0.0, manySamples.diagnostics().get("near_singular_classes"));
        // a mix: two flagged classes of four
        PpcaSession mixed = session(Map.of());
        mixed.learn(train(new int[] {classes[0], classes[1]}, 13));
        mixed.learn(train(new int[] {classes[2], classes[3]}, 5));
        assertEquals(2.0, mixed.diagnostics().get("near_singular_classes"));
        assertEquals(0.5, mixed.diagnostics().get("near_singular_fraction"));
        PpcaSession empty = session(Map.of());
        assertEquals(0.0, empty.diagnostics().get("near_singular_fraction"));
    }

    @Test
    void nearSingularRuleBoundaries() {
        // 2 q_c >= max(n - 1, d), q_c = min(q, n - 1, d) >= 1
        assertTrue(PpcaSession.nearSingular(21, 20, 32));    // 20 of 20 directions, 20 of 32 dimensions
        assertTrue(PpcaSession.nearSingular(41, 20, 32));    // 20 of 40 and of 32
        assertFalse(PpcaSession.nearSingular(42, 20, 32));   // 20 of 41
        assertTrue(PpcaSession.nearSingular(17, 20, 32));    // 16 of 32
        assertFalse(PpcaSession.nearSingular(16, 20, 32));   // 15 of 32
        assertTrue(PpcaSession.nearSingular(15, 10, 16));    // glyph features in 16 dimensions: 10 of 14 and of 16
        assertFalse(PpcaSession.nearSingular(15, 4, 16));
        assertFalse(PpcaSession.nearSingular(15, 20, 128));  // glyphs in 128 dimensions: 14 of 128
        assertFalse(PpcaSession.nearSingular(6000, 127, 128));
        assertTrue(PpcaSession.nearSingular(200, 127, 128));
        assertFalse(PpcaSession.nearSingular(1, 20, 1));     // a 1-shot class is its mean
        assertFalse(PpcaSession.nearSingular(21, 0, 32));    // q = 0 keeps nothing
    }
}
