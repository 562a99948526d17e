package fsil.testkit;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Episode;
import fsil.api.Experience;
import fsil.api.LabeledData;
import fsil.api.Method;
import fsil.api.Params;
import fsil.data.FeatureSet;
import fsil.eval.protocol.LabeledTask;
import fsil.eval.protocol.Protocol;
import fsil.eval.protocol.ProtocolPlan;
import fsil.eval.protocol.TaskOutcome;
import fsil.eval.protocol.TaskRunner;
import org.junit.jupiter.api.DynamicTest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance kit of a protocol plugin:
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> conformance() {
 *     return ProtocolConformance.of(new MyProtocol()).on(features).withOptions(Map.of("runs", "2")).tests();
 * }
 * }</pre>
 *
 * Checks: metadata and typed parameters (unknown names rejected listing the valid ones) and a one-line setting
 * label; a task is a pure function of (data, options, order seed, index), also when tasks are made on several threads
 * at once; every task is well formed (an episode's queries are labelled with its support classes; an incremental
 * stream introduces each class once, trains each step on its new classes only); no class a method may learn from
 * before the tasks (the background) appears in any task; a toy nearest-mean method runs every checked task to a
 * finite accuracy in [0, 1].
 */
public final class ProtocolConformance {
    /** Tasks checked in each test: the first ones of the plan. */
    private static final int CHECKED = 6;
    private static final long SEED = 1993;

    private final Protocol protocol;
    private FeatureSet data;
    private Map<String, String> options = Map.of();

    private ProtocolConformance(Protocol protocol) {
        this.protocol = protocol;
    }

    public static ProtocolConformance of(Protocol protocol) {
        return new ProtocolConformance(protocol);
    }

    /** The features the plan is made on (small: every test plans again). */
    public ProtocolConformance on(FeatureSet features) {
        this.data = features;
        return this;
    }

    /** Option values for the plan (e.g. fewer runs or episodes). */
    public ProtocolConformance withOptions(Map<String, String> values) {
        this.options = Map.copyOf(values);
        return this;
    }

    public Stream<DynamicTest> tests() {
        if (data == null) {
            throw new IllegalStateException("give the features the protocol is checked on: .on(features)");
        }
        String id = protocol.id();
        return Stream.of(
                DynamicTest.dynamicTest(id + ": metadata and typed parameters", () -> {
                    PluginChecks.metadata(protocol);
                    PluginChecks.unknownParameterRejected(protocol);
                }),
                DynamicTest.dynamicTest(id + ": one-line setting label", () -> {
                    String label = protocol.settingLabel(params());
                    assertFalse(label.isBlank(), "empty setting label");
                    assertFalse(label.contains("\n"), "setting label on several lines: " + label);
                }),
                DynamicTest.dynamicTest(id + ": tasks are a pure function of data, options, seed, index",
                        this::deterministic),
                DynamicTest.dynamicTest(id + ": tasks are well formed", this::wellFormed),
                DynamicTest.dynamicTest(id + ": background classes never appear in a task", this::disjoint),
                DynamicTest.dynamicTest(id + ": a nearest-mean method runs every task", this::runs));
    }

    private Params params() {
        return protocol.params(options);
    }

    private Method toy() {
        Method m = new ToyNearestMeanMethod("toy-ncm", EnumSet.of(Capability.INDUCTIVE_FEWSHOT,
                Capability.CLASS_INCREMENTAL, Capability.FEWSHOT_CLASS_INCREMENTAL));
        assertNull(protocol.incompatibility(m), "a nearest-mean method with every inductive capability must be able "
                + "to take part");
        return m;
    }

    private int checked(ProtocolPlan plan) {
        assertTrue(plan.tasks() >= 1, "a plan without tasks");
        assertTrue(plan.tasksPerUnit() >= 1, "tasksPerUnit must be at least 1, got " + plan.tasksPerUnit());
        return Math.min(CHECKED, plan.tasks());
    }

    private void deterministic() throws Exception {
        Set<Capability> caps = toy().capabilities();
        ProtocolPlan a = protocol.plan(data, params(), SEED);
        ProtocolPlan b = protocol.plan(data, params(), SEED);
        assertEquals(a.tasks(), b.tasks(), "two plans of the same setting differ in size");
        int n = checked(a);
        List<String> first = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            first.add(fingerprint(a.task(i, caps)));
            assertEquals(first.get(i), fingerprint(b.task(i, caps)), "task " + i + " differs between two plans");
        }
        for (int i = n - 1; i >= 0; i--) {
            assertEquals(first.get(i), fingerprint(a.task(i, caps)), "task " + i + " depends on the tasks made before");
        }
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<String>> parallel = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                for (int i = 0; i < n; i++) {
                    int index = i;
                    parallel.add(pool.submit(() -> fingerprint(a.task(index, caps))));
                }
            }
            for (int k = 0; k < parallel.size(); k++) {
                assertEquals(first.get(k % n), parallel.get(k).get(), "task " + (k % n) + " differs when tasks are "
                        + "made on several threads (a plan must be immutable)");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void wellFormed() {
        ProtocolPlan plan = protocol.plan(data, params(), SEED);
        int n = checked(plan);
        for (int i = 0; i < n; i++) {
            LabeledTask t = plan.task(i, toy().capabilities());
            assertEquals(data.dimension(), t.task().dimension(), "task " + i + ": dimension");
            if (t instanceof LabeledTask.Episodic e) {
                Episode ep = e.task();
                Set<Integer> support = new HashSet<>();
                Arrays.stream(ep.support().labels()).forEach(support::add);
                assertEquals(ep.ways(), support.size(), "episode " + i + ": support classes");
                assertEquals(ep.queries().rows(), e.queryLabels().length, "episode " + i + ": a label per query");
                for (int y : e.queryLabels()) {
                    assertTrue(support.contains(y), "episode " + i + ": query of class " + y + " not in the support");
                }
                assertFalse(ep.jointQueries(), "an inductive method must get its queries one by one");
                ep.support().requireFinite("support");
            } else {
                LabeledTask.Incremental s = (LabeledTask.Incremental) t;
                List<Experience> steps = s.task().experiences();
                assertFalse(steps.isEmpty(), "stream " + i + " has no experience");
                Set<Integer> seen = new HashSet<>();
                for (Experience x : steps) {
                    assertTrue(x.newClasses().length > 0, "stream " + i + ", step " + x.index() + ": no new class");
                    int[] sorted = x.newClasses().clone();
                    Arrays.sort(sorted);
                    assertArrayEquals(sorted, x.newClasses(), "stream " + i + ": newClasses must be sorted");
                    Set<Integer> fresh = new HashSet<>();
                    for (int c : x.newClasses()) {
                        assertTrue(seen.add(c), "stream " + i + ": class " + c + " introduced twice");
                        fresh.add(c);
                    }
                    for (int y : x.train().labels()) {
                        assertTrue(fresh.contains(y), "stream " + i + ", step " + x.index() + ": trains on class " + y
                                + ", not one of its new classes");
                    }
                    x.train().requireFinite("training data");
                }
                for (int y : s.test().labels()) {
                    assertTrue(y >= 0 && y < data.classes().size(), "stream " + i + ": test label " + y);
                }
            }
        }
    }

    private void disjoint() {
        ProtocolPlan plan = protocol.plan(data, params(), SEED);
        Background bg = plan.background(0, Optional.empty());
        Set<Integer> base = new HashSet<>();
        Arrays.stream(bg.base().labels()).forEach(base::add);
        int n = checked(plan);
        for (int i = 0; i < n; i++) {
            for (int y : labels(plan.task(i, toy().capabilities()))) {
                assertFalse(base.contains(y), "task " + i + " uses class " + y + ", which the background gives to "
                        + "methods before the tasks");
            }
        }
    }

    private void runs() {
        Method m = toy();
        ProtocolPlan plan = protocol.plan(data, params(), SEED);
        var learner = m.learner(m.defaults(), plan.background(0, Optional.empty()));
        int n = checked(plan);
        for (int i = 0; i < n; i++) {
            TaskOutcome o = TaskRunner.run(plan.task(i, m.capabilities()), learner, i, Runnable::run);
            assertTrue(o.accuracy() >= 0 && o.accuracy() <= 1, "task " + i + ": accuracy " + o.accuracy());
        }
    }

    /** The class labels a task shows a method or scores it on. */
    private static int[] labels(LabeledTask t) {
        if (t instanceof LabeledTask.Episodic e) {
            return java.util.stream.IntStream.concat(Arrays.stream(e.task().support().labels()),
                    Arrays.stream(e.queryLabels())).toArray();
        }
        LabeledTask.Incremental s = (LabeledTask.Incremental) t;
        java.util.stream.IntStream all = Arrays.stream(s.test().labels());
        for (Experience x : s.task().experiences()) {
            all = java.util.stream.IntStream.concat(all, Arrays.stream(x.train().labels()));
        }
        return all.toArray();
    }

    /** Everything a task holds, as text: equal texts mean equal tasks. */
    private static String fingerprint(LabeledTask t) {
        StringBuilder sb = new StringBuilder();
        if (t instanceof LabeledTask.Episodic e) {
            Episode ep = e.task();
            sb.append("episode ").append(ep.ways()).append(' ').append(ep.shots()).append(' ')
                    .append(ep.jointQueries());
            data(sb, ep.support());
            sb.append(Arrays.hashCode(ep.queries().rawData())).append(Arrays.toString(e.queryLabels()));
        } else {
            LabeledTask.Incremental s = (LabeledTask.Incremental) t;
            sb.append("stream ").append(s.task().capability()).append(' ').append(s.retrainEvery());
            for (Experience x : s.task().experiences()) {
                sb.append(" step ").append(x.index()).append(Arrays.toString(x.newClasses()));
                data(sb, x.train());
            }
            data(sb, s.test());
        }
        return sb.toString();
    }

    private static void data(StringBuilder sb, LabeledData d) {
        sb.append(" [").append(d.size()).append('x').append(d.dimension()).append(' ')
                .append(Arrays.hashCode(d.features().rawData())).append(' ').append(Arrays.toString(d.labels()))
                .append(']');
    }
}
