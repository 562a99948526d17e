package fsil.methods.ncmforest;

/**
 * How RTST (and RUST) pick the split nodes to re-train or update, with p(n) proportional to 1/(|T_n| + 1)
 * (paper Eq. 7) and the fraction pi (module README, Decision 4). Both draw without replacement from the split nodes.
 */
enum SelectionRule {
    /**
     * The samples reading: |T_n| = number of training samples in the subtree of n; a selected node
     * removes its ancestors and descendants from the pool (selections do not nest); drawing stops once the
     * selected subtrees hold a fraction pi of the tree's samples or the pool is empty. With this reading pi = 1
     * does not in general re-train the whole tree.
     */
    SAMPLES,
    /**
     * The literal reading of "a fraction pi of the subtrees": |T_n| = number of nodes in the subtree of n;
     * ceil(pi * #split nodes) nodes are drawn (nesting allowed). pi = 1 selects the root, i.e. re-trains the whole
     * tree, as the paper states for RTST.
     */
    NODES
}
