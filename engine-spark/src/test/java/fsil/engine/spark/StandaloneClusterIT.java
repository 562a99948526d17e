package fsil.engine.spark;

import com.google.inject.Guice;
import fsil.app.FsilModule;
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

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void aRunCompletesWithTheSameNumbersWhenAWorkerDiesMidway() throws Exception {
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
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), 2, 1, "1g", 480)) {
            SparkEngine engine = new SparkEngine(cluster.url(), "auto", 2, null);
            Future<Runner.Outcome> run = driver.submit(() -> runner().withEngine(engine).run(spec(), spark));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
            int rows = 0;
            while (rows < total / 5 && !run.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(10);
                rows = Files.exists(units) ? UnitStore.read(units).rows().size() : 0;
            }
            int executorsBefore = cluster.executors().size();
            long killed = cluster.killWorker(1);
            Runner.Outcome o = run.get(5, TimeUnit.MINUTES);
            SparkEngine.Stats stats = engine.lastStats();
            String context = "rows at the kill " + rows + ", stats " + stats + "\nworker-1 log:\n"
                    + tail(cluster.log("worker-1"));
            assertTrue(rows >= total / 5 && rows < total, "killed midway (pid " + killed + "): " + context);
            assertEquals(2, executorsBefore, "two executor JVMs ran the run: " + context);
            assertEquals("broadcast", stats.features());
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

    private static String tail(String s) {
        return s.length() > 3000 ? s.substring(s.length() - 3000) : s;
    }
}
