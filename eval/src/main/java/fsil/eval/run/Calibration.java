package fsil.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.api.ClassTable;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;
import fsil.data.io.AtomicFiles;
import fsil.eval.metrics.CalibrationMetrics;
import fsil.eval.store.UnitRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Post-hoc temperature scaling of every method's probabilities ({@code fsil run --calibrate temperature}; Guo et
 * al., ICML 2017): one temperature T per (variant, dataset, setting), fitted by minimising the NLL of
 * softmax(log p / T) on held-out predictions that never come from the evaluation data, then applied to the run's
 * probabilities. Calibration metrics (ECE, MCE, adaptive ECE, NLL, Brier) are reported raw and scaled side by side
 * ({@code ece} and {@code ece_ts}); labels, hence every accuracy, are unchanged (softmax(log p / T) keeps each
 * row's order).
 *
 * <p><b>Fit data.</b> When the protocol draws its classes from a pool ({@code classes-from}) and every setting draws
 * novel or base classes: tasks of the same settings on the <i>validation</i> classes, or, when a dataset has no
 * validation split and the run evaluates novel classes, on the <i>base</i> classes. Otherwise (class-incremental
 * protocols, which draw every class): the same protocol on a held-out {@value #HELD_OUT_PERCENT}% of each class's
 * training samples, the rest of them for training, so the test data is never seen. The fit runs as a run of its own
 * in {@code <run>/calibration/} (resumable, with its report), records every fit in {@code temperature.csv} and
 * {@code config.json}, and says there which data it used. Methods that calibrate their own probabilities (lsgp's
 * temperature) keep doing so: the scaling applies on top, and a fitted T near 1 says it had little to add.
 */
public final class Calibration {
    public static final String DIR = "calibration";
    public static final String TABLE = "temperature.csv";
    static final int HELD_OUT_PERCENT = 20;
    /**
     * Held-out classes below which a fit gets a warning: a temperature fitted on a few (easy) classes need not carry
     * over to the evaluation classes (ncm on digits, fitted on its 5 base classes: ECE 0.024 raw, 0.118 scaled).
     */
    static final int MIN_FIT_CLASSES = 10;

    private Calibration() {
    }

    /** Where the temperatures are fitted. */
    enum Source {
        VALIDATION("tasks of the same settings on the validation classes"),
        BASE("tasks of the same settings on the base classes (the datasets have no validation split)"),
        HELD_OUT("the same protocol on a held-out " + HELD_OUT_PERCENT + "% of each class's training samples (trained "
                + "on the other " + (100 - HELD_OUT_PERCENT) + "%)");

        final String description;

        Source(String description) {
            this.description = description;
        }
    }

    /** The fitted temperature of each (variant, dataset, setting) and what it was fitted on. */
    public record Temperatures(Map<Selection.Key, CalibrationMetrics.TemperatureCurve.Fit> fits, String fitData) {
        public Temperatures {
            fits = Map.copyOf(fits);
        }

        public Double of(String variant, String dataset, String setting) {
            var f = fits.get(new Selection.Key(variant, dataset, setting));
            return f == null ? null : f.temperature();
        }

        /** The temperatures config.json records (what {@link #toJson} wrote). */
        static Temperatures fromJson(JsonNode calibration) {
            Map<Selection.Key, CalibrationMetrics.TemperatureCurve.Fit> fits = new LinkedHashMap<>();
            for (JsonNode t : calibration.get("temperatures")) {
                fits.put(new Selection.Key(t.get("method").asText(), t.get("dataset").asText(),
                        t.get("setting").asText()), new CalibrationMetrics.TemperatureCurve.Fit(
                        t.get("temperature").asDouble(), t.get("at_bound").asBoolean(), t.get("predictions").asLong(),
                        Double.NaN, Double.NaN));
            }
            return new Temperatures(fits, calibration.get("fit_data").asText());
        }

        ObjectNode toJson() {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("method", "temperature");
            o.put("fit_data", fitData);
            ArrayNode a = o.putArray("temperatures");
            fits.entrySet().stream()
                    .sorted(java.util.Comparator.comparing((Map.Entry<Selection.Key, ?> e) -> e.getKey().variant())
                            .thenComparing(e -> e.getKey().dataset()).thenComparing(e -> e.getKey().setting()))
                    .forEach(e -> {
                        ObjectNode t = a.addObject();
                        t.put("method", e.getKey().variant());
                        t.put("dataset", e.getKey().dataset());
                        t.put("setting", e.getKey().setting());
                        t.put("temperature", e.getValue().temperature());
                        t.put("at_bound", e.getValue().atBound());
                        t.put("predictions", e.getValue().n());
                    });
            return o;
        }
    }

    /** Checks a plan's calibration before anything runs. */
    static void check(RunPlan plan) {
        if (!plan.spec().temperatureScaled()) {
            return;
        }
        if (!plan.spec().select().isEmpty()) {
            throw new FsilException("--calibrate and --select cannot be combined yet: select first, then run the "
                    + "chosen values (selection.csv) with --set and --calibrate temperature");
        }
        if (source(plan) == Source.BASE) {
            for (RunPlan.Variant v : plan.variants()) {
                if (v.method().needsBaseClasses(v.params())) {
                    throw new FsilException("--calibrate temperature fits on the base classes here (the datasets have "
                            + "no validation split), and " + v.label() + " needs the base classes as its background, "
                            + "so it cannot take part in that fit: leave it out of the calibrated run, or use a "
                            + "dataset with validation classes");
                }
            }
        }
    }

    static Source source(RunPlan plan) {
        boolean pooled = plan.protocol().parameters().stream().anyMatch(p -> p.name().equals(Selection.POOL_OPTION));
        List<String> pools = plan.settings().stream()
                .map(s -> s.options().asText().get(Selection.POOL_OPTION)).toList();
        if (pooled && pools.stream().allMatch(p -> p.equals("novel") || p.equals("base"))) {
            if (plan.data().values().stream().allMatch(d -> d.splits().validation().length > 0)) {
                return Source.VALIDATION;
            }
            if (pools.stream().allMatch(p -> p.equals("novel"))
                    && plan.data().values().stream().allMatch(d -> d.splits().base().length > 0)) {
                return Source.BASE;
            }
        }
        return Source.HELD_OUT;
    }

    /**
     * One line when the fit data holds fewer than {@value #MIN_FIT_CLASSES} classes in some dataset (the smallest
     * named), or null.
     */
    static String warning(RunPlan plan, Source source) {
        String smallest = null;
        int fewest = Integer.MAX_VALUE;
        for (Map.Entry<String, FeatureSet> d : plan.data().entrySet()) {
            int n = switch (source) {
                case VALIDATION -> d.getValue().splits().validation().length;
                case BASE -> d.getValue().splits().base().length;
                case HELD_OUT -> d.getValue().classes().size();
            };
            if (n < fewest) {
                fewest = n;
                smallest = d.getKey();
            }
        }
        if (fewest >= MIN_FIT_CLASSES) {
            return null;
        }
        String classes = switch (source) {
            case VALIDATION -> "validation classes";
            case BASE -> "base classes";
            case HELD_OUT -> "classes, held-out samples";
        };
        return "warning: temperatures fitted on " + fewest + " held-out classes (" + classes + " of " + smallest
                + "), fewer than " + MIN_FIT_CLASSES + ": they may not carry over to the evaluation classes, and the "
                + "scaled metrics (ece_ts, nll_ts, ...) can be worse than the raw ones; compare both";
    }

    /** What the fit runs: the same methods and settings on the fit data. */
    static RunSpec spec(RunPlan plan, Source source) {
        Map<String, List<String>> options = new LinkedHashMap<>(plan.spec().options());
        if (source != Source.HELD_OUT) {
            options.put(Selection.POOL_OPTION, List.of(source == Source.VALIDATION ? "validation" : "base"));
        }
        return plan.spec().withMethodsAndOptions(plan.spec().methods(), options);
    }

    /** The features the fit runs on: the datasets as they are, or with a held-out part of the training samples. */
    static FeatureSource features(FeatureSource features, Source source, long seed) {
        if (source != Source.HELD_OUT) {
            return features;
        }
        return (name, backbone, backboneSeed, cache) -> heldOut(features.load(name, backbone, backboneSeed, cache),
                seed);
    }

    /**
     * A dataset whose training data is {@code 100 - HELD_OUT_PERCENT}% of each class's training samples and whose
     * test data is the rest of them (a class with one sample keeps it for training). Seeded, so a resume draws the
     * same split.
     */
    static FeatureSet heldOut(FeatureSet fs, long seed) {
        LabeledData train = fs.train();
        Map<Integer, List<Integer>> rows = new LinkedHashMap<>();
        for (int i = 0; i < train.size(); i++) {
            rows.computeIfAbsent(train.labels()[i], k -> new ArrayList<>()).add(i);
        }
        List<Integer> keep = new ArrayList<>();
        List<Integer> held = new ArrayList<>();
        rows.keySet().stream().sorted().forEach(c -> {
            List<Integer> r = new ArrayList<>(rows.get(c));
            SplittableRandom rnd = new SplittableRandom(RandomStreams.derive(seed, "held-out|" + c));
            for (int i = r.size() - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                Integer t = r.get(i);
                r.set(i, r.get(j));
                r.set(j, t);
            }
            int n = r.size() < 2 ? 0 : Math.max(1, Math.round(r.size() * HELD_OUT_PERCENT / 100f));
            held.addAll(r.subList(0, n));
            keep.addAll(r.subList(n, r.size()));
        });
        keep.sort(null);
        held.sort(null);
        LabeledData newTrain = train.select(keep.stream().mapToInt(Integer::intValue).toArray());
        LabeledData newTest = train.select(held.stream().mapToInt(Integer::intValue).toArray());
        ClassTable classes = fs.classes();
        return new FeatureSet(fs.dataset(), fs.backbone(), fs.key() + "|held-out-" + HELD_OUT_PERCENT, classes,
                newTrain, newTest, fs.splits());
    }

    /** The fit run's setting of each of the run's settings (the same options, the pool replaced). */
    static List<RunPlan.Setting> aligned(RunPlan plan, List<RunPlan.Setting> fitSettings, Source source) {
        List<RunPlan.Setting> out = new ArrayList<>();
        for (RunPlan.Setting s : plan.settings()) {
            Map<String, String> o = new LinkedHashMap<>(s.options().asText());
            if (source != Source.HELD_OUT) {
                o.put(Selection.POOL_OPTION, source == Source.VALIDATION ? "validation" : "base");
            }
            out.add(fitSettings.stream().filter(f -> f.options().asText().equals(o)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no fit setting for " + s.label())));
        }
        return out;
    }

    /**
     * The temperatures from the fit run's rows; writes temperature.csv.
     *
     * @throws FsilException when a unit of the fit failed
     */
    static Temperatures fit(RunPlan plan, Source source, List<RunPlan.Setting> fitSettings, List<UnitRecord> rows,
                            java.nio.file.Path table) {
        Map<List<String>, List<fsil.eval.metrics.Value>> curves = new HashMap<>();
        for (UnitRecord r : rows) {
            if (!r.ok()) {
                throw new FsilException("the temperature fit failed: " + r.method() + " on " + r.dataset() + " / "
                        + r.setting() + ": " + r.error().replaceAll("[.\\s]+$", "") + " (its run is in " + DIR
                        + "/; " + source.description + ")");
            }
            fsil.eval.metrics.Value c = r.value("temperature_curve");
            if (c != null) {
                curves.computeIfAbsent(List.of(r.method(), r.dataset(), r.setting()), k -> new ArrayList<>()).add(c);
            }
        }
        Map<Selection.Key, CalibrationMetrics.TemperatureCurve.Fit> fits = new LinkedHashMap<>();
        StringBuilder csv = new StringBuilder("method,dataset,setting,fit_setting,temperature,at_bound,predictions,"
                + "nll_before,nll_after,fit_data\n");
        for (int si = 0; si < plan.settings().size(); si++) {
            RunPlan.Setting s = plan.settings().get(si);
            String fitSetting = aligned(plan, fitSettings, source).get(si).label();
            for (String dataset : plan.data().keySet()) {
                for (RunPlan.Variant v : plan.variants()) {
                    List<fsil.eval.metrics.Value> c = curves.get(List.of(v.label(), dataset, fitSetting));
                    if (c == null) {
                        throw new FsilException("the temperature fit has no predictions of " + v.label() + " on "
                                + dataset + " / " + fitSetting + "; resume the run to complete it");
                    }
                    var fit = CalibrationMetrics.TemperatureCurve.fit(c);
                    fits.put(new Selection.Key(v.label(), dataset, s.label()), fit);
                    csv.append(String.join(",", quote(v.label()), quote(dataset), quote(s.label()),
                            quote(fitSetting), Double.toString(fit.temperature()), Boolean.toString(fit.atBound()),
                            Long.toString(fit.n()), Double.toString(fit.nllBefore()),
                            Double.toString(fit.nllAfter()), quote(source.name().toLowerCase(java.util.Locale.ROOT))))
                            .append('\n');
                }
            }
        }
        AtomicFiles.writeString(table, csv.toString());
        return new Temperatures(fits, source.description);
    }

    static String quote(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
