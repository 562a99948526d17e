package fsil.eval.run;

import fsil.api.FsilException;
import fsil.api.Method;
import fsil.data.FeatureSet;
import fsil.data.io.AtomicFiles;
import fsil.eval.compare.Comparison;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.Protocol;
import fsil.eval.report.Summary;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parameter selection on the validation classes ({@code fsil run --select 'ppca.q=0,4,10,20'}). Before the run,
 * every candidate (each value, or each combination when several parameters of one method are selected, the last
 * varying fastest) of every variant of the method runs the same protocol, settings and seeds with
 * {@code classes-from=validation}: a run of its own in {@code <run>/selection/}, resumable and with its own report.
 * Per (variant, dataset, setting) the candidate with the best mean of the selection metric wins (ties go to the
 * earliest candidate), {@code selection.csv} records every candidate's score and the choice, and the run proper
 * runs only the chosen configuration. The evaluation classes are never drawn while selecting: the run must
 * evaluate on classes disjoint from the validation classes ({@code classes-from=novel} or {@code base}).
 */
public final class Selection {
    /** The selection run's directory inside the run directory. */
    public static final String DIR = "selection";
    /** Every candidate's validation score and the choice. */
    public static final String TABLE = "selection.csv";
    static final String POOL_OPTION = "classes-from";

    private Selection() {
    }

    /** A (variant, dataset, setting) of the run. */
    public record Key(String variant, String dataset, String setting) {
    }

    private record Score(double value, double ci95, int n) {
    }

    /** One candidate of a variant: the selected parameters' values. */
    record Candidate(String variant, Map<String, String> values, String label) {
    }

    /**
     * Checks a plan's selection before anything runs: method.param names, values, the protocol's class pool
     * option, evaluation classes disjoint from validation classes, and validation classes in every dataset.
     */
    static void check(RunPlan plan) {
        RunSpec spec = plan.spec();
        if (spec.select().isEmpty()) {
            if (spec.selectMetric() != null) {
                throw new FsilException("--select-metric is given without --select: nothing is selected");
            }
            return;
        }
        candidates(plan); // names and values
        checkMetric(plan);
        Protocol protocol = plan.protocol();
        if (protocol.parameters().stream().noneMatch(p -> p.name().equals(POOL_OPTION))) {
            throw new FsilException("--select runs the protocol on the validation classes, and protocol "
                    + protocol.id() + " has no " + POOL_OPTION + " option to draw them (fewshot, cil, ncmf and "
                    + "gp-classes have one)");
        }
        for (RunPlan.Setting s : plan.settings()) {
            String pool = s.options().asText().get(POOL_OPTION);
            if (!pool.equals("novel") && !pool.equals("base")) {
                throw new FsilException("--select chooses on the validation classes, so the run must evaluate on "
                        + "other classes; setting '" + s.label() + "' draws " + POOL_OPTION + "=" + pool
                        + ". Add --option " + POOL_OPTION + "=novel");
            }
        }
        for (Map.Entry<String, FeatureSet> d : plan.data().entrySet()) {
            if (d.getValue().splits().validation().length == 0) {
                throw new FsilException("--select chooses on validation classes, and dataset " + d.getKey()
                        + " has none (its split: " + d.getValue().splits().base().length + " base, 0 validation, "
                        + d.getValue().splits().novel().length + " novel classes); use a dataset with a validation "
                        + "split (e.g. glyphs), or choose parameters without --select");
            }
        }
    }

    /** Scores of few-shot episodes (one summary value per group, no step): what a selection may maximise. */
    static final List<String> EPISODE_SCORES = List.of("episode_acc", "ece", "mce", "adaptive_ece", "nll", "brier");
    /** Scores of incremental runs. */
    static final List<String> INCREMENTAL_SCORES = List.of("final_acc", "avg_incremental_acc", "forgetting_max",
            "forgetting_first", "bwt", "ece", "mce", "adaptive_ece", "nll", "brier");
    /** What a run measures that is a cost, not a score. */
    static final Set<String> COSTS = Set.of("fit_s", "predict_s", "memory_bytes", "retrain_fit_s");

    /**
     * Refuses, before any work, a selection metric that the selection run could not use: an unknown name, a cost
     * (time, memory: the cheapest candidate is not the best), or a score the protocol's tasks do not have.
     */
    static void checkMetric(RunPlan plan) {
        String metric = plan.spec().selectMetric();
        if (metric == null) {
            return;
        }
        RunPlan.Group g = plan.groups().get(0);
        boolean episodes = g.plan().task(0, g.variant().method().capabilities())
                instanceof fsil.eval.protocol.LabeledTask.Episodic;
        List<String> valid = episodes ? EPISODE_SCORES : INCREMENTAL_SCORES;
        if (valid.contains(metric)) {
            return;
        }
        String why;
        if (COSTS.contains(metric)) {
            why = "is not a score but a cost (time or memory): selecting on it would choose the cheapest candidate, "
                    + "not the best";
        } else if (EPISODE_SCORES.contains(metric) || INCREMENTAL_SCORES.contains(metric)) {
            why = "is not measured by protocol " + plan.protocol().id() + " (its tasks are "
                    + (episodes ? "episodes" : "incremental runs") + ")";
        } else {
            why = "is an unknown metric";
        }
        throw new FsilException("--select-metric " + metric + " " + why + "; choose one of "
                + String.join(", ", valid) + " (ece, mce, adaptive_ece, nll, brier and forgetting are minimised)");
    }

    /** Whether the selection minimises a metric. */
    static boolean lowerIsBetter(String metric) {
        return Comparison.lowerIsBetter(metric) || metric.equals("adaptive_ece");
    }

    /** The candidates of each variant with selected parameters, by variant label, in grid order. */
    static Map<String, List<Candidate>> candidates(RunPlan plan) {
        RunSpec spec = plan.spec();
        // method id -> parameter -> values
        Map<String, Map<String, List<String>>> axes = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : spec.select().entrySet()) {
            String key = e.getKey();
            int dot = key.indexOf('.');
            if (dot <= 0 || dot == key.length() - 1) {
                throw new FsilException("--select '" + key + "=...' must name method.parameter, e.g. "
                        + "--select 'ppca.q=0,4,10'");
            }
            String method = key.substring(0, dot);
            String param = key.substring(dot + 1);
            if (plan.variants().stream().noneMatch(v -> v.method().id().equals(method))) {
                throw new FsilException("--select " + key + ": no variant of method '" + method + "' in --methods ("
                        + String.join(", ", plan.variants().stream().map(v -> v.method().id()).distinct().toList())
                        + ")");
            }
            if (new HashSet<>(e.getValue()).size() != e.getValue().size()) {
                throw new FsilException("--select " + key + " lists a value twice: " + e.getValue());
            }
            axes.computeIfAbsent(method, k -> new LinkedHashMap<>()).put(param, e.getValue());
        }
        Map<String, List<Candidate>> out = new LinkedHashMap<>();
        for (RunPlan.Variant v : plan.variants()) {
            Map<String, List<String>> a = axes.get(v.method().id());
            if (a == null) {
                continue;
            }
            VariantSpec vs = spec.methods().stream().filter(x -> x.label().equals(v.label())).findFirst()
                    .orElseThrow();
            for (String p : a.keySet()) {
                if (vs.params().containsKey(p)) {
                    throw new FsilException("variant '" + v.label() + "' sets " + p + " itself and --select chooses "
                            + "it: drop one of the two");
                }
            }
            List<Map<String, String>> grid = new ArrayList<>();
            grid.add(new LinkedHashMap<>());
            for (Map.Entry<String, List<String>> axis : a.entrySet()) {
                List<Map<String, String>> next = new ArrayList<>();
                for (Map<String, String> g : grid) {
                    for (String value : axis.getValue()) {
                        Map<String, String> m = new LinkedHashMap<>(g);
                        m.put(axis.getKey(), value);
                        next.add(m);
                    }
                }
                grid = next;
            }
            List<Candidate> list = new ArrayList<>();
            for (Map<String, String> values : grid) {
                Map<String, String> all = new LinkedHashMap<>(vs.params());
                all.putAll(values);
                v.method().params(all); // unknown parameters and bad values fail here, naming them
                list.add(new Candidate(v.label(), values, v.label() + "[" + text(values) + "]"));
            }
            out.put(v.label(), list);
        }
        return out;
    }

    static String text(Map<String, String> values) {
        List<String> parts = new ArrayList<>();
        values.forEach((k, x) -> parts.add(k + "=" + x));
        return String.join(",", parts);
    }

    /** What the selection runs: each candidate as a variant, the same options but on the validation classes. */
    static RunSpec spec(RunPlan plan) {
        List<VariantSpec> variants = new ArrayList<>();
        for (Map.Entry<String, List<Candidate>> e : candidates(plan).entrySet()) {
            VariantSpec vs = plan.spec().methods().stream().filter(x -> x.label().equals(e.getKey())).findFirst()
                    .orElseThrow();
            for (Candidate c : e.getValue()) {
                Map<String, String> params = new LinkedHashMap<>(vs.params());
                params.putAll(c.values());
                variants.add(new VariantSpec(c.label(), vs.method(), params));
            }
        }
        Map<String, List<String>> options = new LinkedHashMap<>(plan.spec().options());
        options.put(POOL_OPTION, List.of("validation"));
        return plan.spec().withMethodsAndOptions(variants, options);
    }

    /**
     * The choice per (variant, dataset, setting) from the selection run's rows; writes every candidate's score and
     * the choice to {@code table}.
     *
     * @throws FsilException when a selection unit failed or the metric was not measured
     */
    static Map<Key, Map<String, String>> choose(RunPlan plan, List<RunPlan.Setting> selectionSettings, List<UnitRecord> rows,
                                                List<Metric> metrics, Path table, List<String> notes) {
        for (UnitRecord r : rows) {
            if (!r.ok()) {
                throw new FsilException("the selection on validation classes failed: " + r.method() + " on "
                        + r.dataset() + " / " + r.setting() + ": " + r.error().replaceAll("[.\\s]+$", "")
                        + ". Drop that candidate from --select "
                        + "(the selection's own run is in " + DIR + "/)");
            }
        }
        String metric = plan.spec().selectMetric() != null ? plan.spec().selectMetric()
                : rows.stream().anyMatch(r -> r.value("episode_acc") != null) ? "episode_acc" : "final_acc";
        boolean lower = lowerIsBetter(metric);
        Table summary = Summary.summarize(rows, metrics);
        // (tablesaw reuses one Row while iterating: keep the values, not the rows)
        Map<List<String>, Score> scores = new HashMap<>();
        Set<String> measured = new java.util.TreeSet<>();
        for (Row r : summary) {
            if (r.isMissing("step")) {
                measured.add(r.getString("metric"));
                if (r.getString("metric").equals(metric)) {
                    scores.put(List.of(r.getString("method"), r.getString("dataset"), r.getString("setting")),
                            new Score(r.getDouble("value"), r.getDouble("ci95"), r.getInt("n")));
                }
            }
        }
        if (scores.isEmpty()) {
            measured.removeAll(Set.of("units", "failed_units"));
            throw new FsilException("--select-metric " + metric + " was not measured in the selection run; "
                    + "measured: " + String.join(", ", measured));
        }
        Map<List<String>, String> validationLabel = validationLabels(plan, selectionSettings);
        Table t = Table.create("selection", StringColumn.create("method"), StringColumn.create("dataset"),
                StringColumn.create("setting"), StringColumn.create("validation_setting"),
                StringColumn.create("candidate"), StringColumn.create("metric"), DoubleColumn.create("value"),
                DoubleColumn.create("ci95"), IntColumn.create("n"), BooleanColumn.create("chosen"));
        Map<Key, Map<String, String>> choices = new LinkedHashMap<>();
        Map<String, List<Candidate>> candidates = candidates(plan);
        for (String dataset : plan.data().keySet()) {
            for (RunPlan.Setting s : plan.settings()) {
                String vLabel = validationLabel.get(s.options().asText().entrySet().stream()
                        .map(Map.Entry::toString).toList());
                for (Map.Entry<String, List<Candidate>> e : candidates.entrySet()) {
                    int best = -1;
                    double bestValue = Double.NaN;
                    List<Score> found = new ArrayList<>();
                    for (int i = 0; i < e.getValue().size(); i++) {
                        Score r = scores.get(List.of(e.getValue().get(i).label(), dataset, vLabel));
                        if (r == null) {
                            throw new FsilException("the selection run has no " + metric + " for "
                                    + e.getValue().get(i).label() + " on " + dataset + " / " + vLabel
                                    + "; resume the run to complete it");
                        }
                        found.add(r);
                        double v = r.value();
                        if (best < 0 || (lower ? v < bestValue : v > bestValue)) {
                            best = i;
                            bestValue = v;
                        }
                    }
                    for (int i = 0; i < found.size(); i++) {
                        Score r = found.get(i);
                        t.stringColumn("method").append(e.getKey());
                        t.stringColumn("dataset").append(dataset);
                        t.stringColumn("setting").append(s.label());
                        t.stringColumn("validation_setting").append(vLabel);
                        t.stringColumn("candidate").append(text(e.getValue().get(i).values()));
                        t.stringColumn("metric").append(metric);
                        t.doubleColumn("value").append(r.value());
                        t.doubleColumn("ci95").append(r.ci95());
                        t.intColumn("n").append(r.n());
                        t.booleanColumn("chosen").append(i == best);
                    }
                    List<Candidate> tied = new ArrayList<>();
                    for (int i = 0; i < found.size(); i++) {
                        if (found.get(i).value() == bestValue) {
                            tied.add(e.getValue().get(i));
                        }
                    }
                    if (tied.size() > 1) {
                        notes.add(tie(e.getKey(), dataset, s.label(), metric, bestValue, tied));
                    }
                    choices.put(new Key(e.getKey(), dataset, s.label()), e.getValue().get(best).values());
                }
            }
        }
        StringWriter w = new StringWriter();
        t.write().csv(w);
        AtomicFiles.writeString(table, w.toString());
        return choices;
    }

    /** One line saying that candidates scored identically and which one was chosen by what rule. */
    static String tie(String variant, String dataset, String setting, String metric, double value,
                      List<Candidate> tied) {
        String values;
        if (tied.get(0).values().size() == 1) {
            String name = tied.get(0).values().keySet().iterator().next();
            values = name + " = " + String.join(", ", tied.stream().map(c -> c.values().get(name)).toList());
        } else {
            values = String.join(", ", tied.stream().map(c -> "[" + text(c.values()) + "]").toList());
        }
        return "selection: " + variant + " on " + dataset + " / " + setting + ": " + values + " tie on the "
                + "validation classes (" + metric + " " + value + "); chose " + text(tied.get(0).values())
                + ", the first in --select order";
    }

    /** Main setting (its options as text entries, the pool replaced) -> the selection run's setting label. */
    private static Map<List<String>, String> validationLabels(RunPlan plan, List<RunPlan.Setting> selectionSettings) {
        Map<List<String>, String> bySelectionOptions = new HashMap<>();
        for (RunPlan.Setting s : selectionSettings) {
            bySelectionOptions.put(s.options().asText().entrySet().stream().map(Map.Entry::toString).toList(),
                    s.label());
        }
        Map<List<String>, String> out = new HashMap<>();
        for (RunPlan.Setting s : plan.settings()) {
            Map<String, String> o = new LinkedHashMap<>(s.options().asText());
            o.put(POOL_OPTION, "validation");
            String label = bySelectionOptions.get(o.entrySet().stream().map(Map.Entry::toString).toList());
            if (label == null) {
                throw new IllegalStateException("no selection setting for " + s.label());
            }
            out.put(s.options().asText().entrySet().stream().map(Map.Entry::toString).toList(), label);
        }
        return out;
    }

    /** The method's parameters with a choice applied. */
    static fsil.api.Params chosenParams(Method method, VariantSpec variant, Map<String, String> choice) {
        Map<String, String> all = new LinkedHashMap<>(variant.params());
        all.putAll(choice);
        return method.params(all);
    }
}
