package fsil.methods.ncmforest;

import org.apache.commons.rng.UniformRandomProvider;

import java.util.Arrays;

/**
 * How RUST decides whether a new class enters the class subset K^n of a split node (paper Sec. 4d: "reservoir
 * sampling [Vitter] to decide if the centroid is ignored, added or replaces an element"; module README, Decision 3).
 *
 * <p>In every policy m is the size of the class pool K^n was drawn from before the update (the classes present
 * at the node, not all classes seen) and s = |K^n|.
 */
enum ReservoirPolicy {
    /**
     * Literal reading: insert the new class with probability s/(m+1), never evict. Each inserted class is then
     * included with the same probability, but the expected |K^n| grows linearly with the number of classes,
     * E[s'] = s (m+2)/(m+1), not with its square root.
     */
    ADD_ONLY,
    /**
     * Vitter's Algorithm R with a fixed reservoir size: insert with probability s/(m+1) and, if inserted, evict a
     * uniformly chosen member. K^n stays a uniform s-subset of the pool.
     */
    ALGORITHM_R,
    /**
     * Keeps K^n a uniform subset of the size the subset rule gives for the grown pool, s' = size(m+1): insert
     * with probability s'/(m+1); if inserted and the set is now too large, evict a uniformly chosen old member;
     * if not inserted and the set is too small, add a uniformly chosen absent class of the pool.
     */
    EXACT_UNIFORM;

    /**
     * One reservoir step.
     *
     * @param members    the current K^n (class indices); not modified
     * @param m          size of the pool before the update (at least 1)
     * @param newClass   the arriving class
     * @param absent     pool classes not in {@code members} (only EXACT_UNIFORM uses it, to grow the set)
     * @param targetSize |K^n| the subset rule gives for the grown pool of m+1 classes (EXACT_UNIFORM only)
     * @param rng        randomness
     * @return the new K^n: the kept members in their order, then any added classes
     */
    int[] insert(int[] members, int m, int newClass, int[] absent, int targetSize, UniformRandomProvider rng) {
        int s = members.length;
        switch (this) {
            case ADD_ONLY -> {
                if (rng.nextDouble() * (m + 1) < s) {
                    return append(members, newClass);
                }
                return members;
            }
            case ALGORITHM_R -> {
                if (rng.nextDouble() * (m + 1) < s) {
                    int evict = rng.nextInt(s);
                    return append(remove(members, evict), newClass);
                }
                return members;
            }
            case EXACT_UNIFORM -> {
                boolean include = rng.nextDouble() * (m + 1) < targetSize;
                int[] cur = members;
                while (cur.length > (include ? targetSize - 1 : targetSize)) {
                    cur = remove(cur, rng.nextInt(cur.length));
                }
                if (include) {
                    return append(cur, newClass);
                }
                if (cur.length < targetSize && absent.length > 0) {
                    int[] pool = absent.clone();
                    int free = pool.length;
                    while (cur.length < targetSize && free > 0) {
                        int j = rng.nextInt(free);
                        cur = append(cur, pool[j]);
                        pool[j] = pool[--free];
                    }
                }
                return cur;
            }
            default -> throw new AssertionError(this);
        }
    }

    private static int[] append(int[] a, int v) {
        int[] out = Arrays.copyOf(a, a.length + 1);
        out[a.length] = v;
        return out;
    }

    private static int[] remove(int[] a, int index) {
        int[] out = new int[a.length - 1];
        System.arraycopy(a, 0, out, 0, index);
        System.arraycopy(a, index + 1, out, index, a.length - index - 1);
        return out;
    }
}
