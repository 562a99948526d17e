package fsil.engine.spark;

import com.google.inject.Guice;
import fsil.app.FsilModule;
import fsil.eval.run.Engine;
import fsil.eval.run.LocalEngine;
import fsil.eval.run.RunSpec;
import fsil.eval.run.Runner;
import fsil.eval.run.VariantSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark, not a timed test (tag "bench": {@code mvn -B -o -Pspark,bench -pl engine-spark -am verify}): units per
 * second of one few-shot spec on the local engine with 1 and 2 threads, on Spark local[1] and local[2], and on a
 * standalone cluster of two one-core workers, in one JVM; plus each engine's fixed start-up. Writes the table to
 * target/spark-bench.md and prints it.
 */
@Tag("bench")
class SparkThroughputBenchIT {
    static final Path CACHE = Path.of("target", "test-cache");

    @TempDir
    Path tmp;

    @AfterEach
    void clear() {
        StandaloneClusterIT.PROPERTIES.forEach(System::clearProperty);
    }

    /** Episodes per method and per unit: 6,000 in the protocol's default blocks of 200 unless set with -D. */
    static final int EPISODES = Integer.getInteger("fsil.bench.episodes", 6000);
    static final int PER_UNIT = Integer.getInteger("fsil.bench.episodesPerUnit", 200);

    static final String SPEC = String.format(java.util.Locale.ROOT,
            "bavardage and ppca, digits 5-way 5-shot, %,d episodes each in blocks of %d", EPISODES, PER_UNIT);

    /** bavardage and ppca, 5-way 5-shot on digits: by default 2 x 6,000 episodes in blocks of 200 = 60 units. */
    static RunSpec spec(int threads) {
        return new RunSpec(VariantSpec.parseList("bavardage,ppca"), List.of("digits"), "identity", "fewshot",
                Map.of("shots", List.of("5"), "episodes", List.of(Integer.toString(EPISODES)),
                        "episodes-per-unit", List.of(Integer.toString(PER_UNIT))),
                RunSpec.DEFAULT_ORDER_SEED, RunSpec.DEFAULT_TRAIN_SEED, RunSpec.DEFAULT_BACKBONE_SEED, threads);
    }

    /** Times an engine's execute: the whole call (start-up included). */
    static final class Timed implements Engine {
        final Engine inner;
        double seconds;

        Timed(Engine inner) {
            this.inner = inner;
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public void execute(Job job) throws InterruptedException {
            long t = System.nanoTime();
            inner.execute(job);
            seconds = (System.nanoTime() - t) * 1e-9;
        }
    }

    /**
     * @param cores     executor cores (threads) of the engine
     * @param inside    the units' own seconds (units.csv), summed
     */
    record Row(String engine, int cores, int units, double wall, double startup, double work, double inside) {
        double unitsPerSecond() {
            return units / work;
        }

        /** Core time per unit not spent inside units: scheduling, (de)serialization, idle cores at the end. */
        double overheadMillisPerUnit() {
            return 1000 * (work * cores - inside) / units;
        }
    }

    Row measure(String label, Engine engine, int threads, int cores) {
        Timed timed = new Timed(engine);
        Runner runner = Guice.createInjector(new FsilModule().withCacheDir(CACHE)).getInstance(Runner.class)
                .withEngine(timed);
        long t = System.nanoTime();
        Runner.Outcome o = runner.run(spec(threads), tmp.resolve(label.replaceAll("[^a-z0-9]", "_")));
        double wall = (System.nanoTime() - t) * 1e-9;
        double inside = o.records().stream().mapToDouble(fsil.eval.store.UnitRecord::seconds).sum();
        if (engine instanceof SparkEngine s) {
            SparkEngine.Stats st = s.lastStats();
            return new Row(label, cores, o.ranNow(), wall, timed.seconds - st.runSeconds(), st.runSeconds(), inside);
        }
        return new Row(label, cores, o.ranNow(), wall, 0, timed.seconds, inside);
    }

    @Test
    void unitsPerSecond() throws Exception {
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        measure("warm-up", new LocalEngine(), 2, 2); // the JIT of this JVM (driver, and local[N] executors)
        measure("warm-up spark", new SparkEngine("local[2]", "auto", 0, null), 2, 2); // Spark's classes
        List<Row> rows = new ArrayList<>();
        rows.add(measure("local engine, 1 thread", new LocalEngine(), 1, 1));
        rows.add(measure("local engine, 2 threads", new LocalEngine(), 2, 2));
        rows.add(measure("spark local[1]", new SparkEngine("local[1]", "auto", 0, null), 2, 1));
        rows.add(measure("spark local[2]", new SparkEngine("local[2]", "auto", 0, null), 2, 2));
        System.setProperty("spark.executor.memory", "640m");
        System.setProperty("spark.cores.max", "2");
        System.setProperty("spark.scheduler.minRegisteredResourcesRatio", "1.0");
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), 2, 1, "1g", 600)) {
            rows.add(measure("spark standalone, 2 workers x 1 core", new SparkEngine(cluster.url(), "auto", 0, null),
                    2, 2));
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d units (%s), %d cores, Java %s; /proc/loadavg before %s, after %s%n%n",
                rows.get(0).units(), SPEC, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), loadBefore, loadAfter));
        sb.append("| engine | units/s | local engine (same cores) faster by | start-up s | units s | run wall s "
                + "| mean unit s (inside) | overhead ms/unit |\n");
        sb.append("|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            Row ref = r.cores() == 1 ? rows.get(0) : rows.get(1);
            sb.append(String.format(Locale.ROOT, "| %s | %.2f | %+.1f %% | %.2f | %.2f | %.2f | %.3f | %.1f |%n",
                    r.engine(), r.unitsPerSecond(), 100 * (ref.unitsPerSecond() / r.unitsPerSecond() - 1),
                    r.startup(), r.work(), r.wall(), r.inside() / r.units(), r.overheadMillisPerUnit()));
        }
        sb.append(String.format(Locale.ROOT, "%nspeed-up from 1 to 2 cores: local engine %.2fx, spark local[1] -> "
                        + "local[2] %.2fx%n", rows.get(1).unitsPerSecond() / rows.get(0).unitsPerSecond(),
                rows.get(3).unitsPerSecond() / rows.get(2).unitsPerSecond()));
        System.out.println(sb);
        Files.writeString(Path.of("target", "spark-bench.md"), sb.toString());
    }
}
