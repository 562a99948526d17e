package fsil.methods.ncmforest;

/**
 * Size of the random class subset K^n of a split node as a function of m, the number of classes present at the
 * node (an absent class has no centroid); paper Fig. 3 compares sqrt, log and 0.2 m. Always at least 2 and at
 * most m.
 */
enum SubsetSizeRule {
    /** ceil(sqrt(m)) - the paper's choice. */
    SQRT,
    /** ceil(log2(m)). The paper writes "log |K|" without a base; we use base 2. */
    LOG,
    /** ceil(fraction * m), fraction = 0.2 in the paper's Fig. 3. */
    FRACTION;

    /** |K^n| for m classes at the node: the rule's value clamped to [2, m] (m itself when m &lt; 2). */
    int size(int m, double fraction) {
        if (m <= 2) {
            return m;
        }
        double raw = switch (this) {
            case SQRT -> Math.sqrt(m);
            case LOG -> Math.log(m) / Math.log(2);
            case FRACTION -> fraction * m;
        };
        // Guard against sqrt(k^2) landing a hair above k in floating point.
        int s = (int) Math.ceil(raw - 1e-9);
        return Math.min(m, Math.max(2, s));
    }
}
