package fsil.methods.gptree;

import fsil.core.cluster.KMeans;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.Arrays;

/**
 * Builds the class tree (paper §3.1; the authors' {@code build_tree} in {@code GP_Tree/tree.py}) by recursive binary
 * partitions of a node's classes until every leaf holds one class. Three partition rules:
 * <ul>
 *   <li>{@link Kind#KMEANS} (GP-Tree): class prototypes (the mean embedding of the class, then L2-normalised) are
 *   split by 2-means with k-means++ and restarts; nodes with two classes put the lower id left. If the prototypes
 *   of a node all coincide, k-means has no meaningful split (the authors' {@code build_tree} raises a KeyError
 *   there): the node falls back to the sorted halving used by {@link Kind#RANDOM} without the permutation.</li>
 *   <li>{@link Kind#RANDOM} (GP-Tree Rnd, pFedGP's RandomSplit): a random permutation of the node's classes, the
 *   first floor(|S|/2) go left.</li>
 *   <li>{@link Kind#STICK_BREAK} (SBM-GP, Linderman et al. 2015): a chain in label order; the node over
 *   c_k &lt; ... &lt; c_C sends c_k left and the rest right (Eq. 8).</li>
 * </ul>
 * Every node draws from its own stream, derived from the builder's seed and the node's class set, so the tree does
 * not depend on the order nodes are visited.
 */
final class TreeBuilder {
    enum Kind {
        KMEANS, RANDOM, STICK_BREAK
    }

    private final Kind kind;
    private final int restarts;
    private final long seed;

    TreeBuilder(Kind kind, int restarts, long seed) {
        this.kind = kind;
        this.restarts = restarts;
        this.seed = seed;
    }

    /**
     * @param classes    sorted, distinct class ids (at least one)
     * @param prototypes one row per class (same order), row-major |classes| x dim; used by {@link Kind#KMEANS}
     */
    TreeNode build(int[] classes, double[] prototypes, int dim) {
        int c = classes.length;
        double[] unit = prototypes.clone();
        for (int k = 0; k < c; k++) {
            double n = 0;
            for (int j = 0; j < dim; j++) {
                n += unit[k * dim + j] * unit[k * dim + j];
            }
            n = Math.sqrt(n);
            if (n > 0) {
                for (int j = 0; j < dim; j++) {
                    unit[k * dim + j] /= n;
                }
            }
        }
        int[] idx = new int[c];
        for (int k = 0; k < c; k++) {
            idx[k] = k;
        }
        return build(classes, unit, dim, idx);
    }

    private TreeNode build(int[] allClasses, double[] unit, int dim, int[] idx) {
        int[] cls = new int[idx.length];
        for (int k = 0; k < idx.length; k++) {
            cls[k] = allClasses[idx[k]];
        }
        if (idx.length == 1) {
            return new TreeNode(cls);
        }
        boolean[] right = split(cls, unit, dim, idx);
        int nr = 0;
        for (boolean r : right) {
            nr += r ? 1 : 0;
        }
        int[] li = new int[idx.length - nr];
        int[] ri = new int[nr];
        int a = 0;
        int b = 0;
        for (int k = 0; k < idx.length; k++) {
            if (right[k]) {
                ri[b++] = idx[k];
            } else {
                li[a++] = idx[k];
            }
        }
        return TreeNode.internal(cls, build(allClasses, unit, dim, li), build(allClasses, unit, dim, ri));
    }

    /** Right-membership of each class of the node (in the node's sorted order); both sides non-empty. */
    private boolean[] split(int[] cls, double[] unit, int dim, int[] idx) {
        int c = cls.length;
        boolean[] right = new boolean[c];
        if (kind == Kind.STICK_BREAK) {
            Arrays.fill(right, 1, c, true);
            return right;
        }
        if (c == 2) {
            right[1] = true;
            return right;
        }
        long nodeSeed = nodeSeed(seed, cls);
        if (kind == Kind.RANDOM) {
            int[] perm = RandomStreams.permutation(c, RandomStreams.create(nodeSeed));
            for (int k = c / 2; k < c; k++) {
                right[perm[k]] = true;
            }
            return right;
        }
        double[] pts = new double[c * dim];
        for (int k = 0; k < c; k++) {
            System.arraycopy(unit, idx[k] * dim, pts, k * dim, dim);
        }
        if (!allCoincide(pts, c, dim)) {
            KMeans.Result r = KMeans.of(2, restarts).fit(pts, c, dim, nodeSeed);
            if (r.nonEmpty() == 2) {
                for (int k = 0; k < c; k++) {
                    right[k] = r.labels()[k] == 1;
                }
                return right;
            }
        }
        // degenerate prototypes: sorted halving (lower ids left)
        Arrays.fill(right, c / 2, c, true);
        return right;
    }

    private static boolean allCoincide(double[] pts, int c, int dim) {
        for (int k = 1; k < c; k++) {
            for (int j = 0; j < dim; j++) {
                if (pts[k * dim + j] != pts[j]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A seed for the node over these classes: the same class set gives the same stream wherever it occurs. */
    static long nodeSeed(long seed, int[] classes) {
        long h = RandomStreams.derive(seed, classes.length);
        for (int c : classes) {
            h = RandomStreams.derive(h, c);
        }
        return h;
    }

    /** The tree built from per-class mean rows of the given data. */
    static double[] classMeans(double[] x, int[] labels, int[] classes, int dim) {
        double[] out = new double[classes.length * dim];
        int[] count = new int[classes.length];
        for (int i = 0; i < labels.length; i++) {
            int k = Arrays.binarySearch(classes, labels[i]);
            count[k]++;
            for (int j = 0; j < dim; j++) {
                out[k * dim + j] += x[i * dim + j];
            }
        }
        for (int k = 0; k < classes.length; k++) {
            for (int j = 0; j < dim; j++) {
                out[k * dim + j] /= count[k];
            }
        }
        return out;
    }
}
