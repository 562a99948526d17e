package fsil.eval.report;

import fsil.api.FsilException;
import fsil.eval.compare.Comparison;
import fsil.eval.metrics.Metric;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report page of a run: per dataset and setting a headline table and the figures of its protocol
 * ({@link ReportFigures}), then the selection, the paired comparison and the failed units. Every user-given string is
 * escaped for where it lands (HTML text, attribute, script, Plotly label).
 */
final class ReportPage {
    private ReportPage() {
    }

    /** The report page: per dataset and setting, a headline table and the figures of the protocol. */
    static String html(String title, Path dir, List<UnitRecord> records, List<Summary.Group> all,
                       List<Metric> metrics, Table summary, List<UnitStore.Invalid> invalid) {
        HtmlPage page = new HtmlPage(title);
        page.h1("fsil report: " + title);
        int tasks = all.stream().mapToInt(Summary.Group::tasks).sum();
        int failed = all.stream().mapToInt(Summary.Group::failedTasks).sum();
        page.p(tasks + " tasks (episodes or runs), " + failed + " failed."
                + (failed > 0 ? " Failed units are listed at the end." : ""));
        page.raw("<p class=\"units\">" + Html.text(Formats.UNITS) + "</p>");
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
            ReportFigures.ofSetting(page, summary, dataset, setting, groups, incremental, oneStep, relative);
        }
        ReportFigures.classSweeps(page, summary);
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

    /** The choices of a selection on validation classes (selection.csv), if the run made one. */
    private static void selection(HtmlPage page, Path dir) {
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
        Table t = CsvTables.readSelection(file);
        for (int i = 0; i < t.rowCount(); i++) {
            Row r = t.row(i);
            boolean chosen = r.getBoolean("chosen");
            sb.append(chosen ? "<tr style=\"font-weight:bold\">" : "<tr>");
            for (String c : List.of("method", "dataset", "setting", "candidate", "metric")) {
                sb.append("<td>").append(Html.text(r.getString(c))).append("</td>");
            }
            sb.append("<td>").append(Html.text(Formats.format(r.getString("metric"), r.getDouble("value"),
                    r.getDouble("ci95"), r.getInt("n")))).append("</td><td>").append(chosen ? "yes" : "")
                    .append("</td></tr>");
        }
        page.raw(sb.append("</table>").toString());
    }

    /** Per protocol, paired statistics and ranks when some dataset and setting holds two or more methods. */
    private static void comparison(HtmlPage page, List<UnitRecord> records, List<Summary.Group> all,
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
        cols.forEach((metric, label) -> sb.append("<th>").append(Html.text(Formats.header(metric, label)))
                .append("</th>"));
        sb.append("</tr>");
        for (Summary.Group g : groups) {
            sb.append("<tr><td>").append(Html.text(g.method())).append("</td>");
            for (String metric : cols.keySet()) {
                Row r = metric.equals("relative_acc") ? Summary.last(summary, g.method(), dataset, setting, metric)
                        : Summary.find(summary, g.method(), dataset, setting, metric, null);
                sb.append("<td>").append(r == null ? "" : Html.text(Formats.format(metric, r))).append("</td>");
            }
            sb.append("</tr>");
        }
        return sb.append("</table>").toString();
    }
}
