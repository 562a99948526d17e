package fsil.methods.ncmforest;

import java.util.ArrayDeque;

/**
 * Routes a group of queries through one tree together: a split node decides for all the queries that reach it,
 * which are then partitioned (stably) between its children. At an NCM node with at least
 * {@link NearestFilter#MIN_GROUP} queries the float distances come from the {@link NearestFilter} (vectorized over
 * the queries) and {@link NcmSplit#decide} turns them into the decision the exact distances make; smaller groups use
 * the split's own rule (the exact distances) one query at a time. Either way every query reaches the leaf that
 * {@link Tree#leafOf} gives it (tested for every sample and tree). A node's centroids are read once per group rather
 * than once per query.
 */
final class BatchRouter {
    private final float[] x;
    private final int d;
    /**
     * The filter's transposed copy of a group holds at most this many floats (512 KB, so it stays in the L2 cache with
     * the node's centroids); larger groups go in parts. NcmForestTestTimeBench at d = 1,000: 2^17 floats (131
     * queries) was faster than 2^15, 2^16, 2^18 and 2^22.
     */
    private static final int FILTER_FLOATS = 1 << 17;

    private final NearestFilter filter;
    /** Queries the filter takes at once. */
    final int filterGroup;
    private final boolean[] right;
    private final int[] scratch;
    /** Centroid (or feature) comparisons of the queries routed so far, the paper's test-cost unit. */
    long comparisons;
    /** Sum of the depths of the leaves reached. */
    long depths;

    private record Part(Node node, int lo, int hi) {
    }

    /**
     * @param x        row-major queries with {@code d} columns
     * @param capacity the largest group that will be routed
     */
    BatchRouter(float[] x, int d, int capacity) {
        this.x = x;
        this.d = d;
        int fits = Math.max(NearestFilter.MIN_GROUP, FILTER_FLOATS / Math.max(1, d));
        this.filterGroup = Math.max(1, Math.min(capacity, fits));
        this.filter = new NearestFilter(d, filterGroup);
        this.right = new boolean[capacity];
        this.scratch = new int[capacity];
    }

    /**
     * The leaf of every query row listed in {@code rows[0..count)}: {@code leaves[i]} for the query {@code rows[i]}
     * ({@code rows} is not modified).
     */
    void route(Node root, int[] rows, int count, Node[] leaves) {
        int[] at = new int[count];
        for (int i = 0; i < count; i++) {
            at[i] = i;
        }
        int[] order = rows.clone();
        ArrayDeque<Part> stack = new ArrayDeque<>();
        stack.push(new Part(root, 0, count));
        while (!stack.isEmpty()) {
            Part p = stack.pop();
            Node n = p.node();
            int lo = p.lo();
            int hi = p.hi();
            if (lo == hi) {
                continue;
            }
            if (n.isLeaf()) {
                for (int i = lo; i < hi; i++) {
                    leaves[at[i]] = n;
                }
                depths += (long) n.depth * (hi - lo);
                continue;
            }
            comparisons += (long) (hi - lo) * n.split.comparisons();
            if (n.split instanceof NcmSplit s) {
                if (hi - lo >= NearestFilter.MIN_GROUP) {
                    for (int from = lo; from < hi; from += filterGroup) {
                        filter.goesRight(s, x, order, from, Math.min(hi, from + filterGroup), right);
                    }
                } else {
                    for (int i = lo; i < hi; i++) {
                        right[i] = s.goesRight(x, order[i] * d);
                    }
                }
            } else {
                for (int i = lo; i < hi; i++) {
                    right[i] = n.split.goesRight(x, order[i] * d);
                }
            }
            int mid = partition(order, at, lo, hi);
            stack.push(new Part(n.right, mid, hi));
            stack.push(new Part(n.left, lo, mid));
        }
    }

    /** Stable partition of [lo, hi) of both arrays by {@link #right}: left first; returns where the right part starts. */
    private int partition(int[] order, int[] at, int lo, int hi) {
        int mid = partitionOne(order, lo, hi);
        partitionOne(at, lo, hi);
        return mid;
    }

    private int partitionOne(int[] a, int lo, int hi) {
        int k = 0;
        for (int i = lo; i < hi; i++) {
            if (!right[i]) {
                scratch[k++] = a[i];
            }
        }
        int mid = lo + k;
        for (int i = lo; i < hi; i++) {
            if (right[i]) {
                scratch[k++] = a[i];
            }
        }
        System.arraycopy(scratch, 0, a, lo, hi - lo);
        return mid;
    }

    /** Exact distance evaluations the float filters needed to resolve near ties. */
    long exactDistances() {
        return filter.exact[0];
    }
}
