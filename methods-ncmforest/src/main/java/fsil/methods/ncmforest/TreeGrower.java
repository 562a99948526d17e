package fsil.methods.ncmforest;

import java.util.ArrayDeque;

/**
 * Grows a leaf into a subtree: depth first, left child first, with an explicit stack (trees can
 * be deep). A node stays a leaf when it has fewer than {@link ForestConfig#minSplitSize()} samples, is pure, has
 * reached the optional maximum depth, or no candidate split is valid. Used for initial training, IGT growth, RTST
 * re-growth and RUST's final growth, so all strategies share one definition of "training a node".
 */
final class TreeGrower {
    private final SplitSearch search;

    TreeGrower(SplitSearch search) {
        this.search = search;
    }

    /** Grows {@code leaf} (a leaf of {@code tree} whose {@code samples} are set) in place. */
    void grow(Tree tree, Node leaf, TreeWork w) {
        ArrayDeque<Node> stack = new ArrayDeque<>();
        stack.push(leaf);
        boolean[] side = new boolean[0];
        int maxDepth = w.cfg.maxDepth();
        while (!stack.isEmpty()) {
            Node node = stack.pop();
            int[] idx = node.samples;
            ClassHistogram h = w.histogram(idx);
            SplitFunction f = null;
            if (idx.length >= w.cfg.minSplitSize() && h.size() >= 2 && (maxDepth == 0 || node.depth < maxDepth)) {
                if (side.length < idx.length) {
                    side = new boolean[idx.length];
                }
                w.nodesTrained++;
                f = search.find(idx, h, side, w);
            }
            if (f == null) {
                node.setCounts(h);
                continue;
            }
            int nr = 0;
            for (int i = 0; i < idx.length; i++) {
                nr += side[i] ? 1 : 0;
            }
            int[] l = new int[idx.length - nr];
            int[] r = new int[nr];
            int a = 0;
            int b = 0;
            for (int i = 0; i < idx.length; i++) {
                if (side[i]) {
                    r[b++] = idx[i];
                } else {
                    l[a++] = idx[i];
                }
            }
            Node left = tree.newNode(node.depth + 1, l);
            Node right = tree.newNode(node.depth + 1, r);
            node.becomeSplit(f, left, right);
            stack.push(right);
            stack.push(left);
        }
    }

    /** A tree trained from scratch on {@code samples} (sorted). */
    Tree train(int[] samples, TreeWork w) {
        Tree t = new Tree(samples);
        grow(t, t.root, w);
        return t;
    }
}
