package fsil.methods.ncmforest;

/**
 * A tree node. A split node has a {@link SplitFunction} and two children; a leaf keeps its class counts and the
 * references (row indices in the {@link SampleStore}) of the training samples that reach it, sorted ascending
 * (repeated under bagging). IGT, RTST and RUST need those references (paper Sec. 4c).
 */
final class Node {
    /** Unique within its tree; never reused. */
    final int id;
    final int depth;
    SplitFunction split;
    Node left;
    Node right;
    /** Leaf only: sorted sample references. */
    int[] samples;
    /** Leaf only: internal class indices present, ascending, and their counts. */
    int[] classes;
    int[] counts;
    /** Leaf only: number of sample references (sum of counts). */
    int total;

    Node(int id, int depth, int[] samples) {
        this.id = id;
        this.depth = depth;
        this.samples = samples;
    }

    boolean isLeaf() {
        return split == null;
    }

    /** Sets the leaf statistics from a histogram of {@link #samples}. */
    void setCounts(ClassHistogram h) {
        classes = h.classes();
        counts = h.counts();
        total = h.total();
    }

    /** Turns a leaf into a split node with two fresh leaf children; the samples move to the children. */
    void becomeSplit(SplitFunction f, Node l, Node r) {
        split = f;
        left = l;
        right = r;
        samples = null;
        classes = null;
        counts = null;
        total = 0;
    }

    /** Turns this node into a leaf holding {@code sorted} (cutting off its subtree). */
    void becomeLeaf(int[] sorted) {
        split = null;
        left = null;
        right = null;
        samples = sorted;
    }
}
