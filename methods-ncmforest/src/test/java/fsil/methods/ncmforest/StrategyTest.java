package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What each incremental strategy may and may not change. */
class StrategyTest {
    static final int DIM = 6;
    static final long MEANS = 31;

    /** Overlapping clusters, so that trees are deep and splits are informative but not trivial. */
    static LabeledData chunk(int[] classes, int perClass, long seed) {
        return TestData.clusters(classes, perClass, DIM, 1.2, 1.0, MEANS, seed);
    }

    static LabeledData initial() {
        return chunk(TestData.range(0, 6), 40, 1);
    }

    static NcmForestSession session(String strategy, Map<String, String> extra, long seed) {
        Map<String, String> p = new HashMap<>(Map.of("strategy", strategy, "trees", "4"));
        p.putAll(extra);
        return TestData.session(p, DIM, seed);
    }

    @Test
    void ulsLeavesEverySplitNodeUntouched() {
        NcmForestSession s = session("uls", Map.of(), 5);
        s.learn(initial());
        List<List<TreeChecks.SplitSnapshot>> before = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (Tree t : s.trees()) {
            before.add(TreeChecks.splits(t));
            sizes.add(t.preOrder().size());
        }
        s.learn(chunk(new int[]{6}, 40, 2));
        for (int i = 0; i < s.trees().length; i++) {
            Tree t = s.trees()[i];
            TreeChecks.assertSplitsUnchanged(before.get(i), t);
            assertEquals(sizes.get(i), t.preOrder().size(), "ULS adds no node");
            TreeChecks.assertLeavesConsistent(t, s.store(), true, 0);
        }
    }

    @Test
    void igtNeverModifiesAnExistingSplitNodeAndKeepsTheLeafRule() {
        NcmForestSession s = session("igt", Map.of(), 5);
        s.learn(initial());
        List<List<TreeChecks.SplitSnapshot>> before = new ArrayList<>();
        int nodesBefore = 0;
        for (Tree t : s.trees()) {
            before.add(TreeChecks.splits(t));
            nodesBefore += t.preOrder().size();
        }
        s.learn(chunk(new int[]{6, 7}, 40, 2));
        int nodesAfter = 0;
        for (int i = 0; i < s.trees().length; i++) {
            Tree t = s.trees()[i];
            TreeChecks.assertSplitsUnchanged(before.get(i), t);
            TreeChecks.assertLeavesConsistent(t, s.store(), true, 10);
            nodesAfter += t.preOrder().size();
        }
        assertTrue(nodesAfter > nodesBefore, "IGT should have grown some leaves in this setting");
    }

    private static String describe(NcmForestSession s) {
        StringBuilder sb = new StringBuilder();
        for (Tree t : s.trees()) {
            sb.append(t.describe()).append("----\n");
        }
        return sb.toString();
    }

    private static void addClassesOneByOne(NcmForestSession s) {
        s.learn(initial());
        for (int c = 6; c < 9; c++) {
            s.learn(chunk(new int[]{c}, 40, 10 + c));
        }
    }

    @ParameterizedTest
    @CsvSource({"rtst,samples", "rtst,nodes", "rust,samples", "rust,nodes"})
    void piZeroEqualsIgt(String strategy, String selection) {
        NcmForestSession igt = session("igt", Map.of(), 9);
        NcmForestSession other = session(strategy, Map.of("pi", "0", "selection", selection), 9);
        addClassesOneByOne(igt);
        addClassesOneByOne(other);
        assertEquals(describe(igt), describe(other), strategy + " with pi = 0 must build the same trees as IGT");
        FeatureMatrix q = chunk(TestData.range(0, 9), 5, 99).features();
        assertArrayEquals(igt.predict(q).rawProbabilities(), other.predict(q).rawProbabilities());
    }

    @Test
    void rtstWithTheRootSelectedEqualsTrainingFromScratchWithTheSameStream() {
        LabeledData a = initial();
        LabeledData b = chunk(new int[]{6, 7}, 40, 2);
        ForestConfig cfg = ForestConfig.from(TestData.params(Map.of("strategy", "rtst")));
        SampleStore store = new SampleStore(DIM);
        ClassIndex ci = new ClassIndex();
        store.append(a.features(), ci.intern(a.labels()));
        TreeGrower grower = new TreeGrower(new NcmSplitSearch());
        Tree tree = grower.train(TestData.range(0, a.size()),
                new TreeWork(cfg, store, ci.size(), new Entropy(1000), 1));
        int first = store.append(b.features(), ci.intern(b.labels()));
        TreeWork w = new TreeWork(cfg, store, ci.size(), new Entropy(1000), 2);
        TreeUpdater updater = new TreeUpdater(grower);
        List<Node> received = updater.updateLeafStatistics(tree, TestData.range(first, store.size()), w);
        updater.retrainSubtrees(tree, received, List.of(tree.root), w);
        Tree fresh = grower.train(TestData.range(0, store.size()),
                new TreeWork(cfg, store, ci.size(), new Entropy(1000), 2));
        assertEquals(fresh.describe(), tree.describe());
    }

    @Test
    void rtstCutsSelectedSubtreesAndRegrowsThemWithinTheRules() {
        NcmForestSession s = session("rtst", Map.of(), 5);
        s.learn(initial());
        s.learn(chunk(new int[]{6}, 40, 2));
        Map<String, Double> d = s.diagnostics();
        assertTrue(d.get("train_nodes_selected") > 0 && d.get("train_nodes_cut") > 0, d.toString());
        for (Tree t : s.trees()) {
            TreeChecks.assertLeavesConsistent(t, s.store(), true, 10);
        }
    }

    @ParameterizedTest
    @CsvSource({
            "add-only,samples,selected", "algorithm-r,samples,selected", "exact-uniform,samples,selected",
            "add-only,nodes,selected", "algorithm-r,nodes,all", "exact-uniform,nodes,all", "add-only,samples,all"})
    void rustLeavesEqualAFreshRoutingAndNoLeafIsBelowMu(String policy, String selection, String nodes) {
        NcmForestSession s = session("rust", Map.of("rust_insertion", policy, "selection", selection,
                "rust_nodes", nodes, "pi", "1"), 5);
        s.learn(initial());
        double updated = 0;
        double moved = 0;
        for (int step = 0; step < 3; step++) {
            // Two new classes and more samples of an old class in one chunk.
            LabeledData c = chunk(new int[]{6 + 2 * step, 7 + 2 * step, 1}, 30, 20 + step);
            s.learn(c);
            updated += s.diagnostics().get("train_nodes_updated");
            moved += s.diagnostics().get("train_samples_moved");
            for (Tree t : s.trees()) {
                TreeChecks.assertLeavesConsistent(t, s.store(), true, 10);
            }
        }
        assertTrue(updated > 0, "some split node must have taken in a new centroid");
        assertTrue(moved > 0, "some old samples must have been re-routed");
    }

    @Test
    void rustWithBaggingKeepsLeavesConsistentWithRouting() {
        NcmForestSession s = session("rust", Map.of("bagging", "true", "rust_nodes", "all"), 5);
        s.learn(initial());
        s.learn(chunk(new int[]{6, 7}, 40, 2));
        for (Tree t : s.trees()) {
            TreeChecks.assertLeavesConsistent(t, s.store(), false, 10);
        }
    }

    @Test
    void rustAgainWithMinSplitRule() {
        NcmForestSession s = session("rust", Map.of("mu_rule", "min-split", "min_leaf", "5", "rust_nodes", "all",
                "rust_insertion", "algorithm-r"), 5);
        s.learn(initial());
        s.learn(chunk(new int[]{6, 7}, 40, 2));
        for (Tree t : s.trees()) {
            TreeChecks.assertLeavesConsistent(t, s.store(), true, 1);
        }
    }

    @Test
    void retrainIsAFreshForestOnAllData() {
        NcmForestSession s = session("retrain", Map.of(), 5);
        s.learn(initial());
        s.learn(chunk(new int[]{6}, 40, 2));
        assertEquals(1.0, s.diagnostics().get("train_from_scratch"));
        for (Tree t : s.trees()) {
            TreeChecks.assertLeavesConsistent(t, s.store(), true, 10);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"uls", "igt", "rtst", "rust", "retrain"})
    void identicalForAnyThreadCount(String strategy) {
        Map<String, String> p = Map.of("strategy", strategy, "trees", "6", "bagging", "true");
        List<double[]> direct = run(p, SessionContext.DIRECT);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<double[]> threaded = run(p, pool);
            for (int i = 0; i < direct.size(); i++) {
                assertArrayEquals(direct.get(i), threaded.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<double[]> run(Map<String, String> p, java.util.concurrent.Executor ex) {
        Session s = new NcmForestMethod().learner(TestData.params(p), fsil.api.Background.none(DIM))
                .newSession(SessionContext.incremental(DIM, 77).withExecutor(ex));
        FeatureMatrix q = chunk(TestData.range(0, 9), 5, 99).features();
        List<double[]> out = new ArrayList<>();
        s.learn(initial());
        out.add(s.predict(q).rawProbabilities());
        for (int c = 6; c < 9; c++) {
            s.learn(chunk(new int[]{c}, 40, 10 + c));
            out.add(s.predict(q).rawProbabilities());
        }
        return out;
    }

    @Test
    void differentSeedsGiveDifferentForests() {
        NcmForestSession a = session("rust", Map.of(), 1);
        NcmForestSession b = session("rust", Map.of(), 2);
        addClassesOneByOne(a);
        addClassesOneByOne(b);
        assertNotEquals(describe(a), describe(b));
    }

    @Test
    void rustWithAxisSplitsIsRejectedWithAClearMessage() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(fsil.api.InvalidParameterException.class,
                () -> new NcmForestMethod().learner(TestData.params(Map.of("split", "axis", "strategy", "rust")),
                        fsil.api.Background.none(3)));
        assertTrue(e.getMessage().contains("split=ncm"), e.getMessage());
    }

    @Test
    void predictBeforeLearnAndWrongDimensionAreUserErrors() {
        NcmForestSession s = session("igt", Map.of(), 1);
        org.junit.jupiter.api.Assertions.assertThrows(fsil.api.FsilException.class,
                () -> s.predict(FeatureMatrix.empty(DIM)));
        org.junit.jupiter.api.Assertions.assertThrows(fsil.api.InvalidDataException.class,
                () -> s.learn(TestData.clusters(new int[]{1}, 3, DIM + 1, 1, 1, 1, 1)));
        s.learn(initial());
        org.junit.jupiter.api.Assertions.assertThrows(fsil.api.InvalidDataException.class,
                () -> s.predict(FeatureMatrix.wrap(1, DIM + 1, new float[DIM + 1])));
        Prediction p = s.predict(FeatureMatrix.empty(DIM));
        assertEquals(0, p.size());
    }
}
