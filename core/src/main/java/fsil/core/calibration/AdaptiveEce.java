package fsil.core.calibration;

/**
 * Expected calibration error over adaptive (equal-mass) bins, as in Nixon et al. (2019, "Measuring calibration in
 * deep learning"): every bin holds (as nearly as possible) the same number of predictions instead of the same width
 * of confidence.
 *
 * <p>Exact definition, the same as this numpy reference (the one {@code core/src/test/python/calibration_fixtures.py}
 * implements):
 * <pre>
 *   conf  = p.max(1);  correct = p.argmax(1) == y
 *   order = np.argsort(conf, kind="stable")
 *   ece   = sum(len(b) / n * abs(correct[b].mean() - conf[b].mean()) for b in np.array_split(order, B) if len(b))
 * </pre>
 * <ul>
 *   <li>confidence is the maximum probability of a row; the predicted class is its first maximum (the smallest
 *       column, as {@code np.argmax} and {@code fsil.api.Prediction#labels()}), correct when it is the label;</li>
 *   <li>rows are sorted by confidence ascending; equal confidences keep row-index order (a stable sort), so a run of
 *       ties that straddles a bin boundary is split by row index;</li>
 *   <li>the sorted rows are cut into B consecutive bins; with n = qB + r (0 &lt;= r &lt; B) the first r bins (the
 *       lowest confidences) hold q + 1 rows and the other B - r hold q ({@code np.array_split});</li>
 *   <li>when n &lt; B the last B - n bins are empty and are left out of the sum (the weights n_b / n of the others
 *       still add up to 1); with n = 0 the ECE is NaN.</li>
 * </ul>
 * A NaN confidence is rejected. Unlike the equal-width {@code fsil.eval.metrics.CalibrationBins}, adaptive bins of
 * different batches cannot be merged by adding counts: compute them over the pooled predictions.
 */
public final class AdaptiveEce {
    private final long total;
    private final int[] count;
    private final double[] meanConfidence;
    private final double[] accuracy;
    private final double ece;

    private AdaptiveEce(long total, int[] count, double[] meanConfidence, double[] accuracy, double ece) {
        this.total = total;
        this.count = count;
        this.meanConfidence = meanConfidence;
        this.accuracy = accuracy;
        this.ece = ece;
    }

    /** Adaptive bins of a row-major n x C probability matrix with the true column of each row. */
    public static AdaptiveEce of(double[] probs, int[] labels, int numClasses, int bins) {
        Checks.matrix(probs, labels, numClasses);
        int n = labels.length;
        double[] confidence = new double[n];
        boolean[] correct = new boolean[n];
        for (int i = 0; i < n; i++) {
            int off = i * numClasses;
            int best = 0;
            double bestP = probs[off];
            for (int k = 1; k < numClasses; k++) {
                if (probs[off + k] > bestP) {
                    bestP = probs[off + k];
                    best = k;
                }
            }
            confidence[i] = bestP;
            correct[i] = best == labels[i];
        }
        return of(confidence, correct, bins);
    }

    /** Adaptive bins of per-row confidences and correctness flags (the arrays are not modified). */
    public static AdaptiveEce of(double[] confidence, boolean[] correct, int bins) {
        if (bins < 1) {
            throw new IllegalArgumentException("need at least one bin, got " + bins);
        }
        if (confidence.length != correct.length) {
            throw new IllegalArgumentException(confidence.length + " confidences but " + correct.length + " flags");
        }
        int n = confidence.length;
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(confidence[i])) {
                throw new IllegalArgumentException("confidence of row " + i + " is NaN");
            }
        }
        int[] order = stableOrder(confidence);
        int[] count = new int[bins];
        double[] meanConfidence = new double[bins];
        double[] accuracy = new double[bins];
        int q = n / bins;
        int r = n % bins;
        double ece = n == 0 ? Double.NaN : 0;
        int start = 0;
        for (int b = 0; b < bins; b++) {
            int size = b < r ? q + 1 : q;
            count[b] = size;
            if (size == 0) {
                meanConfidence[b] = Double.NaN;
                accuracy[b] = Double.NaN;
                continue;
            }
            double confSum = 0;
            int hits = 0;
            for (int j = start; j < start + size; j++) {
                confSum += confidence[order[j]];
                hits += correct[order[j]] ? 1 : 0;
            }
            meanConfidence[b] = confSum / size;
            accuracy[b] = (double) hits / size;
            ece += (double) size / n * Math.abs(accuracy[b] - meanConfidence[b]);
            start += size;
        }
        return new AdaptiveEce(n, count, meanConfidence, accuracy, ece);
    }

    /** The adaptive ECE of a probability matrix: {@code of(probs, labels, numClasses, bins).ece()}. */
    public static double ece(double[] probs, int[] labels, int numClasses, int bins) {
        return of(probs, labels, numClasses, bins).ece();
    }

    /** The adaptive ECE of confidences and correctness flags. */
    public static double ece(double[] confidence, boolean[] correct, int bins) {
        return of(confidence, correct, bins).ece();
    }

    /** Row indices sorted by key ascending, equal keys in index order (bottom-up merge sort, stable). */
    static int[] stableOrder(double[] key) {
        int n = key.length;
        int[] src = new int[n];
        for (int i = 0; i < n; i++) {
            src[i] = i;
        }
        int[] dst = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                for (int k = lo; k < hi; k++) {
                    // the right run wins only when strictly smaller, so equal keys keep their order
                    if (i < mid && (j >= hi || !(key[src[j]] < key[src[i]]))) {
                        dst[k] = src[i++];
                    } else {
                        dst[k] = src[j++];
                    }
                }
            }
            int[] t = src;
            src = dst;
            dst = t;
        }
        return src;
    }

    public int bins() {
        return count.length;
    }

    /** Number of rows binned. */
    public long total() {
        return total;
    }

    /** Rows in bin {@code b} (bins are ordered by confidence, lowest first). */
    public int count(int b) {
        return count[b];
    }

    /** Mean confidence of bin {@code b}, NaN if it is empty. */
    public double meanConfidence(int b) {
        return meanConfidence[b];
    }

    /** Accuracy of bin {@code b}, NaN if it is empty. */
    public double accuracy(int b) {
        return accuracy[b];
    }

    /** sum_b (n_b / n) |acc_b - conf_b| over non-empty bins; NaN when there are no rows. */
    public double ece() {
        return ece;
    }
}
