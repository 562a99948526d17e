package fsil.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.api.FsilException;
import fsil.api.Method;
import fsil.api.Registry;
import fsil.data.io.AtomicFiles;
import fsil.eval.metrics.CalibrationMetrics;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.Protocol;
import fsil.eval.report.Report;
import fsil.eval.store.RunDirectory;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a plan into a locked run directory, one row per unit appended to {@code units.csv}, then writes the
 * summaries and the report from the store's rows read back from the file, as {@code fsil report} reads them (the
 * same bytes); rows are not kept in memory as they arrive, so a run's memory does not grow with its units. An {@link Engine} runs the units (the local thread pool by default,
 * or e.g. Apache Spark); everything else is done here, the same for every engine, so a run started on one engine
 * can be resumed on another. A killed run resumes from its stored units: rows torn by the crash are recomputed,
 * rows of another plan are refused; a unit is recorded once even when an engine hands it over twice.
 */
public final class Runner {
    public static final String SPEC = RunDirectory.SPEC;
    public static final String CONFIG = fsil.eval.report.SettingOptions.CONFIG;
    public static final String ENVIRONMENT = "environment.json";
    public static final String UNITS = UnitStore.FILE;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Registry<Method> methods;
    private final Registry<Protocol> protocols;
    private final Registry<Metric> metrics;
    private final FeatureSource features;
    private final Path cacheDir;
    private Progress progress = Progress.SILENT;
    private Engine engine = new LocalEngine();

    public Runner(Registry<Method> methods, Registry<Protocol> protocols, Registry<Metric> metrics,
                  FeatureSource features, Path cacheDir) {
        this.methods = methods;
        this.protocols = protocols;
        this.metrics = metrics;
        this.features = features;
        this.cacheDir = cacheDir;
    }

    public Runner withProgress(Progress p) {
        this.progress = p;
        return this;
    }

    /** The engine that runs the units (default: the local thread pool); the numbers do not depend on it. */
    public Runner withEngine(Engine e) {
        this.engine = e;
        return this;
    }

    public Engine engine() {
        return engine;
    }

    /**
     * What a run ended with.
     *
     * @param records the valid rows of the store after the run
     * @param ranNow  units run by this call
     * @param dropped invalid rows of the store that this call dropped (and recomputed)
     * @param choices the parameters chosen on the validation classes per (variant, dataset, setting); empty without
     *                selection
     * @param notes   what the person who ran it should know, one line each (rows dropped, ties in the selection,
     *                temperatures fitted on little data); shown even when progress is not
     */
    public record Outcome(Path dir, List<UnitRecord> records, int ranNow, List<UnitStore.Invalid> dropped,
                          Map<Selection.Key, Map<String, String>> choices, List<String> notes) {
        public Outcome {
            choices = Map.copyOf(choices);
            notes = List.copyOf(notes);
        }

        /** An outcome without selection and notes. */
        public Outcome(Path dir, List<UnitRecord> records, int ranNow, List<UnitStore.Invalid> dropped) {
            this(dir, records, ranNow, dropped, Map.of(), List.of());
        }

        /** Tasks (episodes, runs) in failed units. */
        public int failedTasks() {
            return records.stream().filter(r -> !r.ok()).mapToInt(UnitRecord::tasks).sum();
        }

        public int tasks() {
            return records.stream().mapToInt(UnitRecord::tasks).sum();
        }

        /**
         * Each distinct reason of the failed units once per method, with the number of tasks it failed: messages
         * that differ only in numbers (a task index, a class id) count as one reason, shown by its first instance.
         */
        public List<String> failureReasons() {
            java.util.Map<String, String> first = new java.util.LinkedHashMap<>();
            java.util.Map<String, Integer> count = new java.util.HashMap<>();
            for (UnitRecord r : records) {
                if (!r.ok()) {
                    String message = r.error().replaceFirst("^task \\d+: ", "");
                    String key = r.method() + "\n" + message.replaceAll(NUMBER, "#");
                    first.putIfAbsent(key, r.method() + ": " + message);
                    count.merge(key, r.tasks(), Integer::sum);
                }
            }
            List<String> out = new ArrayList<>();
            first.forEach((k, m) -> out.add(m + " (" + count.get(k) + (count.get(k) == 1 ? " task)" : " tasks)")));
            return out;
        }
    }

    /** A number in a message, with its sign, decimals and exponent: -3, 0.25 and 1e-9 are one "#". */
    private static final String NUMBER = "[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?";

    /** Resolves and validates a spec, loading its data (nothing is written). */
    public RunPlan plan(RunSpec spec) {
        return RunPlan.resolve(spec, methods, protocols, features, cacheDir, progress);
    }

    /** Runs a spec into a new directory, which must not exist or be empty. */
    public Outcome run(RunSpec spec, Path dir) {
        try (TrainingMessages m = TrainingMessages.to(progress)) {
            return runNew(spec, dir);
        }
    }

    private Outcome runNew(RunSpec spec, Path dir) {
        RunPlan plan = plan(spec); // every check before anything is written
        try (RunDirectory run = RunDirectory.create(dir)) {
            AtomicFiles.writeString(run.resolve(SPEC), spec.toJson());
            AtomicFiles.writeString(run.resolve(CONFIG), JSON.writeValueAsString(plan.config()));
            AtomicFiles.writeString(run.resolve(ENVIRONMENT), JSON.writeValueAsString(Environment.describe()));
            List<String> notes = new ArrayList<>();
            plan = calibrate(select(plan, run, false, notes), run, false, notes);
            return execute(plan, run, List.of(), notes);
        } catch (IOException e) { // JSON of plain trees: not expected
            throw new FsilException("cannot write the run files of " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Resumes the run in {@code dir}: keeps its valid units, runs the rest, rewrites the summaries. */
    public Outcome resume(Path dir, int threads) {
        return resume(dir, threads, false);
    }

    /**
     * Resumes the run in {@code dir}; with {@code retryFailed}, the units recorded as failed (in its selection and
     * calibration runs too) run again instead of being kept.
     */
    public Outcome resume(Path dir, int threads, boolean retryFailed) {
        try (TrainingMessages m = TrainingMessages.to(progress)) {
            return resumeRun(dir, threads, retryFailed);
        }
    }

    private Outcome resumeRun(Path dir, int threads, boolean retryFailed) {
        try (RunDirectory run = RunDirectory.open(dir)) {
            RunSpec spec = RunSpec.read(run.resolve(SPEC));
            JsonNode config = readConfig(run);
            spec = startedLayout(spec, config);
            if (threads > 0) {
                spec = spec.withThreads(threads);
            }
            RunPlan plan = plan(spec);
            checkData(run, plan, config);
            checkParameters(run, plan, config);
            List<String> notes = new ArrayList<>();
            plan = calibrate(select(plan, run, retryFailed, notes), run, retryFailed, notes);
            UnitStore.Contents stored = UnitStore.read(run.resolve(UNITS));
            List<String> foreign = new ArrayList<>();
            for (UnitRecord r : stored.rows()) {
                String why = plan.mismatch(r);
                if (why != null) {
                    foreign.add(why);
                }
            }
            if (!foreign.isEmpty()) {
                throw new FsilException(UNITS + " of " + dir + " holds " + foreign.size() + " row(s) that do not "
                        + "belong to this run's plan (" + foreign.get(0) + (foreign.size() > 1 ? "; ..." : "")
                        + "): was spec.json edited, or rows copied from another run? Restore them, or start a new "
                        + "run with another --out");
            }
            List<UnitRecord> kept = stored.rows();
            if (retryFailed) {
                kept = kept.stream().filter(UnitRecord::ok).toList();
                if (kept.size() < stored.rows().size()) {
                    progress.message("running the " + count(stored.rows().size() - kept.size(), "failed unit")
                            + " again (--retry-failed)");
                }
            }
            if (!stored.invalid().isEmpty()) {
                String dropped = "dropped " + count(stored.invalid().size(), "invalid row") + " of " + UNITS
                        + " (recomputed): " + stored.describeInvalid(5);
                progress.message(dropped);
                notes.add(dropped);
            }
            if (!stored.invalid().isEmpty() || kept.size() < stored.rows().size()) {
                UnitStore.rewrite(run.resolve(UNITS), kept);
            }
            return execute(plan, run, stored.invalid(), notes);
        }
    }

    /** "1 unit", "2 units": a count with its noun. */
    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /**
     * A resumed run must plan each variant with the parameters its rows were made with: config.json records every
     * parameter as resolved when the run started (defaults included), so an edited spec.json, or a default that
     * changed between fsil versions, is refused rather than mixed into the numbers under the same label.
     */
    static void checkParameters(RunDirectory run, RunPlan plan, JsonNode config) {
        JsonNode saved = config == null ? null : config.get("methods");
        if (saved == null || !saved.isArray()) {
            return; // nothing recorded to compare with
        }
        Map<String, JsonNode> now = new LinkedHashMap<>();
        plan.config().get("methods").forEach(v -> now.put(v.path("label").asText(), v.path("params")));
        for (JsonNode v : saved) {
            String label = v.path("label").asText();
            JsonNode current = now.get(label);
            if (current == null) {
                continue; // not planned now: its rows are refused as rows of another plan
            }
            Set<String> names = new java.util.LinkedHashSet<>();
            v.path("params").fieldNames().forEachRemaining(names::add);
            current.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode was = v.path("params").get(name);
                JsonNode is = current.get(name);
                if (was == null || is == null || !was.asText().equals(is.asText())) {
                    throw new FsilException("cannot resume " + run.path() + ": variant '" + label + "' ran with "
                            + (was == null ? "no parameter " + name : name + "=" + was.asText()) + ", and this fsil "
                            + "resolves " + (is == null ? "no parameter " + name : name + "=" + is.asText())
                            + " (spec.json was edited, or a default changed since the run started); resuming would "
                            + "mix numbers of different parameters. Start a new run with another --out");
                }
            }
        }
    }

    /**
     * Runs (or resumes) the selection on the validation classes in {@code <run>/selection/}, writes
     * {@code selection.csv}, and returns the plan with the choices; the plan itself without selection.
     */
    private RunPlan select(RunPlan plan, RunDirectory run, boolean retryFailed, List<String> notes) {
        if (plan.spec().select().isEmpty()) {
            return plan;
        }
        Path dir = run.resolve(Selection.DIR);
        RunSpec spec = Selection.spec(plan);
        progress.message("selecting " + String.join(", ", plan.spec().select().keySet()) + " on the validation "
                + "classes (" + dir + ")");
        Outcome o = isRun(dir) ? resume(dir, plan.spec().threads(), retryFailed) : run(spec, dir);
        o.notes().forEach(n -> notes.add(Selection.DIR + ": " + n));
        RunPlan chosen = plan.withChoices(Selection.choose(plan,
                RunPlan.settings(plan.protocol(), spec.options()), o.records(), metrics.all(),
                run.resolve(Selection.TABLE), notes));
        try {
            AtomicFiles.writeString(run.resolve(CONFIG), JSON.writeValueAsString(chosen.config()));
        } catch (IOException e) {
            throw new FsilException("cannot write " + run.resolve(CONFIG) + ": " + e.getMessage(), e);
        }
        return chosen;
    }

    /**
     * Fits (or reads back) the temperatures of a temperature-scaled run in {@code <run>/calibration/}, writes
     * {@code temperature.csv}, and returns the plan with them; the plan itself otherwise.
     */
    private RunPlan calibrate(RunPlan plan, RunDirectory run, boolean retryFailed, List<String> notes) {
        if (!plan.spec().temperatureScaled()) {
            return plan;
        }
        Calibration.Source source = Calibration.source(plan);
        Path dir = run.resolve(Calibration.DIR);
        RunSpec spec = Calibration.spec(plan, source);
        progress.message("fitting temperatures on " + source.description + " (" + dir + ")");
        Registry<Metric> withCurve = new Registry<>("metric", Metric::id);
        metrics.all().forEach(withCurve::register);
        withCurve.register(new CalibrationMetrics.TemperatureCurve());
        // the fit runs on the local engine: its curve metric is not a plugin that executors would find
        Runner fit = new Runner(methods, protocols, withCurve, Calibration.features(features, source,
                plan.spec().orderSeed()), cacheDir).withProgress(progress);
        Outcome o = isRun(dir) ? fit.resume(dir, plan.spec().threads(), retryFailed) : fit.run(spec, dir);
        o.notes().forEach(n -> notes.add(Calibration.DIR + ": " + n));
        RunPlan scaled = plan.withTemperatures(Calibration.fit(plan, source,
                RunPlan.settings(plan.protocol(), spec.options()), o.records(), run.resolve(Calibration.TABLE)));
        String warning = Calibration.warning(plan, source);
        if (warning != null) {
            notes.add(warning);
        }
        try {
            AtomicFiles.writeString(run.resolve(CONFIG), JSON.writeValueAsString(scaled.config()));
        } catch (IOException e) {
            throw new FsilException("cannot write " + run.resolve(CONFIG) + ": " + e.getMessage(), e);
        }
        return scaled;
    }

    private static JsonNode readConfig(RunDirectory run) {
        try {
            return new ObjectMapper().readTree(run.resolve(CONFIG).toFile());
        } catch (IOException e) {
            throw new FsilException("cannot read " + run.resolve(CONFIG) + ": " + e.getMessage(), e);
        }
    }

    /**
     * The spec with the execution options (e.g. {@code episodes-per-unit}) its run started with, where spec.json
     * leaves them to their defaults: config.json records them for every setting, so a resume keeps the run's units
     * when a later fsil has another default (runs started before blocks of episodes were sized automatically used
     * 200).
     */
    static RunSpec startedLayout(RunSpec spec, JsonNode config) {
        JsonNode settings = config == null ? null : config.get("settings");
        JsonNode execution = config == null ? null : config.get("execution_options");
        if (settings == null || execution == null) {
            return spec;
        }
        Map<String, List<String>> options = new LinkedHashMap<>(spec.options());
        for (JsonNode name : execution) {
            Set<String> values = new HashSet<>();
            settings.forEach(s -> values.add(s.path("options").path(name.asText()).asText()));
            if (!options.containsKey(name.asText()) && values.size() == 1 && !values.contains("")) {
                options.put(name.asText(), List.of(values.iterator().next()));
            }
        }
        return options.equals(spec.options()) ? spec : spec.withOptions(options);
    }

    /** A resumed run must see the data it started with (the same dataset fingerprints). */
    private void checkData(RunDirectory run, RunPlan plan, JsonNode config) {
        JsonNode saved = config == null ? null : config.get("datasets");
        JsonNode now = plan.config().get("datasets");
        if (saved == null || !saved.equals(now)) {
            throw new FsilException("the data of " + run.path() + " changed since the run started (" + CONFIG
                    + " records other datasets, features or class names than those loaded now); resuming would mix "
                    + "numbers of different data. Start a new run with another --out");
        }
    }

    private Outcome execute(RunPlan plan, RunDirectory run, List<UnitStore.Invalid> dropped, List<String> notes) {
        Set<UnitRecord.Key> done = new HashSet<>();
        UnitStore.read(run.resolve(UNITS)).rows().forEach(r -> done.add(r.key()));
        List<RunPlan.Unit> todo = plan.units().stream().filter(u -> !done.contains(u.key())).toList();
        try (UnitStore store = UnitStore.append(run.resolve(UNITS))) {
            progress.start(plan.protocol().id(), todo.stream().mapToLong(RunPlan.Unit::tasks).sum());
            Engine.Results results = r -> {
                String why = plan.mismatch(r);
                if (why != null) {
                    throw new FsilException("the " + engine.name() + " engine returned a row that is no unit of "
                            + "this plan: " + why);
                }
                synchronized (done) {
                    if (!done.add(r.key())) {
                        return false; // a unit run twice (a re-run task): recorded once
                    }
                    store.add(r); // the rows are not kept: the summaries read them back from the store
                }
                progress.step(r.tasks());
                return true;
            };
            engine.execute(new Engine.Job(plan, todo, results, metrics.all(), cacheDir, progress));
            long missing;
            synchronized (done) {
                missing = todo.stream().filter(u -> !done.contains(u.key())).count();
            }
            if (missing > 0) {
                throw new FsilException("the " + engine.name() + " engine ended without " + missing + " of the "
                        + count(todo.size(), "unit"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FsilException("run interrupted; resume it with 'fsil run --resume " + run.path() + "'");
        } catch (RuntimeException t) {
            throw new FsilException("the run stopped: " + (t instanceof FsilException ? t.getMessage() : t)
                    + ". Completed units are kept; resume with 'fsil run --resume " + run.path() + "'", t);
        } finally {
            progress.close();
        }
        // every row as fsil report reads it (in file order), so the run's summaries are the report's bytes
        List<UnitRecord> rows = UnitStore.read(run.resolve(UNITS)).rows();
        Report.write(run.path(), rows, metrics.all(), cacheDir);
        return new Outcome(run.path(), rows, todo.size(), dropped, plan.choices(), notes);
    }

    /** Whether {@code dir} holds a run (its spec). */
    public static boolean isRun(Path dir) {
        return Files.isRegularFile(dir.resolve(SPEC));
    }
}
