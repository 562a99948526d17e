package fsil.eval.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.eval.protocol.TaskOutcome;

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
    static int commonSteps(List<JsonNode> arrays) {
        return arrays.stream().mapToInt(JsonNode::size).min().orElse(0);
    }

    /**
     * {@code episode_acc}: the accuracy of each episode, stored as its numbers of correct predictions and of queries
     * (integers: cheap to store, and correct / queries gives the accuracy exactly).
     */
    public static final class EpisodeAccuracy implements Metric.Folding {
        public String id() {
            return "episode_acc";
        }

        @Override
        public String description() {
            return "accuracy per episode; summary: mean over episodes with the normal and Student-t 95% intervals";
        }

        @Override
        public Accumulator accumulator() {
            ObjectNode o = Values.JSON.objectNode();
            ArrayNode correct = o.putArray("correct");
            ArrayNode queries = o.putArray("queries");
            return new Accumulator() {
                Boolean episodic; // as the unit's first task says

                public void add(TaskOutcome t) {
                    if (episodic == null) {
                        episodic = t.episodic();
                    }
                    if (episodic) {
                        correct.add(t.correct());
                        queries.add(t.truth().length);
                    }
                }

                public JsonNode result() {
                    return Boolean.TRUE.equals(episodic) ? o : null;
                }
            };
        }

        /** The accuracies of a unit's episodes, in order. */
        public static double[] accuracies(JsonNode unit) {
            JsonNode c = unit.get("correct");
            JsonNode q = unit.get("queries");
            double[] out = new double[c.size()];
            for (int i = 0; i < out.length; i++) {
                int n = q.get(i).asInt();
                out[i] = n == 0 ? Double.NaN : c.get(i).asInt() / (double) n;
            }
            return out;
        }

        public void summarize(List<JsonNode> units, SummaryRows out) {
            out.add(id(), null, null, MeanCi.of(units.stream().flatMapToDouble(u -> java.util.Arrays.stream(
                    accuracies(u))).toArray()));
        }

        public java.util.Map<String, double[]> perTask(JsonNode unit) {
            return java.util.Map.of(id(), accuracies(unit));
        }
    }

    /**
     * {@code acc_seen}: a_t per step of a stream, with the classes seen; summarised per step and as
     * {@code avg_incremental_acc} (mean of a_t, step 0 included) and {@code final_acc} (a_T).
     */
    public static final class AccuracySeen implements Metric.PerTask {
        public String id() {
            return "acc_seen";
        }

        @Override
        public String description() {
            return "accuracy on all seen classes after each incremental step (a_t); summary: avg_incremental_acc, final_acc";
        }

        public JsonNode measure(TaskOutcome t) {
            if (t.episodic()) {
                return null;
            }
            ObjectNode o = Values.JSON.objectNode();
            o.set("acc", Values.array(t.accSeen()));
            o.set("classes", Values.array(t.classesSeen()));
            return o;
        }

        public void summarizeTasks(List<JsonNode> values, SummaryRows out) {
            List<JsonNode> acc = values.stream().map(v -> v.get("acc")).toList();
            int steps = commonSteps(acc);
            int[] classes = Values.toInts(values.get(0).get("classes"));
            for (int t = 0; t < steps; t++) {
                final int s = t;
                out.add(id(), t, classes[t], MeanCi.of(acc.stream().mapToDouble(a -> Values.toDouble(a.get(s)))
                        .toArray()));
            }
            double[] avg = new double[acc.size()];
            double[] last = new double[acc.size()];
            for (int u = 0; u < acc.size(); u++) {
                double[] seen = Values.toDoubles(acc.get(u));
                IncrementalMetrics m = IncrementalMetrics.ofSeen(seen);
                avg[u] = m.avgIncrementalAcc();
                last[u] = m.finalAcc();
            }
            out.add("avg_incremental_acc", null, null, MeanCi.of(avg));
            out.add("final_acc", null, null, MeanCi.of(last));
        }

        public java.util.Map<String, double[]> perTask(JsonNode unit) {
            double[] avg = new double[unit.size()];
            double[] last = new double[unit.size()];
            for (int i = 0; i < avg.length; i++) {
                JsonNode v = unit.get(i);
                if (v.isNull()) {
                    avg[i] = Double.NaN;
                    last[i] = Double.NaN;
                } else {
                    IncrementalMetrics m = IncrementalMetrics.ofSeen(Values.toDoubles(v.get("acc")));
                    avg[i] = m.avgIncrementalAcc();
                    last[i] = m.finalAcc();
                }
            }
            return java.util.Map.of("final_acc", last, "avg_incremental_acc", avg);
        }
    }

    /**
     * {@code a_matrix}: the accuracy matrix A[t][k] of a stream; summarised as {@code forgetting_max} (Chaudhry),
     * {@code forgetting_first} (Avalanche) and {@code bwt} when the streams have more than one step.
     */
    public static final class AccuracyMatrix implements Metric.PerTask {
        public String id() {
            return "a_matrix";
        }

        @Override
        public String description() {
            return "accuracy on each step's classes after each step; summary: forgetting_max, forgetting_first, bwt, a_matrix.csv";
        }

        public JsonNode measure(TaskOutcome t) {
            if (t.episodic()) {
                return null;
            }
            ArrayNode rows = Values.JSON.arrayNode();
            for (double[] row : t.aMatrix()) {
                rows.add(Values.array(row));
            }
            return rows;
        }

        /** The matrix of one stream as stored. */
        public static double[][] read(JsonNode v) {
            double[][] a = new double[v.size()][];
            for (int t = 0; t < a.length; t++) {
                a[t] = Values.toDoubles(v.get(t));
            }
            return a;
        }

        public void summarizeTasks(List<JsonNode> values, SummaryRows out) {
            if (commonSteps(values) < 2) {
                return;
            }
            double[] fMax = new double[values.size()];
            double[] fFirst = new double[values.size()];
            double[] bwt = new double[values.size()];
            for (int u = 0; u < values.size(); u++) {
                IncrementalMetrics m = IncrementalMetrics.ofMatrix(read(values.get(u)));
                fMax[u] = m.forgettingMax();
                fFirst[u] = m.forgettingFirst();
                bwt[u] = m.bwt();
            }
            out.add("forgetting_max", null, null, MeanCi.of(fMax));
            out.add("forgetting_first", null, null, MeanCi.of(fFirst));
            out.add("bwt", null, null, MeanCi.of(bwt));
        }

        public java.util.Map<String, double[]> perTask(JsonNode unit) {
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
            return java.util.Map.of("forgetting_max", fMax, "forgetting_first", fFirst, "bwt", bwt);
        }
    }

    /** {@code relative_acc}: a_t over the same method retrained from scratch (the ncmf protocol), per step. */
    public static final class RelativeAccuracy implements Metric.PerTask {
        public String id() {
            return "relative_acc";
        }

        @Override
        public String description() {
            return "accuracy relative to the same method retrained from scratch (ncmf)";
        }

        public JsonNode measure(TaskOutcome t) {
            if (t.episodic() || java.util.Arrays.stream(t.relativeAcc()).allMatch(Double::isNaN)) {
                return null;
            }
            ObjectNode o = Values.JSON.objectNode();
            o.set("relative", Values.array(t.relativeAcc()));
            o.set("classes", Values.array(t.classesSeen()));
            return o;
        }

        public void summarizeTasks(List<JsonNode> values, SummaryRows out) {
            List<JsonNode> rel = values.stream().map(v -> v.get("relative")).toList();
            int[] classes = Values.toInts(values.get(0).get("classes"));
            for (int t = 0; t < commonSteps(rel); t++) {
                final int s = t;
                double[] r = rel.stream().mapToDouble(a -> Values.toDouble(a.get(s))).filter(v -> !Double.isNaN(v))
                        .toArray();
                if (r.length > 0) {
                    out.add(id(), t, classes[t], MeanCi.of(r));
                }
            }
        }
    }

    /**
     * {@code calibration}: reliability bins of the tasks' last predictions, pooled per unit; summarised as
     * {@code ece} and {@code mce} of the bins pooled over the group (15 equal-width bins, max-probability confidence).
     */
    public static final class Calibration implements Metric.Folding {
        public String id() {
            return "calibration";
        }

        @Override
        public String description() {
            return "15 equal-width confidence bins pooled over every prediction; summary: ece, mce, reliability.csv";
        }

        @Override
        public boolean usesProbabilities() {
            return true;
        }

        @Override
        public Accumulator accumulator() {
            CalibrationBins bins = new CalibrationBins();
            return new Accumulator() {
                public void add(TaskOutcome t) {
                    bins.add(t.prediction(), t.truth());
                }

                public JsonNode result() {
                    return bins.toJson();
                }
            };
        }

        /** The bins of a group's units, pooled. */
        public static CalibrationBins pooled(List<JsonNode> units) {
            CalibrationBins all = new CalibrationBins();
            for (JsonNode v : units) {
                all.addAll(CalibrationBins.fromJson(v));
            }
            return all;
        }

        public void summarize(List<JsonNode> units, SummaryRows out) {
            CalibrationBins bins = pooled(units);
            out.add("ece", bins.ece(), (int) bins.total());
            out.add("mce", bins.mce(), (int) bins.total());
        }
    }

    /** Time measurements of a unit's tasks as moments: {"n": .., "sum": .., "sum_squares": ..}. */
    abstract static class TaskSeconds implements Metric.Folding {
        abstract double seconds(TaskOutcome t);

        @Override
        public Accumulator accumulator() {
            return new Accumulator() {
                int n;
                double sum;
                double sq;

                public void add(TaskOutcome t) {
                    double s = seconds(t);
                    n++;
                    sum += s;
                    sq += s * s;
                }

                public JsonNode result() {
                    ObjectNode o = Values.JSON.objectNode();
                    o.put("n", n);
                    o.put("sum", sum);
                    o.put("sum_squares", sq);
                    return o;
                }
            };
        }

        public void summarize(List<JsonNode> units, SummaryRows out) {
            long n = 0;
            double sum = 0;
            double sq = 0;
            for (JsonNode u : units) {
                n += u.get("n").asLong();
                sum += u.get("sum").asDouble();
                sq += u.get("sum_squares").asDouble();
            }
            out.add(id(), null, null, MeanCi.ofMoments(n, sum, sq));
        }
    }

    /** {@code fit_s}: seconds in learn() per task. */
    public static final class FitSeconds extends TaskSeconds {
        public String id() {
            return "fit_s";
        }

        @Override
        public String description() {
            return "seconds spent in learn per task (a measurement, never compared for identity)";
        }

        double seconds(TaskOutcome t) {
            return t.fitSeconds();
        }
    }

    /** {@code predict_s}: seconds in predict() per task. */
    public static final class PredictSeconds extends TaskSeconds {
        public String id() {
            return "predict_s";
        }

        @Override
        public String description() {
            return "seconds spent in predict per task (a measurement)";
        }

        double seconds(TaskOutcome t) {
            return t.predictSeconds();
        }
    }

    /** {@code memory_bytes}: the model state a session reports after its task (left out when not reported). */
    public static final class MemoryBytes implements Metric.PerTask {
        public String id() {
            return "memory_bytes";
        }

        @Override
        public String description() {
            return "the bytes a session reports holding after its task";
        }

        public JsonNode measure(TaskOutcome t) {
            return t.memoryBytes() < 0 ? null : Values.JSON.numberNode(t.memoryBytes());
        }

        public java.util.Map<String, double[]> perTask(JsonNode unit) {
            return java.util.Map.of(id(), Values.toDoubles(unit));
        }

        public void summarizeTasks(List<JsonNode> values, SummaryRows out) {
            out.add(id(), null, null, MeanCi.of(values.stream().mapToDouble(Values::toDouble).toArray()));
        }
    }

    /**
     * {@code step_times}: seconds in learn() per step of a stream, and in the retraining from scratch of the ncmf
     * protocol; summarised as {@code step_fit_s} and {@code retrain_step_fit_s} per step and {@code retrain_fit_s}.
     */
    public static final class StepTimes implements Metric.PerTask {
        public String id() {
            return "step_times";
        }

        @Override
        public String description() {
            return "seconds per incremental step (learn and predict)";
        }

        public JsonNode measure(TaskOutcome t) {
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
            ObjectNode o = Values.JSON.objectNode();
            o.set("fit", Values.array(fit));
            o.set("retrain", Values.array(refit));
            o.set("retrain_total", Values.number(t.extra().getOrDefault("retrain_fit_s", Double.NaN)));
            o.set("classes", Values.array(t.classesSeen()));
            return o;
        }

        public void summarizeTasks(List<JsonNode> values, SummaryRows out) {
            List<JsonNode> fit = values.stream().map(v -> v.get("fit")).toList();
            List<JsonNode> refit = values.stream().map(v -> v.get("retrain")).toList();
            int steps = commonSteps(fit);
            int[] classes = Values.toInts(values.get(0).get("classes"));
            for (int t = 0; t < steps; t++) {
                final int s = t;
                double[] f = fit.stream().mapToDouble(a -> Values.toDouble(a.get(s))).filter(v -> !Double.isNaN(v))
                        .toArray();
                if (f.length > 0 && steps > 1) {
                    out.add("step_fit_s", t, classes[t], MeanCi.of(f));
                }
                double[] r = refit.stream().mapToDouble(a -> Values.toDouble(a.get(s)))
                        .filter(v -> !Double.isNaN(v)).toArray();
                if (r.length > 0) {
                    out.add("retrain_step_fit_s", t, classes[t], MeanCi.of(r));
                }
            }
            double[] total = Values.finite(values.stream().map(v -> v.get("retrain_total")).toList());
            if (total.length > 0) {
                out.add("retrain_fit_s", null, null, MeanCi.of(total));
            }
        }
    }

    /** {@code diagnostics}: the method's own numbers (Session.diagnostics()), each summarised under its name. */
    public static final class Diagnostics implements Metric.PerTask {
        /** Protocol timings and retraining results, summarised by {@link StepTimes} and {@link RelativeAccuracy}. */
        private static final Pattern PROTOCOL_KEYS = Pattern.compile("(retrain_)?(fit_s|acc)(_step\\d+)?|retrain_fit_s");

        public String id() {
            return "diagnostics";
        }

        @Override
        public String description() {
            return "each method's own per-task diagnostics (e.g. iterations, chosen hyperparameters)";
        }

        public JsonNode measure(TaskOutcome t) {
            ObjectNode o = Values.JSON.objectNode();
            for (Map.Entry<String, Double> e : t.extra().entrySet()) {
                if (!PROTOCOL_KEYS.matcher(e.getKey()).matches()) {
                    o.set(e.getKey(), Values.number(e.getValue()));
                }
            }
            return o.isEmpty() ? null : o;
        }

        public void summarizeTasks(List<JsonNode> values, SummaryRows out) {
            TreeSet<String> keys = new TreeSet<>();
            values.forEach(v -> v.fieldNames().forEachRemaining(keys::add));
            for (String k : keys) {
                out.add(k, null, null, MeanCi.of(Values.finite(values.stream().map(v -> v.get(k)).toList())));
            }
        }
    }
}
