package fsil.notebook;

import fsil.api.FsilException;
import fsil.eval.run.Progress;
import fsil.eval.run.RunSpec;
import fsil.eval.run.Runner;
import fsil.eval.run.VariantSpec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * "Run these methods on these datasets under this protocol": a builder of a {@link RunSpec} that runs it with the
 * {@link Runner} and returns {@link Results}. Options with several values make several settings, as on the
 * command line ({@code option("shots", 1, 5)} is {@code --shots 1,5}).
 *
 * <pre>{@code
 * Results r = fsil.experiment("fewshot")
 *         .dataset("glyphs").backbone("pretrained-mlp")
 *         .methods("ncm", "soft-kmeans", "bavardage")          // or "label:id[param=value,...]" variants
 *         .option("shots", 1, 5).option("query-allocation", "balanced", "dirichlet").option("episodes", 500)
 *         .run();
 * }</pre>
 *
 * Defaults: dataset {@code digits}, backbone {@code identity}, order seed 1993, train seed 0, backbone seed 1
 * (those of {@code fsil run}), all cores, and the run directory {@code runs/<protocol>-<yyyyMMdd-HHmmss>} as
 * {@code fsil run} names it: under {@code $FSIL_RUNS} when that is set, otherwise under {@code runs/} in the
 * working directory, which in Jupyter is the notebook's folder ({@link #runsRoot()}). Runs are kept: they are
 * ordinary run directories ({@code bin/fsil report DIR} rebuilds a report); delete them as any other files.
 */
public final class Experiment {
    /** Environment variable naming the folder where experiments without {@link #out(Path)} put their runs. */
    public static final String RUNS_ENV = "FSIL_RUNS";
    /** System property with the same meaning (it takes precedence; tests use it). */
    public static final String RUNS_PROPERTY = "fsil.runs";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Fsil fsil;
    private final String protocol;
    private final List<String> datasets = new ArrayList<>();
    private final List<VariantSpec> variants = new ArrayList<>();
    private final Set<String> excluded = new LinkedHashSet<>();
    private final Map<String, List<String>> options = new LinkedHashMap<>();
    private final Map<String, List<String>> select = new LinkedHashMap<>();
    private String selectMetric;
    private String calibrate = "none";
    private boolean allMethods;
    private String backbone = "identity";
    private long orderSeed = RunSpec.DEFAULT_ORDER_SEED;
    private long trainSeed = 0;
    private long backboneSeed = 1;
    private int threads = 0;
    private Path out;
    private boolean allowFailures;
    private PrintStream log = System.out;

    Experiment(Fsil fsil, String protocol) {
        this.fsil = fsil;
        this.protocol = protocol;
    }

    /** Adds datasets (names as on the command line, e.g. {@code digits}, {@code glyphs}, {@code synthetic:classes=20}). */
    public Experiment dataset(String... names) {
        datasets.addAll(List.of(names));
        return this;
    }

    /** The backbone, e.g. {@code identity} (default) or {@code pretrained-mlp}. */
    public Experiment backbone(String spec) {
        this.backbone = spec;
        return this;
    }

    /**
     * Adds method variants: {@code ncm}, {@code ppca[q=0]}, {@code rbf:ppca[q=0]} (explicit label); one argument may
     * also hold a comma-separated list.
     */
    public Experiment methods(String... specs) {
        for (String s : specs) {
            variants.addAll(VariantSpec.parseList(s));
        }
        return this;
    }

    /** Adds one variant with a label and parameter values. */
    public Experiment variant(String label, String methodId, Map<String, String> params) {
        variants.add(new VariantSpec(label, methodId, params));
        return this;
    }

    /**
     * Also runs every registered method that can take part in the protocol, with its defaults (decided when the
     * experiment runs, so newly added plugins are included); ids given with {@link #methods} are not repeated.
     */
    public Experiment allMethods() {
        this.allMethods = true;
        return this;
    }

    /** Leaves methods out of {@link #allMethods()}. */
    public Experiment except(String... methodIds) {
        excluded.addAll(List.of(methodIds));
        return this;
    }

    /** A protocol option; several values make several settings. Values are formatted with {@code toString()}. */
    public Experiment option(String name, Object... values) {
        if (values.length == 0) {
            throw new FsilException("option '" + name + "' needs at least one value");
        }
        List<String> v = new ArrayList<>();
        for (Object o : values) {
            v.add(o instanceof Double d ? String.format(Locale.ROOT, "%s", d) : String.valueOf(o));
        }
        options.put(name, v);
        return this;
    }

    /**
     * Chooses a parameter on the validation classes before the run, as {@code fsil run --select}: e.g.
     * {@code select("ppca.q", 0, 4, 10, 20)}. Several parameters of one method make a grid. The run must evaluate on
     * classes disjoint from the validation classes, and every dataset needs a validation split; the choice and every
     * candidate's score are in the run directory's {@code selection.csv}.
     */
    public Experiment select(String methodParam, Object... values) {
        if (values.length == 0) {
            throw new FsilException("select('" + methodParam + "') needs at least one candidate value");
        }
        List<String> v = new ArrayList<>();
        for (Object o : values) {
            v.add(String.valueOf(o));
        }
        select.put(methodParam, v);
        return this;
    }

    /** What {@link #select} maximises (minimises for a lower-is-better metric such as ece); default episode_acc. */
    public Experiment selectMetric(String metric) {
        this.selectMetric = metric;
        return this;
    }

    /**
     * Post-hoc calibration, as {@code fsil run --calibrate}: {@code "temperature"} fits one temperature per method,
     * dataset and setting on held-out data and reports calibration metrics raw and scaled ({@code ece_ts},
     * {@code nll_ts}, ...); {@code "none"} (the default) does not.
     */
    public Experiment calibrate(String how) {
        this.calibrate = how;
        return this;
    }

    /** Seed of class orders and episode sampling (identical for all methods). */
    public Experiment orderSeed(long seed) {
        this.orderSeed = seed;
        return this;
    }

    /** Seed of the methods' own randomness. */
    public Experiment trainSeed(long seed) {
        this.trainSeed = seed;
        return this;
    }

    /** Seed of the backbone training (features are cached per dataset, backbone and seed). */
    public Experiment backboneSeed(long seed) {
        this.backboneSeed = seed;
        return this;
    }

    /** Units run in parallel (0 = all cores); the numbers do not depend on it. */
    public Experiment threads(int threads) {
        this.threads = threads;
        return this;
    }

    /** The run directory (must not hold a run yet); default: a new directory under {@link #runsRoot()}. */
    public Experiment out(Path dir) {
        this.out = dir;
        return this;
    }

    /** Returns results even when some units failed (by default a failed unit makes {@link #run()} throw). */
    public Experiment allowFailures() {
        this.allowFailures = true;
        return this;
    }

    /** Where progress lines go (default standard output); null for none. */
    public Experiment log(PrintStream stream) {
        this.log = stream;
        return this;
    }

    /** The run specification this experiment stands for (methods resolved, defaults filled in). */
    public RunSpec spec() {
        List<VariantSpec> all = new ArrayList<>(variants);
        if (allMethods) {
            Set<String> given = new LinkedHashSet<>();
            variants.forEach(v -> given.add(v.label()));
            for (String id : fsil.methodsFor(protocol)) {
                if (!excluded.contains(id) && !given.contains(id)) {
                    all.add(new VariantSpec(id, id, Map.of()));
                }
            }
        }
        if (all.isEmpty()) {
            throw new FsilException("experiment '" + protocol + "' has no method: call methods(\"ncm\", ...) or "
                    + "allMethods(); methods that can run it: " + String.join(", ", fsil.methodsFor(protocol)));
        }
        List<String> ds = datasets.isEmpty() ? List.of("digits") : List.copyOf(datasets);
        return new RunSpec(all, ds, backbone, protocol, options, orderSeed, trainSeed, backboneSeed,
                threads > 0 ? threads : RunSpec.defaultThreads(), select, selectMetric, calibrate);
    }

    /**
     * Where experiments without {@link #out(Path)} put their run directories: the system property
     * {@code fsil.runs}, else the environment variable {@code FSIL_RUNS}, else {@code runs} in the working
     * directory (the notebook's folder when Jupyter started the kernel), as an absolute path.
     */
    public static Path runsRoot() {
        String p = System.getProperty(RUNS_PROPERTY);
        if (p == null || p.isBlank()) {
            p = System.getenv(RUNS_ENV);
        }
        return Path.of(p == null || p.isBlank() ? "runs" : p).toAbsolutePath().normalize();
    }

    /** A new, empty directory {@code <protocol>-<time>} under root ({@code -2}, {@code -3}, ... when taken). */
    static Path newRunDir(Path root, String protocol, LocalDateTime now) throws IOException {
        Files.createDirectories(root);
        String name = protocol + "-" + now.format(TIME);
        for (int i = 1; ; i++) {
            try {
                return Files.createDirectory(root.resolve(i == 1 ? name : name + "-" + i));
            } catch (FileAlreadyExistsException taken) {
                // two experiments of the same protocol within one second: next suffix
            }
        }
    }

    /** Runs every unit (validating everything first) and returns the results. */
    public Results run() {
        RunSpec spec = spec();
        Path dir = out;
        boolean created = false;
        try {
            if (dir == null) {
                dir = newRunDir(runsRoot(), protocol, LocalDateTime.now());
                created = true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a run directory under " + runsRoot() + " (set "
                    + RUNS_ENV + " or call out(dir)): " + e.getMessage(), e);
        }
        Runner runner = fsil.runner();
        LineProgress progress = log == null ? null : new LineProgress(log, "run directory: " + shown(dir));
        if (progress != null) {
            runner.withProgress(progress);
        }
        Runner.Outcome outcome;
        try {
            outcome = runner.run(spec, dir);
        } catch (RuntimeException e) {
            if (created) {
                deleteIfEmpty(dir);   // rejected before anything was written (e.g. a bad parameter value)
            }
            throw e;
        }
        Results results = new Results(fsil.plugins().protocols().get(protocol), spec, outcome,
                fsil.plugins().metrics().all());
        if (results.failed() > 0 && !allowFailures) {
            throw new FsilException(results.failed() + " of " + outcome.tasks() + " tasks failed; first error: "
                    + results.errors().get(0) + ". Call allowFailures() to get the results anyway (run directory "
                    + dir + ")");
        }
        return results;
    }

    /** The directory relative to the working directory when it lies below it (shorter, and the same on every machine). */
    static String shown(Path dir) {
        Path cwd = Path.of("").toAbsolutePath();
        Path abs = dir.toAbsolutePath().normalize();
        return abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }

    private static void deleteIfEmpty(Path dir) {
        try (var entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException ignored) {
            // leave it: an empty directory is harmless
        }
    }

    /** Progress as a few plain lines (a progress bar does not survive in a notebook's saved output). */
    static final class LineProgress implements Progress {
        private final PrintStream out;
        private final Set<String> seen = new LinkedHashSet<>();
        private String first;
        private String task;
        private long total;
        private long done;

        /** @param first a line printed before the first task starts (once the run was accepted), or null */
        LineProgress(PrintStream out, String first) {
            this.out = out;
            this.first = first;
        }

        private void first() {
            if (first != null) {
                out.println(first);
                first = null;
            }
        }

        @Override
        public synchronized void start(String task, long total) {
            first();
            this.task = task;
            this.total = total;
            this.done = 0;
            out.printf(Locale.ROOT, "%s: %d tasks%n", task, total);
            out.flush();
        }

        @Override
        public synchronized void step(long tasks) {
            done += tasks;
        }

        @Override
        public synchronized void message(String text) {
            first();
            if (seen.add(text)) {
                out.println(text);
                out.flush();
            }
        }

        @Override
        public synchronized void close() {
            if (task != null) {
                out.printf(Locale.ROOT, "%s: %d of %d tasks done%n", task, done, total);
                out.flush();
            }
        }
    }
}
