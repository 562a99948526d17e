package fsil.methods.lsgp;

/**
 * Temperature scaling (Guo et al. 2017) of predicted class probabilities: p_cal = softmax(log p / T). T is fitted
 * by minimising the negative log-likelihood of labelled validation predictions; the NLL is convex in 1/T (a
 * log-sum-exp of a linear function), so a golden-section search over 1/T in [1/50, 50] finds the minimum.
 * T &gt; 1 softens over-confident predictions, T &lt; 1 sharpens under-confident ones; the argmax never changes.
 */
final class TemperatureScaling {
    static final double MIN_INVERSE = 1.0 / 50;
    static final double MAX_INVERSE = 50;
    /** Probabilities are floored here before the log, so a 0 from underflow stays finite. */
    private static final double FLOOR = 1e-300;

    private TemperatureScaling() {
    }

    /** In place: row {@code p[off .. off+C)} := softmax(log p / T). */
    static void apply(double[] p, int off, int numClasses, double temperature) {
        double beta = 1.0 / temperature;
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < numClasses; c++) {
            double l = beta * Math.log(Math.max(p[off + c], FLOOR));
            p[off + c] = l;
            max = Math.max(max, l);
        }
        double s = 0;
        for (int c = 0; c < numClasses; c++) {
            double e = Math.exp(p[off + c] - max);
            p[off + c] = e;
            s += e;
        }
        for (int c = 0; c < numClasses; c++) {
            p[off + c] /= s;
        }
    }

    /** Mean NLL of the labels under softmax(beta log p), rows of C probabilities. */
    static double nll(double[] probs, int[] labels, int numClasses, double beta) {
        double total = 0;
        for (int j = 0; j < labels.length; j++) {
            int off = j * numClasses;
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < numClasses; c++) {
                max = Math.max(max, beta * Math.log(Math.max(probs[off + c], FLOOR)));
            }
            double s = 0;
            for (int c = 0; c < numClasses; c++) {
                s += Math.exp(beta * Math.log(Math.max(probs[off + c], FLOOR)) - max);
            }
            total -= beta * Math.log(Math.max(probs[off + labels[j]], FLOOR)) - max - Math.log(s);
        }
        return total / labels.length;
    }

    /**
     * The temperature minimising the validation NLL.
     *
     * @param probs  row-major predictions (rows x C), each row a probability vector
     * @param labels the true column of each row
     */
    static double fit(double[] probs, int[] labels, int numClasses) {
        if (labels.length == 0) {
            return 1.0;
        }
        double lo = Math.log(MIN_INVERSE);
        double hi = Math.log(MAX_INVERSE);
        double phi = (Math.sqrt(5) - 1) / 2;
        double x1 = hi - phi * (hi - lo);
        double x2 = lo + phi * (hi - lo);
        double f1 = nll(probs, labels, numClasses, Math.exp(x1));
        double f2 = nll(probs, labels, numClasses, Math.exp(x2));
        for (int it = 0; it < 80 && hi - lo > 1e-7; it++) {
            if (f1 <= f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - phi * (hi - lo);
                f1 = nll(probs, labels, numClasses, Math.exp(x1));
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + phi * (hi - lo);
                f2 = nll(probs, labels, numClasses, Math.exp(x2));
            }
        }
        return 1.0 / Math.exp(0.5 * (lo + hi));
    }
}
