package fsil.eval.run;

import fsil.api.Method;
import fsil.api.Registry;
import fsil.api.SessionContext;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.Protocol;
import fsil.eval.store.UnitRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The runner's own time per few-shot episode. Each call runs the same {@code episodes} NCM 5-way 5-shot episodes
 * (75 queries) with every registered metric twice, in alternating order: once as a {@link Runner} run into a new
 * directory (plan, rows stored, summaries, report; one unit thread) and once without the runner (the same plan's
 * units through the same {@link UnitRunner}, the rows dropped: {@link #withoutRunner}). At the end of the
 * trial it prints the mean of the pairs' differences per episode with its 95% paired t interval, and that as a
 * share of an episode without the runner. Pairs taken within a second cancel the drift of a shared machine's load.
 * The score (time per call) is a by-product.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(java.util.concurrent.TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 8, time = 5)
@Fork(1)
public class RunnerUnitBench {
    /** {@code synthetic} (40 well-separated Gaussian classes, d = 64) or a dataset such as {@code digits}. */
    @Param("synthetic")
    public String dataset = "synthetic";

    /** Episodes of each half of a pair. */
    @Param("10000")
    public int episodes = 10_000;

    /**
     * The metrics measured: ids joined by {@code +} (JMH splits a {@code -p} value on commas), e.g.
     * {@code episode_acc+ece}; {@code all}: every registered metric.
     */
    @Param("all")
    public String metricIds = "all";

    private Path work;
    private List<Metric> metrics;
    private RunPlan runPlan;
    private Runner runner;
    private RunSpec spec;
    private long calls;
    /** What both halves return, kept so that neither is optimised away. */
    long sink;
    boolean measuring;
    /** Per pair: wall time without the runner, then with it (ns). */
    final List<long[]> pairs = new ArrayList<>();
    /** The size of the last run's units.csv: what the metrics store. */
    long unitsBytes;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        work = Files.createTempDirectory("fsil-runner-bench");
        FeatureSet data = Datasets.load(dataset.equals("synthetic")
                ? "synthetic:classes=40,dim=64,per_class=100,test_per_class=20" : dataset, "identity", 0,
                work.resolve("cache"));
        Map<String, String> options = Map.of("ways", "5", "shots", "5", "queries", "75", "episodes",
                Integer.toString(episodes), "classes-from", "all");
        Method ncm = Registry.discover("method", Method.class, Method::id).get("ncm");
        Registry<Metric> discovered = Registry.discover("metric", Metric.class, Metric::id);
        Registry<Metric> registered = new Registry<>("metric", Metric::id);
        for (String id : metricIds.equals("all") ? discovered.ids() : List.of(metricIds.split("[+,]"))) {
            registered.register(discovered.get(id));
        }
        metrics = registered.ids().stream().map(registered::get).toList();
        runner = new Runner(new Registry<>("method", Method::id).register(ncm),
                Registry.discover("protocol", Protocol.class, Protocol::id), registered,
                (name, backbone, seed, cache) -> data, work.resolve("cache"));
        Map<String, List<String>> o = new LinkedHashMap<>();
        options.forEach((k, v) -> o.put(k, List.of(v)));
        spec = new RunSpec(VariantSpec.parseList("ncm"), List.of("bench"), "identity", "fewshot", o,
                RunSpec.DEFAULT_ORDER_SEED, 0, 1, 1);
        runPlan = runner.plan(spec);
    }

    @Setup(Level.Iteration)
    public void iteration(IterationParams iteration) {
        measuring = iteration.getType() == IterationType.MEASUREMENT;
    }

    /** One pair: the same episodes and metrics with and without the runner, the order alternating call by call. */
    @Benchmark
    public long paired() throws IOException {
        long[] pair = new long[2];
        for (int half = 0; half < 2; half++) {
            boolean withRunner = (half + calls) % 2 == 0;
            Path dir = Files.createTempDirectory(work, "run").resolve("run");
            long start = System.nanoTime();
            sink += withRunner ? runner.run(spec, dir).tasks() : withoutRunner();
            pair[withRunner ? 1 : 0] = System.nanoTime() - start;
            if (withRunner) {
                unitsBytes = Files.size(dir.resolve("units.csv"));
            }
            delete(dir.getParent());
        }
        calls++;
        if (measuring) {
            pairs.add(pair);
        }
        return pair[1] - pair[0];
    }

    /**
     * The runner's units without the runner: the run's plan (resolved once, at setup) executed unit by unit through
     * the {@link UnitRunner} the local engine calls, on a new pool thread as it runs units, each unit's row dropped.
     * So the two halves run the episodes and metrics through the same code, and differ in exactly what the runner
     * adds around its units: the plan, the run directory and its files, the rows stored and read back, the summaries
     * and the report. Returns the number of values the rows' metrics hold.
     */
    long withoutRunner() {
        java.util.concurrent.ExecutorService unit = java.util.concurrent.Executors.newFixedThreadPool(1, r -> {
            Thread t = new Thread(r, "bench-unit");
            t.setDaemon(true);
            return t;
        });
        try {
            return unit.submit(this::unitsWithoutRunner).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            unit.shutdown();
        }
    }

    private long unitsWithoutRunner() {
        UnitRunner units = new UnitRunner(work.resolve("cache"), metrics, Progress.SILENT);
        long size = 0;
        for (RunPlan.Unit u : runPlan.units()) {
            UnitRecord row = units.run(runPlan, u, SessionContext.DIRECT);
            if (!row.ok()) {
                throw new IllegalStateException(row.error());
            }
            for (fsil.eval.metrics.Value v : row.metrics().fields().values()) {
                size += v.size();
            }
        }
        return size;
    }

    /** The runner's own time per episode: mean paired difference with its 95% interval (normal quantile). */
    String report() {
        int n = pairs.size();
        double sum = 0;
        double sum2 = 0;
        double without = 0;
        for (long[] p : pairs) {
            double d = (p[1] - p[0]) * 1e-3 / episodes;
            sum += d;
            sum2 += d * d;
            without += p[0] * 1e-3 / episodes;
        }
        double mean = sum / n;
        double ci = 1.96 * Math.sqrt((sum2 - sum * sum / n) / (n - 1) / n);
        double base = without / n;
        return String.format(Locale.ROOT, "# runner's own time over %d pairs of %d episodes (%s): %.3f +- %.3f us "
                + "per episode, %.1f%% +- %.1f%% of %.2f us per episode without the runner; units.csv %.1f bytes per "
                + "episode", n, episodes, metricIds, mean, ci, 100 * mean / base, 100 * ci / base, base,
                unitsBytes / (double) episodes);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (pairs.size() > 1) {
            System.out.println();
            System.out.println(report());
        }
        delete(work);
    }

    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
