package fsil.eval.metrics;

import fsil.core.text.AsciiBuffer;

import java.util.Arrays;
import java.util.Locale;

/**
 * Reliability statistics over equal-width confidence bins (default 15, as in Snell & Zemel and DKT): a prediction
 * with max-probability confidence c falls into bin b when lower_b &lt; c &lt;= upper_b (c = 0 goes to bin 0).
 * Bins add up exactly, so ECE/MCE pooled over all queries of all episodes can be computed from per-unit bins.
 */
public final class CalibrationBins {
    public static final int DEFAULT_BINS = 15;

    private final int bins;
    // The statistics of bins lo .. lo + count.length - 1; every bin outside that range is empty. A new instance
    // holds all bins; compact() copies hold only the non-empty range, so that the per-unit bins a run keeps in
    // memory for its summaries cost a few dozen bytes instead of three full arrays.
    private int lo;
    private long[] count;
    private double[] confidenceSum;
    private double[] correctSum;

    public CalibrationBins(int bins) {
        if (bins < 1) {
            throw new IllegalArgumentException("need at least one bin");
        }
        this.bins = bins;
        count = new long[bins];
        confidenceSum = new double[bins];
        correctSum = new double[bins];
    }

    public CalibrationBins() {
        this(DEFAULT_BINS);
    }

    /**
     * Empty bins that hold exactly the range of bins from {@code minConfidence}'s to {@code maxConfidence}'s: when a
     * unit knows the range of its confidences before adding them, its bins come out as {@link #compact()} would
     * make them, without the full-width arrays and the copy (one set of bins is made per evaluated unit).
     */
    public static CalibrationBins covering(double minConfidence, double maxConfidence) {
        int first = binOf(minConfidence, DEFAULT_BINS);
        int n = Math.max(0, binOf(maxConfidence, DEFAULT_BINS) - first + 1);
        return new CalibrationBins(DEFAULT_BINS, first, new long[n], new double[n], new double[n]);
    }

    private CalibrationBins(int bins, int lo, long[] count, double[] confidenceSum, double[] correctSum) {
        this.bins = bins;
        this.lo = lo;
        this.count = count;
        this.confidenceSum = confidenceSum;
        this.correctSum = correctSum;
    }

    public int bins() {
        return bins;
    }

    /** Bin of a confidence in [0, 1]: (lower, upper], with 0 in the first bin. */
    public int binOf(double confidence) {
        return binOf(confidence, bins);
    }

    private static int binOf(double confidence, int bins) {
        int b = (int) Math.ceil(confidence * bins) - 1;
        return Math.max(0, Math.min(bins - 1, b));
    }

    public void add(double confidence, boolean correct) {
        int i = slot(binOf(confidence));
        count[i]++;
        confidenceSum[i] += confidence;
        correctSum[i] += correct ? 1 : 0;
    }

    public void addAll(CalibrationBins other) {
        if (other.bins != bins) {
            throw new IllegalArgumentException("cannot merge " + other.bins + " bins into " + bins);
        }
        for (int j = 0; j < other.count.length; j++) {
            if (other.count[j] != 0 || other.confidenceSum[j] != 0 || other.correctSum[j] != 0) {
                int i = slot(other.lo + j);
                count[i] += other.count[j];
                confidenceSum[i] += other.confidenceSum[j];
                correctSum[i] += other.correctSum[j];
            }
        }
    }

    /** The same statistics holding only the range from the first to the last non-empty bin. */
    public CalibrationBins compact() {
        int first = 0;
        while (first < count.length && empty(first)) {
            first++;
        }
        int last = count.length - 1;
        while (last >= first && empty(last)) {
            last--;
        }
        int n = last - first + 1;
        return new CalibrationBins(bins, lo + first, Arrays.copyOfRange(count, first, first + n),
                Arrays.copyOfRange(confidenceSum, first, first + n), Arrays.copyOfRange(correctSum, first, first + n));
    }

    private boolean empty(int i) {
        return count[i] == 0 && confidenceSum[i] == 0 && correctSum[i] == 0;
    }

    /** Index of bin {@code b} in the arrays, widening the held range to include it. */
    private int slot(int b) {
        int i = b - lo;
        if (i >= 0 && i < count.length) {
            return i;
        }
        int newLo = count.length == 0 ? b : Math.min(lo, b);
        int newHi = count.length == 0 ? b : Math.max(lo + count.length - 1, b);
        int shift = count.length == 0 ? 0 : lo - newLo;
        int n = newHi - newLo + 1;
        long[] c = new long[n];
        double[] cs = new double[n];
        double[] ks = new double[n];
        System.arraycopy(count, 0, c, shift, count.length);
        System.arraycopy(confidenceSum, 0, cs, shift, count.length);
        System.arraycopy(correctSum, 0, ks, shift, count.length);
        lo = newLo;
        count = c;
        confidenceSum = cs;
        correctSum = ks;
        return b - lo;
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
        for (int i = 0; i < count.length; i++) {
            if (count[i] > 0) {
                e += Math.abs(correctSum[i] - confidenceSum[i]) / n;
            }
        }
        return e;
    }

    /** Maximum calibration error over non-empty bins; NaN if empty. */
    public double mce() {
        double m = Double.NaN;
        for (int i = 0; i < count.length; i++) {
            if (count[i] > 0) {
                double gap = Math.abs(correctSum[i] - confidenceSum[i]) / count[i];
                m = Double.isNaN(m) ? gap : Math.max(m, gap);
            }
        }
        return m;
    }

    public long count(int bin) {
        int i = held(bin);
        return i < 0 ? 0 : count[i];
    }

    /** Mean confidence in a bin (NaN if empty). */
    public double meanConfidence(int bin) {
        int i = held(bin);
        return i < 0 || count[i] == 0 ? Double.NaN : confidenceSum[i] / count[i];
    }

    /** Accuracy in a bin (NaN if empty). */
    public double accuracy(int bin) {
        int i = held(bin);
        return i < 0 || count[i] == 0 ? Double.NaN : correctSum[i] / count[i];
    }

    /** Array index of a bin, or -1 when it lies outside the held range (and is empty). */
    private int held(int bin) {
        if (bin < 0 || bin >= bins) {
            throw new IndexOutOfBoundsException("bin " + bin + " of " + bins);
        }
        int i = bin - lo;
        return i >= 0 && i < count.length ? i : -1;
    }

    /**
     * Compact exact text for result rows: per bin "count:confidenceSum:correctCount" joined by '|', an empty bin
     * as "". The confidence sum is written as the hex of its IEEE bits (exact and much faster to format than
     * decimal); {@link #parse} reads it back bit for bit, and also accepts decimal numbers.
     */
    public String encode() {
        return encodeTo(new AsciiBuffer(bins * 12)).toString();
    }

    /** Appends {@link #encode()}'s text to {@code out} (no intermediate strings: it is written once per unit). */
    public AsciiBuffer encodeTo(AsciiBuffer out) {
        for (int b = 0; b < bins; b++) {
            if (b > 0) {
                out.append('|');
            }
            int i = b - lo;
            if (i < 0 || i >= count.length || empty(i)) {
                continue;
            }
            out.append(count[i]).append(':').append('x').appendHex(Double.doubleToRawLongBits(confidenceSum[i]));
            out.append(':');
            if (correctSum[i] == Math.rint(correctSum[i]) && Math.abs(correctSum[i]) < 1e15) {
                out.append((long) correctSum[i]);
            } else {
                out.append(correctSum[i]);
            }
        }
        return out;
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
        return c.compact();
    }

    private static double number(String s) {
        return s.startsWith("x") ? Double.longBitsToDouble(Long.parseUnsignedLong(s.substring(1), 16)) : Double.parseDouble(s);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "CalibrationBins[n=%d, ece=%.4f, mce=%.4f]", total(), ece(), mce());
    }
}
