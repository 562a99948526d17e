package fsil.methods.gptree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A node of the class tree: the sorted global class ids below it, two children (or none for a leaf, which holds
 * one class) and, for internal nodes, the binary GP deciding between the left (label 0) and right (label 1)
 * child. The likelihood of a class is the product of the branch probabilities on its root-to-leaf path (paper
 * Eq. 9).
 */
final class TreeNode {
    final int[] classes;
    TreeNode left;
    TreeNode right;
    NodeModel model;

    TreeNode(int[] classes) {
        this.classes = classes.clone();
    }

    static TreeNode internal(int[] classes, TreeNode left, TreeNode right) {
        TreeNode n = new TreeNode(classes);
        n.left = left;
        n.right = right;
        return n;
    }

    boolean isLeaf() {
        return left == null;
    }

    /** Whether class {@code c} goes to the right child (binary search in the right child's sorted classes). */
    boolean goesRight(int c) {
        return Arrays.binarySearch(right.classes, c) >= 0;
    }

    /** Internal nodes in breadth-first order (root first, then left before right). */
    List<TreeNode> internalNodes() {
        List<TreeNode> out = new ArrayList<>();
        List<TreeNode> queue = new ArrayList<>();
        queue.add(this);
        for (int i = 0; i < queue.size(); i++) {
            TreeNode n = queue.get(i);
            if (!n.isLeaf()) {
                out.add(n);
                queue.add(n.left);
                queue.add(n.right);
            }
        }
        return out;
    }

    /** Depth of the leaf of each class (root = 0 edges), in the order of {@link #classes}. */
    int[] leafDepths() {
        int[] out = new int[classes.length];
        fillDepths(this, 0, out);
        return out;
    }

    private void fillDepths(TreeNode n, int depth, int[] out) {
        if (n.isLeaf()) {
            out[Arrays.binarySearch(classes, n.classes[0])] = depth;
            return;
        }
        fillDepths(n.left, depth + 1, out);
        fillDepths(n.right, depth + 1, out);
    }

    /** The tree as nested brackets of class ids, e.g. {@code ((1 2) (3 (4 5)))}. */
    @Override
    public String toString() {
        return isLeaf() ? Integer.toString(classes[0]) : "(" + left + " " + right + ")";
    }
}
