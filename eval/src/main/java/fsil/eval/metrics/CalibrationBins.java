package fsil.eval.metrics;

import java.util.Arrays;
import java.util.Locale;

/**
 * Reliability statistics over equal-width confidence bins (default 15, as in Snell & Zemel and DKT): a prediction
 * with max-probability confidence c falls into bin b when lower_b &lt; c &lt;= upper_b (c = 0 goes to bin 0).
 * Bins add up exactly, so ECE/MCE pooled over all queries of all episodes can be computed from per-unit bins.
 */
public final class CalibrationBins {
    public static final int DEFAULT_BINS = 15;

    private final long[] count;
    private final double[] confidenceSum;
    private final double[] correctSum;

    public CalibrationBins(int bins) {
        if (bins < 1) {
            throw new IllegalArgumentException("need at least one bin");
        }
        count = new long[bins];
        confidenceSum = new double[bins];
        correctSum = new double[bins];
    }

    public CalibrationBins() {
        this(DEFAULT_BINS);
    }

    public int bins() {
        return count.length;
    }

    /** Bin of a confidence in [0, 1]: (lower, upper], with 0 in the first bin. */
    public int binOf(double confidence) {
        int b = (int) Math.ceil(confidence * count.length) - 1;
        return Math.max(0, Math.min(count.length - 1, b));
    }

    public void add(double confidence, boolean correct) {
        int b = binOf(confidence);
        count[b]++;
        confidenceSum[b] += confidence;
        correctSum[b] += correct ? 1 : 0;
    }

    public void addAll(CalibrationBins other) {
        if (other.bins() != bins()) {
            throw new IllegalArgumentException("cannot merge " + other.bins() + " bins into " + bins());
        }
        for (int b = 0; b < count.length; b++) {
            count[b] += other.count[b];
            confidenceSum[b] += other.confidenceSum[b];
            correctSum[b] += other.correctSum[b];
        }
    }

    public long total() {
        return Arrays.stream(count).sum();
    }

    /** Expected calibration error: sum_b (n_b / N) |acc_b - conf_b| over non-empty bins; NaN if empty. */
    public double ece() {
        long n = total();
        if (n == 0) {
            return Double.NaN;
        }
        double e = 0;
        for (int b = 0; b < count.length; b++) {
            if (count[b] > 0) {
                e += Math.abs(correctSum[b] - confidenceSum[b]) / n;
            }
        }
        return e;
    }

    /** Maximum calibration error over non-empty bins; NaN if empty. */
    public double mce() {
        double m = Double.NaN;
        for (int b = 0; b < count.length; b++) {
            if (count[b] > 0) {
                double gap = Math.abs(correctSum[b] - confidenceSum[b]) / count[b];
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
        return count[bin] == 0 ? Double.NaN : confidenceSum[bin] / count[bin];
    }

    /** Accuracy in a bin (NaN if empty). */
    public double accuracy(int bin) {
        return count[bin] == 0 ? Double.NaN : correctSum[bin] / count[bin];
    }

    /**
     * Compact exact text for result rows: per bin "count:confidenceSum:correctCount" joined by '|', an empty bin
     * as "". The confidence sum is written as the hex of its IEEE bits (exact and much faster to format than
     * decimal); {@link #parse} reads it back bit for bit, and also accepts decimal numbers.
     */
    public String encode() {
        StringBuilder sb = new StringBuilder(count.length * 12);
        for (int b = 0; b < count.length; b++) {
            if (b > 0) {
                sb.append('|');
            }
            if (count[b] == 0 && confidenceSum[b] == 0 && correctSum[b] == 0) {
                continue;
            }
            sb.append(count[b]).append(':').append('x').append(Long.toHexString(Double.doubleToRawLongBits(confidenceSum[b])))
                    .append(':');
            if (correctSum[b] == Math.rint(correctSum[b]) && Math.abs(correctSum[b]) < 1e15) {
                sb.append((long) correctSum[b]);
            } else {
                sb.append(Double.toString(correctSum[b]));
            }
        }
        return sb.toString();
    }

    public static CalibrationBins parse(String text) {
        String[] parts = text.split("\\|", -1);
        CalibrationBins c = new CalibrationBins(parts.length);
        for (int b = 0; b < parts.length; b++) {
            if (parts[b].isEmpty()) {
                continue;
            }
            String[] f = parts[b].split(":");
            if (f.length != 3) {
                throw new IllegalArgumentException("malformed calibration bin '" + parts[b] + "'");
            }
            c.count[b] = Long.parseLong(f[0]);
            c.confidenceSum[b] = number(f[1]);
            c.correctSum[b] = number(f[2]);
        }
        return c;
    }

    private static double number(String s) {
        return s.startsWith("x") ? Double.longBitsToDouble(Long.parseUnsignedLong(s.substring(1), 16)) : Double.parseDouble(s);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "CalibrationBins[n=%d, ece=%.4f, mce=%.4f]", total(), ece(), mce());
    }
}
