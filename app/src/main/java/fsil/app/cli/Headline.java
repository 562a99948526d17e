package fsil.app.cli;

import fsil.eval.metrics.Metric;
import fsil.eval.report.Summary;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The headline numbers of a run as a text table for the terminal, one per protocol, at most {@link TermTable#WIDTH}
 * columns wide: long dataset, setting, method and chosen-parameter texts are shortened (a legend below gives them
 * in full) and metrics that do not fit beside them continue in a second block.
 */
final class Headline {
    static final int DATASET_CAP = 20;
    static final int SETTING_CAP = 32;
    static final int METHOD_CAP = 20;
    static final int CHOSEN_CAP = 20;

    private Headline() {
    }

    static String text(List<UnitRecord> records, List<Metric> metrics) {
        return text(records, Map.of(), metrics);
    }

    /** With a column of the parameters chosen on the validation classes, when there are any. */
    static String text(List<UnitRecord> records, Map<fsil.eval.run.Selection.Key, Map<String, String>> chosen,
                       List<Metric> metrics) {
        Table summary = Summary.summarize(records, metrics);
        StringBuilder sb = new StringBuilder();
        for (String protocol : summary.stringColumn("protocol").unique().asList()) {
            boolean incremental = Summary.groups(records).stream()
                    .anyMatch(g -> g.protocol().equals(protocol) && g.incremental());
            Map<String, String> cols = new java.util.LinkedHashMap<>(Summary.headlineMetrics(incremental, false,
                    Summary.scaled(records)));
            if (protocol.equals("gp-classes")) {
                cols.keySet().removeIf(k -> k.startsWith("forgetting") || k.equals("bwt") || k.startsWith("avg"));
            }
            TermTable t = new TermTable(protocol).key("dataset", DATASET_CAP).key("setting", SETTING_CAP)
                    .label("method", METHOD_CAP);
            if (!chosen.isEmpty()) {
                t.key("chosen", CHOSEN_CAP);
            }
            cols.values().forEach(t::value);
            for (Summary.Group g : Summary.groups(records)) {
                if (!g.protocol().equals(protocol)) {
                    continue;
                }
                List<String> cells = new ArrayList<>(List.of(g.dataset(), g.setting(), g.method()));
                if (!chosen.isEmpty()) {
                    Map<String, String> c = chosen.get(new fsil.eval.run.Selection.Key(g.method(), g.dataset(),
                            g.setting()));
                    cells.add(c == null ? "" : String.join(",", c.entrySet().stream()
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
                    cells.add(v);
                });
                t.row(cells.toArray(String[]::new));
            }
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(t.render(TermTable.WIDTH));
        }
        return sb.toString();
    }

    /**
     * A value as the report writes it (accuracies in %, CI only for two or more units, ms, MB), the interval
     * written close ({@code 97.70±0.20 %}; {@code +-} where the terminal's charset has no '±'), µs as us.
     */
    static String plain(String metric, Row r) {
        return fsil.eval.report.Formats.format(metric, r).replace(" ± ", TermTable.PLUS_MINUS).replace("µs", "us");
    }
}
