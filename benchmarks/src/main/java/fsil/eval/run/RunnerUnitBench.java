package fsil.eval.run;

import fsil.api.Capability;
import fsil.api.LabeledData;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Prediction;
import fsil.api.Registry;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.core.random.RandomStreams;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.eval.protocol.FewShotProtocol;
import fsil.eval.protocol.Protocol;
import fsil.eval.protocol.ProtocolPlan;
import fsil.eval.protocol.TaskRunner;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.TaskOutcome;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The runner's cost per unit: NCM on few-shot episodes (5-way 5-shot, 75 queries, synthetic features of dimension
 * {@code dim}, default 64) run directly (sample the episode, learn, predict, count the correct labels), through
 * {@link TaskRunner} (the session and the accuracy every protocol uses) and through {@link Runner} (planning, per-task
 * seeds, blocks of episodes as units, every metric's values, the rows of {@code units.csv}, summaries and the
 * report, on one unit thread). The runner has no thread of its own, so its cost per episode on one thread is what
 * it takes from a core when every core runs units. The direct loop is the reference. The three unit benchmarks run the same {@value #EPISODES}
 * episodes per call and score us per episode, so their ratio is the runner's cost per unit; the runner's score also
 * holds its fixed cost per run spread over the episodes, which {@link #runnerOneEpisode} measures alone (us per
 * run of one episode).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class RunnerUnitBench {
    /** Episodes per benchmark call. */
    static final int EPISODES = 10_000;

    @Param("64")
    public int dim;

    /**
     * The features: {@code synthetic} (40 well-separated Gaussian classes of dimension {@code dim}) or a dataset
     * reference such as {@code digits} (real features, d = 64, whose confidences spread over many more adaptive-ECE
     * micro-bins, so each unit stores more): {@code -p dataset=synthetic,digits}.
     */
    @Param("synthetic")
    public String dataset = "synthetic";

    /**
     * Episodes per unit of the runner ({@code episodes-per-unit}; 0, the default, is the few-shot protocol's default:
     * 200, or a 50th of a longer run up to 1,000), and the block of tasks {@link #taskRunnerMetrics} measures its
     * metrics over, so that both halves of a pair compute the same metrics over the same blocks:
     * {@code -p perUnit=200,1000} shows what the size of a unit changes.
     */
    @Param("0")
    public int perUnit = 0;

    /** The episodes of a unit in a run of {@code episodes}. */
    int block(int episodes) {
        return perUnit > 0 ? perUnit : FewShotProtocol.defaultPerUnit(episodes);
    }

    /**
     * The metrics both halves measure: {@code all} (every registered metric, the default) or names joined by
     * {@code +}, e.g. {@code -p metrics=episode_acc}. What a run costs the runner grows with what its metrics store
     * per unit, so this separates the runner's own work (with the one metric every protocol stores) from the cost of
     * the other metrics' stored values.
     */
    @Param("all")
    public String metrics = "all";

    private Path work;
    private FeatureSet data;
    private ProtocolPlan plan;
    private Learner learner;
    private Runner runner;
    private RunSpec spec;
    private RunSpec oneEpisode;
    private long seedBase;
    private java.util.Set<Capability> capabilities;
    private List<Metric> metricList;
    /** The rows of a run of {@link #EPISODES} episodes, for {@link #storeRows}. */
    private List<fsil.eval.store.UnitRecord> rows;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        work = Files.createTempDirectory("fsil-runner-bench");
        data = Datasets.load(dataset.equals("synthetic")
                        ? "synthetic:classes=40,dim=" + dim + ",per_class=100,test_per_class=20" : dataset,
                "identity", 0, work.resolve("cache"));
        FewShotProtocol protocol = new FewShotProtocol();
        plan = protocol.plan(data, protocol.options(options(EPISODES)), RunSpec.DEFAULT_ORDER_SEED);
        // through the SPI, as the application finds it: eval's packages know no method at compile time
        Method ncm = Registry.discover("method", Method.class, Method::id).get("ncm");
        capabilities = ncm.capabilities();
        learner = ncm.learner(ncm.defaults(), plan.background(0, Optional.empty()));
        Registry<Method> methods = new Registry<>("method", Method::id).register(ncm);
        Registry<Protocol> protocols = Registry.discover("protocol", Protocol.class, Protocol::name);
        Registry<Metric> registered = Registry.discover("metric", Metric.class, Metric::name);
        Registry<Metric> measured = new Registry<>("metric", Metric::name);
        List<String> names = metrics.equals("all") ? registered.ids() : List.of(metrics.split("\\+"));
        names.forEach(n -> measured.register(registered.get(n))); // an unknown name fails the trial
        metricList = measured.ids().stream().map(measured::get).toList();
        runner = new Runner(methods, protocols, measured, (name, backbone, seed, cache) -> data, work.resolve("cache"))
                .withProgress(phases);
        spec = spec(EPISODES);
        oneEpisode = spec(1);
        seedBase = RandomStreams.derive(0, "bench");
        rows = runner.run(spec, work.resolve("rows")).records();
    }

    private static Map<String, String> options(int episodes) {
        return Map.of("ways", "5", "shots", "5", "queries", "75", "episodes", Integer.toString(episodes),
                "classes-from", "all");
    }

    private RunSpec spec(int episodes) {
        Map<String, List<String>> o = new java.util.LinkedHashMap<>();
        options(episodes).forEach((k, v) -> o.put(k, List.of(v)));
        o.put(FewShotProtocol.EPISODES_PER_UNIT.name(), List.of(Integer.toString(perUnit)));
        return new RunSpec(VariantSpec.parseList("ncm"), List.of("synthetic-bench"), "identity", "fewshot", o,
                RunSpec.DEFAULT_ORDER_SEED, 0, 1, 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        delete(work);
    }

    /** A fresh run directory for every runner call (a run directory holds one run). */
    @State(Scope.Thread)
    public static class RunDir {
        Path dir;

        @Setup(Level.Invocation)
        public void create() throws IOException {
            dir = Files.createTempDirectory("fsil-runner-bench-run").resolve("run");
        }

        @TearDown(Level.Invocation)
        public void delete() {
            RunnerUnitBench.delete(dir.getParent());
        }
    }

    /** Reference: sample the episode, learn the support set, predict the queries, count the correct labels. */
    @Benchmark
    @OperationsPerInvocation(EPISODES)
    public int direct() {
        int correct = 0;
        for (int i = 0; i < EPISODES; i++) {
            LabeledData[] e = FewShotProtocol.sampleEpisode(plan, i);
            Session s = learner.newSession(new SessionContext(Capability.INDUCTIVE_FEWSHOT, e[0].dimension(),
                    RandomStreams.derive(seedBase, i), SessionContext.DIRECT));
            s.learn(e[0]);
            Prediction p = s.predict(e[1].features());
            int[] labels = p.labels();
            int[] truth = e[1].labels();
            for (int q = 0; q < labels.length; q++) {
                correct += labels[q] == truth[q] ? 1 : 0;
            }
        }
        return correct;
    }

    /** The same episodes through TaskRunner: the task of the plan, a session, accuracy. */
    @Benchmark
    @OperationsPerInvocation(EPISODES)
    public double taskRunner() {
        double sum = 0;
        for (int i = 0; i < EPISODES; i++) {
            TaskOutcome r = TaskRunner.run(plan.task(i, capabilities), learner, RandomStreams.derive(seedBase, i),
                    SessionContext.DIRECT);
            sum += r.accuracy();
        }
        return sum;
    }

    /**
     * taskRunner plus every registered metric, measured task by task over blocks of {@link #block} tasks as the
     * runner's units are (ECE bins, NLL and Brier, adaptive-ECE bins, memory, times): the evaluation work of a run
     * without its plan, store, summaries and report. runner / taskRunnerMetrics is the runner's own cost.
     */
    @Benchmark
    @OperationsPerInvocation(EPISODES)
    public int taskRunnerMetrics() {
        return taskRunnerMetrics(plan, EPISODES);
    }

    private int taskRunnerMetrics(ProtocolPlan tasks, int episodes) {
        int size = 0;
        int perBlock = block(episodes);
        List<Metric.Accumulator> block = new ArrayList<>();
        for (int i = 0; i < episodes; i++) {
            if (block.isEmpty()) {
                metricList.forEach(m -> block.add(m.accumulator()));
            }
            TaskOutcome o = TaskRunner.run(tasks.task(i, capabilities), learner, RandomStreams.derive(seedBase, i),
                    SessionContext.DIRECT);
            block.forEach(a -> a.add(o));
            if ((i + 1) % perBlock == 0 || i == episodes - 1) {
                for (Metric.Accumulator a : block) {
                    JsonNode v = a.result();
                    size += v == null ? 0 : v.size();
                }
                block.clear();
            }
        }
        return size;
    }

    /** When the runner's last run started and ended its units (the runner reports its progress this way). */
    private final Phases phases = new Phases();

    static final class Phases implements Progress {
        long unitsStarted;
        long unitsEnded;

        @Override
        public void start(String protocol, long total) {
            unitsStarted = System.nanoTime();
        }

        @Override
        public void step(long tasks) {
        }

        @Override
        public void message(String text) {
        }

        @Override
        public void close() {
            unitsEnded = System.nanoTime();
        }
    }

    /** Time the JVM's collectors report having spent (ms resolution), in ns. */
    private static long gcNanos() {
        long ms = 0;
        for (java.lang.management.GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, g.getCollectionTime());
        }
        return ms * 1_000_000;
    }

    /** The process's CPU time (all its threads: units, runner, JIT compiler, GC), in steps of a clock tick. */
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /**
     * The pairs of {@link #paired} in measurement iterations, and at the end of the trial the runner's own cost they
     * show: (runner - without) / without, summed over the pairs, with a 95% interval from the spread of the pairs'
     * differences (paired t), in CPU time of the process and in wall time.
     */
    @State(Scope.Thread)
    public static class Pairs {
        /**
         * Episodes per run of a pair. Two sizes in one command separate the runner's cost per episode (the slope)
         * from its cost per run: {@code -p episodes=10000,50000}.
         */
        @Param("10000")
        public int episodes;
        ProtocolPlan plan;
        RunSpec spec;
        long calls;
        boolean measuring;
        // without: wall, cpu, gc; with the runner: wall, cpu, gc, then its wall before and after its units
        final List<long[]> pairs = new ArrayList<>();

        @Setup(Level.Iteration)
        public void iteration(IterationParams iteration) {
            measuring = iteration.getType() == IterationType.MEASUREMENT;
        }

        @TearDown(Level.Trial)
        public void print() {
            System.out.println();
            System.out.println("# runner's own cost over " + pairs.size() + " pairs of " + episodes + " episodes: CPU "
                    + share(1) + ", wall " + share(0) + "; wall per run without the runner " + mean(0)
                    + ", the runner's own wall per run " + meanOf(p -> p[3] - p[0]) + ", of which more collection time "
                    + meanOf(p -> p[5] - p[2]) + "; before its units " + meanOf(p -> p[6]) + ", its units (rows "
                    + "stored) beyond the episodes without it " + meanOf(p -> p[3] - p[6] - p[7] - p[0])
                    + ", after its units (summaries, report) " + meanOf(p -> p[7]));
        }

        private String mean(int at) {
            return String.format(java.util.Locale.ROOT, "%.2f ms", pairs.stream().mapToLong(p -> p[at]).average()
                    .orElse(Double.NaN) * 1e-6);
        }

        /** The mean of a time (ns) over the pairs, in ms, with its 95% interval. */
        private String meanOf(java.util.function.ToLongFunction<long[]> time) {
            int n = pairs.size();
            double diff = 0;
            double diff2 = 0;
            for (long[] p : pairs) {
                double d = time.applyAsLong(p) * 1e-6;
                diff += d;
                diff2 += d * d;
            }
            double sd = Math.sqrt((diff2 - diff * diff / n) / (n - 1));
            return String.format(java.util.Locale.ROOT, "%.2f ms +- %.2f ms", diff / n, 1.96 * sd / Math.sqrt(n));
        }

        private String share(int at) {
            double base = 0;
            double diff = 0;
            double diff2 = 0;
            for (long[] p : pairs) {
                double d = p[at + 3] - p[at];
                base += p[at];
                diff += d;
                diff2 += d * d;
            }
            int n = pairs.size();
            double sd = Math.sqrt((diff2 - diff * diff / n) / (n - 1));
            return String.format(java.util.Locale.ROOT, "%.2f%% +- %.2f%%", 100 * diff / base,
                    100 * 1.96 * sd * Math.sqrt(n) / base);
        }
    }

    /**
     * The runner's own cost read off directly: each call runs {@link #taskRunnerMetrics} and {@link #runner} (the
     * same episodes and metrics, without and with the runner), in alternating order, and keeps both wall times, the
     * process's CPU times (all its threads: units, runner, JIT compiler, GC; in clock ticks of 10 ms) and the
     * collectors' times; the trial ends by printing the share, the runner's wall time per run and how much of it is
     * extra collection, and where it goes: before its units (plan, run files, lock), in its units beyond the same
     * episodes without it (the rows stored, the engine's threads) and after them (summaries and report), told apart
     * by when the runner reports its units' progress starting and ending. Pairs taken within a second cancel the
     * drift of a shared machine's load, which differences of the means of benchmarks run minutes apart do not. The
     * score (us per episode of either half, counted as {@value #EPISODES} episodes) is a by-product.
     */
    @Benchmark
    @OperationsPerInvocation(2 * EPISODES)
    public void paired(RunDir run, Pairs p, Blackhole bh) {
        if (p.plan == null) {
            FewShotProtocol protocol = new FewShotProtocol();
            p.plan = protocol.plan(data, protocol.options(options(p.episodes)), RunSpec.DEFAULT_ORDER_SEED);
            p.spec = spec(p.episodes);
        }
        long[] pair = new long[8];
        for (int half = 0; half < 2; half++) {
            boolean withRunner = (half + p.calls) % 2 == 0;
            long wall = System.nanoTime();
            long cpu = OS.getProcessCpuTime();
            long gc = gcNanos();
            bh.consume(withRunner ? runner.run(p.spec, run.dir) : taskRunnerMetrics(p.plan, p.episodes));
            int at = withRunner ? 3 : 0;
            pair[at] = System.nanoTime() - wall;
            pair[at + 1] = OS.getProcessCpuTime() - cpu;
            pair[at + 2] = gcNanos() - gc;
            if (withRunner) {
                pair[6] = phases.unitsStarted - wall;
                pair[7] = wall + pair[3] - phases.unitsEnded;
            }
        }
        p.calls++;
        if (p.measuring) {
            p.pairs.add(pair);
        }
    }

    /**
     * What storing a run's rows costs: the rows of a run of the same {@value #EPISODES} episodes appended to a new
     * {@code units.csv} (encoded, checksummed, written, synced when the store closes), in us per episode of the
     * rows, so that storeRows / taskRunnerMetrics is the store's share of an episode.
     */
    @Benchmark
    @OperationsPerInvocation(EPISODES)
    public int storeRows(RunDir run) throws IOException {
        Files.createDirectories(run.dir);
        try (fsil.eval.store.UnitStore store = fsil.eval.store.UnitStore.append(run.dir.resolve(Runner.UNITS))) {
            rows.forEach(store::add);
        }
        return rows.size();
    }

    /** The same episodes as a run of the Runner into a new directory, one unit thread. */
    @Benchmark
    @OperationsPerInvocation(EPISODES)
    public Runner.Outcome runner(RunDir run) {
        return runner.run(spec, run.dir);
    }

    /** A run of one episode: the runner's fixed cost per run (resolving, files, summaries, report, fsync). */
    @Benchmark
    public Runner.Outcome runnerOneEpisode(RunDir run) {
        return runner.run(oneEpisode, run.dir);
    }

    static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
