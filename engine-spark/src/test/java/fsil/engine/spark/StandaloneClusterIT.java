package fsil.engine.spark;

import com.google.inject.Guice;
import fsil.app.FsilModule;
import fsil.eval.run.Progress;
import fsil.eval.run.RunSpec;
import fsil.eval.run.Runner;
import fsil.eval.run.VariantSpec;
import fsil.eval.store.UnitStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real standalone cluster (a master and two worker JVMs on 127.0.0.1, one core each) runs a spec while one worker
 * JVM is killed with SIGKILL midway: Spark re-runs the lost executor's tasks on the other, the run completes with
 * the local engine's numbers, and units.csv holds each unit once. The executors get fsil only from the jars the
 * driver ships (engine-spark's jar and target/lib) and the features by broadcast.
 */
class StandaloneClusterIT {
    static final Path CACHE = Path.of("target", "test-cache");
    static final List<String> PROPERTIES = List.of("spark.executor.memory", "spark.cores.max",
            "spark.scheduler.minRegisteredResourcesRatio");

    @TempDir
    Path tmp;

    @AfterEach
    void clear() {
        PROPERTIES.forEach(System::clearProperty);
    }

    static RunSpec spec() {
        // about 20 s of work for one core: 80 units of 50 episodes each for two methods
        return new RunSpec(VariantSpec.parseList("ppca,bavardage"), List.of("digits"), "identity", "fewshot",
                Map.of("shots", List.of("5"), "episodes", List.of("4000"), "episodes-per-unit", List.of("50")),
                RunSpec.DEFAULT_ORDER_SEED, RunSpec.DEFAULT_TRAIN_SEED, RunSpec.DEFAULT_BACKBONE_SEED, 2);
    }

    static Runner runner() {
        return Guice.createInjector(new FsilModule().withCacheDir(CACHE)).getInstance(Runner.class);
    }

    /**
     * The test's hard limit, whatever the load (CI's whole Spark step is capped at 20 minutes); the cluster's JVMs
     * are killed a minute after it at the latest. Within it, each wait ends on its event and fails when no unit has
     * been stored for {@link #STALL} scaled by the machine's load ({@link Patience}): 3 minutes on a quiet
     * machine, where the whole test takes about one.
     */
    static final Duration HARD_LIMIT = Duration.ofMinutes(15);
    /** Longer than Spark's detection of a lost executor (a worker's death closes its connection at once). */
    static final Duration STALL = Duration.ofMinutes(3);

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)   // HARD_LIMIT
    void aRunCompletesWithTheSameNumbersWhenAWorkerDiesMidway() throws Exception {
        Patience patience = new Patience(HARD_LIMIT);
        Path local = tmp.resolve("local");
        runner().run(spec(), local);
        int total = UnitStore.read(local.resolve("units.csv")).rows().size();
        assertEquals(160, total);

        System.setProperty("spark.executor.memory", "640m");
        System.setProperty("spark.cores.max", "2");
        System.setProperty("spark.scheduler.minRegisteredResourcesRatio", "1.0");
        Path spark = tmp.resolve("spark");
        Path units = spark.resolve("units.csv");
        ExecutorService driver = Executors.newSingleThreadExecutor();
        long life = HARD_LIMIT.plusMinutes(1).toSeconds();
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), 2, 1, "1g", life)) {
            SparkEngine engine = new SparkEngine(cluster.url(), "auto", 2, null);
            List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
            Progress progress = new Progress() {
                @Override
                public void start(String protocol, long n) {
                }

                @Override
                public void step(long tasks) {
                }

                @Override
                public void message(String text) {
                    messages.add(text);
                }

                @Override
                public void close() {
                }
            };
            Future<Runner.Outcome> run = driver.submit(() -> runner().withEngine(engine).withProgress(progress)
                    .run(spec(), spark));
            int rows = awaitRows(units, total / 5, run, patience, "a fifth of the units", cluster);
            int executorsBefore = cluster.executors().size();
            long killed = cluster.killWorker(1);
            awaitRows(units, Integer.MAX_VALUE, run, patience, "the end of the run", cluster);
            Runner.Outcome o = run.get();
            SparkEngine.Stats stats = engine.lastStats();
            String context = "rows at the kill " + rows + ", stats " + stats + ", " + patience.describe()
                    + "\nworker-1 log:\n" + tail(cluster.log("worker-1"));
            assertTrue(rows >= total / 5 && rows < total, "killed midway (pid " + killed + "): " + context);
            assertEquals(2, executorsBefore, "two executor JVMs ran the run: " + context);
            assertEquals("broadcast", stats.features());
            String plan = messages.stream().filter(t -> t.startsWith("spark: 160 units")).findFirst().orElse("none");
            assertTrue(plan.matches("spark: 160 units in \\d+ tasks of up to \\d+ for \\d+ cores; \\d executors? "
                    + "with \\d cores? (in all )?registered so far; features broadcast \\(0\\.\\d MB\\)"),
                    "the plan's line names the executors and cores registered: " + plan + "\n" + messages);
            assertTrue(stats.broadcastBytes() > 400_000, "digits' 1,797 x 64 float features: " + context);
            assertTrue(stats.executorsRemoved() >= 1, "the executor of the killed worker was lost: " + context);
            assertEquals(total, o.records().size());
            assertEquals(total, stats.recorded(), "every unit recorded by this run, once: " + context);
            assertEquals(total + 1, Files.readAllLines(units).size(), "the header and one row per unit");
            Summaries.assertSameResults(local, spark);
        } finally {
            driver.shutdownNow();
        }
    }

    /**
     * Waits for the run's units: until units.csv holds {@code target} rows or the run has ended (its outcome is then
     * the caller's to read). Fails when no row has arrived for the load-scaled stall limit, or at the hard limit.
     */
    private static int awaitRows(Path units, int target, Future<?> run, Patience patience, String what,
                                 StandaloneCluster cluster) throws IOException, InterruptedException {
        int rows = count(units);
        long progress = System.nanoTime();
        while (rows < target && !run.isDone()) {
            Thread.sleep(20);
            int now = count(units);
            if (now > rows) {
                rows = now;
                progress = System.nanoTime();
            }
            Duration stall = patience.stall(STALL);
            if (System.nanoTime() - progress > stall.toNanos() || patience.expired()) {
                throw new AssertionError("waiting for " + what + ": " + rows + " units stored, none for "
                        + (System.nanoTime() - progress) / 1_000_000_000L + " s (stall limit " + stall.toSeconds()
                        + " s); " + patience.describe() + "\nmaster log:\n" + tail(cluster.log("master"))
                        + "\nworker-0 log:\n" + tail(cluster.log("worker-0")));
            }
        }
        return rows;
    }

    private static int count(Path units) throws IOException {
        return Files.exists(units) ? UnitStore.read(units).rows().size() : 0;
    }

    private static String tail(String s) {
        return s.length() > 3000 ? s.substring(s.length() - 3000) : s;
    }
}
