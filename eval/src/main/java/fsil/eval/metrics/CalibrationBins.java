package fsil.eval.metrics;

import fsil.api.Prediction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reliability statistics over 15 equal-width confidence bins (as in Snell and Zemel and DKT): a prediction with
 * max-probability confidence c falls into bin b when lower_b &lt; c &lt;= upper_b (c = 0 goes to bin 0). Bins add
 * up, so ECE/MCE pooled over all queries of all tasks come from the bins of each unit. A bin's confidence sum is
 * kept as a double-double (TwoSum, error about 1e-32 relative), so the pooled ECE is the same whichever way the
 * predictions were grouped into units, engines or threads.
 */
public final class CalibrationBins {
    public static final int BINS = 15;

    private final long[] count = new long[BINS];
    private final double[] confidenceSum = new double[BINS];
    /** The rounding errors of {@link #confidenceSum}: the exact sum is confidenceSum + confidenceErr. */
    private final double[] confidenceErr = new double[BINS];
    private final double[] correctSum = new double[BINS];

    /** The bins of a prediction's max-probability confidences against the true labels. */
    public static CalibrationBins of(Prediction p, int[] truth) {
        CalibrationBins bins = new CalibrationBins();
        bins.add(p, truth);
        return bins;
    }

    /** Adds a prediction's max-probability confidences against the true labels. */
    public void add(Prediction p, int[] truth) {
        for (int i = 0; i < truth.length; i++) {
            int best = p.argmax(i);
            add(p.probability(i, best), p.classAt(best) == truth[i]);
        }
    }

    /** Bin of a confidence in [0, 1]: (lower, upper], with 0 in the first bin. */
    public static int binOf(double confidence) {
        int b = (int) Math.ceil(confidence * BINS) - 1;
        return Math.max(0, Math.min(BINS - 1, b));
    }

    public void add(double confidence, boolean correct) {
        int b = binOf(confidence);
        count[b]++;
        addConfidence(b, confidence, 0);
        correctSum[b] += correct ? 1 : 0;
    }

    public void addAll(CalibrationBins other) {
        for (int b = 0; b < BINS; b++) {
            count[b] += other.count[b];
            addConfidence(b, other.confidenceSum[b], other.confidenceErr[b]);
            correctSum[b] += other.correctSum[b];
        }
    }

    /** Adds hi + lo to bin b's double-double sum (Knuth's TwoSum). */
    private void addConfidence(int b, double hi, double lo) {
        double s = confidenceSum[b] + hi;
        double bv = s - confidenceSum[b];
        double err = (confidenceSum[b] - (s - bv)) + (hi - bv);
        confidenceSum[b] = s;
        confidenceErr[b] += err + lo;
    }

    /** A bin's confidence sum, rounded once. */
    private double confidence(int b) {
        return confidenceSum[b] + confidenceErr[b];
    }

    public long total() {
        long n = 0;
        for (long c : count) {
            n += c;
        }
        return n;
    }

    /** Expected calibration error: sum_b (n_b / N) |acc_b - conf_b| over non-empty bins; NaN if empty. */
    public double ece() {
        long n = total();
        if (n == 0) {
            return Double.NaN;
        }
        double e = 0;
        for (int b = 0; b < BINS; b++) {
            if (count[b] > 0) {
                e += Math.abs(correctSum[b] - confidence(b)) / n;
            }
        }
        return e;
    }

    /** Maximum calibration error over non-empty bins; NaN if empty. */
    public double mce() {
        double m = Double.NaN;
        for (int b = 0; b < BINS; b++) {
            if (count[b] > 0) {
                double gap = Math.abs(correctSum[b] - confidence(b)) / count[b];
                m = Double.isNaN(m) ? gap : Math.max(m, gap);
            }
        }
        return m;
    }

    public long count(int bin) {
        return count[bin];
    }

    /** Mean confidence in a bin (NaN if empty). */
    public double meanConfidence(int bin) {
        return count[bin] == 0 ? Double.NaN : confidence(bin) / count[bin];
    }

    /** Accuracy in a bin (NaN if empty). */
    public double accuracy(int bin) {
        return count[bin] == 0 ? Double.NaN : correctSum[bin] / count[bin];
    }

    /**
     * The non-empty bins as {"bin": [...], "n": [...], "confidence": [...], "confidence_err": [...], "correct": [...]}
     * (the confidence sum is confidence + confidence_err).
     */
    public Value toValue() {
        List<Integer> used = new ArrayList<>();
        for (int b = 0; b < BINS; b++) {
            if (count[b] > 0) {
                used.add(b);
            }
        }
        List<Value> bin = new ArrayList<>();
        List<Value> n = new ArrayList<>();
        List<Value> conf = new ArrayList<>();
        List<Value> err = new ArrayList<>();
        List<Value> correct = new ArrayList<>();
        for (int b : used) {
            bin.add(Value.of(b));
            n.add(Value.of(count[b]));
            conf.add(Value.of(confidenceSum[b]));
            err.add(Value.of(confidenceErr[b]));
            correct.add(Value.of((long) correctSum[b]));
        }
        return Value.object().put("bin", Value.array(bin)).put("n", Value.array(n)).put("confidence",
                Value.array(conf)).put("confidence_err", Value.array(err)).put("correct", Value.array(correct)).build();
    }

    /** Reads {@link #toValue()}. */
    public static CalibrationBins of(Value o) {
        CalibrationBins c = new CalibrationBins();
        Value bin = o.get("bin");
        for (int i = 0; i < bin.size(); i++) {
            int b = bin.get(i).asInt();
            if (b < 0 || b >= BINS) {
                throw new IllegalArgumentException("calibration bin " + b + " outside 0.." + (BINS - 1));
            }
            c.count[b] += o.get("n").get(i).asLong();
            c.addConfidence(b, o.get("confidence").get(i).asDouble(), o.get("confidence_err").get(i).asDouble());
            c.correctSum[b] += o.get("correct").get(i).asDouble();
        }
        return c;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "CalibrationBins[n=%d, ece=%.4f, mce=%.4f]", total(), ece(), mce());
    }
}
