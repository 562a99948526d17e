package fsil.methods.ncmforest;

/** How a learned forest takes in a chunk of new classes (paper Sec. 4). */
enum Strategy {
    /** Update leaf statistics: route the new samples to the leaves, change nothing else. */
    ULS,
    /** Incrementally grow trees: ULS, then grow every leaf that received samples. Split nodes never change. */
    IGT,
    /** Re-train subtrees: cut a random selection of subtrees to leaves, then grow as in IGT. */
    RTST,
    /** Re-use subtrees: reservoir-insert the new class centroid into selected split nodes, re-route, cut, grow. */
    RUST,
    /** Baseline: train a new forest from scratch on all the data seen so far. */
    RETRAIN
}
