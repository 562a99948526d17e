package fsil.core.nn;

/**
 * Mean softmax cross-entropy over a batch, {@code L = (1/n) sum_r [logsumexp(z_r) - z_r[y_r]]}, and its gradient
 * {@code dL/dz_r = (softmax(z_r) - onehot(y_r)) / n}. Computed stably (max subtracted before exponentiating).
 */
public final class SoftmaxCrossEntropy {

    private SoftmaxCrossEntropy() {
    }

    /**
     * @param logits   n x k, row-major
     * @param labels   class index in 0..k-1 per row, at {@code labels[labelIndex[r]]} when labelIndex is not null
     * @param gradient n x k output for dL/dlogits (may be null)
     * @return the mean loss
     */
    public static double lossAndGradient(double[] logits, int n, int k, int[] labels, int[] labelIndex,
                                         double[] gradient) {
        double total = 0;
        for (int r = 0; r < n; r++) {
            int off = r * k;
            int y = labelIndex == null ? labels[r] : labels[labelIndex[r]];
            if (y < 0 || y >= k) {
                throw new IllegalArgumentException("label " + y + " at row " + r + " is outside 0.." + (k - 1));
            }
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                max = Math.max(max, logits[off + j]);
            }
            double sum = 0;
            for (int j = 0; j < k; j++) {
                sum += Math.exp(logits[off + j] - max);
            }
            double lse = max + Math.log(sum);
            total += lse - logits[off + y];
            if (gradient != null) {
                for (int j = 0; j < k; j++) {
                    gradient[off + j] = Math.exp(logits[off + j] - lse) / n;
                }
                gradient[off + y] -= 1.0 / n;
            }
        }
        return total / n;
    }
}
