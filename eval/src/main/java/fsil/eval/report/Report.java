package fsil.eval.report;

import fsil.api.FsilException;
import fsil.data.Datasets;
import fsil.data.io.AtomicFiles;
import fsil.eval.compare.Comparison;
import fsil.eval.metrics.CalibrationBins;
import fsil.eval.metrics.Metric;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes the summaries ({@code summary.csv}, {@code a_matrix.csv}, {@code reliability.csv}) and an HTML report
 * (tables and Plotly figures) from a run's store alone. The report opens offline: {@code plotly.min.js} sits next to
 * it, a copy of its own (4.6 MB) checked against the hash of the shipped file, so no other run can change it. Every
 * user-given string is escaped for where it lands (HTML text, attribute, script, Plotly label).
 */
public final class Report {
    public static final String SUMMARY = "summary.csv";
    public static final String A_MATRIX = "a_matrix.csv";
    public static final String RELIABILITY = "reliability.csv";
    public static final String HTML = "report.html";
    public static final String PLOTLY = "plotly.min.js";
    static final String PLOTLY_VERSION = "2.35.2";
    /** SHA-256 of plotly.min.js 2.35.2 as fsil ships it (resource fsil/report/plotly.min.js). */
    static final String PLOTLY_SHA256 = "6d21266ce1bd7d9e5ab4e115989c70c20de0382fd973a8f26ab58619eba4d603";
    static final long PLOTLY_SIZE = 4_558_696;
    /** Reliability bins with fewer predictions are left out of the diagram (their accuracy is noise). */
    static final int MIN_BIN_COUNT = 10;

    private Report() {
    }

    /**
     * Rebuilds every summary and the report of a run directory from its units.csv; returns the invalid rows, which
     * the summaries leave out and the report names.
     */
    public static List<UnitStore.Invalid> rebuild(Path dir, List<Metric> metrics) {
        return rebuild(dir, metrics, Datasets.defaultCacheDir());
    }

    /** As {@link #rebuild(Path, List)}, with plotly.js cached in {@code cacheDir}. */
    public static List<UnitStore.Invalid> rebuild(Path dir, List<Metric> metrics, Path cacheDir) {
        Path units = dir.resolve(UnitStore.FILE);
        if (!Files.exists(units)) {
            throw new FsilException(dir + " has no " + UnitStore.FILE + ": not a run directory, or a run that stored "
                    + "nothing yet");
        }
        UnitStore.Contents c = UnitStore.read(units);
        write(dir, c.rows(), metrics, SettingOptions.read(dir), c.invalid(), cacheDir);
        return c.invalid();
    }

    /** The summaries and report of the records, with the setting columns of the run in {@code dir} (if any). */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics) {
        write(dir, records, metrics, SettingOptions.read(dir), List.of());
    }

    /** As {@link #write(Path, List, List)}, with plotly.js cached in {@code cacheDir}. */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, Path cacheDir) {
        write(dir, records, metrics, SettingOptions.read(dir), List.of(), cacheDir);
    }

    /** As {@link #write(Path, List, List)}, with the given setting options (say, those of several runs). */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings) {
        write(dir, records, metrics, settings, List.of());
    }

    /** As {@link #write(Path, List, List, SettingOptions)}, with plotly.js cached in {@code cacheDir}. */
    public static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings,
                             Path cacheDir) {
        write(dir, records, metrics, settings, List.of(), cacheDir);
    }

    static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings,
                      List<UnitStore.Invalid> invalid) {
        write(dir, records, metrics, settings, invalid, Datasets.defaultCacheDir());
    }

    static void write(Path dir, List<UnitRecord> records, List<Metric> metrics, SettingOptions settings,
                      List<UnitStore.Invalid> invalid, Path cacheDir) {
        List<Summary.Group> groups = Summary.groups(records); // one pass over the rows, for every table
        Table summary = Summary.summarizeGroups(groups, metrics, settings);
        writeCsv(dir.resolve(SUMMARY), summary);
        writeCsv(dir.resolve(A_MATRIX), Summary.aMatrixOf(groups));
        writeCsv(dir.resolve(RELIABILITY), Summary.reliabilityOf(groups));
        plotly(dir, cacheDir);
        String title = dir.toAbsolutePath().getFileName() == null ? "run" : dir.toAbsolutePath().getFileName().toString();
        AtomicFiles.writeString(dir.resolve(HTML), html(title, dir, records, groups, metrics, summary, invalid));
    }

    static void writeCsv(Path file, Table t) {
        StringWriter w = new StringWriter();
        t.write().csv(w);
        AtomicFiles.writeString(file, w.toString());
    }

    /**
     * plotly.min.js next to the report, from the cache of the default cache directory: see
     * {@link #plotly(Path, Path)}.
     */
    public static void plotly(Path dir) {
        plotly(dir, Datasets.defaultCacheDir());
    }

    /**
     * plotly.min.js next to the report: a private copy (written to a temporary file and renamed), so that no other
     * run can change the script of this report. Its bytes come from {@code plotly-2.35.2.min.js} in
     * {@code cacheDir} when that copy has the SHA-256 of the file fsil ships ({@link #PLOTLY_SHA256}); a cached copy
     * that differs (or is missing) is re-created from the resource. A run directory's copy that is intact and not
     * shared with another file (a hard link made by an older fsil) is left as it is; any other is replaced, so
     * {@code fsil report} repairs a damaged copy.
     */
    public static void plotly(Path dir, Path cacheDir) {
        Path target = dir.resolve(PLOTLY);
        if (intactPrivateCopy(target)) {
            return;
        }
        byte[] js = verifiedPlotly(cacheDir);
        AtomicFiles.write(target, out -> out.write(js));
    }

    /** Whether {@code file} holds exactly the shipped plotly.js and has no other name (hard link). */
    static boolean intactPrivateCopy(Path file) {
        try {
            if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    || Files.size(file) != PLOTLY_SIZE || links(file) != 1) {
                return false;
            }
            return PLOTLY_SHA256.equals(sha256(Files.readAllBytes(file)));
        } catch (IOException e) {
            return false;
        }
    }

    /** The number of names of a file (1 where the file system cannot tell). */
    private static int links(Path file) throws IOException {
        try {
            return ((Number) Files.getAttribute(file, "unix:nlink", java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .intValue();
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return 1;
        }
    }

    /**
     * The bytes of plotly.js, checked against {@link #PLOTLY_SHA256}: those of the cache's copy when it is intact,
     * else those of the resource, which then replace the cache's copy (atomically; a cache that cannot be written is
     * left as it is). The bytes returned are the ones checked, so a cache file changed meanwhile cannot slip in.
     */
    static byte[] verifiedPlotly(Path cacheDir) {
        Path shared = cacheDir == null ? null : cacheDir.resolve("plotly-" + PLOTLY_VERSION + ".min.js");
        if (shared != null) {
            try {
                if (Files.isRegularFile(shared) && Files.size(shared) == PLOTLY_SIZE) {
                    byte[] cached = Files.readAllBytes(shared);
                    if (PLOTLY_SHA256.equals(sha256(cached))) {
                        return cached;
                    }
                }
            } catch (IOException e) {
                // unreadable: re-created below
            }
        }
        byte[] js = plotlyResource();
        if (shared != null) {
            try {
                AtomicFiles.write(shared, out -> out.write(js));
            } catch (FsilException e) {
                // a read-only or full cache: the report still gets its copy from the resource
            }
        }
        return js;
    }

    /** The plotly.js fsil ships, checked against its hash. */
    static byte[] plotlyResource() {
        byte[] js;
        try (InputStream in = Report.class.getResourceAsStream("/fsil/report/plotly.min.js")) {
            if (in == null) {
                throw new FsilException("plotly.min.js is missing from fsil's eval jar");
            }
            js = in.readAllBytes();
        } catch (IOException e) {
            throw new FsilException("cannot read plotly.min.js from fsil's eval jar: " + e.getMessage(), e);
        }
        if (!PLOTLY_SHA256.equals(sha256(js))) {
            throw new FsilException("plotly.min.js in fsil's eval jar is damaged (SHA-256 " + sha256(js) + ", expected "
                    + PLOTLY_SHA256 + "): rebuild fsil");
        }
        return js;
    }

    static String sha256(byte[] b) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The report page: per dataset and setting, a headline table and the figures of the protocol. */
    static String html(String title, Path dir, List<UnitRecord> records, List<Summary.Group> all,
                       List<Metric> metrics, Table summary, List<UnitStore.Invalid> invalid) {
        Page page = new Page(title);
        page.h1("fsil report: " + title);
        int tasks = all.stream().mapToInt(Summary.Group::tasks).sum();
        int failed = all.stream().mapToInt(Summary.Group::failedTasks).sum();
        page.p(tasks + " tasks (episodes or runs), " + failed + " failed."
                + (failed > 0 ? " Failed units are listed at the end." : ""));
        page.raw("<p class=\"units\">" + Html.text(UNITS) + "</p>");
        if (!invalid.isEmpty()) {
            page.raw("<p class=\"warning\">" + Html.text(UnitStore.FILE + " holds " + invalid.size()
                    + " invalid row(s), left out of every number on this page: "
                    + new UnitStore.Contents(List.of(), invalid).describeInvalid(10)
                    + ". 'fsil run --resume' recomputes them.") + "</p>");
        }
        boolean scaled = all.stream().anyMatch(g -> g.has("calibration" + Metric.TEMPERATURE_SCALED));
        Map<List<String>, List<Summary.Group>> bySetting = new LinkedHashMap<>();
        for (Summary.Group g : all) {
            bySetting.computeIfAbsent(List.of(g.dataset(), g.protocol(), g.setting()), k -> new ArrayList<>()).add(g);
        }
        for (Map.Entry<List<String>, List<Summary.Group>> e : bySetting.entrySet()) {
            String dataset = e.getKey().get(0);
            String setting = e.getKey().get(2);
            List<Summary.Group> groups = e.getValue();
            boolean incremental = groups.stream().anyMatch(Summary.Group::incremental);
            boolean oneStep = incremental && groups.stream().allMatch(g -> java.util.stream.StreamSupport
                    .stream(g.values("a_matrix").spliterator(), false)
                    .allMatch(u -> u.size() == 0 || u.get(0).size() <= 1));
            boolean relative = groups.stream().anyMatch(g -> g.has("relative_acc"));
            page.h2(dataset + " / " + e.getKey().get(1) + " / " + setting);
            page.raw(headlineTable(summary, dataset, setting, groups, incremental && !oneStep, relative, oneStep,
                    scaled));
            String ctx = " (" + dataset + ", " + setting + ")";
            if (!incremental) {
                bars(page, summary, dataset, setting, groups, "episode_acc", "episode accuracy" + ctx);
            } else if (oneStep) {
                bars(page, summary, dataset, setting, groups, "final_acc", "accuracy" + ctx);
            } else {
                curve(page, summary, dataset, setting, groups, "acc_seen", "accuracy on seen classes a_t" + ctx);
                if (relative) {
                    curve(page, summary, dataset, setting, groups, "relative_acc",
                            "accuracy relative to retraining from scratch" + ctx);
                }
                for (Summary.Group g : groups) {
                    double[][] z = Summary.meanMatrix(g);
                    if (z.length >= 2) {
                        for (double[] row : z) {
                            for (int k = 0; k < row.length; k++) {
                                row[k] *= 100;
                            }
                        }
                        page.figure(Figures.heatmap("accuracy matrix A[t][k] (%): " + g.method() + ctx, z));
                    }
                }
            }
            reliability(page, groups, "reliability" + ctx);
            times(page, summary, dataset, setting, groups, "time per task (ms)" + ctx);
        }
        classSweeps(page, summary);
        selection(page, dir);
        comparison(page, records, all, metrics);
        if (failed > 0) {
            page.h2("Failed units");
            StringBuilder sb = new StringBuilder("<table><tr><th>method</th><th>dataset</th><th>setting</th>"
                    + "<th>unit</th><th>error</th></tr>");
            records.stream().filter(r -> !r.ok()).limit(200).forEach(r -> sb.append("<tr><td>")
                    .append(Html.text(r.method())).append("</td><td>").append(Html.text(r.dataset()))
                    .append("</td><td>").append(Html.text(r.setting())).append("</td><td>").append(r.unit())
                    .append("</td><td>").append(Html.text(r.error())).append("</td></tr>"));
            page.raw(sb.append("</table>").toString());
        }
        return page.finish();
    }

    /** selection.csv with its column types fixed (a dataset or candidate that looks like a number stays text). */
    public static Table selectionTable(Path file) {
        tech.tablesaw.api.ColumnType t = tech.tablesaw.api.ColumnType.STRING;
        return Table.read().usingOptions(tech.tablesaw.io.csv.CsvReadOptions.builder(file.toFile())
                .columnTypes(new tech.tablesaw.api.ColumnType[]{t, t, t, t, t, t,
                        tech.tablesaw.api.ColumnType.DOUBLE, tech.tablesaw.api.ColumnType.DOUBLE,
                        tech.tablesaw.api.ColumnType.INTEGER, tech.tablesaw.api.ColumnType.BOOLEAN})
                .tableName("selection"));
    }

    /** The choices of a selection on validation classes (selection.csv), if the run made one. */
    private static void selection(Page page, Path dir) {
        Path file = dir == null ? null : dir.resolve("selection.csv");
        if (file == null || !Files.isRegularFile(file)) {
            return;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            page.p("selection.csv cannot be read: " + e.getMessage());
            return;
        }
        page.h2("Parameters chosen on the validation classes");
        page.p("Each candidate ran the same settings and seeds on the validation classes (run in selection/); the "
                + "best mean of the selection metric was chosen, ties to the first candidate.");
        StringBuilder sb = new StringBuilder("<table><tr><th>method</th><th>dataset</th><th>setting</th>"
                + "<th>candidate</th><th>metric</th><th>value</th><th>chosen</th></tr>");
        Table t = selectionTable(file);
        for (int i = 0; i < t.rowCount(); i++) {
            Row r = t.row(i);
            boolean chosen = r.getBoolean("chosen");
            sb.append(chosen ? "<tr style=\"font-weight:bold\">" : "<tr>");
            for (String c : List.of("method", "dataset", "setting", "candidate", "metric")) {
                sb.append("<td>").append(Html.text(r.getString(c))).append("</td>");
            }
            sb.append("<td>").append(Html.text(format(r.getString("metric"), r.getDouble("value"),
                    r.getDouble("ci95"), r.getInt("n")))).append("</td><td>").append(chosen ? "yes" : "")
                    .append("</td></tr>");
        }
        page.raw(sb.append("</table>").toString());
    }

    /** Per protocol, paired statistics and ranks when some dataset and setting holds two or more methods. */
    private static void comparison(Page page, List<UnitRecord> records, List<Summary.Group> all,
                                   List<Metric> metrics) {
        // which protocols have pairs, from the groups (views of the rows): a run of one method holds no rows here
        Map<String, List<Summary.Group>> byProtocol = new java.util.TreeMap<>();
        all.forEach(g -> byProtocol.computeIfAbsent(g.protocol(), k -> new ArrayList<>()).add(g));
        for (Map.Entry<String, List<Summary.Group>> e : byProtocol.entrySet()) {
            boolean pairs = e.getValue().stream()
                    .collect(java.util.stream.Collectors.groupingBy(g -> List.of(g.dataset(), g.setting()),
                            java.util.stream.Collectors.counting()))
                    .values().stream().anyMatch(n -> n >= 2);
            if (!pairs) {
                continue;
            }
            page.h2("Comparison (" + e.getKey() + ")");
            try {
                List<UnitRecord> rows = records.stream().filter(r -> r.protocol().equals(e.getKey())).toList();
                Comparison c = Comparison.of(rows, metrics, null, null);
                page.raw(CompareReport.html(c, "fig" + page.nextFigure()));
                page.p("The same tables as CSV, other metrics or a baseline: fsil compare <run directory> "
                        + "[--baseline LABEL] [--metric NAME].");
            } catch (FsilException ex) {
                page.p("No paired comparison: " + ex.getMessage());
            }
        }
    }

    /** The row of a metric (one step, or the overall row when step is null), or null. */
    private static Row find(Table summary, String method, String dataset, String setting, String metric,
                            Integer step) {
        int found = -1;
        for (int i = 0; i < summary.rowCount(); i++) {
            if (matches(summary, i, method, dataset, setting, metric)
                    && (step == null ? summary.intColumn("step").isMissing(i)
                    : !summary.intColumn("step").isMissing(i) && summary.intColumn("step").getInt(i) == step)) {
                found = i;
            }
        }
        // a Row of its own: the rows a table's iterator hands out are one cursor that moves on
        return found < 0 ? null : summary.row(found);
    }

    /** The last step's row of a per-step metric. */
    private static Row last(Table summary, String method, String dataset, String setting, String metric) {
        int found = -1;
        for (int i = 0; i < summary.rowCount(); i++) {
            if (matches(summary, i, method, dataset, setting, metric)) {
                found = i;
            }
        }
        return found < 0 ? null : summary.row(found);
    }

    private static boolean matches(Table summary, int i, String method, String dataset, String setting,
                                   String metric) {
        return summary.stringColumn("method").get(i).equals(method)
                && summary.stringColumn("dataset").get(i).equals(dataset)
                && summary.stringColumn("setting").get(i).equals(setting)
                && summary.stringColumn("metric").get(i).equals(metric);
    }

    private static String headlineTable(Table summary, String dataset, String setting, List<Summary.Group> groups,
                                        boolean incremental, boolean relative, boolean oneStep, boolean scaled) {
        Map<String, String> cols = new LinkedHashMap<>(Summary.headlineMetrics(incremental, relative, scaled));
        if (oneStep) {
            cols.remove("episode_acc");
            Map<String, String> withAcc = new LinkedHashMap<>();
            withAcc.put("final_acc", "accuracy");
            withAcc.putAll(cols);
            cols = withAcc;
        }
        StringBuilder sb = new StringBuilder("<table class=\"headline\"><tr><th>method</th>");
        cols.forEach((metric, label) -> sb.append("<th>").append(Html.text(header(metric, label))).append("</th>"));
        sb.append("</tr>");
        for (Summary.Group g : groups) {
            sb.append("<tr><td>").append(Html.text(g.method())).append("</td>");
            for (String metric : cols.keySet()) {
                Row r = metric.equals("relative_acc") ? last(summary, g.method(), dataset, setting, metric)
                        : find(summary, g.method(), dataset, setting, metric, null);
                sb.append("<td>").append(r == null ? "" : Html.text(format(metric, r))).append("</td>");
            }
            sb.append("</tr>");
        }
        return sb.append("</table>").toString();
    }

    /** The convention of the report's numbers, stated once at its top. */
    static final String UNITS = "Units: accuracies, forgetting and BWT are in % (their differences in percentage "
            + "points); ECE, MCE and adaptive ECE are fractions (0-1), NLL is in nats, the Brier score is on its 0-2 "
            + "scale; times and memory carry their unit. ± is the 95% confidence interval over tasks. Headers repeat "
            + "the unit.";

    /** A column header with the unit of its metric (see {@link #UNITS}). */
    static String header(String metric, String label) {
        String base = metric.endsWith(Metric.TEMPERATURE_SCALED)
                ? metric.substring(0, metric.length() - Metric.TEMPERATURE_SCALED.length()) : metric;
        if (isPercent(metric)) {
            return label + " (%)";
        }
        return switch (base) {
            case "ece", "mce", "adaptive_ece" -> label + " (0-1)";
            case "nll" -> label + " (nats)";
            case "brier" -> label + " (0-2)";
            default -> label;
        };
    }

    /** A summary value for people: accuracies in %, with the 95% CI only when there are two or more units. */
    public static String format(String metric, Row r) {
        return format(metric, r.getDouble("value"), r.getDouble("ci95"), r.getInt("n"));
    }

    public static String format(String metric, double v, double ci, int n) {
        if (Double.isNaN(v)) {
            return "";
        }
        boolean interval = n >= 2 && !Double.isNaN(ci);
        if (isPercent(metric)) {
            return interval ? String.format(Locale.ROOT, "%.2f ± %.2f %%", 100 * v, 100 * ci)
                    : String.format(Locale.ROOT, "%.2f %%", 100 * v);
        }
        String base = metric.endsWith(Metric.TEMPERATURE_SCALED)
                ? metric.substring(0, metric.length() - Metric.TEMPERATURE_SCALED.length()) : metric;
        if (base.equals("ece") || base.equals("mce") || base.equals("adaptive_ece")) {
            return String.format(Locale.ROOT, "%.4f", v);
        }
        if (base.equals("nll") || base.equals("brier")) {
            return interval ? String.format(Locale.ROOT, "%.4f ± %.4f", v, ci) : String.format(Locale.ROOT, "%.4f", v);
        }
        if (metric.endsWith("_s")) {
            return seconds(v);
        }
        if (metric.equals("failed_units") || metric.equals("units")) {
            return Long.toString((long) v);
        }
        if (metric.endsWith("_bytes")) {
            return bytes(v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    static boolean isPercent(String metric) {
        return metric.endsWith("acc") || metric.equals("acc_seen") || metric.equals("forgetting_max")
                || metric.equals("forgetting_first") || metric.equals("bwt");
    }

    /** Seconds in a readable unit: µs, ms or s. */
    public static String seconds(double s) {
        if (s < 1e-3) {
            return String.format(Locale.ROOT, "%.1f µs", s * 1e6);
        }
        if (s < 1) {
            return String.format(Locale.ROOT, "%.2f ms", s * 1e3);
        }
        return String.format(Locale.ROOT, "%.2f s", s);
    }

    /** Bytes in a readable unit: B, KB, MB or GB (powers of 1000). */
    public static String bytes(double b) {
        String[] units = {"B", "KB", "MB", "GB", "TB"};
        int u = 0;
        while (Math.abs(b) >= 1000 && u < units.length - 1) {
            b /= 1000;
            u++;
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f B", b) : String.format(Locale.ROOT, "%.1f %s", b, units[u]);
    }

    private static void bars(Page page, Table summary, String dataset, String setting, List<Summary.Group> groups,
                             String metric, String title) {
        List<String> names = new ArrayList<>();
        List<Double> v = new ArrayList<>();
        List<Double> ci = new ArrayList<>();
        for (Summary.Group g : groups) {
            Row r = find(summary, g.method(), dataset, setting, metric, null);
            if (r != null) {
                names.add(g.method());
                v.add(100 * r.getDouble("value"));
                ci.add(r.getInt("n") >= 2 ? 100 * r.getDouble("ci95") : Double.NaN);
            }
        }
        if (!names.isEmpty()) {
            page.figure(Figures.bars(title + " with 95% CI", "accuracy (%)", names,
                    v.stream().mapToDouble(Double::doubleValue).toArray(),
                    ci.stream().mapToDouble(Double::doubleValue).toArray()));
        }
    }

    private static void curve(Page page, Table summary, String dataset, String setting, List<Summary.Group> groups,
                              String metric, String title) {
        List<Figures.Series> series = new ArrayList<>();
        for (Summary.Group g : groups) {
            List<double[]> pts = new ArrayList<>();
            for (Row r : summary) {
                if (r.getString("method").equals(g.method()) && r.getString("dataset").equals(dataset)
                        && r.getString("setting").equals(setting) && r.getString("metric").equals(metric)
                        && !r.isMissing("classes")) {
                    pts.add(new double[]{r.getInt("classes"), 100 * r.getDouble("value"),
                            r.getInt("n") >= 2 ? 100 * r.getDouble("ci95") : Double.NaN});
                }
            }
            if (!pts.isEmpty()) {
                series.add(new Figures.Series(g.method(), pts.stream().mapToDouble(p -> p[0]).toArray(),
                        pts.stream().mapToDouble(p -> p[1]).toArray(), pts.stream().mapToDouble(p -> p[2]).toArray()));
            }
        }
        if (!series.isEmpty()) {
            page.figure(Figures.lines(title + " (95% CI shaded)", "number of classes seen", metric + " (%)", series));
        }
    }

    private static void reliability(Page page, List<Summary.Group> groups, String title) {
        List<Figures.Series> series = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        List<Boolean> dashed = new ArrayList<>();
        for (Summary.Group g : groups) {
            for (boolean scaled : new boolean[]{false, true}) {
                CalibrationBins bins = Summary.pooledBins(g, scaled);
                if (bins == null) {
                    continue;
                }
                double[] x = new double[CalibrationBins.BINS];
                double[] y = new double[CalibrationBins.BINS];
                long[] n = new long[CalibrationBins.BINS];
                for (int b = 0; b < CalibrationBins.BINS; b++) {
                    x[b] = bins.meanConfidence(b);
                    y[b] = bins.accuracy(b);
                    n[b] = bins.count(b);
                }
                series.add(new Figures.Series(String.format(Locale.ROOT, "%s%s (ECE %.3f)", g.method(),
                        scaled ? ", T-scaled" : "", bins.ece()), x, y, null));
                counts.add(n);
                dashed.add(scaled);
            }
        }
        if (!series.isEmpty()) {
            page.figure(Figures.reliability(title + ", 15 bins", series, counts, dashed, MIN_BIN_COUNT));
        }
    }

    private static void times(Page page, Table summary, String dataset, String setting, List<Summary.Group> groups,
                              String title) {
        List<String> names = groups.stream().map(Summary.Group::method).toList();
        double[] fit = new double[names.size()];
        double[] pred = new double[names.size()];
        for (int i = 0; i < names.size(); i++) {
            Row f = find(summary, names.get(i), dataset, setting, "fit_s", null);
            Row p = find(summary, names.get(i), dataset, setting, "predict_s", null);
            fit[i] = f == null ? Double.NaN : 1e3 * f.getDouble("value");
            pred[i] = p == null ? Double.NaN : 1e3 * p.getDouble("value");
        }
        page.figure(Figures.times(title, names, fit, pred));
    }

    /** gp-classes: accuracy against the number of classes, one line per method over all settings. */
    private static void classSweeps(Page page, Table summary) {
        Set<String> datasets = new LinkedHashSet<>();
        for (Row r : summary) {
            if (r.getString("protocol").equals("gp-classes")) {
                datasets.add(r.getString("dataset"));
            }
        }
        for (String ds : datasets) {
            Map<String, List<double[]>> byMethod = new LinkedHashMap<>();
            for (Row r : summary) {
                if (r.getString("protocol").equals("gp-classes") && r.getString("dataset").equals(ds)
                        && r.getString("metric").equals("final_acc")) {
                    double c = Double.parseDouble(r.getString("setting").replaceAll("\\D+", ""));
                    byMethod.computeIfAbsent(r.getString("method"), k -> new ArrayList<>())
                            .add(new double[]{c, 100 * r.getDouble("value"),
                                    r.getInt("n") >= 2 ? 100 * r.getDouble("ci95") : Double.NaN});
                }
            }
            List<Figures.Series> series = new ArrayList<>();
            byMethod.forEach((m, pts) -> {
                pts.sort((a, b) -> Double.compare(a[0], b[0]));
                series.add(new Figures.Series(m, pts.stream().mapToDouble(p -> p[0]).toArray(),
                        pts.stream().mapToDouble(p -> p[1]).toArray(), pts.stream().mapToDouble(p -> p[2]).toArray()));
            });
            if (series.stream().anyMatch(s -> s.x().length > 1)) {
                page.h2(ds + " / gp-classes: accuracy versus number of classes");
                page.figure(Figures.lines("accuracy vs number of classes (" + ds + "), 95% CI shaded",
                        "number of classes", "accuracy (%)", series));
            }
        }
    }

    /**
     * Records script errors and figures that drew nothing into a hidden element, so a headless browser test can
     * check the page (data-errors, data-figures, data-empty).
     */
    static final String SELF_CHECK = "<div id=\"fsil-check\" style=\"display:none\"></div>\n<script>\n"
            + "window.addEventListener('load', function () {\n"
            + "  var figs = document.querySelectorAll('div.fig'); var empty = 0;\n"
            + "  figs.forEach(function (f) { var svg = f.querySelector('svg.main-svg');\n"
            + "    var marks = f.querySelectorAll('.trace, .hm, image, .point, .bars path');\n"
            + "    if (!svg || marks.length === 0) { empty++; } });\n"
            + "  var c = document.getElementById('fsil-check');\n"
            + "  c.setAttribute('data-figures', figs.length); c.setAttribute('data-empty', empty);\n"
            + "  c.setAttribute('data-errors', window.fsilErrors.length);\n"
            + "  c.textContent = window.fsilErrors.join(' | ');\n"
            + "});\n</script>\n";

    /** Minimal HTML page assembly. */
    static final class Page {
        private final StringBuilder body = new StringBuilder();
        private final String title;
        private int figures;

        Page(String title) {
            this.title = title;
        }

        void h1(String s) {
            body.append("<h1>").append(Html.text(s)).append("</h1>\n");
        }

        void h2(String s) {
            body.append("<h2>").append(Html.text(s)).append("</h2>\n");
        }

        void p(String s) {
            body.append("<p>").append(Html.text(s)).append("</p>\n");
        }

        void raw(String html) {
            body.append(html).append('\n');
        }

        void figure(Plot p) {
            body.append(p.html("fig" + (figures++)));
        }

        int nextFigure() {
            return figures++;
        }

        String finish() {
            return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"UTF-8\"><title>" + Html.text(title)
                    + "</title>\n<script>window.fsilErrors = [];window.addEventListener('error', function (e) "
                    + "{ window.fsilErrors.push(String(e.message)); });</script>\n<script src=\"" + PLOTLY
                    + "\"></script>\n<style>body{font-family:sans-serif;margin:2em}"
                    + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
                    + "text-align:right}th{background:#f0f0f0}td:first-child{text-align:left}"
                    + "table.headline td{white-space:nowrap}table.headline td:first-child{white-space:normal}"
                    + ".fig{margin:1em 0;width:100%}.units{color:#444}"
                    + ".warning{color:#a00;font-weight:bold}</style></head><body>\n" + body + SELF_CHECK
                    + "</body></html>\n";
        }
    }
}
