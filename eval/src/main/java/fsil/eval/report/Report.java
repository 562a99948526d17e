package fsil.eval.report;

import fsil.eval.metrics.CalibrationBins;
import fsil.data.io.AtomicFiles;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitsCsv;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.plotly.components.Figure;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes the summaries ({@code summary.csv}, {@code a_matrix.csv}, {@code reliability.csv}) and a
 * self-contained HTML report (tables and tablesaw-jsplot figures, with {@code plotly.min.js} shipped next to
 * it, so no CDN is needed) from unit rows alone.
 */
public final class Report {
    public static final String SUMMARY = "summary.csv";
    public static final String A_MATRIX = "a_matrix.csv";
    public static final String RELIABILITY = "reliability.csv";
    public static final String HTML = "report.html";
    public static final String PLOTLY = "plotly.min.js";

    private Report() {
    }

    /** Rebuilds every summary and the report of a run directory from its units.csv. */
    public static void rebuild(Path dir) throws IOException {
        Path units = dir.resolve(UnitsCsv.FILE);
        if (!Files.exists(units)) {
            throw new fsil.api.FsilException(dir + " has no " + UnitsCsv.FILE + ": not a run directory");
        }
        write(dir, UnitsCsv.read(units).rows());
    }

    public static void write(Path dir, List<UnitRecord> records) throws IOException {
        Table summary = Summary.summarize(records);
        writeCsv(dir.resolve(SUMMARY), summary);
        writeCsv(dir.resolve(A_MATRIX), Summary.aMatrix(records));
        writeCsv(dir.resolve(RELIABILITY), Summary.reliability(records));
        try (InputStream in = Report.class.getResourceAsStream("/fsil/report/plotly.min.js")) {
            if (in == null) {
                throw new IOException("plotly.min.js missing from the fsil-eval jar");
            }
            Path tmp = dir.resolve(PLOTLY + ".tmp");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, dir.resolve(PLOTLY), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        AtomicFiles.writeString(dir.resolve(HTML), html(dir.getFileName() == null ? "run" : dir.getFileName().toString(),
                records, summary));
    }

    static void writeCsv(Path file, Table t) throws IOException {
        StringWriter w = new StringWriter();
        t.write().csv(w);
        AtomicFiles.writeString(file, w.toString());
    }

    /** The report page: per dataset and setting, a headline table and the figures of the protocol. */
    public static String html(String title, List<UnitRecord> records, Table summary) {
        Page page = new Page(title);
        page.h1("fsil report: " + title);
        long failed = records.stream().filter(r -> !r.ok()).count();
        page.p(records.size() + " units, " + failed + " failed." + (failed > 0 ? " Failed units are listed at the end." : ""));
        Map<List<String>, List<Summary.Group>> bySetting = new LinkedHashMap<>();
        for (Summary.Group g : Summary.groups(records)) {
            bySetting.computeIfAbsent(List.of(g.dataset(), g.protocol(), g.setting()), k -> new ArrayList<>()).add(g);
        }
        for (Map.Entry<List<String>, List<Summary.Group>> e : bySetting.entrySet()) {
            String dataset = e.getKey().get(0);
            String protocol = e.getKey().get(1);
            String setting = e.getKey().get(2);
            List<Summary.Group> groups = e.getValue();
            page.h2(dataset + " / " + protocol + " / " + setting);
            page.raw(headlineTable(summary, dataset, protocol, setting, groups));
            String ctx = " (" + dataset + ", " + setting + ")";
            if (protocol.equals("fewshot")) {
                accuracyBars(page, summary, dataset, setting, groups, "episode_acc", "episode accuracy" + ctx);
            } else if (protocol.equals("gp-classes")) {
                accuracyBars(page, summary, dataset, setting, groups, "final_acc", "accuracy" + ctx);
            } else {
                curve(page, summary, dataset, setting, groups, "acc_seen", "accuracy on seen classes a_t" + ctx);
                if (protocol.equals("ncmf")) {
                    curve(page, summary, dataset, setting, groups, "relative_acc",
                            "accuracy relative to retraining from scratch" + ctx);
                    curve(page, summary, dataset, setting, groups, "step_fit_s", "training time per step (s)" + ctx);
                }
                for (Summary.Group g : groups) {
                    heatmap(page, records, g);
                }
            }
            reliability(page, groups, "reliability" + ctx);
            times(page, summary, dataset, setting, groups, "time per unit (s)" + ctx);
        }
        classSweeps(page, summary);
        if (failed > 0) {
            page.h2("Failed units");
            StringBuilder sb = new StringBuilder("<table><tr><th>method</th><th>dataset</th><th>setting</th><th>unit</th>"
                    + "<th>error</th></tr>");
            records.stream().filter(r -> !r.ok()).limit(200).forEach(r -> sb.append("<tr><td>").append(esc(r.method()))
                    .append("</td><td>").append(esc(r.dataset())).append("</td><td>").append(esc(r.setting()))
                    .append("</td><td>").append(r.unit()).append("</td><td>").append(esc(r.error())).append("</td></tr>"));
            page.raw(sb.append("</table>").toString());
        }
        return page.finish();
    }

    private static Row find(Table summary, String method, String dataset, String setting, String metric, Integer step) {
        for (Row r : summary) {
            if (r.getString("method").equals(method) && r.getString("dataset").equals(dataset)
                    && r.getString("setting").equals(setting) && r.getString("metric").equals(metric)
                    && (step == null ? r.isMissing("step") : !r.isMissing("step") && r.getInt("step") == step)) {
                return r;
            }
        }
        return null;
    }

    private static String headlineTable(Table summary, String dataset, String protocol, String setting,
                                        List<Summary.Group> groups) {
        Map<String, String> cols = Summary.headlineMetrics(protocol);
        StringBuilder sb = new StringBuilder("<table><tr><th>method</th>");
        cols.values().forEach(c -> sb.append("<th>").append(esc(c)).append("</th>"));
        if (protocol.equals("ncmf")) {
            sb.append("<th>final relative acc</th>");
        }
        sb.append("</tr>");
        for (Summary.Group g : groups) {
            sb.append("<tr><td>").append(esc(g.method())).append("</td>");
            for (String metric : cols.keySet()) {
                Row r = find(summary, g.method(), dataset, setting, metric, null);
                sb.append("<td>").append(r == null ? "" : format(metric, r)).append("</td>");
            }
            if (protocol.equals("ncmf")) {
                Row last = null;
                for (Row r : summary) {
                    if (r.getString("method").equals(g.method()) && r.getString("dataset").equals(dataset)
                            && r.getString("setting").equals(setting) && r.getString("metric").equals("relative_acc")) {
                        last = r;
                    }
                }
                sb.append("<td>").append(last == null ? "" : format("relative_acc", last)).append("</td>");
            }
            sb.append("</tr>");
        }
        return sb.append("</table>").toString();
    }

    static String format(String metric, Row r) {
        double v = r.getDouble("value");
        double ci = r.getDouble("ci95");
        if (metric.endsWith("acc") || metric.equals("forgetting_max") || metric.equals("forgetting_first")
                || metric.equals("bwt") || metric.equals("relative_acc")) {
            return Double.isNaN(ci) ? String.format(Locale.ROOT, "%.2f%%", 100 * v)
                    : String.format(Locale.ROOT, "%.2f &plusmn; %.2f%%", 100 * v, 100 * ci);
        }
        if (metric.equals("ece") || metric.equals("mce")) {
            return String.format(Locale.ROOT, "%.4f", v);
        }
        if (metric.endsWith("_s")) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        if (metric.equals("failed_units")) {
            return Long.toString((long) v);
        }
        if (metric.equals("memory_bytes")) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    private static void accuracyBars(Page page, Table summary, String dataset, String setting,
                                     List<Summary.Group> groups, String metric, String title) {
        List<String> names = new ArrayList<>();
        List<Double> v = new ArrayList<>();
        List<Double> ci = new ArrayList<>();
        for (Summary.Group g : groups) {
            Row r = find(summary, g.method(), dataset, setting, metric, null);
            if (r != null) {
                names.add(g.method());
                v.add(r.getDouble("value"));
                ci.add(r.getDouble("ci95"));
            }
        }
        if (!names.isEmpty()) {
            page.figure(Figures.barsWithCi(title + " with 95% CI", "accuracy", names.toArray(new String[0]),
                    v.stream().mapToDouble(Double::doubleValue).toArray(), ci.stream().mapToDouble(Double::doubleValue).toArray()));
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
                    pts.add(new double[]{r.getInt("classes"), r.getDouble("value"), r.getDouble("ci95")});
                }
            }
            if (!pts.isEmpty()) {
                series.add(new Figures.Series(g.method(), pts.stream().mapToDouble(p -> p[0]).toArray(),
                        pts.stream().mapToDouble(p -> p[1]).toArray(), pts.stream().mapToDouble(p -> p[2]).toArray()));
            }
        }
        if (!series.isEmpty()) {
            page.figure(Figures.lines(title, "number of classes seen", metric, series));
        }
    }

    private static void heatmap(Page page, List<UnitRecord> records, Summary.Group g) {
        List<UnitRecord> ok = g.ok();
        if (ok.isEmpty() || ok.get(0).aMatrix().length < 2) {
            return;
        }
        int steps = ok.stream().mapToInt(u -> u.aMatrix().length).min().orElse(0);
        double[][] z = new double[steps][steps];
        for (int t = 0; t < steps; t++) {
            for (int k = 0; k < steps; k++) {
                if (k > t) {
                    z[t][k] = Double.NaN;
                    continue;
                }
                double s = 0;
                int n = 0;
                for (UnitRecord u : ok) {
                    double v = u.aMatrix()[t][k];
                    if (!Double.isNaN(v)) {
                        s += v;
                        n++;
                    }
                }
                z[t][k] = n == 0 ? Double.NaN : s / n;
            }
        }
        Object[] x = new Object[steps];
        Object[] y = new Object[steps];
        for (int i = 0; i < steps; i++) {
            x[i] = "exp " + i;
            y[i] = "after step " + i;
        }
        page.figure(Figures.heatmap("accuracy matrix A[t][k]: " + g.method() + " (" + g.dataset() + ", " + g.setting() + ")",
                "experience k (classes introduced at step k)", "after step t", x, y, z));
    }

    private static void reliability(Page page, List<Summary.Group> groups, String title) {
        List<Figures.Series> series = new ArrayList<>();
        for (Summary.Group g : groups) {
            CalibrationBins bins = Summary.pooledBins(g.ok());
            if (bins == null) {
                continue;
            }
            List<double[]> pts = new ArrayList<>();
            for (int b = 0; b < bins.bins(); b++) {
                if (bins.count(b) > 0) {
                    pts.add(new double[]{bins.meanConfidence(b), bins.accuracy(b)});
                }
            }
            series.add(new Figures.Series(String.format(Locale.ROOT, "%s (ECE %.3f)", g.method(), bins.ece()),
                    pts.stream().mapToDouble(p -> p[0]).toArray(), pts.stream().mapToDouble(p -> p[1]).toArray(), null));
        }
        if (!series.isEmpty()) {
            page.figure(Figures.reliability(title + ", 15 bins", series));
        }
    }

    private static void times(Page page, Table summary, String dataset, String setting, List<Summary.Group> groups,
                              String title) {
        String[] names = groups.stream().map(Summary.Group::method).toArray(String[]::new);
        double[] fit = new double[names.length];
        double[] pred = new double[names.length];
        for (int i = 0; i < names.length; i++) {
            Row f = find(summary, names[i], dataset, setting, "fit_s", null);
            Row p = find(summary, names[i], dataset, setting, "predict_s", null);
            fit[i] = f == null ? 0 : f.getDouble("value");
            pred[i] = p == null ? 0 : p.getDouble("value");
        }
        page.figure(Figures.groupedBars(title, "seconds", names, List.of("fit (learn)", "predict"), List.of(fit, pred)));
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
                            .add(new double[]{c, r.getDouble("value"), r.getDouble("ci95")});
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
                page.figure(Figures.lines("accuracy vs number of classes (" + ds + "), 95% CI dotted",
                        "number of classes", "accuracy", series));
            }
        }
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /**
     * Records script errors and figures that drew nothing into a hidden element, so a headless browser test can
     * check the page (data-errors, data-figures, data-empty).
     */
    static final String SELF_CHECK = "<div id=\"fsil-check\" style=\"display:none\"></div>\n<script>\n"
            + "window.fsilErrors = window.fsilErrors || [];\n"
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
            body.append("<h1>").append(esc(s)).append("</h1>\n");
        }

        void h2(String s) {
            body.append("<h2>").append(esc(s)).append("</h2>\n");
        }

        void p(String s) {
            body.append("<p>").append(esc(s)).append("</p>\n");
        }

        void raw(String html) {
            body.append(html).append('\n');
        }

        void figure(Figure f) {
            String id = "fig" + (figures++);
            body.append("<div class=\"fig\" id=\"").append(id).append("\"></div>\n");
            body.append(f.asJavascript(id)).append('\n');
        }

        String finish() {
            return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"UTF-8\"><title>" + esc(title)
                    + "</title>\n<script>window.fsilErrors = [];window.addEventListener('error', function (e) "
                    + "{ window.fsilErrors.push(String(e.message)); });</script>\n<script src=\"" + PLOTLY + "\"></script>\n<style>body{font-family:sans-serif;margin:2em}"
                    + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
                    + "text-align:right}th{background:#f0f0f0}td:first-child{text-align:left}.fig{margin:1em 0}</style>"
                    + "</head><body>\n" + body + SELF_CHECK + "</body></html>\n";
        }
    }
}
