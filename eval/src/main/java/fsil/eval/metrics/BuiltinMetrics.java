package fsil.eval.metrics;

import fsil.api.AbstractPlugin;
import fsil.eval.protocol.TaskOutcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * fsil's metrics (README.md, <i>Protocols and metrics</i>), one class each, listed in
 * {@code META-INF/services/fsil.eval.metrics.Metric}.
 * Episodes store one value per episode and summarise as a mean with its 95% intervals; incremental streams store
 * their per-step arrays.
 */
public final class BuiltinMetrics {
    private BuiltinMetrics() {
    }

    /** The number of steps all streams of a group have (the summaries of later steps would mix run lengths). */
    static int commonSteps(Iterable<Value> arrays) {
        int min = Integer.MAX_VALUE;
        for (Value a : arrays) {
            min = Math.min(min, a.size());
        }
        return min == Integer.MAX_VALUE ? 0 : min;
    }

    /** The values of one field of each value. */
    static Iterable<Value> field(Iterable<Value> values, String name) {
        return () -> new java.util.Iterator<>() {
            final java.util.Iterator<Value> it = values.iterator();

            public boolean hasNext() {
                return it.hasNext();
            }

            public Value next() {
                return it.next().get(name);
            }
        };
    }

    /** Step {@code s} of each per-step array (null as NaN). */
    static DoubleSource step(Iterable<Value> arrays, int s) {
        return TaskValues.numbers(arrays, a -> a.get(s).asDouble());
    }

    /**
     * {@code episode_acc}: the accuracy of each episode, stored as its numbers of correct predictions and of queries
     * (integers: cheap to store, and correct / queries gives the accuracy exactly).
     */
    public static final class EpisodeAccuracy extends AbstractPlugin implements Metric {
        public EpisodeAccuracy() {
            super("episode_acc",
                    "accuracy per episode; summary: mean over episodes with the normal and Student-t 95% intervals",
                    List.of());
        }

        @Override
        public Accumulator accumulator() {
            return new Episodes();
        }

        private static final class Episodes implements Accumulator {
            Boolean episodic; // as the unit's first task says
            int[] correct = new int[16];
            int[] queries = new int[16];
            int n;

            public void update(TaskOutcome t) {
                if (episodic == null) {
                    episodic = t.episodic();
                }
                if (episodic) {
                    add(t.correct(), t.truth().length);
                }
            }

            private void add(int c, int q) {
                if (n == correct.length) {
                    correct = Arrays.copyOf(correct, 2 * n);
                    queries = Arrays.copyOf(queries, 2 * n);
                }
                correct[n] = c;
                queries[n++] = q;
            }

            public void merge(Accumulator later) {
                Episodes o = (Episodes) later;
                if (episodic == null) {
                    episodic = o.episodic;
                }
                for (int i = 0; i < o.n; i++) {
                    add(o.correct[i], o.queries[i]);
                }
            }

            public Value result() {
                return Boolean.TRUE.equals(episodic) ? Value.object()
                        .put("correct", Value.array(Arrays.copyOf(correct, n)))
                        .put("queries", Value.array(Arrays.copyOf(queries, n))).build() : null;
            }
        }

        /** The accuracies of a unit's episodes, in order. */
        public static double[] accuracies(Value unit) {
            Value c = unit.get("correct");
            Value q = unit.get("queries");
            double[] out = new double[c.size()];
            for (int i = 0; i < out.length; i++) {
                int n = q.get(i).asInt();
                out[i] = n == 0 ? Double.NaN : c.get(i).asInt() / (double) n;
            }
            return out;
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            out.add(id(), null, null, MeanCi.of(each -> units.forEach(u -> {
                for (double a : accuracies(u)) {
                    each.accept(a);
                }
            })));
        }

        public Map<String, double[]> perTask(Value unit) {
            return Map.of(id(), accuracies(unit));
        }
    }

    /**
     * {@code acc_seen}: a_t per step of a stream, with the classes seen; summarised per step and as
     * {@code avg_incremental_acc} (mean of a_t, step 0 included) and {@code final_acc} (a_T).
     */
    public static final class AccuracySeen extends AbstractPlugin implements Metric {
        public AccuracySeen() {
            super("acc_seen",
                    "accuracy on all seen classes after each incremental step (a_t); summary: avg_incremental_acc, final_acc",
                    List.of());
        }

        @Override
        public Accumulator accumulator() {
            return new TaskValues(t -> t.episodic() ? null : Value.object().put("acc", Value.array(t.accSeen()))
                    .put("classes", Value.array(t.classesSeen())).build());
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            Iterable<Value> values = TaskValues.of(units);
            Value first = TaskValues.first(values);
            if (first == null) {
                return;
            }
            Iterable<Value> acc = field(values, "acc");
            int steps = commonSteps(acc);
            int[] classes = first.get("classes").ints();
            for (int t = 0; t < steps; t++) {
                out.add(id(), t, classes[t], MeanCi.of(step(acc, t)));
            }
            out.add("avg_incremental_acc", null, null, MeanCi.of(TaskValues.numbers(acc,
                    a -> IncrementalMetrics.ofSeen(a.doubles()).avgIncrementalAcc())));
            out.add("final_acc", null, null, MeanCi.of(TaskValues.numbers(acc,
                    a -> IncrementalMetrics.ofSeen(a.doubles()).finalAcc())));
        }

        public Map<String, double[]> perTask(Value unit) {
            double[] avg = new double[unit.size()];
            double[] last = new double[unit.size()];
            for (int i = 0; i < avg.length; i++) {
                Value v = unit.get(i);
                if (v.isNull()) {
                    avg[i] = Double.NaN;
                    last[i] = Double.NaN;
                } else {
                    IncrementalMetrics m = IncrementalMetrics.ofSeen(v.get("acc").doubles());
                    avg[i] = m.avgIncrementalAcc();
                    last[i] = m.finalAcc();
                }
            }
            return Map.of("final_acc", last, "avg_incremental_acc", avg);
        }
    }

    /**
     * {@code a_matrix}: the accuracy matrix A[t][k] of a stream; summarised as {@code forgetting_max} (Chaudhry),
     * {@code forgetting_first} (Avalanche) and {@code bwt} when the streams have more than one step.
     */
    public static final class AccuracyMatrix extends AbstractPlugin implements Metric {
        public AccuracyMatrix() {
            super("a_matrix",
                    "accuracy on each step's classes after each step; summary: forgetting_max, forgetting_first, bwt, a_matrix.csv",
                    List.of());
        }

        @Override
        public Accumulator accumulator() {
            return new TaskValues(t -> {
                if (t.episodic()) {
                    return null;
                }
                List<Value> rows = new ArrayList<>();
                for (double[] row : t.aMatrix()) {
                    rows.add(Value.array(row));
                }
                return Value.array(rows);
            });
        }

        /** The matrix of one stream as stored. */
        public static double[][] read(Value v) {
            double[][] a = new double[v.size()][];
            for (int t = 0; t < a.length; t++) {
                a[t] = v.get(t).doubles();
            }
            return a;
        }

        /** The mean of a group's accuracy matrices over the steps all streams have (NaN above the diagonal). */
        public static double[][] mean(Iterable<Value> units) {
            Iterable<Value> all = TaskValues.of(units);
            int steps = commonSteps(all);
            double[][] s = new double[steps][steps];
            int[][] n = new int[steps][steps];
            for (Value v : all) {
                double[][] a = read(v);
                for (int t = 0; t < steps; t++) {
                    for (int k = 0; k <= t; k++) {
                        if (!Double.isNaN(a[t][k])) {
                            s[t][k] += a[t][k];
                            n[t][k]++;
                        }
                    }
                }
            }
            for (int t = 0; t < steps; t++) {
                for (int k = 0; k < steps; k++) {
                    s[t][k] = n[t][k] == 0 ? Double.NaN : s[t][k] / n[t][k];
                }
            }
            return s;
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            Iterable<Value> values = TaskValues.of(units);
            if (TaskValues.first(values) == null || commonSteps(values) < 2) {
                return;
            }
            out.add("forgetting_max", null, null, MeanCi.of(TaskValues.numbers(values,
                    v -> IncrementalMetrics.ofMatrix(read(v)).forgettingMax())));
            out.add("forgetting_first", null, null, MeanCi.of(TaskValues.numbers(values,
                    v -> IncrementalMetrics.ofMatrix(read(v)).forgettingFirst())));
            out.add("bwt", null, null, MeanCi.of(TaskValues.numbers(values,
                    v -> IncrementalMetrics.ofMatrix(read(v)).bwt())));
        }

        public Map<String, double[]> perTask(Value unit) {
            double[] fMax = new double[unit.size()];
            double[] fFirst = new double[unit.size()];
            double[] bwt = new double[unit.size()];
            for (int i = 0; i < fMax.length; i++) {
                IncrementalMetrics m = unit.get(i).isNull()
                        ? new IncrementalMetrics(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN)
                        : IncrementalMetrics.ofMatrix(read(unit.get(i)));
                fMax[i] = m.forgettingMax();
                fFirst[i] = m.forgettingFirst();
                bwt[i] = m.bwt();
            }
            return Map.of("forgetting_max", fMax, "forgetting_first", fFirst, "bwt", bwt);
        }
    }

    /** {@code relative_acc}: a_t over the same method retrained from scratch (the ncmf protocol), per step. */
    public static final class RelativeAccuracy extends AbstractPlugin implements Metric {
        public RelativeAccuracy() {
            super("relative_acc", "accuracy relative to the same method retrained from scratch (ncmf)", List.of());
        }

        @Override
        public Accumulator accumulator() {
            return new TaskValues(t -> t.episodic() || Arrays.stream(t.relativeAcc()).allMatch(Double::isNaN) ? null
                    : Value.object().put("relative", Value.array(t.relativeAcc()))
                    .put("classes", Value.array(t.classesSeen())).build());
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            Iterable<Value> values = TaskValues.of(units);
            Value first = TaskValues.first(values);
            if (first == null) {
                return;
            }
            Iterable<Value> rel = field(values, "relative");
            int[] classes = first.get("classes").ints();
            int steps = commonSteps(rel);
            for (int t = 0; t < steps; t++) {
                MeanCi m = MeanCi.of(step(rel, t).finite());
                if (m.n() > 0) {
                    out.add(id(), t, classes[t], m);
                }
            }
        }
    }

    /**
     * {@code calibration}: reliability bins of the tasks' last predictions, pooled per unit; summarised as
     * {@code ece} and {@code mce} of the bins pooled over the group (15 equal-width bins, max-probability confidence).
     */
    public static final class Calibration extends AbstractPlugin implements Metric {
        public Calibration() {
            super("calibration",
                    "15 equal-width confidence bins pooled over every prediction; summary: ece, mce, reliability.csv",
                    List.of());
        }

        @Override
        public boolean usesProbabilities() {
            return true;
        }

        @Override
        public Accumulator accumulator() {
            return new Bins();
        }

        private static final class Bins implements Accumulator {
            final CalibrationBins bins = new CalibrationBins();

            public void update(TaskOutcome t) {
                bins.add(t.prediction(), t.truth());
            }

            public void merge(Accumulator later) {
                bins.addAll(((Bins) later).bins);
            }

            public Value result() {
                return bins.toValue();
            }
        }

        /** The bins of a group's units, pooled. */
        public static CalibrationBins pooled(Iterable<Value> units) {
            CalibrationBins all = new CalibrationBins();
            for (Value v : units) {
                all.addAll(CalibrationBins.of(v));
            }
            return all;
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            CalibrationBins bins = pooled(units);
            out.add("ece", bins.ece(), (int) bins.total());
            out.add("mce", bins.mce(), (int) bins.total());
        }
    }

    /**
     * Time measurements of a unit's tasks as moments: {"n": .., "sum": .., "sum_squares": ..}, the sums kept exact
     * until stored so that a unit measured in parts stores what it would in one piece.
     */
    abstract static class TaskSeconds extends AbstractPlugin implements Metric {
        TaskSeconds(String id, String description) {
            super(id, description, List.of());
        }

        abstract double seconds(TaskOutcome t);

        @Override
        public Accumulator accumulator() {
            return new Moments(this);
        }

        private static final class Moments implements Accumulator {
            final TaskSeconds metric;
            int n;
            final ExactSum sum = new ExactSum();
            final ExactSum sq = new ExactSum();

            Moments(TaskSeconds metric) {
                this.metric = metric;
            }

            public void update(TaskOutcome t) {
                double s = metric.seconds(t);
                n++;
                sum.add(s);
                sq.add(s * s);
            }

            public void merge(Accumulator later) {
                Moments o = (Moments) later;
                n += o.n;
                sum.add(o.sum);
                sq.add(o.sq);
            }

            public Value result() {
                return Value.object().put("n", n).put("sum", sum.value()).put("sum_squares", sq.value()).build();
            }
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            long n = 0;
            double sum = 0;
            double sq = 0;
            for (Value u : units) {
                n += u.get("n").asLong();
                sum += u.get("sum").asDouble();
                sq += u.get("sum_squares").asDouble();
            }
            out.add(id(), null, null, MeanCi.ofMoments(n, sum, sq));
        }
    }

    /** {@code fit_s}: seconds in learn() per task. */
    public static final class FitSeconds extends TaskSeconds {
        public FitSeconds() {
            super("fit_s", "seconds spent in learn per task (a measurement, never compared for identity)");
        }

        double seconds(TaskOutcome t) {
            return t.fitSeconds();
        }
    }

    /** {@code predict_s}: seconds in predict() per task. */
    public static final class PredictSeconds extends TaskSeconds {
        public PredictSeconds() {
            super("predict_s", "seconds spent in predict per task (a measurement)");
        }

        double seconds(TaskOutcome t) {
            return t.predictSeconds();
        }
    }

    /** {@code memory_bytes}: the model state a session reports after its task (left out when not reported). */
    public static final class MemoryBytes extends AbstractPlugin implements Metric {
        public MemoryBytes() {
            super("memory_bytes", "the bytes a session reports holding after its task", List.of());
        }

        @Override
        public Accumulator accumulator() {
            return new TaskValues(t -> t.memoryBytes() < 0 ? null : Value.of(t.memoryBytes()));
        }

        public Map<String, double[]> perTask(Value unit) {
            return Map.of(id(), unit.doubles());
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            MeanCi m = MeanCi.of(TaskValues.numbers(TaskValues.of(units), Value::asDouble));
            if (m.n() > 0) {
                out.add(id(), null, null, m);
            }
        }
    }

    /**
     * {@code step_times}: seconds in learn() per step of a stream, and in the retraining from scratch of the ncmf
     * protocol; summarised as {@code step_fit_s} and {@code retrain_step_fit_s} per step and {@code retrain_fit_s}.
     */
    public static final class StepTimes extends AbstractPlugin implements Metric {
        public StepTimes() {
            super("step_times", "seconds per incremental step (learn and predict)", List.of());
        }

        @Override
        public Accumulator accumulator() {
            return new TaskValues(t -> {
                if (t.episodic()) {
                    return null;
                }
                int steps = t.accSeen().length;
                double[] fit = new double[steps];
                double[] refit = new double[steps];
                for (int s = 0; s < steps; s++) {
                    fit[s] = t.extra().getOrDefault("fit_s_step" + s, Double.NaN);
                    refit[s] = t.extra().getOrDefault("retrain_fit_s_step" + s, Double.NaN);
                }
                return Value.object().put("fit", Value.array(fit)).put("retrain", Value.array(refit))
                        .put("retrain_total", t.extra().getOrDefault("retrain_fit_s", Double.NaN))
                        .put("classes", Value.array(t.classesSeen())).build();
            });
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            Iterable<Value> values = TaskValues.of(units);
            Value first = TaskValues.first(values);
            if (first == null) {
                return;
            }
            Iterable<Value> fit = field(values, "fit");
            Iterable<Value> refit = field(values, "retrain");
            int steps = commonSteps(fit);
            int[] classes = first.get("classes").ints();
            for (int t = 0; t < steps; t++) {
                MeanCi f = MeanCi.of(step(fit, t).finite());
                if (f.n() > 0 && steps > 1) {
                    out.add("step_fit_s", t, classes[t], f);
                }
                MeanCi r = MeanCi.of(step(refit, t).finite());
                if (r.n() > 0) {
                    out.add("retrain_step_fit_s", t, classes[t], r);
                }
            }
            MeanCi total = MeanCi.of(TaskValues.numbers(field(values, "retrain_total"), Value::asDouble).finite());
            if (total.n() > 0) {
                out.add("retrain_fit_s", null, null, total);
            }
        }
    }

    /** {@code diagnostics}: the method's own numbers (Session.diagnostics()), each summarised under its name. */
    public static final class Diagnostics extends AbstractPlugin implements Metric {
        /** Protocol timings and retraining results, summarised by {@link StepTimes} and {@link RelativeAccuracy}. */
        private static final Pattern PROTOCOL_KEYS = Pattern.compile("(retrain_)?(fit_s|acc)(_step\\d+)?|retrain_fit_s");

        public Diagnostics() {
            super("diagnostics", "each method's own per-task diagnostics (e.g. iterations, chosen hyperparameters)",
                    List.of());
        }

        @Override
        public Accumulator accumulator() {
            return new TaskValues(t -> {
                Value.ObjectBuilder o = Value.object();
                for (Map.Entry<String, Double> e : t.extra().entrySet()) {
                    if (!PROTOCOL_KEYS.matcher(e.getKey()).matches()) {
                        o.put(e.getKey(), e.getValue());
                    }
                }
                return o.isEmpty() ? null : o.build();
            });
        }

        public void summarize(Iterable<Value> units, SummaryRows out) {
            Iterable<Value> values = TaskValues.of(units);
            TreeSet<String> keys = new TreeSet<>();
            values.forEach(v -> keys.addAll(v.fields().keySet()));
            for (String k : keys) {
                out.add(k, null, null, MeanCi.of(TaskValues.numbers(values, v -> {
                    Value x = v.get(k);
                    return x == null ? Double.NaN : x.asDouble();
                }).finite()));
            }
        }
    }
}
