package fsil.methods.ncmforest;

/** Finds the best split of a node's samples within one family of split functions (NCM or axis-aligned). */
interface SplitSearch {

    /**
     * Trains a split for the node holding {@code samples}.
     *
     * @param samples   the node's sample references (sorted)
     * @param hist      their class histogram (at least two classes)
     * @param rightSide filled with the side of each sample (true = right) when a split is returned; length at
     *                  least {@code samples.length}
     * @param w         the tree's work context (randomness, scratch, counters)
     * @return the split with the highest information gain among the valid candidates (both children hold at
     *         least {@link ForestConfig#minChild()} samples), or null when no candidate is valid
     */
    SplitFunction find(int[] samples, ClassHistogram hist, boolean[] rightSide, TreeWork w);

    static SplitSearch of(SplitKind kind) {
        return kind == SplitKind.NCM ? new NcmSplitSearch() : new AxisSplitSearch();
    }
}
