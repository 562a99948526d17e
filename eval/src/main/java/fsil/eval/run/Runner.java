package fsil.eval.run;

import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitsCsv;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.api.Background;
import fsil.api.FsilException;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Params;
import fsil.api.SessionContext;
import fsil.api.Registry;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;
import fsil.data.io.AtomicFiles;
import fsil.eval.protocol.Protocol;
import fsil.eval.protocol.ProtocolPlan;
import fsil.eval.protocol.TaskRunner;
import fsil.eval.protocol.UnitResult;
import fsil.eval.report.Report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs methods x datasets x protocol settings as independent units on a local executor and records one row per
 * unit in a run directory; resumes a killed run from its completed units.
 *
 * <p>Everything that can be checked is checked before any unit runs: unknown methods, parameters and options,
 * protocols a method cannot take part in, data the protocol cannot use. Each unit's randomness comes from
 * seeds derived from (order seed | train seed, dataset, setting, unit index), so the numbers do not depend on
 * the thread count or on which units ran before a crash.
 */
public final class Runner {
    public static final String SPEC = "spec.json";
    public static final String CONFIG = "config.json";
    public static final String ENVIRONMENT = "environment.json";
    public static final String UNITS = UnitsCsv.FILE;
    /** Rows a worker hands to the units.csv writer together at most (fewer when flushMillis pass first). */
    private static final int ROW_BATCH = 256;

    private final Registry<Method> methods;
    private final Registry<Protocol> protocols;
    private final FeatureSource features;
    private final Path cacheDir;
    private Progress progress = Progress.SILENT;
    private long flushMillis = 500;

    public Runner(Registry<Method> methods, Registry<Protocol> protocols, FeatureSource features, Path cacheDir) {
        this.methods = methods;
        this.protocols = protocols;
        this.features = features;
        this.cacheDir = cacheDir;
    }

    public Runner withProgress(Progress p) {
        this.progress = p;
        return this;
    }

    /** How often buffered rows reach units.csv at the latest. */
    public Runner withFlushMillis(long ms) {
        this.flushMillis = ms;
        return this;
    }

    /** A method variant with validated parameters. */
    public record Variant(String label, Method method, Params params) {
    }

    /** A protocol setting: its options and label. */
    public record Setting(String label, Params options) {
    }

    /** Everything resolved and validated, before any unit runs. */
    public record Resolved(RunSpec spec, List<Variant> variants, Protocol protocol, List<Setting> settings,
                           Map<String, FeatureSet> data, Map<String, ProtocolPlan> plans) {

        ProtocolPlan plan(String dataset, Setting s) {
            return plans.get(dataset + "|" + s.label());
        }

        /** Total number of units. */
        public long units() {
            long n = 0;
            for (ProtocolPlan p : plans.values()) {
                n += (long) p.units() * variants.size();
            }
            return n;
        }
    }

    /** Validates a spec without loading data: methods, parameters, protocol, options, capabilities. */
    public List<Variant> variants(RunSpec spec, Protocol protocol) {
        List<Variant> out = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        for (VariantSpec v : spec.methods()) {
            Method m = methods.get(v.method());
            Params p = m.params(v.params());
            String why = protocol.incompatibility(m);
            if (why != null) {
                throw new FsilException("method '" + m.id() + "' cannot run protocol " + protocol.name() + ": " + why
                        + ". Run 'fsil methods' to see which methods support it.");
            }
            if (!labels.add(v.label())) {
                throw new FsilException("two method variants have the label '" + v.label()
                        + "'; give one an explicit label, e.g. mylabel:" + v.method() + "[...]");
            }
            out.add(new Variant(v.label(), m, p));
        }
        return out;
    }

    /** Expands options with several values into settings (cartesian product, in option order). */
    public static List<Setting> settings(Protocol protocol, Map<String, List<String>> options) {
        List<Map<String, String>> combos = new ArrayList<>();
        combos.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> e : options.entrySet()) {
            if (e.getValue().isEmpty()) {
                throw new FsilException("option '" + e.getKey() + "' has no value");
            }
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combos) {
                for (String v : e.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(e.getKey(), v);
                    next.add(m);
                }
            }
            combos = next;
        }
        List<Setting> out = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        for (Map<String, String> c : combos) {
            Params p = protocol.options(c);
            String label = protocol.settingLabel(p);
            if (!labels.add(label)) {
                label = label + " " + p.changedFromDefaults();
            }
            out.add(new Setting(label, p));
        }
        return out;
    }

    /** Resolves and validates everything, loading the data and planning each (dataset, setting). */
    public Resolved resolve(RunSpec spec) {
        Protocol protocol = protocols.get(spec.protocol());
        List<Variant> variants = variants(spec, protocol);
        List<Setting> settings = settings(protocol, spec.options());
        if (spec.datasets().isEmpty()) {
            throw new FsilException("no dataset given: use e.g. --datasets digits");
        }
        Map<String, FeatureSet> data = new LinkedHashMap<>();
        Map<String, ProtocolPlan> plans = new LinkedHashMap<>();
        for (String ds : spec.datasets()) {
            progress.message("loading " + ds + " through backbone " + spec.backbone());
            FeatureSet fs = features.load(ds, spec.backbone(), spec.backboneSeed(), cacheDir);
            data.put(ds, fs);
            for (Setting s : settings) {
                plans.put(ds + "|" + s.label(), protocol.plan(fs, s.options(), spec.orderSeed()));
            }
        }
        return new Resolved(spec, variants, protocol, settings, data, plans);
    }

    /**
     * Result of a run.
     *
     * @param reportSeconds wall time spent writing the summaries and the report (a cost per run, not per unit)
     */
    public record Outcome(Path dir, List<UnitRecord> records, int failed, int ranNow, double reportSeconds) {
    }

    /** Runs a spec into a new directory (which must not exist or be empty). */
    public Outcome run(RunSpec spec, Path dir) {
        if (Files.exists(dir.resolve(UNITS))) {
            throw new FsilException("run directory " + dir + " already holds a run; resume it with "
                    + "'fsil run --resume " + dir + "' or choose another --out");
        }
        Resolved r = resolve(spec);
        try {
            Files.createDirectories(dir);
            ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            AtomicFiles.writeString(dir.resolve(SPEC), json.writeValueAsString(spec));
            AtomicFiles.writeString(dir.resolve(CONFIG), json.writeValueAsString(resolvedConfig(r)));
            AtomicFiles.writeString(dir.resolve(ENVIRONMENT), json.writeValueAsString(Environment.describe()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return execute(r, dir);
    }

    /** Resumes the run in {@code dir}: skips the completed units, runs the rest, rewrites the summaries. */
    public Outcome resume(Path dir, int threads) {
        Path specFile = dir.resolve(SPEC);
        if (!Files.exists(specFile)) {
            throw new FsilException(dir + " is not a run directory (no " + SPEC + ")");
        }
        RunSpec spec;
        try {
            spec = new ObjectMapper().readValue(specFile.toFile(), RunSpec.class);
        } catch (IOException e) {
            throw new FsilException("cannot read " + specFile + ": " + e.getMessage(), e);
        }
        if (threads > 0) {
            spec = spec.withThreads(threads);
        }
        return execute(resolve(spec), dir);
    }

    static Map<String, Object> resolvedConfig(Resolved r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("protocol", r.protocol().name());
        List<Map<String, Object>> settings = new ArrayList<>();
        for (Setting s : r.settings()) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("label", s.label());
            sm.put("options", s.options().asText());
            settings.add(sm);
        }
        m.put("settings", settings);
        List<Map<String, Object>> vs = new ArrayList<>();
        for (Variant v : r.variants()) {
            Map<String, Object> vm = new LinkedHashMap<>();
            vm.put("label", v.label());
            vm.put("method", v.method().id());
            vm.put("params", v.params().asText());
            vs.add(vm);
        }
        m.put("methods", vs);
        Map<String, Object> ds = new LinkedHashMap<>();
        r.data().forEach((k, f) -> ds.put(k, Map.of("key", f.key(), "backbone", f.backbone(),
                "classes", f.classes().size(), "dimension", f.dimension(), "train", f.train().size(),
                "test", f.test().size())));
        m.put("datasets", ds);
        m.put("order_seed", r.spec().orderSeed());
        m.put("train_seed", r.spec().trainSeed());
        m.put("backbone_seed", r.spec().backboneSeed());
        m.put("threads", r.spec().threads());
        return m;
    }

    /**
     * What all units of one (variant, dataset, setting) share, worked out once instead of per unit: the seed base,
     * the fixed part of their units.csv rows, and (once prepared) the learner.
     */
    private static final class Group {
        final Variant variant;
        final String dataset;
        final Setting setting;
        final ProtocolPlan plan;
        final String settingKey;
        final long seedBase;
        final String rowPrefix;
        private volatile Learner learner;

        Group(Resolved r, Variant variant, String dataset, Setting setting) {
            this.variant = variant;
            this.dataset = dataset;
            this.setting = setting;
            this.plan = r.plan(dataset, setting);
            this.settingKey = dataset + "|" + setting.label();
            this.seedBase = RandomStreams.derive(r.spec().trainSeed(), settingKey);
            this.rowPrefix = UnitsCsv.prefix(variant.label(), variant.method().id(), dataset, r.protocol().name(),
                    setting.label());
        }

        /** The unit's train seed: derived from (train seed, dataset|setting, unit index) only. */
        long trainSeed(int unit) {
            return RandomStreams.derive(seedBase, unit);
        }
    }

    private record Job(Group group, int unit) {
    }

    private Outcome execute(Resolved r, Path dir) {
        Path unitsFile = dir.resolve(UNITS);
        UnitsCsv.Contents existing;
        try {
            existing = UnitsCsv.read(unitsFile);
            if (existing.droppedLines() > 0) {
                progress.message("dropping " + existing.droppedLines() + " incomplete row(s) of " + unitsFile);
                UnitsCsv.truncate(unitsFile, existing.validBytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> done = new HashSet<>();
        for (UnitRecord u : existing.rows()) {
            done.add(u.key());
        }
        List<Job> jobs = new ArrayList<>();
        for (String ds : r.spec().datasets()) {
            for (Setting s : r.settings()) {
                List<Group> groups = new ArrayList<>();
                for (Variant v : r.variants()) {
                    groups.add(new Group(r, v, ds, s));
                }
                ProtocolPlan plan = r.plan(ds, s);
                for (int i = 0; i < plan.units(); i++) {
                    for (Group g : groups) {
                        if (done.isEmpty() || !done.contains(UnitRecord.key(g.variant.label(), ds, s.label(), i))) {
                            jobs.add(new Job(g, i));
                        }
                    }
                }
            }
        }
        int threads = r.spec().threads();
        ExecutorService pool = Executors.newFixedThreadPool(threads, daemon("fsil-unit"));
        // With fewer units than threads, the spare threads go to the sessions (e.g. one large incremental run).
        ExecutorService sessionPool = jobs.size() < threads && threads > 1
                ? Executors.newFixedThreadPool(threads, daemon("fsil-session")) : null;
        Executor sessionExecutor = sessionPool == null ? SessionContext.DIRECT : sessionPool;
        Map<String, Future<Learner>> learners = new ConcurrentHashMap<>();
        Map<String, Background> backgrounds = new ConcurrentHashMap<>();
        AtomicReference<Throwable> fatal = new AtomicReference<>();
        int ranNow = jobs.size();
        // Rows of this session are kept in memory, in job order: the summaries need not parse units.csv back.
        UnitRecord[] fresh = new UnitRecord[jobs.size()];
        try (UnitsCsv out = UnitsCsv.append(unitsFile, flushMillis)) {
            progress.start(r.protocol().name(), jobs.size());
            // Each worker takes the next job index until none is left or the run has stopped: no task object or
            // queue node per unit, and finishing a unit wakes nobody (waiting on a Future per unit cost a futex call
            // of several microseconds, ~30% of a 5-way NCM episode).
            AtomicInteger nextJob = new AtomicInteger();
            int workers = Math.min(threads, jobs.size());
            CountDownLatch workersLeft = new CountDownLatch(workers);
            for (int w = 0; w < workers; w++) {
                pool.execute(() -> {
                    try {
                        UnitsCsv.Batch rows = out.batch(ROW_BATCH);
                        try {
                            int i;
                            while (fatal.get() == null && !Thread.currentThread().isInterrupted()
                                    && (i = nextJob.getAndIncrement()) < fresh.length) {
                                Job job = jobs.get(i);
                                UnitRecord rec = runJob(r, job, learners, backgrounds, sessionExecutor);
                                fresh[i] = rec;
                                rows.add(job.group().rowPrefix, rec);
                                progress.step();
                            }
                        } finally {
                            rows.handOver(); // completed units reach the file even when the run stops
                        }
                    } catch (Throwable t) {
                        fatal.compareAndSet(null, t);
                    } finally {
                        workersLeft.countDown();
                    }
                });
            }
            workersLeft.await();
        } catch (IOException e) { // opening units.csv, or its writer thread failed (e.g. the disk is full)
            FsilException stopped = new FsilException("the run stopped: " + e.getMessage() + " (" + unitsFile
                    + "). Completed units whose rows were written are kept; resume with 'fsil run --resume " + dir
                    + "'", e);
            makeDurable(unitsFile, stopped);
            throw stopped;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            FsilException stopped = new FsilException("run interrupted; resume it with 'fsil run --resume " + dir
                    + "'");
            makeDurable(unitsFile, stopped); // the completed units, as on every other way out of a run
            throw stopped;
        } finally {
            pool.shutdownNow();
            if (sessionPool != null) {
                sessionPool.shutdownNow();
            }
            progress.close();
        }
        if (fatal.get() != null) {
            Throwable t = fatal.get();
            makeDurable(unitsFile, t);
            if (t instanceof Error err) {
                throw err;
            }
            throw new FsilException("the run stopped: " + t + ". Completed units are kept; resume with "
                    + "'fsil run --resume " + dir + "'", t);
        }
        List<UnitRecord> all = new ArrayList<>(existing.rows().size() + fresh.length);
        all.addAll(existing.rows());
        all.addAll(java.util.Arrays.asList(fresh));
        // units.csv is made durable while the summaries are written: the fsync waits on the disk, the report on the
        // CPU (closing units.csv with its fsync took 6-8 ms after a 20,000-episode run, about 1% of its units at
        // d = 64, against 1-2 ms after a 1-episode run).
        CompletableFuture<Void> durable = CompletableFuture.runAsync(() -> makeDurable(unitsFile));
        long reportStart = System.nanoTime();
        try {
            Report.write(dir, all);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        double reportSeconds = (System.nanoTime() - reportStart) * 1e-9;
        try {
            durable.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
        int failed = (int) all.stream().filter(u -> !u.ok()).count();
        return new Outcome(dir, all, failed, ranNow, reportSeconds);
    }

    /** {@link #makeDurable(Path)} on a way out of a run that already failed: a failing fsync joins that failure. */
    private static void makeDurable(Path file, Throwable failure) {
        try {
            makeDurable(file);
        } catch (UncheckedIOException e) {
            failure.addSuppressed(e);
        }
    }

    /** fsync of a file, so that what was written survives the machine (rows survive the process without it). */
    private static void makeDurable(Path file) {
        try {
            UnitsCsv.force(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not make " + file + " durable: " + e.getMessage(), e);
        }
    }

    private UnitRecord runJob(Resolved r, Job job, Map<String, Future<Learner>> learners,
                              Map<String, Background> backgrounds, Executor sessionExecutor) {
        Group g = job.group();
        long unitTrainSeed = g.trainSeed(job.unit());
        String status = UnitRecord.OK;
        String error = "";
        UnitResult res = null;
        try {
            Learner learner = g.learner;
            if (learner == null) {
                learner = learner(r, g, learners, backgrounds);
                g.learner = learner;
            }
            res = TaskRunner.run(g.plan.task(job.unit(), g.variant.method().capabilities()), learner, unitTrainSeed,
                    sessionExecutor);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = UnitRecord.FAILED;
            error = "interrupted";
        } catch (Throwable t) {
            status = UnitRecord.FAILED;
            error = describe(t);
        }
        long orderSeed = r.spec().orderSeed();
        String label = g.variant.label();
        String methodId = g.variant.method().id();
        String protocol = r.protocol().name();
        if (res == null) {
            return new UnitRecord(label, methodId, g.dataset, protocol, g.setting.label(), job.unit(), orderSeed,
                    unitTrainSeed, status, error, Double.NaN, 0, 0, 0, 0, new double[0], new double[0][], new int[0],
                    new double[0], null, Map.of());
        }
        return new UnitRecord(label, methodId, g.dataset, protocol, g.setting.label(), job.unit(), orderSeed,
                unitTrainSeed, status, error, res.accuracy(), res.evaluated(), res.fitSeconds(), res.predictSeconds(),
                res.memoryBytes(), res.accSeen(), res.aMatrix(), res.classesSeen(), res.relativeAcc(),
                res.calibration(), res.extra());
    }

    /**
     * The learner of a group, prepared once per (variant, dataset, background data): groups whose settings share
     * a background share the learner. A failed preparation is not cached in the group, so each of its units
     * reports the failure.
     */
    private Learner learner(Resolved r, Group g, Map<String, Future<Learner>> learners,
                            Map<String, Background> backgrounds) throws InterruptedException {
        long backgroundSeed = RandomStreams.derive(r.spec().trainSeed(), "background");
        Background bg = backgrounds.computeIfAbsent(g.settingKey,
                k -> g.plan.background(backgroundSeed, Optional.of(cacheDir)));
        String learnerKey = g.variant.label() + "|" + g.dataset + "|" + bg.dataKey();
        FutureTask<Learner> task = new FutureTask<>(() -> {
            progress.message("preparing " + g.variant.label() + " on " + g.dataset);
            return g.variant.method().learner(g.variant.params(), bg);
        });
        Future<Learner> existing = learners.putIfAbsent(learnerKey, task);
        Future<Learner> f = existing == null ? task : existing;
        if (existing == null) {
            task.run();
        }
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw new FsilException("preparing " + g.variant.label() + " failed: " + describe(e.getCause()),
                    e.getCause());
        }
    }

    static String describe(Throwable t) {
        if (t instanceof FsilException) {
            return t.getMessage();
        }
        StackTraceElement[] st = t.getStackTrace();
        return t.getClass().getSimpleName() + ": " + t.getMessage() + (st.length > 0 ? " (at " + st[0] + ")" : "");
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

}
