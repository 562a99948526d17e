package fsil.methods.ncmforest;

/** The family of split functions the tree code searches (pluggable, so both forests share every other line). */
enum SplitKind {
    /** Nearest class mean splits of the paper (Eq. 6). */
    NCM("ncm"),
    /** Axis-aligned threshold splits: the conventional random forest baseline of the paper (Breiman). */
    AXIS("axis");

    final String word;

    SplitKind(String word) {
        this.word = word;
    }

    static SplitKind of(String word) {
        for (SplitKind s : values()) {
            if (s.word.equals(word)) {
                return s;
            }
        }
        throw new IllegalArgumentException(word);
    }
}
