package fsil.methods.ncmforest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Structural checks shared by the strategy tests. */
final class TreeChecks {
    private TreeChecks() {
    }

    /** A split node as it was: the node, its split object and its children. */
    record SplitSnapshot(Node node, SplitFunction split, Node left, Node right, String text) {
    }

    static List<SplitSnapshot> splits(Tree t) {
        List<SplitSnapshot> out = new ArrayList<>();
        for (Node n : t.preOrder()) {
            if (!n.isLeaf()) {
                out.add(new SplitSnapshot(n, n.split, n.left, n.right, n.split.toString()));
            }
        }
        return out;
    }

    /** Every snapshotted split node is still a split node with the same, unmodified split and the same children. */
    static void assertSplitsUnchanged(List<SplitSnapshot> before, Tree after) {
        java.util.Set<Node> reachable = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        reachable.addAll(after.preOrder());
        for (SplitSnapshot s : before) {
            assertTrue(reachable.contains(s.node()), "an existing split node was removed from the tree");
            assertFalse(s.node().isLeaf(), "an existing split node became a leaf");
            assertSame(s.split(), s.node().split, "an existing split function was replaced");
            assertEquals(s.text(), s.node().split.toString(), "an existing split function was modified");
            assertSame(s.left(), s.node().left);
            assertSame(s.right(), s.node().right);
        }
    }

    /**
     * Leaf lists and counts agree with routing every sample afresh from the root; without bagging every stored
     * sample is in exactly one leaf; with {@code minChild} > 0 every child of a split node holds that many.
     */
    static void assertLeavesConsistent(Tree t, SampleStore store, boolean everySampleOnce, int minChild) {
        float[] x = store.features();
        int d = store.dim();
        int[] seen = new int[store.size()];
        for (Node leaf : t.leaves()) {
            int[] sorted = leaf.samples.clone();
            Arrays.sort(sorted);
            assertArrayEquals(sorted, leaf.samples, "leaf sample lists are sorted");
            for (int s : leaf.samples) {
                assertSame(leaf, t.leafOf(x, s * d), "sample " + s + " is stored in a leaf it does not route to");
                seen[s]++;
            }
            ClassHistogram h = ClassHistogram.of(leaf.samples, leaf.samples.length, store.labels(), new int[64]);
            assertArrayEquals(h.classes(), leaf.classes, "leaf classes equal a fresh count");
            assertArrayEquals(h.counts(), leaf.counts, "leaf counts equal a fresh count");
            assertEquals(leaf.samples.length, leaf.total);
            if (leaf != t.root) {
                assertTrue(leaf.total >= minChild, "leaf with " + leaf.total + " samples is below mu = " + minChild);
            }
        }
        if (everySampleOnce) {
            for (int s = 0; s < seen.length; s++) {
                assertEquals(1, seen[s], "sample " + s + " must be in exactly one leaf");
            }
        }
    }
}
