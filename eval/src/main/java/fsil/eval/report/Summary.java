package fsil.eval.report;

import fsil.eval.metrics.CalibrationBins;
import fsil.eval.metrics.IncrementalMetrics;
import fsil.eval.metrics.MeanCi;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Summary tables computed from unit rows alone (so {@code fsil report} can rebuild them). Units are sorted by
 * (method, dataset, protocol, setting, unit) before aggregating, so the numbers do not depend on the order in
 * which units completed. Metric names are those of DESIGN.md §5.
 */
public final class Summary {
    public static final List<String> COLUMNS = List.of("method", "dataset", "protocol", "setting", "metric", "step",
            "classes", "value", "ci95", "ci95_t", "std", "n");

    private Summary() {
    }

    /** A group of units: one method on one dataset in one protocol setting. */
    public record Group(String method, String dataset, String protocol, String setting, List<UnitRecord> units) {

        public List<UnitRecord> ok() {
            return units.stream().filter(UnitRecord::ok).toList();
        }

        public boolean incremental() {
            return ok().stream().anyMatch(u -> u.accSeen().length > 0) && !protocol.equals("gp-classes");
        }
    }

    /** Units grouped and sorted deterministically. */
    public static List<Group> groups(List<UnitRecord> records) {
        // Hash grouping, then one sort of the (few) groups: a sorted map compared four strings per record.
        Map<GroupKey, List<UnitRecord>> m = new HashMap<>();
        GroupKey last = null;
        List<UnitRecord> lastList = null;
        for (UnitRecord r : records) {
            if (last == null || !last.matches(r)) {
                last = new GroupKey(r.method(), r.dataset(), r.protocol(), r.setting());
                lastList = m.computeIfAbsent(last, k -> new ArrayList<>());
            }
            lastList.add(r);
        }
        List<GroupKey> keys = new ArrayList<>(m.keySet());
        keys.sort(Comparator.comparing(GroupKey::dataset).thenComparing(GroupKey::protocol)
                .thenComparing(GroupKey::setting).thenComparing(GroupKey::method));
        List<Group> out = new ArrayList<>(keys.size());
        for (GroupKey k : keys) {
            List<UnitRecord> v = m.get(k);
            v.sort(Comparator.comparingInt(UnitRecord::unit));
            out.add(new Group(k.method(), k.dataset(), k.protocol(), k.setting(), v));
        }
        return out;
    }

    private record GroupKey(String method, String dataset, String protocol, String setting) {
        boolean matches(UnitRecord r) {
            return method.equals(r.method()) && dataset.equals(r.dataset()) && protocol.equals(r.protocol())
                    && setting.equals(r.setting());
        }
    }

    private static final class Builder {
        final Table t = Table.create("summary", StringColumn.create("method"), StringColumn.create("dataset"),
                StringColumn.create("protocol"), StringColumn.create("setting"), StringColumn.create("metric"),
                IntColumn.create("step"), IntColumn.create("classes"), DoubleColumn.create("value"),
                DoubleColumn.create("ci95"), DoubleColumn.create("ci95_t"), DoubleColumn.create("std"),
                IntColumn.create("n"));

        void add(Group g, String metric, Integer step, Integer classes, MeanCi m) {
            add(g, metric, step, classes, m.mean(), m.ci95(), m.ci95t(), m.std(), m.n());
        }

        void add(Group g, String metric, Integer step, Integer classes, double value, double ci, double cit,
                 double std, int n) {
            t.stringColumn("method").append(g.method());
            t.stringColumn("dataset").append(g.dataset());
            t.stringColumn("protocol").append(g.protocol());
            t.stringColumn("setting").append(g.setting());
            t.stringColumn("metric").append(metric);
            if (step == null) {
                t.intColumn("step").appendMissing();
            } else {
                t.intColumn("step").append(step);
            }
            if (classes == null) {
                t.intColumn("classes").appendMissing();
            } else {
                t.intColumn("classes").append(classes);
            }
            t.doubleColumn("value").append(value);
            t.doubleColumn("ci95").append(ci);
            t.doubleColumn("ci95_t").append(cit);
            t.doubleColumn("std").append(std);
            t.intColumn("n").append(n);
        }
    }

    /** The long-format summary: one row per method x dataset x protocol x setting x metric (x step). */
    public static Table summarize(List<UnitRecord> records) {
        Builder b = new Builder();
        for (Group g : groups(records)) {
            List<UnitRecord> ok = g.ok();
            int failed = g.units().size() - ok.size();
            b.add(g, "units", null, null, g.units().size(), Double.NaN, Double.NaN, Double.NaN, g.units().size());
            b.add(g, "failed_units", null, null, failed, Double.NaN, Double.NaN, Double.NaN, g.units().size());
            if (ok.isEmpty()) {
                continue;
            }
            if (ok.stream().allMatch(u -> u.accSeen().length == 0)) { // episodes: no incremental steps
                b.add(g, "episode_acc", null, null, MeanCi.of(ok.stream().mapToDouble(UnitRecord::accuracy).toArray()));
            } else {
                incremental(b, g, ok);
            }
            CalibrationBins bins = pooledBins(ok);
            if (bins != null) {
                b.add(g, "ece", null, null, bins.ece(), Double.NaN, Double.NaN, Double.NaN, (int) bins.total());
                b.add(g, "mce", null, null, bins.mce(), Double.NaN, Double.NaN, Double.NaN, (int) bins.total());
            }
            b.add(g, "fit_s", null, null, MeanCi.of(ok.stream().mapToDouble(UnitRecord::fitSeconds).toArray()));
            b.add(g, "predict_s", null, null, MeanCi.of(ok.stream().mapToDouble(UnitRecord::predictSeconds).toArray()));
            b.add(g, "memory_bytes", null, null, MeanCi.of(ok.stream().mapToDouble(UnitRecord::memoryBytes).toArray()));
            diagnostics(b, g, ok);
        }
        return b.t;
    }

    private static void incremental(Builder b, Group g, List<UnitRecord> ok) {
        int steps = ok.stream().mapToInt(u -> u.accSeen().length).min().orElse(0);
        for (int t = 0; t < steps; t++) {
            final int s = t;
            b.add(g, "acc_seen", t, ok.get(0).classesSeen()[t],
                    MeanCi.of(ok.stream().mapToDouble(u -> u.accSeen()[s]).toArray()));
        }
        List<IncrementalMetrics> im = ok.stream().map(u -> IncrementalMetrics.of(u.aMatrix(), u.accSeen())).toList();
        b.add(g, "avg_incremental_acc", null, null, MeanCi.of(im.stream().mapToDouble(IncrementalMetrics::avgIncrementalAcc).toArray()));
        b.add(g, "final_acc", null, null, MeanCi.of(im.stream().mapToDouble(IncrementalMetrics::finalAcc).toArray()));
        if (steps > 1) {
            b.add(g, "forgetting_max", null, null, MeanCi.of(im.stream().mapToDouble(IncrementalMetrics::forgettingMax).toArray()));
            b.add(g, "forgetting_first", null, null, MeanCi.of(im.stream().mapToDouble(IncrementalMetrics::forgettingFirst).toArray()));
            b.add(g, "bwt", null, null, MeanCi.of(im.stream().mapToDouble(IncrementalMetrics::bwt).toArray()));
        }
        for (int t = 0; t < steps; t++) {
            final int s = t;
            double[] rel = ok.stream().mapToDouble(u -> s < u.relativeAcc().length ? u.relativeAcc()[s] : Double.NaN)
                    .filter(v -> !Double.isNaN(v)).toArray();
            if (rel.length > 0) {
                b.add(g, "relative_acc", t, ok.get(0).classesSeen()[t], MeanCi.of(rel));
            }
            double[] fit = ok.stream().mapToDouble(u -> u.extra().getOrDefault("fit_s_step" + s, Double.NaN))
                    .filter(v -> !Double.isNaN(v)).toArray();
            if (fit.length > 0 && steps > 1) {
                b.add(g, "step_fit_s", t, ok.get(0).classesSeen()[t], MeanCi.of(fit));
            }
            double[] refit = ok.stream().mapToDouble(u -> u.extra().getOrDefault("retrain_fit_s_step" + s, Double.NaN))
                    .filter(v -> !Double.isNaN(v)).toArray();
            if (refit.length > 0) {
                b.add(g, "retrain_step_fit_s", t, ok.get(0).classesSeen()[t], MeanCi.of(refit));
            }
        }
        double[] retrainTotal = ok.stream().mapToDouble(u -> u.extra().getOrDefault("retrain_fit_s", Double.NaN))
                .filter(v -> !Double.isNaN(v)).toArray();
        if (retrainTotal.length > 0) {
            b.add(g, "retrain_fit_s", null, null, MeanCi.of(retrainTotal));
        }
    }

    /** Method diagnostics (Session.diagnostics) averaged over units, named as the method named them. */
    private static void diagnostics(Builder b, Group g, List<UnitRecord> ok) {
        TreeSet<String> keys = new TreeSet<>();
        for (UnitRecord u : ok) {
            for (String k : u.extra().keySet()) {
                if (!k.matches("(retrain_)?(fit_s|acc)(_step\\d+)?|retrain_fit_s")) {
                    keys.add(k);
                }
            }
        }
        for (String k : keys) {
            double[] v = ok.stream().mapToDouble(u -> u.extra().getOrDefault(k, Double.NaN))
                    .filter(x -> !Double.isNaN(x)).toArray();
            b.add(g, k, null, null, MeanCi.of(v));
        }
    }

    /** Calibration bins pooled over all units' final predictions. */
    public static CalibrationBins pooledBins(List<UnitRecord> ok) {
        CalibrationBins all = null;
        for (UnitRecord u : ok) {
            CalibrationBins c = u.calibration();
            if (c == null) {
                continue;
            }
            if (all == null) {
                all = new CalibrationBins(c.bins());
            }
            all.addAll(c);
        }
        return all;
    }

    /** Mean accuracy matrix over runs: method, dataset, setting, step, experience, value, n. */
    public static Table aMatrix(List<UnitRecord> records) {
        Table t = Table.create("a_matrix", StringColumn.create("method"), StringColumn.create("dataset"),
                StringColumn.create("setting"), IntColumn.create("step"), IntColumn.create("experience"),
                DoubleColumn.create("value"), IntColumn.create("n"));
        for (Group g : groups(records)) {
            List<UnitRecord> ok = g.ok();
            if (!g.incremental() || ok.isEmpty()) {
                continue;
            }
            int steps = ok.stream().mapToInt(u -> u.aMatrix().length).min().orElse(0);
            for (int s = 0; s < steps; s++) {
                for (int k = 0; k <= s; k++) {
                    final int ss = s;
                    final int kk = k;
                    double[] v = ok.stream().mapToDouble(u -> u.aMatrix()[ss][kk]).filter(x -> !Double.isNaN(x)).toArray();
                    t.stringColumn("method").append(g.method());
                    t.stringColumn("dataset").append(g.dataset());
                    t.stringColumn("setting").append(g.setting());
                    t.intColumn("step").append(s);
                    t.intColumn("experience").append(k);
                    t.doubleColumn("value").append(MeanCi.of(v).mean());
                    t.intColumn("n").append(v.length);
                }
            }
        }
        return t;
    }

    /** Reliability-diagram data: per bin, count, mean confidence and accuracy, pooled over units. */
    public static Table reliability(List<UnitRecord> records) {
        Table t = Table.create("reliability", StringColumn.create("method"), StringColumn.create("dataset"),
                StringColumn.create("setting"), IntColumn.create("bin"), DoubleColumn.create("lower"),
                DoubleColumn.create("upper"), IntColumn.create("count"), DoubleColumn.create("confidence"),
                DoubleColumn.create("accuracy"));
        for (Group g : groups(records)) {
            CalibrationBins bins = pooledBins(g.ok());
            if (bins == null) {
                continue;
            }
            for (int b = 0; b < bins.bins(); b++) {
                t.stringColumn("method").append(g.method());
                t.stringColumn("dataset").append(g.dataset());
                t.stringColumn("setting").append(g.setting());
                t.intColumn("bin").append(b);
                t.doubleColumn("lower").append(b / (double) bins.bins());
                t.doubleColumn("upper").append((b + 1) / (double) bins.bins());
                t.intColumn("count").append((int) bins.count(b));
                t.doubleColumn("confidence").append(bins.meanConfidence(b));
                t.doubleColumn("accuracy").append(bins.accuracy(b));
            }
        }
        return t;
    }

    /** Headline numbers per method for the report's first table. */
    public static Map<String, String> headlineMetrics(String protocol) {
        Map<String, String> m = new LinkedHashMap<>();
        switch (protocol) {
            case "fewshot" -> m.put("episode_acc", "accuracy");
            case "gp-classes" -> m.put("final_acc", "accuracy");
            case "ncmf" -> {
                m.put("final_acc", "final acc");
                m.put("avg_incremental_acc", "avg incremental acc");
            }
            default -> {
                m.put("avg_incremental_acc", "avg incremental acc");
                m.put("final_acc", "final acc");
                m.put("forgetting_max", "forgetting (max)");
                m.put("bwt", "BWT");
            }
        }
        m.put("ece", "ECE");
        m.put("mce", "MCE");
        m.put("fit_s", "fit s/unit");
        m.put("predict_s", "predict s/unit");
        m.put("memory_bytes", "memory bytes");
        m.put("failed_units", "failed");
        return m;
    }
}
