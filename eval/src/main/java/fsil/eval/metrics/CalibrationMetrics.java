package fsil.eval.metrics;

import fsil.api.AbstractPlugin;
import fsil.api.FsilException;
import fsil.api.Prediction;
import fsil.core.calibration.ScoringRules;
import fsil.core.calibration.TemperatureScaling;
import fsil.eval.protocol.TaskOutcome;

import java.util.ArrayList;
import java.util.List;

/**
 * Calibration metrics beside the 15-bin ECE/MCE of {@link BuiltinMetrics.Calibration}: the proper scoring rules
 * (negative log-likelihood and the multi-class Brier score), an equal-mass (adaptive) ECE, and the NLL curve over
 * temperatures that {@code fsil run --calibrate temperature} fits its temperature from. All of them read the
 * probabilities of the predictions ({@link Metric#usesProbabilities()}), so a temperature-scaled run stores them
 * a second time for the scaled probabilities.
 */
public final class CalibrationMetrics {
    private CalibrationMetrics() {
    }

    /** The column of each true class in a prediction, or -1 when the prediction has no such class (p_y = 0). */
    static int[] columns(Prediction p, int[] truth) {
        int[] classes = p.classes();
        int[] out = new int[truth.length];
        for (int i = 0; i < truth.length; i++) {
            out[i] = -1;
            for (int k = 0; k < classes.length; k++) {
                if (classes[k] == truth[i]) {
                    out[i] = k;
                    break;
                }
            }
        }
        return out;
    }

    /**
     * {@code nll} and {@code brier}: the mean negative log-likelihood -log p_y (p floored at 1e-300) and the Brier
     * score sum_k (p_k - 1[k = y])^2 (Brier's multi-class form, in [0, 2]) of each task's predictions, summarised as
     * the mean over tasks with its interval (like episode accuracy). A unit stores the moments of its tasks' means as
     * exact sums, so the summary does not depend on how tasks were grouped into units.
     */
    public static final class ProperScores extends AbstractPlugin implements Metric {
        public ProperScores() {
            super("scores",
                    "proper scoring rules per task: nll (negative log-likelihood) and brier (multi-class Brier score)",
                    List.of());
        }

        @Override
        public boolean usesProbabilities() {
            return true;
        }

        @Override
        public Accumulator accumulator() {
            return new Scores();
        }

        private static final class Scores implements Accumulator {
            final ExactSum nll = new ExactSum();
            final ExactSum nllSq = new ExactSum();
            final ExactSum brier = new ExactSum();
            final ExactSum brierSq = new ExactSum();
            int n;

                public void update(TaskOutcome t) {
                    int rows = t.truth().length;
                    if (rows == 0) {
                        return;
                    }
                    Prediction p = t.prediction();
                    double[] prob = p.rawProbabilities();
                    int c = p.numClasses();
                    int[] col = columns(p, t.truth());
                    double sNll = 0;
                    double sBrier = 0;
                    for (int i = 0; i < rows; i++) {
                        if (col[i] >= 0) {
                            sNll += ScoringRules.nll(prob, c, i, col[i]);
                            sBrier += ScoringRules.brier(prob, c, i, col[i]);
                        } else {
                            sNll += -Math.log(ScoringRules.NLL_FLOOR);
                            double s = 1;
                            for (int k = 0; k < c; k++) {
                                s += prob[i * c + k] * prob[i * c + k];
                            }
                            sBrier += s;
                        }
                    }
                    double mNll = sNll / rows;
                    double mBrier = sBrier / rows;
                    nll.add(mNll);
                    nllSq.add(mNll * mNll);
                    brier.add(mBrier);
                    brierSq.add(mBrier * mBrier);
                    n++;
                }

                public void merge(Accumulator later) {
                    Scores o = (Scores) later;
                    nll.add(o.nll);
                    nllSq.add(o.nllSq);
                    brier.add(o.brier);
                    brierSq.add(o.brierSq);
                    n += o.n;
                }

                public Value result() {
                    if (n == 0) {
                        return null;
                    }
                    return Value.object().put("tasks", n).put("nll", nll.toValue()).put("nll_squares", nllSq.toValue())
                            .put("brier", brier.toValue()).put("brier_squares", brierSq.toValue()).build();
                }
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            long n = 0;
            ExactSum[] s = {new ExactSum(), new ExactSum(), new ExactSum(), new ExactSum()};
            String[] keys = {"nll", "nll_squares", "brier", "brier_squares"};
            for (Value u : units) {
                n += u.get("tasks").asLong();
                for (int k = 0; k < 4; k++) {
                    s[k].add(u.get(keys[k]));
                }
            }
            out.add("nll", null, null, MeanCi.ofMoments(n, s[0].value(), s[1].value()));
            out.add("brier", null, null, MeanCi.ofMoments(n, s[2].value(), s[3].value()));
        }
    }

    /**
     * {@code adaptive_ece}: ECE over 15 equal-mass bins of all predictions of a group (sorted by confidence and split
     * as numpy's array_split splits them), beside the equal-width ECE, which misleads when confidences cluster. Units
     * store their confidences in 1,500 equal-width micro-bins: for each non-empty one its index ({@code bin}), its
     * number of predictions ({@code n}) and {@code gap}, the sum of (1 if correct else 0) - confidence over them, in
     * units of 2^-32 (each confidence rounded to a multiple of 2^-32 first, which moves the ECE by less than 1e-9).
     * The gaps are exact integer sums, so pooling gives the same value however tasks were grouped into units. The
     * pooled equal-mass bins are cut from the micro-bins, and a micro-bin that straddles a cut is shared in proportion
     * to the count taken, so the value differs from the exact one only through the predictions within 1/1500 of a
     * cut (the test compares both). Three integers per micro-bin keep a unit's row small: on real features a unit of
     * 200 five-way episodes fills about 1,000 micro-bins.
     */
    public static final class AdaptiveCalibration extends AbstractPlugin implements Metric {
        public static final int MICRO_BINS = 1500;
        public static final int BINS = 15;
        /** One confidence in the stored gaps: 2^32. */
        static final double UNIT = 0x1p32;

        public AdaptiveCalibration() {
            super("calibration_fine",
                    "1,500 equal-width micro-bins of confidence; summary: adaptive_ece (15 equal-mass bins)",
                    List.of());
        }

        @Override
        public boolean usesProbabilities() {
            return true;
        }

        static int microBin(double confidence) {
            int b = (int) Math.ceil(confidence * MICRO_BINS) - 1;
            return Math.max(0, Math.min(MICRO_BINS - 1, b));
        }

        @Override
        public Accumulator accumulator() {
            return new MicroBins();
        }

        private static final class MicroBins implements Accumulator {
            final long[] count = new long[MICRO_BINS];
            final long[] gap = new long[MICRO_BINS];

            public void update(TaskOutcome t) {
                Prediction p = t.prediction();
                for (int i = 0; i < t.truth().length; i++) {
                    int best = p.argmax(i);
                    double confidence = p.probability(i, best);
                    int m = microBin(confidence);
                    count[m]++;
                    gap[m] = Math.addExact(gap[m], (p.classAt(best) == t.truth()[i] ? (long) UNIT : 0)
                            - Math.round(confidence * UNIT));
                }
            }

            public void merge(Accumulator later) {
                MicroBins o = (MicroBins) later;
                for (int m = 0; m < MICRO_BINS; m++) {
                    count[m] += o.count[m];
                    gap[m] = Math.addExact(gap[m], o.gap[m]);
                }
            }

            public Value result() {
                List<Value> bin = new ArrayList<>();
                List<Value> n = new ArrayList<>();
                List<Value> g = new ArrayList<>();
                for (int m = 0; m < MICRO_BINS; m++) {
                    if (count[m] > 0) {
                        bin.add(Value.of(m));
                        n.add(Value.of(count[m]));
                        g.add(Value.of(gap[m]));
                    }
                }
                return Value.object().put("bin", Value.array(bin)).put("n", Value.array(n)).put("gap", Value.array(g))
                        .build();
            }
        }

        /** The equal-mass ECE of the pooled micro-bins of a group's units; NaN without predictions. */
        public static double adaptiveEce(Iterable<Value> units) {
            long[] count = new long[MICRO_BINS];
            long[] gap = new long[MICRO_BINS];
            pool(units, count, gap);
            return adaptiveEce(count, gap, java.util.Arrays.stream(count).sum());
        }

        /** Adds the micro-bins of the units to {@code count} and {@code gap}. */
        private static void pool(Iterable<Value> units, long[] count, long[] gap) {
            for (Value u : units) {
                Value bin = u.get("bin");
                Value n = u.get("n");
                Value g = u.get("gap");
                if (g == null) {
                    throw new FsilException("a calibration_fine value without gaps: units.csv rows of the micro-bin "
                            + "encoding before commit 5096290 (2026-11-26) are no longer read; re-run them");
                }
                for (int i = 0; i < bin.size(); i++) {
                    int m = bin.get(i).asInt();
                    count[m] += n.get(i).asLong();
                    gap[m] = Math.addExact(gap[m], g.get(i).asLong());
                }
            }
        }

        private static double adaptiveEce(long[] count, long[] gap, long total) {
            if (total == 0) {
                return Double.NaN;
            }
            int bins = (int) Math.min(BINS, total);
            double ece = 0;
            int m = 0;
            long leftInMicro = count[0];
            for (int b = 0; b < bins; b++) {
                // numpy.array_split: the first total % bins bins hold one more
                long size = total / bins + (b < total % bins ? 1 : 0);
                double binGap = 0;
                long need = size;
                while (need > 0) {
                    while (leftInMicro == 0) {
                        m++;
                        leftInMicro = count[m];
                    }
                    long take = Math.min(need, leftInMicro);
                    binGap += (double) take / count[m] * gap[m];
                    leftInMicro -= take;
                    need -= take;
                }
                ece += Math.abs(binGap) / UNIT / total;
            }
            return ece;
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            long[] count = new long[MICRO_BINS];
            long[] gap = new long[MICRO_BINS];
            pool(units, count, gap);
            long total = java.util.Arrays.stream(count).sum();
            out.add("adaptive_ece", adaptiveEce(count, gap, total), (int) total);
        }
    }

    /**
     * The mean NLL of softmax(log p / T) on a grid of {@link #GRID} temperatures, log-spaced over [1/1000, 10,000]:
     * what {@code fsil run --calibrate temperature} fits T from on held-out tasks. The range is wider than
     * {@link TemperatureScaling}'s [1/50, 50] because methods with a fixed softmax scale (ncm, ppca on
     * pretrained-mlp features) give near one-hot probabilities that need T in the hundreds. The NLL is convex in
     * beta = 1/T (see {@link TemperatureScaling}), so the grid's minimum and its neighbours bracket the optimum; a
     * parabola through the three in log beta places it (within a fraction of the 5.9% grid step). Units store exact
     * sums per grid point, so a fit over units is a fit over all their predictions. Not a service: the calibration
     * run adds it.
     */
    public static final class TemperatureCurve extends AbstractPlugin implements Metric {
        public static final int GRID = 281;
        static final double U_MIN = Math.log(1e-4);
        static final double U_MAX = Math.log(1e3);

        /** A fitted temperature: T, whether it sits at an end of [1/1000, 10,000], the mean NLL before (T = 1) and after. */
        public record Fit(double temperature, boolean atBound, long n, double nllBefore, double nllAfter) {
        }

        public TemperatureCurve() {
            super("temperature_curve",
                    "NLL of the held-out predictions on a grid of temperatures (what temperature scaling fits)",
                    List.of());
        }

        @Override
        public boolean usesProbabilities() {
            return true;
        }

        static double u(int j) {
            return U_MIN + j * (U_MAX - U_MIN) / (GRID - 1);
        }

        @Override
        public Accumulator accumulator() {
            return new Curve();
        }

        private static final class Curve implements Accumulator {
            final ExactSum[] nll = new ExactSum[GRID];
            final ExactSum raw = new ExactSum();
            final double[] beta = new double[GRID];
            long n;

            Curve() {
                for (int j = 0; j < GRID; j++) {
                    nll[j] = new ExactSum();
                    beta[j] = Math.exp(u(j));
                }
            }

            public void update(TaskOutcome t) {
                Prediction p = t.prediction();
                double[] prob = p.rawProbabilities();
                int c = p.numClasses();
                int[] col = columns(p, t.truth());
                double[] logs = new double[c];
                for (int i = 0; i < col.length; i++) {
                    double max = Double.NEGATIVE_INFINITY;
                    for (int k = 0; k < c; k++) {
                        logs[k] = Math.log(Math.max(prob[i * c + k], TemperatureScaling.FLOOR));
                        max = Math.max(max, logs[k]);
                    }
                    double ly = col[i] >= 0 ? logs[col[i]] : Math.log(TemperatureScaling.FLOOR);
                    raw.add(-ly);
                    for (int j = 0; j < GRID; j++) {
                        double s = 0;
                        for (int k = 0; k < c; k++) {
                            s += Math.exp(beta[j] * (logs[k] - max));
                        }
                        nll[j].add(Math.log(s) - beta[j] * (ly - max));
                    }
                    n++;
                }
            }

            public void merge(Accumulator later) {
                Curve o = (Curve) later;
                n += o.n;
                raw.add(o.raw);
                for (int j = 0; j < GRID; j++) {
                    nll[j].add(o.nll[j]);
                }
            }

            public Value result() {
                List<Value> a = new ArrayList<>(GRID);
                for (ExactSum s : nll) {
                    a.add(s.toValue());
                }
                return Value.object().put("n", n).put("nll_raw", raw.toValue()).put("nll", Value.array(a)).build();
            }
        }

        /** The temperature minimising the pooled mean NLL of a group's units. */
        public static Fit fit(Iterable<Value> units) {
            long n = 0;
            ExactSum raw = new ExactSum();
            ExactSum[] nll = new ExactSum[GRID];
            for (int j = 0; j < GRID; j++) {
                nll[j] = new ExactSum();
            }
            for (Value u : units) {
                n += u.get("n").asLong();
                raw.add(u.get("nll_raw"));
                for (int j = 0; j < GRID; j++) {
                    nll[j].add(u.get("nll").get(j));
                }
            }
            if (n == 0) {
                return new Fit(1, false, 0, Double.NaN, Double.NaN);
            }
            double[] f = new double[GRID];
            int best = 0;
            for (int j = 0; j < GRID; j++) {
                f[j] = nll[j].value() / n;
                if (f[j] < f[best]) {
                    best = j;
                }
            }
            boolean flat = true;
            for (int j = 1; j < GRID; j++) {
                flat &= f[j] == f[0];
            }
            if (flat) {
                return new Fit(1, false, n, raw.value() / n, raw.value() / n);
            }
            if (best == 0 || best == GRID - 1) {
                return new Fit(Math.exp(-u(best)), true, n, raw.value() / n, f[best]);
            }
            // the vertex of the parabola through the minimum and its neighbours (equally spaced in u)
            double h = u(1) - u(0);
            double den = f[best - 1] - 2 * f[best] + f[best + 1];
            double shift = den > 0 ? 0.5 * h * (f[best - 1] - f[best + 1]) / den : 0;
            double uStar = u(best) + Math.max(-h, Math.min(h, shift));
            double after = f[best] - (den > 0 ? (f[best - 1] - f[best + 1]) * (f[best - 1] - f[best + 1]) / (8 * den)
                    : 0);
            return new Fit(Math.exp(-uStar), false, n, raw.value() / n, after);
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            Fit fit = fit(units);
            out.add("temperature", fit.temperature(), (int) fit.n());
            out.add("temperature_at_bound", fit.atBound() ? 1 : 0, (int) fit.n());
            out.add("nll_before_scaling", fit.nllBefore(), (int) fit.n());
            out.add("nll_after_scaling", fit.nllAfter(), (int) fit.n());
        }
    }
}
