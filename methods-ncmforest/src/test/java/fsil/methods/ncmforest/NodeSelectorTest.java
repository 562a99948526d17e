package fsil.methods.ncmforest;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RTST/RUST node selection (paper Eq. 7; module README, Decision 4). */
class NodeSelectorTest {

    private static Tree tree(long seed) {
        var data = StrategyTest.initial();
        ForestConfig cfg = ForestConfig.from(TestData.params(Map.of()));
        SampleStore store = new SampleStore(data.dimension());
        store.append(data.features(), new ClassIndex().intern(data.labels()));
        return new TreeGrower(new NcmSplitSearch()).train(TestData.range(0, store.size()),
                new TreeWork(cfg, store, 6, new Entropy(1000), seed));
    }

    private static List<Node> splitNodes(Tree t) {
        List<Node> out = new ArrayList<>();
        for (Node n : t.preOrder()) {
            if (!n.isLeaf()) {
                out.add(n);
            }
        }
        return out;
    }

    /** The subtree of {@code n} in pre-order. */
    private static List<Node> subtree(Node n) {
        Tree view = new Tree(new int[0]);
        view.root = n;
        return view.preOrder();
    }

    /** Whether {@code a} is a proper ancestor of {@code b}. */
    private static boolean isAncestor(Node a, Node b) {
        return a != b && subtree(a).contains(b);
    }

    @Test
    void piZeroSelectsNothingAndNodesRuleWithPiOneSelectsEverySplitNode() {
        Tree t = tree(1);
        UniformRandomProvider rng = RandomStreams.create(1);
        assertTrue(NodeSelector.select(t, 0, SelectionRule.SAMPLES, rng).isEmpty());
        assertTrue(NodeSelector.select(t, 0, SelectionRule.NODES, rng).isEmpty());
        List<Node> all = NodeSelector.select(t, 1, SelectionRule.NODES, rng);
        assertEquals(splitNodes(t), all);
        assertEquals(t.root, all.get(0), "pi = 1 under the nodes rule includes the root: a full retrain");
    }

    @Test
    void samplesRuleSelectsDisjointSubtreesUntilTheyCoverPi() {
        Tree t = tree(2);
        UniformRandomProvider rng = RandomStreams.create(2);
        int total = t.root.isLeaf() ? t.root.total : Tree.subtreeSamples(t.root).length;
        for (double pi : new double[]{0.1, 0.5, 0.8, 1.0}) {
            for (int rep = 0; rep < 20; rep++) {
                List<Node> sel = NodeSelector.select(t, pi, SelectionRule.SAMPLES, rng);
                long covered = 0;
                for (Node a : sel) {
                    covered += Tree.subtreeSamples(a).length;
                    for (Node b : sel) {
                        assertFalse(isAncestor(a, b), "selections must not nest");
                    }
                }
                // Either the coverage is reached or no further node could be added without nesting.
                if (covered < pi * total) {
                    for (Node n : splitNodes(t)) {
                        boolean related = sel.contains(n);
                        for (Node a : sel) {
                            related |= isAncestor(a, n) || isAncestor(n, a);
                        }
                        assertTrue(related, "stopped early although a free node was left");
                    }
                }
            }
        }
    }

    @Test
    void singleDrawFollowsInverseSubtreeSize() {
        // With a tiny pi exactly one node is drawn: P(n) = w_n / sum w, w_n = 1/(|T_n|+1), with |T_n| counted in
        // nodes (nodes rule) or in samples (samples rule).
        Tree t = tree(3);
        List<Node> split = splitNodes(t);
        assertTrue(split.size() >= 4, "need a few split nodes");
        for (SelectionRule rule : SelectionRule.values()) {
            double[] w = new double[split.size()];
            double sum = 0;
            for (int i = 0; i < w.length; i++) {
                int size = rule == SelectionRule.NODES ? subtree(split.get(i)).size()
                        : Tree.subtreeSamples(split.get(i)).length;
                w[i] = 1.0 / (size + 1);
                sum += w[i];
            }
            UniformRandomProvider rng = RandomStreams.create(3);
            int trials = 40_000;
            int[] hits = new int[w.length];
            double pi = rule == SelectionRule.NODES ? 0.5 / split.size() : 1e-9;
            for (int r = 0; r < trials; r++) {
                List<Node> sel = NodeSelector.select(t, pi, rule, rng);
                assertEquals(1, sel.size());
                hits[split.indexOf(sel.get(0))]++;
            }
            for (int i = 0; i < w.length; i++) {
                double p = w[i] / sum;
                double sd = Math.sqrt(p * (1 - p) / trials);
                assertEquals(p, hits[i] / (double) trials, 5 * sd + 1e-9, rule + " node " + i);
            }
        }
    }
}
