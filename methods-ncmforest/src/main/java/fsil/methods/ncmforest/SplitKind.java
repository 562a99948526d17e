package fsil.methods.ncmforest;

/** The family of split functions the tree code searches (pluggable, so both forests share every other line). */
enum SplitKind {
    /** Nearest class mean splits of the paper (Eq. 6). */
    NCM,
    /** Axis-aligned threshold splits: the conventional random forest baseline of the paper (Breiman). */
    AXIS
}
