package fsil.notebook;

import fsil.api.FsilException;
import fsil.eval.protocol.Protocol;
import fsil.eval.metrics.BuiltinMetrics;
import fsil.eval.metrics.Metric;
import fsil.eval.report.Figures;
import fsil.eval.report.Plot;
import fsil.eval.run.RunPlan;
import fsil.eval.report.ReliabilityTable;
import fsil.eval.report.Report;
import fsil.eval.report.Summary;
import fsil.eval.run.RunSpec;
import fsil.eval.run.Runner;
import fsil.eval.store.UnitRecord;
import fsil.eval.run.VariantSpec;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import fsil.eval.compare.Comparison;
import fsil.eval.report.SettingOptions;

/**
 * The results of an {@link Experiment}: the unit rows, the summary computed from them (the same numbers as the
 * run directory's {@code summary.csv}) and the tables and figures a notebook shows. Methods appear in the order
 * they were given, settings in the order of the options.
 *
 * <p>Accuracy-type metrics ({@code *_acc}, forgetting, BWT) are shown in percent with their 95% interval
 * (1.96 std/&radic;n over units, as in the papers); {@link #value} returns the raw numbers (fractions).
 */
public final class Results {
    private final String protocol;
    private final RunSpec spec;
    private final Runner.Outcome outcome;
    private final List<String> methods;
    private final List<String> settings;
    private final Map<List<Object>, Estimate> entries = new LinkedHashMap<>();
    private final Table summary;
    private final boolean incremental;
    private final List<Metric> metrics;

    /** A summary number: mean over units, its 95% intervals and the number of units. */
    public record Estimate(double value, double ci95, double ci95t, int n) {
        /**
         * The value in the notation of the tables, e.g. {@code 74.10 ± 0.30} (percent) for an accuracy; no interval
         * from a single unit.
         */
        public String format(String metric) {
            return Results.format(metric, value, n < 2 ? Double.NaN : ci95);
        }
    }

    Results(Protocol protocol, RunSpec spec, Runner.Outcome outcome, List<Metric> metrics) {
        this.protocol = protocol.id();
        this.spec = spec;
        this.outcome = outcome;
        this.metrics = List.copyOf(metrics);
        this.methods = spec.methods().stream().map(VariantSpec::label).toList();
        this.settings = RunPlan.settings(protocol, spec.options()).stream().map(RunPlan.Setting::label)
                .toList();
        this.summary = Summary.summarize(outcome.records(), metrics, SettingOptions.read(outcome.dir()));
        this.incremental = Summary.groups(outcome.records()).stream().anyMatch(Summary.Group::incremental);
        for (Row r : summary) {
            Integer step = r.isMissing("step") ? null : r.getInt("step");
            entries.put(key(r.getString("method"), r.getString("dataset"), r.getString("setting"),
                    r.getString("metric"), step), new Estimate(r.getDouble("value"), r.getDouble("ci95"),
                    r.getDouble("ci95_t"), r.getInt("n")));
        }
    }

    private static List<Object> key(String method, String dataset, String setting, String metric, Integer step) {
        return Arrays.asList(method, dataset, setting, metric, step);
    }

    public String protocol() {
        return protocol;
    }

    /** What was run. */
    public RunSpec spec() {
        return spec;
    }

    /** The run directory (spec.json, units.csv, summary.csv, report.html, ...). */
    public Path dir() {
        return outcome.dir();
    }

    /** The HTML report of the run directory. */
    public Path report() {
        return outcome.dir().resolve(Report.HTML);
    }

    /** Method labels in the order given. */
    public List<String> methods() {
        return methods;
    }

    /** Setting labels in option order, e.g. {@code 5-way 1-shot Q75 balanced}. */
    public List<String> settings() {
        return settings;
    }

    public List<String> datasets() {
        return spec.datasets();
    }

    /** One row per unit (a block of episodes, or an incremental run), as in units.csv. */
    public List<UnitRecord> units() {
        return outcome.records();
    }

    /** Tasks (episodes, runs) in failed units. */
    public int failed() {
        return outcome.failedTasks();
    }

    /** The distinct error messages of failed units. */
    public List<String> errors() {
        Set<String> e = new LinkedHashSet<>();
        outcome.records().stream().filter(u -> !u.ok()).forEach(u -> e.add(u.method() + ": " + u.error()));
        return List.copyOf(e);
    }

    /**
     * Paired statistics of every pair of methods on this run's identical tasks and their ranks across datasets x
     * settings, in the default metric (episode_acc for episodes, final_acc for incremental runs); the same numbers as
     * {@code fsil compare}. Show it with {@link Show#comparison}.
     */
    public Comparison compare() {
        return compare(null, null);
    }

    /**
     * As {@link #compare()}, every method against {@code baseline} (null: every pair), in {@code metric} (null: the
     * default).
     */
    public Comparison compare(String baseline, String metric) {
        return Comparison.of(outcome.records(), metrics, metric, baseline);
    }

    /**
     * Method {@code a} against method {@code b} on the identical tasks of one setting, in a per-task metric
     * ({@code episode_acc}; {@code final_acc}, {@code avg_incremental_acc}, ... for incremental runs), as
     * {@code fsil compare} computes it: e.g. {@code +1.23 points [+0.80, +1.66], ahead in 412 of 600 (Wilcoxon p 3.1e-09)}.
     */
    public String paired(String a, String b, String setting, String metric) {
        Comparison.Pair p = pair(a, b, setting, metric);
        double scale = percent(metric) ? 100 : 1;
        String unit = percent(metric) ? " points" : "";
        return String.format(Locale.ROOT, "%+.2f%s [%+.2f, %+.2f], ahead in %d of %d (Wilcoxon p %.2g)",
                scale * p.diff().mean(), unit, scale * p.diff().tLow(), scale * p.diff().tHigh(), p.diff().wins(),
                p.diff().n(), p.p());
    }

    /** The paired comparison behind {@link #paired}: its numbers, for a notebook's own table. */
    public Comparison.Pair pair(String a, String b, String setting, String metric) {
        String s = setting(setting);
        String ds = onlyDataset();
        List<UnitRecord> rows = outcome.records().stream().filter(u -> u.setting().equals(s) && u.dataset().equals(ds)
                && (u.method().equals(a) || u.method().equals(b))).toList();
        if (rows.stream().noneMatch(u -> u.method().equals(a)) || rows.stream().noneMatch(u -> u.method().equals(b))) {
            throw new FsilException("no units of " + a + " and " + b + " in " + s + "; methods: " + methods);
        }
        return Comparison.of(rows, metrics, metric, b).pairs().get(0);
    }

    /**
     * A method's per-task values of a metric in one setting, in task order (units by index): the episode
     * accuracies, or one number per run of an incremental protocol ({@code final_acc}, {@code avg_incremental_acc},
     * {@code forgetting_max}, ...).
     */
    public double[] perTask(String method, String setting, String metric) {
        String s = setting(setting);
        String ds = onlyDataset();
        List<UnitRecord> rows = outcome.records().stream().filter(u -> u.method().equals(method)
                && u.setting().equals(s) && u.dataset().equals(ds)).sorted(Comparator.comparingInt(UnitRecord::unit))
                .toList();
        List<Double> out = new ArrayList<>();
        for (UnitRecord u : rows) {
            double[] v = null;
            for (Metric m : metrics) {
                var stored = u.value(m.id());
                if (stored != null && m.perTask(stored).containsKey(metric)) {
                    v = m.perTask(stored).get(metric);
                }
            }
            if (v == null) {
                throw new FsilException("no per-task " + metric + " for " + method + " in " + s);
            }
            for (double x : v) {
                out.add(x);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * The selection on validation classes ({@link Experiment#select}): every candidate's validation score and the
     * choice per method, dataset and setting; an empty table when nothing was selected.
     */
    public Table selection() {
        java.nio.file.Path file = outcome.dir().resolve(fsil.eval.run.Selection.TABLE);
        if (!java.nio.file.Files.isRegularFile(file)) {
            return Table.create("selection");
        }
        try {
            return fsil.eval.report.CsvTables.readSelection(file);
        } catch (RuntimeException e) {
            throw new FsilException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The long-format summary (method, dataset, protocol, setting, metric, step, classes, value, ci95, ...). */
    public Table summary() {
        return summary;
    }

    /**
     * Per-task accuracy: method, dataset, setting, task (episode or run), status, accuracy (the episode's, or the
     * final a_T of a run).
     */
    public Table unitsTable() {
        StringColumn m = StringColumn.create("method");
        StringColumn d = StringColumn.create("dataset");
        StringColumn s = StringColumn.create("setting");
        IntColumn u = IntColumn.create("task");
        StringColumn st = StringColumn.create("status");
        DoubleColumn acc = DoubleColumn.create("accuracy");
        for (UnitRecord r : sortedUnits()) {
            fsil.eval.metrics.Value a = r.value("episode_acc");
            fsil.eval.metrics.Value seen = r.value("acc_seen");
            double[] episodes = a == null ? null : BuiltinMetrics.EpisodeAccuracy.accuracies(a);
            for (int i = 0; i < r.tasks(); i++) {
                m.append(r.method());
                d.append(r.dataset());
                s.append(r.setting());
                u.append(r.firstTask() + i);
                st.append(r.status());
                double accuracy = Double.NaN;
                if (episodes != null) {
                    accuracy = episodes[i];
                } else if (seen != null) {
                    fsil.eval.metrics.Value steps = seen.get(i).get("acc");
                    accuracy = steps.get(steps.size() - 1).asDouble();
                }
                acc.append(accuracy);
            }
        }
        return Table.create("tasks", m, d, s, u, st, acc);
    }

    private List<UnitRecord> sortedUnits() {
        List<UnitRecord> l = new ArrayList<>(outcome.records());
        l.sort((a, b) -> {
            int c = Integer.compare(settings.indexOf(a.setting()), settings.indexOf(b.setting()));
            if (c == 0) {
                c = Integer.compare(methods.indexOf(a.method()), methods.indexOf(b.method()));
            }
            return c != 0 ? c : Integer.compare(a.unit(), b.unit());
        });
        return l;
    }

    private String onlyDataset() {
        if (spec.datasets().size() != 1) {
            throw new FsilException("this run has several datasets " + spec.datasets() + ": name one");
        }
        return spec.datasets().get(0);
    }

    /**
     * The setting a short description stands for: the exact label, or the only label that contains every
     * space-separated word of it (e.g. {@code "1-shot dirichlet"}).
     */
    public String setting(String query) {
        if (settings.contains(query)) {
            return query;
        }
        List<String> words = List.of(query.trim().split("\\s+"));
        List<String> hits = settings.stream()
                .filter(s -> List.of(s.split("\\s+")).containsAll(words) || words.stream().allMatch(s::contains))
                .toList();
        if (hits.size() == 1) {
            return hits.get(0);
        }
        throw new FsilException((hits.isEmpty() ? "no setting matches '" : "several settings match '") + query
                + "'. Settings of this run: " + settings);
    }

    /** A summary number of a method in a setting (the only dataset of the run); step-free metrics. */
    public Estimate value(String method, String setting, String metric) {
        return value(method, onlyDataset(), setting, metric, null);
    }

    /**
     * A summary number.
     *
     * @param step null for whole-run metrics, the step index for per-step ones ({@code acc_seen}, {@code relative_acc})
     */
    public Estimate value(String method, String dataset, String setting, String metric, Integer step) {
        if (!methods.contains(method)) {
            throw new FsilException("no method '" + method + "' in this run: " + methods);
        }
        Estimate e = entries.get(key(method, dataset, setting(setting), metric, step));
        if (e == null) {
            throw new FsilException("no '" + metric + "'" + (step == null ? "" : " at step " + step) + " for " + method
                    + " on " + dataset + " / " + setting(setting) + "; metrics: " + metricsOf(method));
        }
        return e;
    }

    /** The last step's value of a per-step metric (e.g. the final {@code relative_acc}). */
    public Estimate last(String method, String setting, String metric) {
        String ds = onlyDataset();
        String s = setting(setting);
        Estimate last = null;
        for (Map.Entry<List<Object>, Estimate> e : entries.entrySet()) {
            List<Object> k = e.getKey();
            if (k.get(0).equals(method) && k.get(1).equals(ds) && k.get(2).equals(s) && k.get(3).equals(metric)
                    && k.get(4) != null) {
                last = e.getValue();
            }
        }
        if (last == null) {
            throw new FsilException("no per-step '" + metric + "' for " + method + " / " + s + "; metrics: "
                    + metricsOf(method));
        }
        return last;
    }

    private Set<String> metricsOf(String method) {
        Set<String> m = new LinkedHashSet<>();
        entries.keySet().stream().filter(k -> k.get(0).equals(method)).forEach(k -> m.add((String) k.get(3)));
        return m;
    }

    /** The protocol's headline numbers, one row per dataset, setting and method (as in the HTML report). */
    public Table headline() {
        Map<String, String> cols = Summary.headlineMetrics(incremental, false, Summary.scaled(outcome.records()));
        StringColumn ds = StringColumn.create("dataset");
        StringColumn st = StringColumn.create("setting");
        StringColumn me = StringColumn.create("method");
        List<StringColumn> values = new ArrayList<>();
        cols.values().forEach(c -> values.add(StringColumn.create(c)));
        for (String d : spec.datasets()) {
            for (String s : settings) {
                for (String m : methods) {
                    ds.append(d);
                    st.append(s);
                    me.append(m);
                    int i = 0;
                    for (String metric : cols.keySet()) {
                        Estimate e = entries.get(key(m, d, s, metric, null));
                        values.get(i++).append(e == null ? "" : e.format(metric));
                    }
                }
            }
        }
        Table t = Table.create(protocol + " results", ds, st, me);
        values.forEach(t::addColumns);
        if (spec.datasets().size() == 1) {
            t.removeColumns("dataset");
        }
        if (settings.size() == 1) {
            t.removeColumns("setting");
        }
        return t;
    }

    /** One metric as a method x setting table (the shape of the papers' tables), formatted. */
    public Table pivot(String metric) {
        StringColumn me = StringColumn.create("method");
        methods.forEach(me::append);
        Table t = Table.create(metric, me);
        for (String d : spec.datasets()) {
            for (String s : settings) {
                StringColumn c = StringColumn.create(spec.datasets().size() > 1 ? d + " / " + s : s);
                for (String m : methods) {
                    Estimate e = entries.get(key(m, d, s, metric, null));
                    c.append(e == null ? "" : e.format(metric));
                }
                t.addColumns(c);
            }
        }
        return t;
    }

    /** All rows of one metric as numbers (method, dataset, setting, step, classes, value, ci95, n). */
    public Table metric(String metric) {
        Table t = summary.where(summary.stringColumn("metric").isEqualTo(metric));
        return t.selectColumns("method", "dataset", "setting", "step", "classes", "value", "ci95", "n").setName(metric);
    }

    /** Bars with 95% CI whiskers per method (one setting) or grouped bars per setting (several). */
    public Plot bars(String metric) {
        boolean pct = percent(metric);
        String yTitle = metric + (pct ? " (%)" : "");
        double scale = pct ? 100 : 1;
        List<String[]> groups = new ArrayList<>();
        for (String d : spec.datasets()) {
            for (String s : settings) {
                groups.add(new String[]{d, s});
            }
        }
        String ctx = spec.datasets().size() == 1 ? " (" + spec.datasets().get(0) + ")" : "";
        if (groups.size() == 1) {
            double[] v = new double[methods.size()];
            double[] ci = new double[methods.size()];
            for (int i = 0; i < methods.size(); i++) {
                Estimate e = entries.get(key(methods.get(i), groups.get(0)[0], groups.get(0)[1], metric, null));
                v[i] = e == null ? Double.NaN : scale * e.value();
                ci[i] = e == null || e.n() < 2 ? Double.NaN : scale * e.ci95();
            }
            return Figures.bars(metric + ", " + groups.get(0)[1] + ctx + ", 95% CI", yTitle, methods, v, ci);
        }
        List<String> categories = groups.stream().map(g -> spec.datasets().size() > 1 ? g[0] + " / " + g[1] : g[1])
                .toList();
        List<double[]> series = new ArrayList<>();
        for (String m : methods) {
            double[] v = new double[groups.size()];
            for (int i = 0; i < groups.size(); i++) {
                Estimate e = entries.get(key(m, groups.get(i)[0], groups.get(i)[1], metric, null));
                v[i] = e == null ? Double.NaN : scale * e.value();
            }
            series.add(v);
        }
        return Figures.groupedBars(metric + ctx, yTitle, categories, methods, series);
    }

    /** A per-step metric ({@code acc_seen}, {@code relative_acc}, {@code step_fit_s}) against the classes seen. */
    public Plot curve(String metric) {
        boolean pct = percent(metric);
        double scale = pct ? 100 : 1;
        List<Figures.Series> series = new ArrayList<>();
        boolean several = spec.datasets().size() * settings.size() > 1;
        for (String d : spec.datasets()) {
            for (String s : settings) {
                for (String m : methods) {
                    List<double[]> pts = new ArrayList<>();
                    for (Row r : summary) {
                        if (r.getString("method").equals(m) && r.getString("dataset").equals(d)
                                && r.getString("setting").equals(s) && r.getString("metric").equals(metric)
                                && !r.isMissing("classes")) {
                            pts.add(new double[]{r.getInt("classes"), scale * r.getDouble("value"),
                                    scale * r.getDouble("ci95")});
                        }
                    }
                    if (!pts.isEmpty()) {
                        series.add(new Figures.Series(several ? m + " (" + (spec.datasets().size() > 1 ? d + ", " : "")
                                + s + ")" : m, column(pts, 0), column(pts, 1), column(pts, 2)));
                    }
                }
            }
        }
        if (series.isEmpty()) {
            throw new FsilException("no per-step '" + metric + "' in this run (per-step metrics: acc_seen, "
                    + "relative_acc, step_fit_s for incremental protocols)");
        }
        String ctx = several ? "" : " (" + spec.datasets().get(0) + ", " + settings.get(0) + ")";
        return Figures.lines(metric + ctx + ", 95% CI shaded", "number of classes seen", metric + (pct ? " (%)" : ""),
                series);
    }

    private static double[] column(List<double[]> pts, int c) {
        return pts.stream().mapToDouble(p -> p[c]).toArray();
    }

    /** Reliability diagram (15 bins, pooled over units) of every method in one setting. */
    public Plot reliability(String setting) {
        String ds = onlyDataset();
        String s = setting(setting);
        // ReliabilityTable: per method, setting and bin, the pooled count, mean confidence and accuracy.
        Table bins = ReliabilityTable.of(outcome.records());
        List<Figures.Series> series = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        List<Boolean> scaled = new ArrayList<>();
        for (String m : methods) {
            for (String probabilities : List.of("raw", "temperature-scaled")) {
                Table t = bins.where(bins.stringColumn("method").isEqualTo(m)
                        .and(bins.stringColumn("dataset").isEqualTo(ds)).and(bins.stringColumn("setting").isEqualTo(s))
                        .and(bins.stringColumn("probabilities").isEqualTo(probabilities)));
                boolean ts = !probabilities.equals("raw");
                Estimate ece = entries.get(key(m, ds, s, ts ? "ece_ts" : "ece", null));
                if (t.isEmpty() || ece == null) {
                    continue;
                }
                series.add(new Figures.Series(String.format(Locale.ROOT, "%s%s (ECE %.3f)", m, ts ? ", T-scaled" : "",
                        ece.value()), t.doubleColumn("confidence").asDoubleArray(),
                        t.doubleColumn("accuracy").asDoubleArray(), null));
                counts.add(t.intColumn("count").asList().stream().mapToLong(Integer::longValue).toArray());
                scaled.add(ts);
            }
        }
        return Figures.reliability("reliability, " + s + " (" + ds + "), 15 bins", series, counts, scaled, 10);
    }

    static boolean percent(String metric) {
        return metric.endsWith("acc") || metric.equals("acc_seen") || metric.startsWith("forgetting")
                || metric.equals("bwt");
    }

    /** Table notation: accuracies in percent with the 95% interval, times and sizes with 3 digits. */
    static String format(String metric, double value, double ci95) {
        if (Double.isNaN(value)) {
            return "";
        }
        if (percent(metric)) {
            return Double.isNaN(ci95) ? String.format(Locale.ROOT, "%.2f", 100 * value)
                    : String.format(Locale.ROOT, "%.2f ± %.2f", 100 * value, 100 * ci95);
        }
        if (metric.equals("failed_units") || metric.equals("units")) {
            return Long.toString(Math.round(value));
        }
        if (metric.equals("ece") || metric.equals("mce")) {
            return String.format(Locale.ROOT, "%.4f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    @Override
    public String toString() {
        return protocol + " results: " + outcome.tasks() + " tasks (" + failed() + " failed), methods "
                + methods + ", settings " + settings + ", datasets " + spec.datasets() + "; " + dir();
    }
}
