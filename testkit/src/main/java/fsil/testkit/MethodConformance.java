package fsil.testkit;

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
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.api.Capability;
import org.junit.jupiter.api.DynamicTest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The conformance kit every method runs (like scikit-learn's {@code check_estimator}). Use it from a JUnit 5
 * test in the method's module:
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> conformance() {
 *     return MethodConformance.of(new MyMethod()).withParams(Map.of("steps", "5")).tests();
 * }
 * }</pre>
 *
 * Checks: metadata; unknown parameters and bad values rejected with the list of valid ones; determinism for a
 * fixed seed, also when the session gets a multi-threaded executor; inputs never mutated; probabilities finite
 * and summing to 1 over exactly the learned classes; 1-shot episodes and single-new-class experiences; NaN/Inf
 * features rejected with {@link InvalidDataException}; dimension 1 and more dimensions than samples; inductive
 * predictions independent across queries; better than chance on well-separated clusters.
 */
public final class MethodConformance {
    /** Class ids of the toy tasks: deliberately not 0..K-1. */
    static final int[] TASK_CLASSES = {3, 17, 42, 8, 25};
    static final int[] BASE_CLASSES = {100, 101, 102, 103, 104, 105, 106, 107};

    private final Method method;
    private Map<String, String> params = Map.of();
    private int dim = 16;
    private double minAccuracy = 0.6;

    private MethodConformance(Method method) {
        this.method = method;
    }

    public static MethodConformance of(Method method) {
        return new MethodConformance(method);
    }

    /** Parameter values used for every check (e.g. to keep an expensive method fast). */
    public MethodConformance withParams(Map<String, String> values) {
        this.params = Map.copyOf(values);
        return this;
    }

    /** Feature dimension of the toy data (default 16). */
    public MethodConformance withDimension(int d) {
        this.dim = d;
        return this;
    }

    /** Accuracy required on the well-separated toy episodes (default 0.6; chance is 0.2). */
    public MethodConformance withMinAccuracy(double acc) {
        this.minAccuracy = acc;
        return this;
    }

    public Stream<DynamicTest> tests() {
        List<DynamicTest> t = new ArrayList<>();
        String p = method.id() + ": ";
        t.add(DynamicTest.dynamicTest(p + "metadata", this::checkMetadata));
        t.add(DynamicTest.dynamicTest(p + "unknown parameter rejected", this::checkUnknownParameter));
        t.add(DynamicTest.dynamicTest(p + "bad parameter values rejected", this::checkBadValues));
        Set<Capability> caps = method.capabilities();
        boolean fewshot = caps.contains(Capability.INDUCTIVE_FEWSHOT) || caps.contains(Capability.TRANSDUCTIVE_FEWSHOT);
        boolean incremental = caps.contains(Capability.CLASS_INCREMENTAL)
                || caps.contains(Capability.FEWSHOT_CLASS_INCREMENTAL);
        if (fewshot) {
            t.add(DynamicTest.dynamicTest(p + "5-way 5-shot episode: valid probabilities, better than chance",
                    () -> checkEpisode(5, dim)));
            t.add(DynamicTest.dynamicTest(p + "5-way 1-shot episode", () -> checkEpisode(1, dim)));
            t.add(DynamicTest.dynamicTest(p + "feature dimension 1", () -> checkEpisode(5, 1)));
            t.add(DynamicTest.dynamicTest(p + "more dimensions than samples", () -> checkEpisode(1, 64)));
            t.add(DynamicTest.dynamicTest(p + "deterministic for a seed, any thread count", this::checkEpisodeDeterminism));
            t.add(DynamicTest.dynamicTest(p + "inputs not mutated", this::checkEpisodeNoMutation));
            t.add(DynamicTest.dynamicTest(p + "NaN/Inf features rejected", this::checkNonFiniteEpisode));
            if (caps.contains(Capability.INDUCTIVE_FEWSHOT)) {
                t.add(DynamicTest.dynamicTest(p + "inductive predictions are per query", this::checkRowIndependence));
            }
        }
        if (incremental) {
            Capability kind = caps.contains(Capability.CLASS_INCREMENTAL) ? Capability.CLASS_INCREMENTAL
                    : Capability.FEWSHOT_CLASS_INCREMENTAL;
            t.add(DynamicTest.dynamicTest(p + "incremental stream with a single-new-class step",
                    () -> checkStream(kind, dim)));
            t.add(DynamicTest.dynamicTest(p + "incremental stream in dimension 1", () -> checkStream(kind, 1)));
            t.add(DynamicTest.dynamicTest(p + "incremental stream deterministic, any thread count",
                    () -> checkStreamDeterminism(kind)));
            t.add(DynamicTest.dynamicTest(p + "NaN/Inf features rejected in incremental learning",
                    () -> checkNonFiniteStream(kind)));
        }
        return t.stream();
    }

    // ---------------------------------------------------------------------------------------------------------
    private Params params() {
        return method.params(params);
    }

    private Learner learner(int d) {
        LabeledData base = ToyData.clusters(BASE_CLASSES, 20, d, 3.0, 0.5, 77);
        List<String> names = new ArrayList<>();
        for (int i = 0; i <= 107; i++) {
            names.add("class" + i);
        }
        Background bg = new Background(base, new ClassTable(names, List.of()), "conformance-" + d, 5L, Optional.empty());
        return method.learner(params(), bg);
    }

    private boolean joint() {
        return !method.capabilities().contains(Capability.INDUCTIVE_FEWSHOT);
    }

    private Episode episode(int shots, int d, long seed) {
        LabeledData support = ToyData.clusters(TASK_CLASSES, shots, d, 3.0, 0.5, seed);
        LabeledData query = ToyData.clusters(TASK_CLASSES, 6, d, 3.0, 0.5, seed + 1);
        return new Episode(support, query.features(), TASK_CLASSES.length, shots, joint());
    }

    private static int[] sorted(int[] a) {
        int[] c = a.clone();
        Arrays.sort(c);
        return c;
    }

    private void checkMetadata() {
        assertTrue(method.id().matches("[a-z][a-z0-9-]*"), "id must be lower-case letters, digits, '-': " + method.id());
        assertFalse(method.description().isBlank(), "description must not be blank");
        assertFalse(method.capabilities().isEmpty(), "a method must declare at least one capability");
        Set<String> names = new HashSet<>();
        for (Param<?> p : method.parameters()) {
            assertTrue(names.add(p.name()), "duplicate parameter " + p.name());
            assertFalse(p.doc().isBlank(), "parameter " + p.name() + " needs documentation");
            p.validate(p.defaultValue());
            assertEquals(p.defaultValue(), p.parse(p.format(p.defaultValue())), "format/parse round trip of " + p.name());
        }
        Params d = method.defaults();
        assertEquals(method.parameters().size(), d.asText().size());
    }

    private void checkUnknownParameter() {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> method.params(Map.of("no_such_parameter_xyz", "1")));
        assertTrue(e.getMessage().contains("no_such_parameter_xyz"), "message must name the bad parameter: " + e.getMessage());
        for (Param<?> p : method.parameters()) {
            assertTrue(e.getMessage().contains(p.name()), "message must list valid parameter " + p.name() + ": " + e.getMessage());
        }
    }

    private void checkBadValues() {
        for (Param<?> p : method.parameters()) {
            List<String> bad = new ArrayList<>();
            switch (p.type()) {
                case INT -> {
                    bad.add("not-a-number");
                    if (p.min() > Integer.MIN_VALUE) {
                        bad.add(Long.toString((long) p.min() - 1));
                    }
                    if (p.max() < Integer.MAX_VALUE) {
                        bad.add(Long.toString((long) p.max() + 1));
                    }
                }
                case REAL -> {
                    bad.add("NaN");
                    if (Double.isFinite(p.min())) {
                        bad.add(Double.toString(p.min() - 1 - Math.abs(p.min())));
                    }
                    if (Double.isFinite(p.max())) {
                        bad.add(Double.toString(p.max() + 1 + Math.abs(p.max())));
                    }
                }
                case BOOL -> bad.add("maybe");
                case CHOICE -> bad.add("no-such-choice");
            }
            for (String v : bad) {
                InvalidParameterException e = assertThrows(InvalidParameterException.class,
                        () -> method.params(Map.of(p.name(), v)), "value '" + v + "' for " + p.name() + " must be rejected");
                assertTrue(e.getMessage().contains(p.name()), "message must name the parameter: " + e.getMessage());
            }
        }
    }

    private void checkEpisode(int shots, int d) {
        Episode e = episode(shots, d, 11 + shots + d);
        Prediction pr = learner(d).solve(e, 123);
        assertArrayEquals(sorted(TASK_CLASSES), pr.classes(), "prediction columns must be the support classes");
        assertEquals(e.queries().rows(), pr.size());
        checkProbabilities(pr);
        if (d > 1) {
            LabeledData truth = ToyData.clusters(TASK_CLASSES, 6, d, 3.0, 0.5, 11 + shots + d + 1);
            double acc = accuracy(pr, truth.labels());
            assertTrue(acc >= minAccuracy, "accuracy " + acc + " on well-separated clusters is below " + minAccuracy);
        }
    }

    private static double accuracy(Prediction p, int[] truth) {
        int[] lab = p.labels();
        int ok = 0;
        for (int i = 0; i < lab.length; i++) {
            ok += lab[i] == truth[i] ? 1 : 0;
        }
        return ok / (double) lab.length;
    }

    private static void checkProbabilities(Prediction pr) {
        for (int i = 0; i < pr.size(); i++) {
            double s = 0;
            for (int k = 0; k < pr.numClasses(); k++) {
                double v = pr.probability(i, k);
                assertTrue(Double.isFinite(v) && v >= 0, "probability must be finite and >= 0, got " + v);
                s += v;
            }
            assertEquals(1.0, s, 1e-6, "probabilities of query " + i + " must sum to 1");
        }
    }

    private Prediction runEpisode(Learner l, Episode e, long seed, java.util.concurrent.Executor ex) {
        Session s = l.newSession(SessionContext.forEpisode(e, seed).withExecutor(ex));
        s.learn(e.support());
        Prediction p = s.predict(e.queries());
        assertTrue(s.memoryBytes() >= 0, "memoryBytes must be >= 0");
        return p;
    }

    private void checkEpisodeDeterminism() {
        Episode e = episode(5, dim, 99);
        Prediction a = runEpisode(learner(dim), e, 7, SessionContext.DIRECT);
        Prediction b = runEpisode(learner(dim), e, 7, SessionContext.DIRECT);
        assertArrayEquals(a.rawProbabilities(), b.rawProbabilities(), "same seed must give identical probabilities");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Prediction c = runEpisode(learner(dim), e, 7, pool);
            assertArrayEquals(a.rawProbabilities(), c.rawProbabilities(),
                    "a multi-threaded executor must give the same probabilities as a direct one");
        } finally {
            pool.shutdownNow();
        }
    }

    private void checkEpisodeNoMutation() {
        Episode e = episode(5, dim, 5);
        float[] s0 = e.support().features().rawData().clone();
        int[] y0 = e.support().labels().clone();
        float[] q0 = e.queries().rawData().clone();
        runEpisode(learner(dim), e, 1, SessionContext.DIRECT);
        assertArrayEquals(s0, e.support().features().rawData(), "support features were modified");
        assertArrayEquals(y0, e.support().labels(), "support labels were modified");
        assertArrayEquals(q0, e.queries().rawData(), "query features were modified");
    }

    private static FeatureMatrix poison(FeatureMatrix m, float value) {
        float[] x = m.rawData().clone();
        x[x.length / 2] = value;
        return FeatureMatrix.wrap(m.rows(), m.cols(), x);
    }

    private void checkNonFiniteEpisode() {
        Episode e = episode(5, dim, 3);
        Learner l = learner(dim);
        for (float bad : new float[]{Float.NaN, Float.POSITIVE_INFINITY}) {
            LabeledData badSupport = new LabeledData(poison(e.support().features(), bad), e.support().labels());
            Session s1 = l.newSession(SessionContext.forEpisode(e, 1));
            expectInvalidData(() -> s1.learn(badSupport), "learn() with " + bad);
            Session s2 = l.newSession(SessionContext.forEpisode(e, 1));
            s2.learn(e.support());
            FeatureMatrix badQ = poison(e.queries(), bad);
            expectInvalidData(() -> s2.predict(badQ), "predict() with " + bad);
        }
    }

    private static void expectInvalidData(Runnable r, String what) {
        try {
            r.run();
            fail(what + " must throw InvalidDataException");
        } catch (InvalidDataException ok) {
            assertTrue(ok.getMessage() != null && !ok.getMessage().isBlank(), "the message must say what is wrong");
        } catch (FsilException other) {
            fail(what + " threw " + other.getClass().getSimpleName() + " instead of InvalidDataException: " + other.getMessage());
        } catch (RuntimeException other) {
            fail(what + " must throw InvalidDataException with a clear message, threw " + other);
        }
    }

    private void checkRowIndependence() {
        Episode e = episode(5, dim, 21);
        Learner l = learner(dim);
        Session s = l.newSession(SessionContext.forEpisode(e, 3));
        s.learn(e.support());
        Prediction all = s.predict(e.queries());
        for (int i = 0; i < e.queries().rows(); i += 7) {
            Prediction one = s.predict(e.queries().selectRows(new int[]{i}));
            double[] a = all.row(i);
            double[] b = one.row(0);
            for (int k = 0; k < a.length; k++) {
                assertEquals(a[k], b[k], 1e-9 + 1e-9 * Math.abs(a[k]),
                        "inductive prediction of query " + i + " changed when predicted alone");
            }
        }
    }

    // --- incremental -----------------------------------------------------------------------------------------
    private record Step(LabeledData train, LabeledData test) {
    }

    private List<Step> stream(Capability kind, int d) {
        int[][] steps = {{3, 17, 42}, {8}, {25, 30}};
        List<Step> out = new ArrayList<>();
        for (int t = 0; t < steps.length; t++) {
            int per = (kind == Capability.FEWSHOT_CLASS_INCREMENTAL && t > 0) ? 5 : 20;
            out.add(new Step(ToyData.clusters(steps[t], per, d, 3.0, 0.5, 500 + t),
                    ToyData.clusters(steps[t], 8, d, 3.0, 0.5, 600 + t)));
        }
        return out;
    }

    private List<Prediction> runStream(Capability kind, int d, long seed, java.util.concurrent.Executor ex) {
        List<Step> steps = stream(kind, d);
        Session s = learner(d).newSession(new SessionContext(kind, d, seed, ex));
        List<Prediction> out = new ArrayList<>();
        List<LabeledData> tests = new ArrayList<>();
        Set<Integer> seen = new java.util.TreeSet<>();
        for (Step st : steps) {
            float[] before = st.train().features().rawData().clone();
            s.learn(st.train());
            assertArrayEquals(before, st.train().features().rawData(), "training features were modified");
            for (int c : st.train().labels()) {
                seen.add(c);
            }
            tests.add(st.test());
            LabeledData test = LabeledData.concat(tests);
            Prediction p = s.predict(test.features());
            assertArrayEquals(seen.stream().mapToInt(Integer::intValue).toArray(), p.classes(),
                    "predictions must cover exactly the classes seen so far");
            checkProbabilities(p);
            assertTrue(s.memoryBytes() >= -1, "memoryBytes() is a size or -1 (not reported)");
            out.add(p);
        }
        return out;
    }



    private void checkStream(Capability kind, int d) {
        List<Prediction> preds = runStream(kind, d, 9, SessionContext.DIRECT);
        if (d > 1) {
            List<LabeledData> tests = new ArrayList<>();
            for (Step st : stream(kind, d)) {
                tests.add(st.test());
            }
            double acc = accuracy(preds.get(preds.size() - 1), LabeledData.concat(tests).labels());
            assertTrue(acc >= minAccuracy, "final accuracy " + acc + " on well-separated clusters is below " + minAccuracy);
        }
    }

    private void checkStreamDeterminism(Capability kind) {
        List<Prediction> a = runStream(kind, dim, 4, SessionContext.DIRECT);
        List<Prediction> b = runStream(kind, dim, 4, SessionContext.DIRECT);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Prediction> c = runStream(kind, dim, 4, pool);
            for (int t = 0; t < a.size(); t++) {
                assertArrayEquals(a.get(t).rawProbabilities(), b.get(t).rawProbabilities(), "step " + t + " not deterministic");
                assertArrayEquals(a.get(t).rawProbabilities(), c.get(t).rawProbabilities(),
                        "step " + t + " differs with a multi-threaded executor");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void checkNonFiniteStream(Capability kind) {
        List<Step> steps = stream(kind, dim);
        Session s = learner(dim).newSession(new SessionContext(kind, dim, 1, SessionContext.DIRECT));
        LabeledData bad = new LabeledData(poison(steps.get(0).train().features(), Float.NaN), steps.get(0).train().labels());
        expectInvalidData(() -> s.learn(bad), "learn() with NaN");
        Session s2 = learner(dim).newSession(new SessionContext(kind, dim, 1, SessionContext.DIRECT));
        s2.learn(steps.get(0).train());
        expectInvalidData(() -> s2.predict(poison(steps.get(0).test().features(), Float.NEGATIVE_INFINITY)),
                "predict() with -Inf");
    }
}
