package fsil.methods.ncmforest;

import fsil.core.linalg.Distances;

import java.util.Arrays;

/**
 * A nearest-class-mean split (paper Eq. 6): f(x) = e[k*(x)] with k*(x) the nearest of the node's centroids
 * c_k (Euclidean). Centroids are stored as float32 (memory); ties go to the first centroid. The distance is the
 * kernel {@link Distances#squared(float[], int, float[], int, int)} (float differences, squares summed in float64 in
 * a fixed order), and every decision is the one that kernel gives.
 *
 * <p>{@link #decide} makes the same decision from float sums of the squared differences (computed for a group of
 * queries by {@link NearestFilter}): {@link FloatDistanceBound} bounds how far each float sum can be from the
 * kernel's distance, so the nearest centroid is among those whose interval reaches below the smallest upper end.
 * When these candidates all lie on one side, that side is the answer; otherwise their kernel distances are
 * computed and the first smallest decides, as {@link #nearest} would.
 */
final class NcmSplit implements SplitFunction {
    private final int[] classes;
    private final float[] centroids;
    private final boolean[] right;
    private final int dim;
    private final FloatDistanceBound bound;

    /**
     * @param classes   internal class index of each centroid (K^n)
     * @param centroids row-major |K^n| x dim
     * @param right     direction e_k of each centroid (true = right)
     */
    NcmSplit(int[] classes, float[] centroids, boolean[] right, int dim) {
        if (classes.length != right.length || centroids.length != classes.length * dim) {
            throw new IllegalArgumentException("inconsistent NCM split arrays");
        }
        this.classes = classes;
        this.centroids = centroids;
        this.right = right;
        this.dim = dim;
        this.bound = new FloatDistanceBound(dim);
    }

    /** Position in K^n of the centroid nearest to the row at {@code off}. */
    int nearest(float[] x, int off) {
        int best = 0;
        double bestD = Double.POSITIVE_INFINITY;
        for (int k = 0; k < classes.length; k++) {
            double dist = Distances.squared(x, off, centroids, k * dim, dim);
            if (dist < bestD) {
                bestD = dist;
                best = k;
            }
        }
        return best;
    }

    @Override
    public boolean goesRight(float[] x, int off) {
        return right[nearest(x, off)];
    }

    /**
     * The side of the centroid nearest to the row at {@code off}, given float sums {@code s[k]} of its squared
     * float differences to every centroid, added in ascending feature order (see the class javadoc). Kernel
     * distances computed to resolve near ties are added to {@code exact[0]}.
     */
    boolean decide(float[] s, float[] x, int off, long[] exact) {
        int k = classes.length;
        if (!bound.usable()) {
            return right[nearest(x, off)];
        }
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < k; i++) {
            double v = s[i];
            if (!(v < Double.POSITIVE_INFINITY)) {   // the float sum overflowed
                return right[nearest(x, off)];
            }
            best = Math.min(best, v + bound.of(v));
        }
        int sides = 0;
        for (int i = 0; i < k; i++) {
            double v = s[i];
            if (v - bound.of(v) <= best) {
                sides |= right[i] ? 2 : 1;
            }
        }
        if (sides != 3) {
            return sides == 2;
        }
        // candidates on both sides: their kernel distances decide, the first smallest wins (as in nearest)
        int winner = -1;
        double bestD = Double.POSITIVE_INFINITY;
        for (int i = 0; i < k; i++) {
            double v = s[i];
            if (v - bound.of(v) <= best) {
                exact[0]++;
                double dist = Distances.squared(x, off, centroids, i * dim, dim);
                if (dist < bestD) {
                    bestD = dist;
                    winner = i;
                }
            }
        }
        return right[winner];
    }

    /** The centroids, row-major |K^n| x dim (the split's own array, not a copy: read only). */
    float[] centroidRows() {
        return centroids;
    }

    @Override
    public int comparisons() {
        return classes.length;
    }

    @Override
    public long memoryBytes() {
        return 4L * centroids.length + 4L * classes.length + right.length + 48;
    }

    int size() {
        return classes.length;
    }

    /** Class of centroid k (internal index). */
    int classAt(int k) {
        return classes[k];
    }

    boolean rightAt(int k) {
        return right[k];
    }

    int dim() {
        return dim;
    }

    /** Copies of the arrays, for building an updated split (RUST) and for tests. */
    int[] classes() {
        return classes.clone();
    }

    float[] centroids() {
        return centroids.clone();
    }

    boolean[] directions() {
        return right.clone();
    }

    @Override
    public String toString() {
        return "ncm" + Arrays.toString(classes) + Arrays.toString(right) + "#" + Arrays.hashCode(centroids);
    }
}
