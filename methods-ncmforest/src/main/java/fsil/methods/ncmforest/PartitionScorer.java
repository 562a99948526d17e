package fsil.methods.ncmforest;

/**
 * Scores left/right assignments of a node's centroids by information gain without touching the samples again.
 * Built once from each sample's nearest-centroid index: the count table M[k, c] = number of
 * samples whose nearest centroid is k and whose class is c. The left histogram of an assignment e is the sum of
 * the rows with e_k = left, so one candidate costs O(nonzeros of those rows) instead of O(|S^n| |K^n| d).
 */
final class PartitionScorer {
    private final int s;
    private final int n;
    private final int[] rowStart;
    private final int[] rowClass;
    private final int[] rowCount;
    private final int[] rowTotal;
    private final int[] total;
    private final double sAll;
    private final int[] left;
    private final int[] touched;
    private final Entropy entropy;
    private final int minChild;

    /**
     * @param s        number of centroids
     * @param nearest  nearest-centroid position of each sample, in [0, s)
     * @param samples  sample references (same order as {@code nearest})
     * @param n        number of samples
     * @param labels   internal class of every stored sample
     * @param hist     histogram of the samples
     * @param scratch  an all-zero class-indexed array; left all-zero on return
     */
    PartitionScorer(int s, int[] nearest, int[] samples, int n, int[] labels, ClassHistogram hist, int[] scratch,
                    Entropy entropy, int minChild) {
        this.s = s;
        this.n = n;
        this.entropy = entropy;
        this.minChild = minChild;
        int m = hist.size();
        int[] cls = hist.classes();
        for (int c = 0; c < m; c++) {
            scratch[cls[c]] = c + 1;
        }
        int[] dense = new int[s * m];
        rowTotal = new int[s];
        for (int i = 0; i < n; i++) {
            int k = nearest[i];
            dense[k * m + scratch[labels[samples[i]]] - 1]++;
            rowTotal[k]++;
        }
        for (int c = 0; c < m; c++) {
            scratch[cls[c]] = 0;
        }
        rowStart = new int[s + 1];
        int nnz = 0;
        for (int v : dense) {
            nnz += v != 0 ? 1 : 0;
        }
        rowClass = new int[nnz];
        rowCount = new int[nnz];
        int p = 0;
        for (int k = 0; k < s; k++) {
            rowStart[k] = p;
            for (int c = 0; c < m; c++) {
                int v = dense[k * m + c];
                if (v != 0) {
                    rowClass[p] = c;
                    rowCount[p] = v;
                    p++;
                }
            }
        }
        rowStart[s] = p;
        total = hist.counts();
        double sa = 0;
        for (int c = 0; c < m; c++) {
            sa += entropy.nlogn(total[c]);
        }
        sAll = sa;
        left = new int[m];
        touched = new int[m];
    }

    /** Number of samples that would go left under {@code right}. */
    int leftSize(boolean[] right) {
        int nl = 0;
        for (int k = 0; k < s; k++) {
            if (!right[k]) {
                nl += rowTotal[k];
            }
        }
        return nl;
    }

    /**
     * Information gain of sending centroid k right when {@code right[k]}; negative infinity when a child would
     * hold fewer than minChild samples (an invalid candidate).
     */
    double score(boolean[] right) {
        int nl = leftSize(right);
        if (nl < minChild || n - nl < minChild) {
            return Double.NEGATIVE_INFINITY;
        }
        int t = 0;
        for (int k = 0; k < s; k++) {
            if (!right[k]) {
                for (int j = rowStart[k]; j < rowStart[k + 1]; j++) {
                    int c = rowClass[j];
                    if (left[c] == 0) {
                        touched[t++] = c;
                    }
                    left[c] += rowCount[j];
                }
            }
        }
        double sl = 0;
        double srDelta = 0;
        for (int i = 0; i < t; i++) {
            int c = touched[i];
            int l = left[c];
            sl += entropy.nlogn(l);
            srDelta += entropy.nlogn(total[c] - l) - entropy.nlogn(total[c]);
            left[c] = 0;
        }
        return entropy.gain(n, sAll, nl, sl, sAll + srDelta);
    }
}
