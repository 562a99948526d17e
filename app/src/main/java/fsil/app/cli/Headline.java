package fsil.app.cli;

import fsil.eval.report.Summary;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The headline numbers of a run as a text table for the terminal. */
final class Headline {
    private Headline() {
    }

    static String text(List<UnitRecord> records) {
        return text(records, Map.of());
    }

    /** With a column of the parameters chosen on the validation classes, when there are any. */
    static String text(List<UnitRecord> records, Map<fsil.eval.run.Selection.Key, Map<String, String>> chosen) {
        Table summary = Summary.summarize(records, Cli.plugins().metrics().all());
        StringBuilder sb = new StringBuilder();
        for (String protocol : summary.stringColumn("protocol").unique().asList()) {
            boolean incremental = Summary.groups(records).stream()
                    .anyMatch(g -> g.protocol().equals(protocol) && g.incremental());
            Map<String, String> cols = new java.util.LinkedHashMap<>(Summary.headlineMetrics(incremental, false,
                    Summary.scaled(records)));
            if (protocol.equals("gp-classes")) {
                cols.keySet().removeIf(k -> k.startsWith("forgetting") || k.equals("bwt") || k.startsWith("avg"));
            }
            Table t = Table.create(protocol, StringColumn.create("dataset"), StringColumn.create("setting"),
                    StringColumn.create("method"));
            if (!chosen.isEmpty()) {
                t.addColumns(StringColumn.create("chosen"));
            }
            cols.values().forEach(c -> t.addColumns(StringColumn.create(c)));
            for (Summary.Group g : Summary.groups(records)) {
                if (!g.protocol().equals(protocol)) {
                    continue;
                }
                t.stringColumn("dataset").append(g.dataset());
                t.stringColumn("setting").append(g.setting());
                t.stringColumn("method").append(g.method());
                if (!chosen.isEmpty()) {
                    Map<String, String> c = chosen.get(new fsil.eval.run.Selection.Key(g.method(), g.dataset(),
                            g.setting()));
                    t.stringColumn("chosen").append(c == null ? "" : String.join(",", c.entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue()).toList()));
                }
                cols.forEach((metric, name) -> {
                    String v = "";
                    for (Row r : summary) {
                        if (r.getString("method").equals(g.method()) && r.getString("dataset").equals(g.dataset())
                                && r.getString("setting").equals(g.setting()) && r.getString("metric").equals(metric)
                                && r.isMissing("step")) {
                            v = plain(metric, r);
                        }
                    }
                    t.stringColumn(name).append(v);
                });
            }
            sb.append(t.printAll()).append('\n');
        }
        return sb.toString();
    }

    /** A value as the report writes it (accuracies in %, CI only for two or more units, ms, MB), in ASCII. */
    static String plain(String metric, Row r) {
        return fsil.eval.report.Report.format(metric, r).replace("±", "+-").replace("µs", "us");
    }
}
