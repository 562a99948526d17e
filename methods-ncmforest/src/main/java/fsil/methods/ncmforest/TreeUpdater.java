package fsil.methods.ncmforest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The incremental strategies that work with any split family (paper Sec. 4a-c): ULS, IGT and RTST.
 * RUST is in {@link RustUpdate}. Each method updates one tree in place.
 */
final class TreeUpdater {
    private final TreeGrower grower;

    TreeUpdater(TreeGrower grower) {
        this.grower = grower;
    }

    /**
     * ULS: routes the new sample references down the fixed tree and adds them to the leaves they reach.
     *
     * @param entries new sample references, ascending and larger than every reference already in the tree
     * @return the leaves that received samples, in depth-first order
     */
    List<Node> updateLeafStatistics(Tree tree, int[] entries, TreeWork w) {
        IntList[] pending = new IntList[tree.idBound()];
        int d = w.dim;
        for (int e : entries) {
            Node n = tree.root;
            while (!n.isLeaf()) {
                w.distanceEvals += n.split.comparisons();
                n = n.split.goesRight(w.x, e * d) ? n.right : n.left;
            }
            if (pending[n.id] == null) {
                pending[n.id] = new IntList();
            }
            pending[n.id].add(e);
        }
        List<Node> received = new ArrayList<>();
        for (Node leaf : tree.leaves()) {
            IntList p = pending[leaf.id];
            if (p != null) {
                int[] merged = Arrays.copyOf(leaf.samples, leaf.samples.length + p.size());
                System.arraycopy(p.toArray(), 0, merged, leaf.samples.length, p.size());
                if (leaf.samples.length > 0 && merged[leaf.samples.length - 1] > merged[leaf.samples.length]) {
                    Arrays.sort(merged);
                }
                leaf.samples = merged;
                leaf.setCounts(w.histogram(merged));
                received.add(leaf);
            }
        }
        return received;
    }

    /** IGT: ULS, then grow every leaf that received samples; existing split nodes are never changed. */
    void growTrees(Tree tree, int[] entries, TreeWork w) {
        for (Node leaf : updateLeafStatistics(tree, entries, w)) {
            grower.grow(tree, leaf, w);
        }
    }

    /**
     * RTST: ULS, select split nodes (on the tree holding old and new samples), cut the topmost selected ones to
     * leaves that collect their subtree's samples, then grow - in depth-first order - every cut leaf and every
     * leaf that received new samples.
     */
    void retrainSubtrees(Tree tree, int[] entries, TreeWork w) {
        List<Node> received = updateLeafStatistics(tree, entries, w);
        List<Node> selected = NodeSelector.select(tree, w.cfg.pi(), w.cfg.selection(), w.selectRng);
        w.nodesSelected += selected.size();
        retrainSubtrees(tree, received, selected, w);
    }

    /** RTST after ULS with a given selection (also used by tests to force the root into the selection). */
    void retrainSubtrees(Tree tree, List<Node> received, List<Node> selected, TreeWork w) {
        boolean[] grow = new boolean[tree.idBound()];
        for (Node n : received) {
            grow[n.id] = true;
        }
        boolean[] isSelected = new boolean[tree.idBound()];
        for (Node n : selected) {
            isSelected[n.id] = true;
        }
        // Pre-order visit that does not descend into cut subtrees: cuts exactly the topmost selected nodes.
        java.util.ArrayDeque<Node> stack = new java.util.ArrayDeque<>();
        stack.push(tree.root);
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            if (n.isLeaf()) {
                continue;
            }
            if (isSelected[n.id]) {
                n.becomeLeaf(Tree.subtreeSamples(n));
                n.setCounts(w.histogram(n.samples));
                grow[n.id] = true;
                w.nodesCut++;
                continue;
            }
            stack.push(n.right);
            stack.push(n.left);
        }
        for (Node leaf : tree.leaves()) {
            if (grow[leaf.id]) {
                grower.grow(tree, leaf, w);
            }
        }
    }
}
