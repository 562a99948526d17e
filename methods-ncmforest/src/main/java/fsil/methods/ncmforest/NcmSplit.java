package fsil.methods.ncmforest;

import fsil.core.linalg.Distances;

import java.util.Arrays;

/**
 * A nearest-class-mean split (paper Eq. 6): f(x) = e[k*(x)] with k*(x) the nearest of the node's centroids
 * c_k (Euclidean). Centroids are stored as float32 (spec A.6); ties go to the first centroid.
 */
final class NcmSplit implements SplitFunction {
    private final int[] classes;
    private final float[] centroids;
    private final boolean[] right;
    private final int dim;

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
