package fsil.eval.report;

import fsil.eval.metrics.Metric;
import fsil.eval.metrics.SummaryRows;
import fsil.eval.metrics.Value;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Summary tables computed from the rows of a run's store alone (so {@code fsil report} can rebuild them). Rows are
 * grouped by (method, dataset, protocol, setting) and sorted by unit, so the numbers do not depend on the order in
 * which units completed. Each metric summarises what it stored; {@code units} and {@code failed_units} count
 * tasks (episodes, runs).
 */
public final class Summary {
    public static final List<String> COLUMNS = List.of("method", "dataset", "protocol", "setting", "metric", "step",
            "classes", "value", "ci95", "ci95_t", "std", "n");

    private Summary() {
    }

    /**
     * The rows of one method on one dataset in one protocol setting, in unit order: a view of the run's rows (which
     * may be read from the store on each pass), so a group costs an index per unit, not its rows.
     */
    public record Group(String method, String dataset, String protocol, String setting, List<UnitRecord> units,
                        java.util.Set<String> stored, int tasks, int failedTasks) {

        /**
         * @param stored      the metrics that the group's successful units stored
         * @param tasks       the tasks (episodes, runs) of its units
         * @param failedTasks those of its failed units
         *                    (all three found while grouping: asking for them costs no pass over the rows)
         */
        public Group {
            stored = java.util.Set.copyOf(stored);
        }

        /** The successful units, in unit order. */
        public Iterable<UnitRecord> ok() {
            return () -> units.stream().filter(UnitRecord::ok).iterator();
        }

        /**
         * What a metric stored in the group's successful units, in unit order (units where it did not apply left
         * out); each pass goes through the rows again.
         */
        public Iterable<Value> values(String metric) {
            return () -> units.stream().filter(UnitRecord::ok).map(u -> u.value(metric))
                    .filter(java.util.Objects::nonNull).iterator();
        }

        /** Whether a metric stored anything in the group. */
        public boolean has(String metric) {
            return stored.contains(metric);
        }

        /** Whether the group's tasks are incremental streams. */
        public boolean incremental() {
            return has("acc_seen");
        }
    }

    /** Rows grouped and sorted deterministically: groups by dataset, protocol, setting, method; units by index. */
    public static List<Group> groups(List<UnitRecord> records) {
        // one pass over the rows, keeping each row's position and unit index (not the row)
        Map<List<String>, List<long[]>> m = new LinkedHashMap<>();
        Map<List<String>, java.util.Set<String>> stored = new java.util.HashMap<>();
        Map<List<String>, int[]> tasks = new java.util.HashMap<>(); // tasks, failed tasks
        int i = 0;
        for (UnitRecord r : records) {
            List<String> key = List.of(r.dataset(), r.protocol(), r.setting(), r.method());
            m.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[]{r.unit(), i++});
            int[] t = tasks.computeIfAbsent(key, k -> new int[2]);
            t[0] += r.tasks();
            t[1] += r.ok() ? 0 : r.tasks();
            java.util.Set<String> names = stored.computeIfAbsent(key, k -> new java.util.HashSet<>());
            if (r.ok()) {
                r.metrics().fields().forEach((name, v) -> {
                    if (!v.isNull()) {
                        names.add(name);
                    }
                });
            }
        }
        List<List<String>> keys = new ArrayList<>(m.keySet());
        keys.sort(Comparator.comparing((List<String> k) -> k.get(0)).thenComparing(k -> k.get(1))
                .thenComparing(k -> k.get(2)).thenComparing(k -> k.get(3)));
        List<Group> out = new ArrayList<>();
        for (List<String> k : keys) {
            List<long[]> v = m.get(k);
            v.sort(Comparator.comparingLong(x -> x[0])); // stable: as List.sort of the rows by unit
            int[] at = v.stream().mapToInt(x -> (int) x[1]).toArray();
            List<UnitRecord> units = new java.util.AbstractList<>() {
                public UnitRecord get(int j) {
                    return records.get(at[j]);
                }

                public int size() {
                    return at.length;
                }
            };
            out.add(new Group(k.get(3), k.get(0), k.get(1), k.get(2), units, stored.get(k), tasks.get(k)[0],
                    tasks.get(k)[1]));
        }
        return out;
    }

    private static Table emptySummary() {
        return Table.create("summary", StringColumn.create("method"), StringColumn.create("dataset"),
                StringColumn.create("protocol"), StringColumn.create("setting"), StringColumn.create("metric"),
                IntColumn.create("step"), IntColumn.create("classes"), DoubleColumn.create("value"),
                DoubleColumn.create("ci95"), DoubleColumn.create("ci95_t"), DoubleColumn.create("std"),
                IntColumn.create("n"));
    }

    /** The long-format summary: one row per method x dataset x protocol x setting x metric (x step). */
    public static Table summarize(List<UnitRecord> records, List<Metric> metrics) {
        return summarize(records, metrics, SettingOptions.none());
    }

    /**
     * The long-format summary with a column per protocol option of the settings right after {@code setting}
     * ({@code ways}, {@code shots}, {@code queries}, {@code query_allocation}, {@code steps}, ...; hyphens become
     * underscores; an option named like a summary column gets the prefix {@code setting_}). A column holds integers
     * when every value is one, else numbers when every value is one, else text; missing where a setting lacks it.
     */
    public static Table summarize(List<UnitRecord> records, List<Metric> metrics, SettingOptions settings) {
        return summarizeGroups(groups(records), metrics, settings);
    }

    /** As {@link #summarize(List, List, SettingOptions)}, of rows already grouped (each pass reads them again). */
    public static Table summarizeGroups(List<Group> groups, List<Metric> metrics, SettingOptions settings) {
        Table t = longSummary(groups, metrics);
        List<String> names = new ArrayList<>();
        for (Group g : groups) {
            for (String name : settings.of(g.protocol(), g.setting()).keySet()) {
                if (!names.contains(name)) {
                    names.add(name);
                }
            }
        }
        if (names.isEmpty()) {
            return t;
        }
        List<Column<?>> columns = new ArrayList<>(t.columns().subList(0, 4));
        for (String name : names) {
            List<String> values = new ArrayList<>();
            for (int r = 0; r < t.rowCount(); r++) {
                values.add(settings.of(t.stringColumn("protocol").get(r), t.stringColumn("setting").get(r)).get(name));
            }
            String column = name.replace('-', '_');
            columns.add(typed(t.columnNames().contains(column) ? "setting_" + column : column, values));
        }
        columns.addAll(t.columns().subList(4, t.columnCount()));
        return Table.create(t.name(), columns);
    }

    private static final Pattern INT = Pattern.compile("-?\\d{1,9}");
    private static final Pattern NUMBER = Pattern.compile("-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    /** Integers when every present value is one, numbers when every one is, else text. */
    static Column<?> typed(String name, List<String> values) {
        boolean ints = true;
        boolean numbers = true;
        for (String v : values) {
            if (v == null) {
                continue;
            }
            ints &= INT.matcher(v).matches();
            numbers &= NUMBER.matcher(v).matches();
        }
        if (ints) {
            IntColumn c = IntColumn.create(name);
            values.forEach(v -> {
                if (v == null) {
                    c.appendMissing();
                } else {
                    c.append(Integer.parseInt(v));
                }
            });
            return c;
        }
        if (numbers) {
            DoubleColumn c = DoubleColumn.create(name);
            values.forEach(v -> {
                if (v == null) {
                    c.appendMissing();
                } else {
                    c.append(Double.parseDouble(v));
                }
            });
            return c;
        }
        StringColumn c = StringColumn.create(name);
        values.forEach(v -> {
            if (v == null) {
                c.appendMissing();
            } else {
                c.append(v);
            }
        });
        return c;
    }

    private static Table longSummary(List<Group> groups, List<Metric> metrics) {
        Table t = emptySummary();
        for (Group g : groups) {
            SummaryRows out = (metric, step, classes, v) -> {
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
                t.doubleColumn("value").append(v.mean());
                t.doubleColumn("ci95").append(v.ci95());
                t.doubleColumn("ci95_t").append(v.ci95t());
                t.doubleColumn("std").append(v.std());
                t.intColumn("n").append(v.n());
            };
            out.add("units", g.tasks(), g.tasks());
            out.add("failed_units", g.failedTasks(), g.tasks());
            for (Metric m : metrics) {
                if (g.has(m.id())) {
                    m.summarize(g.values(m.id()), out);
                }
                if (m.usesProbabilities() && g.has(m.id() + Metric.TEMPERATURE_SCALED)) {
                    m.summarize(g.values(m.id() + Metric.TEMPERATURE_SCALED), (metric, step, classes, v) ->
                            out.add(metric + Metric.TEMPERATURE_SCALED, step, classes, v));
                }
            }
        }
        return t;
    }

    /** Whether any group of these records holds temperature-scaled metrics. */
    public static boolean scaled(List<UnitRecord> records) {
        for (UnitRecord r : records) {
            if (r.value("calibration" + Metric.TEMPERATURE_SCALED) != null) {
                return true;
            }
        }
        return false;
    }

    /** The row of a metric (one step, or the overall row when step is null), or null. */
    static Row find(Table summary, String method, String dataset, String setting, String metric, Integer step) {
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
    static Row last(Table summary, String method, String dataset, String setting, String metric) {
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

    /** Headline numbers for the report's first table: episodic or incremental. */
    public static Map<String, String> headlineMetrics(boolean incremental, boolean relative) {
        return headlineMetrics(incremental, relative, false);
    }

    /** As {@link #headlineMetrics(boolean, boolean)}, with the temperature-scaled ECE and NLL when {@code scaled}. */
    public static Map<String, String> headlineMetrics(boolean incremental, boolean relative, boolean scaled) {
        Map<String, String> m = new LinkedHashMap<>();
        if (!incremental) {
            m.put("episode_acc", "accuracy");
        } else {
            m.put("avg_incremental_acc", "avg incremental acc");
            m.put("final_acc", "final acc");
            m.put("forgetting_max", "forgetting (max)");
            m.put("bwt", "BWT");
            if (relative) {
                m.put("relative_acc", "final relative acc");
            }
        }
        m.put("ece", "ECE");
        m.put("mce", "MCE");
        m.put("nll", "NLL");
        if (scaled) {
            m.put("ece" + Metric.TEMPERATURE_SCALED, "ECE (T-scaled)");
            m.put("nll" + Metric.TEMPERATURE_SCALED, "NLL (T-scaled)");
        }
        m.put("fit_s", "fit / task");
        m.put("predict_s", "predict / task");
        m.put("memory_bytes", "memory");
        m.put("failed_units", "failed");
        return m;
    }
}
