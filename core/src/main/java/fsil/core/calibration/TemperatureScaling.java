package fsil.core.calibration;

/**
 * Post-hoc temperature scaling (Guo et al., ICML 2017) of class probabilities: p_cal = softmax(log p / T) with one
 * scalar T &gt; 0 fitted on labelled held-out predictions. When p = softmax(z) came from logits z this is exactly
 * softmax(z / T) (the per-row constant log-sum-exp cancels). T &gt; 1 softens over-confident predictions, T &lt; 1
 * sharpens under-confident ones.
 *
 * <p><b>Objective.</b> With L_ik = log max(p_ik, {@link #FLOOR}) and beta = 1 / T, the mean NLL
 * f(beta) = (1/n) sum_i [log sum_k exp(beta L_ik) - beta L_iy] is convex in beta (a log-sum-exp of linear functions
 * minus a linear one), with f'(beta) = mean_i (E_q[L_i] - L_iy) and f''(beta) = mean_i Var_q[L_i] &gt;= 0, where
 * q = softmax(beta L_i) ({@link #nllDerivatives}).
 *
 * <p><b>Optimiser.</b> Golden-section search over u = log beta in [log(1/50), log 50], i.e. T in [1/50, 50]; f is
 * unimodal in u because it is convex in beta and exp is increasing. The search stops when the bracket is at most
 * {@link #LOG_BETA_TOLERANCE} = 1e-7 wide (38 iterations, 40 NLL evaluations; at most {@link #MAX_ITERATIONS}) and
 * returns the midpoint, so the fitted T is within a relative 5e-8 of the minimiser (up to round-off in comparing NLL
 * values that agree to ~1e-16, which can only matter closer to the minimum than that). This is the algorithm, the
 * range and the arithmetic that methods-lsgp used before it moved here, so its fitted temperatures are unchanged bit
 * for bit.
 *
 * <p><b>Degenerate inputs.</b> No rows: T = 1, NLLs NaN. A flat objective, i.e. every row has all its floored
 * log-probabilities equal (C = 1, or uniform rows): every T gives the same NLL and T = 1 is returned (0 iterations).
 * Separable data, i.e. the label has the largest probability (ties allowed) in every row, e.g. all rows correct with
 * confidence 1 or a single correct row: f is non-increasing in beta, the maximum-likelihood T is 0, and the fit returns
 * T = 1/50 exactly (0 iterations, {@link TemperatureFit#atBound()} set) without searching, because in double
 * precision f becomes flat long before the bound and a search would stop anywhere on that plateau. Callers should treat
 * {@code atBound} as a warning (too few errors in the fitting data). The search can also end at an end of the range,
 * with {@code atBound} set, when the objective is monotone there, e.g. T = 50 when f'(1/50) &gt;= 0, roughly when
 * log p_y lies below its row's mean log p on average (a single row whose label is less likely than the row's
 * geometric-mean probability).
 *
 * <p><b>Argmax.</b> Every step of {@link #apply} (floor, log, times beta &gt; 0, minus the row max, exp, divide by
 * the row sum) is monotone, so the order of probabilities within a row is never reversed and the argmax is kept.
 * The only caveat is rounding: two probabilities a few ulps apart can round to the same value (e.g. below 1e-16
 * relative at T = 50), after which a first-maximum rule may pick the other of the two.
 */
public final class TemperatureScaling {
    /** Probabilities are floored here before the log, so a 0 from underflow stays finite (as {@link ScoringRules#NLL_FLOOR}). */
    public static final double FLOOR = ScoringRules.NLL_FLOOR;
    /** Smallest inverse temperature searched (T = 50). */
    public static final double MIN_INVERSE_TEMPERATURE = 1.0 / 50;
    /** Largest inverse temperature searched (T = 1/50). */
    public static final double MAX_INVERSE_TEMPERATURE = 50;
    /** Width in log(beta) at which the golden-section bracket stops. */
    public static final double LOG_BETA_TOLERANCE = 1e-7;
    /** Cap on golden-section iterations (38 reach the tolerance). */
    public static final int MAX_ITERATIONS = 80;

    private TemperatureScaling() {
    }

    /**
     * The temperature minimising the mean NLL of softmax(log p / T) on labelled predictions.
     *
     * @param probs      row-major n x C predictions, each row a probability vector (not modified; an entry that is
     *                   negative, NaN or infinite is rejected)
     * @param labels     the true column of each row
     * @param numClasses C
     */
    public static TemperatureFit fit(double[] probs, int[] labels, int numClasses) {
        Checks.matrix(probs, labels, numClasses);
        if (labels.length == 0) {
            return new TemperatureFit(1.0, 1.0, Double.NaN, Double.NaN, 0, false);
        }
        double[] logs = logs(probs);
        double before = nllOfLogs(logs, labels, numClasses, 1.0);
        if (flat(logs, labels.length, numClasses)) {
            return new TemperatureFit(1.0, 1.0, before, before, 0, false);
        }
        if (labelIsAMaximum(logs, labels, numClasses)) {
            // f' <= 0 for every beta: the infimum is at beta = infinity, so stop at the end of the range (a search
            // would wander off it where f is flat to the last bit, e.g. log(1 + 1e-300^beta) = 0 for beta > 0.054)
            double beta = MAX_INVERSE_TEMPERATURE;
            return new TemperatureFit(1.0 / beta, beta, before, nllOfLogs(logs, labels, numClasses, beta), 0, true);
        }
        double lo0 = Math.log(MIN_INVERSE_TEMPERATURE);
        double hi0 = Math.log(MAX_INVERSE_TEMPERATURE);
        double lo = lo0;
        double hi = hi0;
        double phi = (Math.sqrt(5) - 1) / 2;
        double x1 = hi - phi * (hi - lo);
        double x2 = lo + phi * (hi - lo);
        double f1 = nllOfLogs(logs, labels, numClasses, Math.exp(x1));
        double f2 = nllOfLogs(logs, labels, numClasses, Math.exp(x2));
        int it = 0;
        for (; it < MAX_ITERATIONS && hi - lo > LOG_BETA_TOLERANCE; it++) {
            if (f1 <= f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - phi * (hi - lo);
                f1 = nllOfLogs(logs, labels, numClasses, Math.exp(x1));
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + phi * (hi - lo);
                f2 = nllOfLogs(logs, labels, numClasses, Math.exp(x2));
            }
        }
        double beta = Math.exp(0.5 * (lo + hi));
        double after = nllOfLogs(logs, labels, numClasses, beta);
        return new TemperatureFit(1.0 / beta, beta, before, after, it, lo == lo0 || hi == hi0);
    }

    /** In place: every row of the row-major n x C matrix {@code probs} := softmax(log p / T). */
    public static void apply(double[] probs, int numClasses, double temperature) {
        if (numClasses < 1 || probs.length % numClasses != 0) {
            throw new IllegalArgumentException("probabilities length " + probs.length + " is not a multiple of "
                    + numClasses + " classes");
        }
        checkTemperature(temperature);
        for (int off = 0; off < probs.length; off += numClasses) {
            scaleRow(probs, off, numClasses, 1.0 / temperature);
        }
    }

    /** In place: the row {@code p[off .. off + C)} := softmax(log p / T). */
    public static void applyRow(double[] p, int off, int numClasses, double temperature) {
        checkTemperature(temperature);
        scaleRow(p, off, numClasses, 1.0 / temperature);
    }

    private static void checkTemperature(double temperature) {
        if (!(temperature > 0) || temperature == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("temperature must be positive and finite, got " + temperature);
        }
    }

    private static void scaleRow(double[] p, int off, int numClasses, double beta) {
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

    /**
     * Mean NLL of the labels under softmax(beta log p), the objective of {@link #fit} (NaN for no rows). For rows
     * that sum to 1 and beta = 1 this is the plain mean NLL of {@link ScoringRules}, up to rounding.
     */
    public static double nll(double[] probs, int[] labels, int numClasses, double beta) {
        Checks.matrix(probs, labels, numClasses);
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
     * {f(beta), f'(beta), f''(beta)} of the mean NLL {@link #nll} in closed form: f' = mean_i (E_q[L_i] - L_iy),
     * f'' = mean_i Var_q[L_i], with L_i the floored log-probabilities of row i and q = softmax(beta L_i).
     * By the chain rule dNLL/dT = -f' / T^2.
     */
    public static double[] nllDerivatives(double[] probs, int[] labels, int numClasses, double beta) {
        Checks.matrix(probs, labels, numClasses);
        double f = 0;
        double d1 = 0;
        double d2 = 0;
        double[] l = new double[numClasses];
        double[] w = new double[numClasses];
        for (int j = 0; j < labels.length; j++) {
            int off = j * numClasses;
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < numClasses; c++) {
                l[c] = Math.log(Math.max(probs[off + c], FLOOR));
                max = Math.max(max, beta * l[c]);
            }
            double s = 0;
            for (int c = 0; c < numClasses; c++) {
                w[c] = Math.exp(beta * l[c] - max);
                s += w[c];
            }
            double mean = 0;
            for (int c = 0; c < numClasses; c++) {
                w[c] /= s;
                mean += w[c] * l[c];
            }
            double var = 0;
            for (int c = 0; c < numClasses; c++) {
                double d = l[c] - mean;
                var += w[c] * d * d;
            }
            f += max + Math.log(s) - beta * l[labels[j]];
            d1 += mean - l[labels[j]];
            d2 += var;
        }
        int n = labels.length;
        return new double[]{f / n, d1 / n, d2 / n};
    }

    /** Floored logs of every entry; rejects entries that are not probabilities. */
    private static double[] logs(double[] probs) {
        double[] out = new double[probs.length];
        for (int i = 0; i < probs.length; i++) {
            if (!(probs[i] >= 0) || probs[i] == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("entry " + i + " is not a probability: " + probs[i]);
            }
            out[i] = Math.log(Math.max(probs[i], FLOOR));
        }
        return out;
    }

    /** {@link #nll} from precomputed floored logs (the same arithmetic, without recomputing the logs). */
    private static double nllOfLogs(double[] logs, int[] labels, int numClasses, double beta) {
        double total = 0;
        for (int j = 0; j < labels.length; j++) {
            int off = j * numClasses;
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < numClasses; c++) {
                max = Math.max(max, beta * logs[off + c]);
            }
            double s = 0;
            for (int c = 0; c < numClasses; c++) {
                s += Math.exp(beta * logs[off + c] - max);
            }
            total -= beta * logs[off + labels[j]] - max - Math.log(s);
        }
        return total / labels.length;
    }

    /** Whether the label's floored log-probability is the largest (ties allowed) in every row. */
    private static boolean labelIsAMaximum(double[] logs, int[] labels, int numClasses) {
        for (int j = 0; j < labels.length; j++) {
            int off = j * numClasses;
            double ly = logs[off + labels[j]];
            for (int c = 0; c < numClasses; c++) {
                if (logs[off + c] > ly) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether every row's floored log-probabilities are all equal, so the NLL does not depend on beta. */
    private static boolean flat(double[] logs, int rows, int numClasses) {
        for (int j = 0; j < rows; j++) {
            int off = j * numClasses;
            for (int c = 1; c < numClasses; c++) {
                if (logs[off + c] != logs[off]) {
                    return false;
                }
            }
        }
        return true;
    }
}
