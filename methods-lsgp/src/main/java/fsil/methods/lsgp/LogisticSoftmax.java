package fsil.methods.lsgp;

import fsil.core.math.Stable;

/**
 * The logistic-softmax likelihood with temperature (paper Eq. 3.1),
 * p(y = k | f) = sigma(f_k / tau) / sum_c sigma(f_c / tau), evaluated in log space: log sigma by
 * {@link Stable#logSigmoid} and the normaliser by log-sum-exp, so any finite f and tau &gt; 0 give finite
 * log-probabilities (no 0/0 when every sigma underflows, e.g. f = -1e4 at tau = 0.01).
 *
 * <p>Theorem 3.1 (tau -&gt; 0+: one-hot at the argmax when every f_c &lt; 0, uniform over the positive classes
 * otherwise) and Theorem 3.2 (LS(f - C', tau) -&gt; softmax(f / tau) as C' -&gt; +inf) are executable tests of this
 * class.
 */
public final class LogisticSoftmax {
    private LogisticSoftmax() {
    }

    /**
     * log p(y = k | f) for k = 0..C-1 of the logits {@code f[off .. off+C)}.
     *
     * @param out receives the C log-probabilities (length &gt;= C)
     */
    public static void logProbabilities(double[] f, int off, int numClasses, double tau, double[] out) {
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < numClasses; k++) {
            double l = Stable.logSigmoid(f[off + k] / tau);
            out[k] = l;
            if (l > max) {
                max = l;
            }
        }
        double s = 0;
        for (int k = 0; k < numClasses; k++) {
            s += Math.exp(out[k] - max);
        }
        double logS = Math.log(s);
        for (int k = 0; k < numClasses; k++) {
            // (l_k - max) first: for logits of -1e4/tau the log-sigmoids are huge and max + log s would round
            out[k] = (out[k] - max) - logS;
        }
    }

    /** The probabilities p(y = k | f) (a new array). */
    public static double[] probabilities(double[] f, double tau) {
        double[] out = new double[f.length];
        logProbabilities(f, 0, f.length, tau, out);
        for (int k = 0; k < out.length; k++) {
            out[k] = Math.exp(out[k]);
        }
        return out;
    }

    /** The softmax with temperature, exp(f_k / tau) / sum_c exp(f_c / tau) (the limit of Theorem 3.2). */
    public static double[] softmax(double[] f, double tau) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : f) {
            max = Math.max(max, v / tau);
        }
        double[] out = new double[f.length];
        double s = 0;
        for (int k = 0; k < f.length; k++) {
            out[k] = Math.exp(f[k] / tau - max);
            s += out[k];
        }
        for (int k = 0; k < f.length; k++) {
            out[k] /= s;
        }
        return out;
    }

    /**
     * Gradient of log p(y = label | f) with respect to f_c, given the log-probabilities of {@link #logProbabilities}:
     * (delta_{c,label} - p_c) sigma(-f_c / tau) / tau.
     */
    public static void gradientOfLogProbability(double[] f, int off, int numClasses, double tau, int label,
                                                double[] logProb, double[] out) {
        for (int c = 0; c < numClasses; c++) {
            double p = Math.exp(logProb[c]);
            out[c] = ((c == label ? 1.0 : 0.0) - p) * Stable.sigmoid(-f[off + c] / tau) / tau;
        }
    }
}
