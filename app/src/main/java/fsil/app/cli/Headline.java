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
        Table summary = Summary.summarize(records);
        StringBuilder sb = new StringBuilder();
        for (String protocol : summary.stringColumn("protocol").unique().asList()) {
            Map<String, String> cols = Summary.headlineMetrics(protocol);
            Table t = Table.create(protocol, StringColumn.create("dataset"), StringColumn.create("setting"),
                    StringColumn.create("method"));
            cols.values().forEach(c -> t.addColumns(StringColumn.create(c)));
            for (Summary.Group g : Summary.groups(records)) {
                if (!g.protocol().equals(protocol)) {
                    continue;
                }
                t.stringColumn("dataset").append(g.dataset());
                t.stringColumn("setting").append(g.setting());
                t.stringColumn("method").append(g.method());
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

    static String plain(String metric, Row r) {
        double v = r.getDouble("value");
        // One unit has no spread: "+- 0.00" would read as zero uncertainty, so the interval is left out.
        double ci = r.getInt("n") < 2 ? Double.NaN : r.getDouble("ci95");
        if (metric.endsWith("acc") || metric.startsWith("forgetting") || metric.equals("bwt")) {
            return Double.isNaN(ci) ? String.format(Locale.ROOT, "%.2f%%", 100 * v)
                    : String.format(Locale.ROOT, "%.2f +- %.2f%%", 100 * v, 100 * ci);
        }
        if (metric.equals("failed_units")) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }
}
