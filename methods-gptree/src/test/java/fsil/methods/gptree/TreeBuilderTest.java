package fsil.methods.gptree;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TreeBuilderTest {

    /** c unit prototypes equally spaced on a circle (2-D), class ids 10, 11, ... */
    private static double[] circle(int c) {
        double[] p = new double[2 * c];
        for (int k = 0; k < c; k++) {
            p[2 * k] = Math.cos(2 * Math.PI * k / c + 0.1);
            p[2 * k + 1] = Math.sin(2 * Math.PI * k / c + 0.1);
        }
        return p;
    }

    private static int[] ids(int c) {
        int[] a = new int[c];
        for (int k = 0; k < c; k++) {
            a[k] = 10 + k;
        }
        return a;
    }

    @Test
    void kmeansTreeIsBalancedAndSemanticOnSymmetricPrototypes() {
        TreeNode t = new TreeBuilder(TreeBuilder.Kind.KMEANS, 20, 1).build(ids(8), circle(8), 2);
        assertArrayEquals(new int[]{3, 3, 3, 3, 3, 3, 3, 3}, t.leafDepths(), t.toString());
        // the root separates two contiguous half-circles (neighbours stay together)
        int[] left = t.left.classes;
        assertEquals(4, left.length);
        int gaps = 0;
        for (int k = 0; k < 8; k++) {
            boolean a = Arrays.binarySearch(left, 10 + k) >= 0;
            boolean b = Arrays.binarySearch(left, 10 + (k + 1) % 8) >= 0;
            gaps += a != b ? 1 : 0;
        }
        assertEquals(2, gaps, "the left child is one arc: " + t);
        assertEquals(7, t.internalNodes().size());
    }

    @Test
    void deterministicForASeedAndRandomTreesAreBalanced() {
        double[] p = circle(13);
        for (TreeBuilder.Kind kind : TreeBuilder.Kind.values()) {
            String a = new TreeBuilder(kind, 5, 42).build(ids(13), p, 2).toString();
            String b = new TreeBuilder(kind, 5, 42).build(ids(13), p, 2).toString();
            assertEquals(a, b, kind.toString());
        }
        TreeNode r1 = new TreeBuilder(TreeBuilder.Kind.RANDOM, 5, 1).build(ids(13), p, 2);
        TreeNode r2 = new TreeBuilder(TreeBuilder.Kind.RANDOM, 5, 2).build(ids(13), p, 2);
        assertNotEquals(r1.toString(), r2.toString());
        for (TreeNode r : new TreeNode[]{r1, r2}) {
            int max = Arrays.stream(r.leafDepths()).max().orElseThrow();
            int min = Arrays.stream(r.leafDepths()).min().orElseThrow();
            assertEquals(4, max, "ceil(log2 13)");
            assertEquals(3, min);
        }
    }

    @Test
    void nodeStreamsDependOnTheClassSetOnly() {
        // the random sub-tree over a node's classes equals the tree built directly over those classes
        TreeNode full = new TreeBuilder(TreeBuilder.Kind.RANDOM, 1, 7).build(ids(9), circle(9), 2);
        TreeNode sub = full.left;
        double[] protos = new double[2 * sub.classes.length];
        TreeNode direct = new TreeBuilder(TreeBuilder.Kind.RANDOM, 1, 7).build(sub.classes, protos, 2);
        assertEquals(sub.toString(), direct.toString());
    }

    @Test
    void stickBreakingIsAChainInLabelOrder() {
        TreeNode t = new TreeBuilder(TreeBuilder.Kind.STICK_BREAK, 1, 0).build(ids(5), circle(5), 2);
        assertEquals("(10 (11 (12 (13 14))))", t.toString());
        assertArrayEquals(new int[]{1, 2, 3, 4, 4}, t.leafDepths());
    }

    @Test
    void twoClassNodesPutTheLowerIdLeftAndDegeneratePrototypesDoNotCrash() {
        TreeNode two = new TreeBuilder(TreeBuilder.Kind.KMEANS, 3, 0).build(new int[]{4, 9}, new double[]{0, 1, 1, 0}, 2);
        assertEquals("(4 9)", two.toString());
        // five identical prototypes (the authors' build_tree raises a KeyError): sorted halving
        double[] same = new double[10];
        Arrays.fill(same, 0.3);
        TreeNode t = new TreeBuilder(TreeBuilder.Kind.KMEANS, 3, 0).build(ids(5), same, 2);
        assertEquals("((10 11) (12 (13 14)))", t.toString());
        // two groups of coinciding prototypes: the groups are separated
        double[] groups = {1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1};
        TreeNode g = new TreeBuilder(TreeBuilder.Kind.KMEANS, 3, 0).build(ids(6), groups, 2);
        assertTrue(Arrays.equals(g.left.classes, new int[]{10, 11, 12}) || Arrays.equals(g.right.classes, new int[]{10, 11, 12}),
                g.toString());
        // zero prototypes (no direction) are accepted too
        TreeNode z = new TreeBuilder(TreeBuilder.Kind.KMEANS, 3, 0).build(ids(3), new double[6], 2);
        assertEquals(2, z.internalNodes().size());
    }
}
