package fsil.engine.spark;

import fsil.api.FsilException;
import fsil.api.SessionContext;
import fsil.data.FeatureSet;
import fsil.eval.metrics.Metric;
import fsil.eval.run.Engine;
import fsil.eval.run.RunPlan;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import org.apache.spark.SimpleFutureAction;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.cluster.CoarseGrainedSchedulerBackend;
import scala.runtime.AbstractFunction0;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

import java.io.IOException;
import java.io.Serializable;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Runs a plan's units as Apache Spark tasks. The driver (this process) has planned the run as the local engine does;
 * the units still to do are split into partitions of a few units each (by their index in {@link RunPlan#units()}).
 * A task rebuilds the plan on its executor once per JVM ({@link RunContext}: the same plugins by ServiceLoader, the
 * features by broadcast, from a path every node reads, or in-process for local masters), runs its units with the
 * executor's {@link fsil.eval.run.UnitRunner} (learners prepared once per executor and reused) and returns their
 * rows as text. The driver records each partition's rows as its task ends, through the runner's store, which keeps
 * a unit once: a task re-run after a lost executor, or a speculative copy, never writes a unit twice. A unit whose
 * method throws is a failed row, as on the local engine; a task that throws otherwise is retried by Spark at most
 * {@code spark.task.maxFailures} times, then the run stops (its completed units are kept for a resume).
 */
public final class SparkEngine implements Engine {
    public static final String NAME = "spark";
    /** JVM options Spark 4 needs on Java 17 (spark-submit adds the same). */
    static final String JAVA17_OPENS = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED "
            + "--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED "
            + "--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED";

    private final String master;
    private final String features;
    private final int unitsPerTask;
    private final String executorCache;
    private volatile Stats last;

    /**
     * @param master        the master URL, or null for spark.master of the configuration (else local[*])
     * @param features      auto, broadcast, shared or in-process
     * @param unitsPerTask  units per partition, 0 for automatic
     * @param executorCache the cache directory on executors, or null for the driver's
     */
    public SparkEngine(String master, String features, int unitsPerTask, String executorCache) {
        this.master = master;
        this.features = features;
        this.unitsPerTask = unitsPerTask;
        this.executorCache = executorCache;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * What the last {@link #execute} saw.
     *
     * @param master           the master URL
     * @param features         how executors got the features
     * @param broadcastBytes   bytes broadcast (0 unless BROADCAST)
     * @param partitions       tasks of the job
     * @param startSeconds     from the call to the first task submitted: context, executors, broadcast
     * @param runSeconds       from the job's submission to its last result
     * @param recorded         units recorded by this run
     * @param duplicates       rows handed over again and dropped
     * @param failedTasks      task attempts that failed (lost executors included)
     * @param executorsRemoved executors lost during the run
     */
    public record Stats(String master, String features, long broadcastBytes, int partitions, double startSeconds,
                        double runSeconds, int recorded, int duplicates, int failedTasks, int executorsRemoved) {
    }

    public Stats lastStats() {
        return last;
    }

    @Override
    public void execute(Job job) throws InterruptedException {
        long t0 = System.nanoTime();
        RunPlan plan = job.plan();
        List<RunPlan.Unit> todo = job.todo();
        if (todo.isEmpty()) {
            return;
        }
        SparkConf conf = conf(plan);
        String m = conf.get("spark.master");
        boolean local = m.startsWith("local");
        RunContext.Features mode = switch (features) {
            case "auto" -> local ? RunContext.Features.IN_PROCESS : RunContext.Features.BROADCAST;
            case "broadcast" -> RunContext.Features.BROADCAST;
            case "shared" -> RunContext.Features.SHARED;
            case "in-process" -> {
                if (!local) {
                    throw new FsilException("features=in-process needs a local master, not " + m);
                }
                yield RunContext.Features.IN_PROCESS;
            }
            default -> throw new IllegalStateException(features);
        };
        String runKey = UUID.randomUUID().toString();
        job.progress().message("spark: starting on " + m + (conf.contains("spark.jars") && !local
                ? " (shipping " + conf.get("spark.jars").split(",").length + " jars)" : ""));
        JavaSparkContext sc = new JavaSparkContext(conf);
        try {
            Listener listener = new Listener();
            sc.sc().addSparkListener(listener);
            long broadcastBytes = 0;
            Broadcast<Map<String, byte[]>> broadcast = null;
            if (mode == RunContext.Features.BROADCAST) {
                Map<String, byte[]> encoded = new LinkedHashMap<>();
                for (Map.Entry<String, FeatureSet> e : plan.data().entrySet()) {
                    encoded.put(e.getKey(), FeatureCodec.encode(e.getValue()));
                }
                broadcastBytes = encoded.values().stream().mapToLong(b -> b.length).sum();
                broadcast = sc.broadcast(encoded);
            } else if (mode == RunContext.Features.IN_PROCESS) {
                RunContext.handOver(runKey, plan.data());
            }
            Map<UnitRecord.Key, Integer> index = new HashMap<>();
            for (int i = 0; i < plan.units().size(); i++) {
                index.put(plan.units().get(i).key(), i);
            }
            int parallelism = Math.max(1, sc.defaultParallelism());
            int per = unitsPerTask > 0 ? unitsPerTask : autoUnitsPerTask(todo.size(), parallelism);
            List<int[]> chunks = new ArrayList<>();
            for (int from = 0; from < todo.size(); from += per) {
                int[] c = new int[Math.min(per, todo.size() - from)];
                for (int k = 0; k < c.length; k++) {
                    c[k] = index.get(todo.get(from + k).key());
                }
                chunks.add(c);
            }
            String cache = executorCache != null ? executorCache : job.cacheDir().toAbsolutePath().toString();
            RunContext.Descriptor d = new RunContext.Descriptor(runKey, plan.spec().toJson(),
                    plan.config().toString(), plan.units().size(), new ArrayList<>(job.metrics().stream().map(Metric::id).toList()),
                    cache, mode, broadcast);
            job.progress().message(String.format(Locale.ROOT, "spark: %d units in %d tasks of up to %d %s; "
                            + "features %s%s", todo.size(), chunks.size(), per, workers(sc.sc(), local, parallelism),
                    mode.name().toLowerCase(Locale.ROOT).replace('_', '-'),
                    broadcastBytes > 0 ? String.format(Locale.ROOT, " (%.1f MB)", broadcastBytes / 1e6) : ""));
            double startSeconds = (System.nanoTime() - t0) * 1e-9;
            long t1 = System.nanoTime();
            int[] counts = run(sc.sc(), chunks, d, job.results());
            last = new Stats(m, mode.name().toLowerCase(Locale.ROOT), broadcastBytes, chunks.size(), startSeconds,
                    (System.nanoTime() - t1) * 1e-9, counts[0], counts[1], listener.failedTasks.get(),
                    listener.executorsRemoved.get());
            if (counts[1] > 0 || listener.executorsRemoved.get() > 0) {
                job.progress().message("spark: " + listener.executorsRemoved.get() + " executor(s) lost, "
                        + listener.failedTasks.get() + " task attempt(s) failed and re-run, " + counts[1]
                        + " unit(s) handed over twice and recorded once");
            }
        } finally {
            sc.stop(); // ends the tasks of a failed or interrupted job before the run's context goes
            RunContext.forget(runKey);
        }
    }

    /**
     * What runs the tasks, as the driver knows it when the job is planned: on a local master, the task threads of
     * this JVM ("on 2 threads of this JVM"); on a cluster, the executors registered so far and their cores in all
     * ("for 2 cores; 1 executor with 1 core registered so far"): executors keep registering while the job runs, and
     * Spark's default parallelism, which the tasks are sized for, is the registered cores but at least 2
     * ({@code spark.default.parallelism} when set).
     */
    static String workers(SparkContext sc, boolean local, int parallelism) {
        if (local) {
            return "on " + parallelism + " thread" + (parallelism == 1 ? "" : "s") + " of this JVM";
        }
        int executors = sc.getExecutorIds().size();
        String registered = executors + " executor" + (executors == 1 ? "" : "s");
        if (sc.schedulerBackend() instanceof CoarseGrainedSchedulerBackend b) {
            int cores = b.totalCoreCount().get();
            registered += " with " + cores + " core" + (cores == 1 ? "" : "s") + (executors > 1 ? " in all" : "");
        }
        return "for " + parallelism + " cores; " + registered + " registered so far";
    }

    /**
     * About sixteen tasks per executor core, at most 1,000 units each: cores idle at the end for at most a small
     * task, results arrive every few units, and Spark's cost per task (milliseconds) stays small next to the units.
     */
    static int autoUnitsPerTask(int units, int parallelism) {
        long tasks = 16L * parallelism;
        return (int) Math.max(1, Math.min(1000, (units + tasks - 1) / tasks));
    }

    /** Submits the job and records each partition's rows as its task ends; returns {recorded, duplicates}. */
    private static int[] run(SparkContext sc, List<int[]> chunks, RunContext.Descriptor d, Results results)
            throws InterruptedException {
        BlockingQueue<String[]> arrived = new LinkedBlockingQueue<>();
        RDD<int[]> rdd = new JavaSparkContext(sc).parallelize(chunks, chunks.size()).rdd();
        List<Object> partitions = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            partitions.add(i);
        }
        SimpleFutureAction<BoxedUnit> action = sc.submitJob(rdd, new RunPartition(d),
                scala.jdk.javaapi.CollectionConverters.asScala(partitions).toSeq(), new Arrived(arrived),
                new Done());
        int recorded = 0;
        int duplicates = 0;
        try {
            while (true) {
                boolean finished = action.isCompleted(); // read before draining: no result arrives after it
                String[] rows;
                while ((rows = arrived.poll(finished ? 0 : 200, TimeUnit.MILLISECONDS)) != null) {
                    for (String row : rows) {
                        UnitRecord r;
                        try {
                            r = UnitStore.decode(row);
                        } catch (IllegalArgumentException e) {
                            throw new FsilException("an executor returned a row that cannot be read ("
                                    + e.getMessage() + ")");
                        }
                        if (results.accept(r)) {
                            recorded++;
                        } else {
                            duplicates++;
                        }
                    }
                    if (finished) {
                        break;
                    }
                }
                if (finished) {
                    break;
                }
            }
            scala.util.Try<BoxedUnit> outcome = action.value().get();
            if (outcome.isFailure()) {
                Throwable t = outcome.failed().get();
                throw new FsilException("Spark gave up: " + rootMessage(t), t);
            }
            return new int[]{recorded, duplicates};
        } catch (InterruptedException | RuntimeException | Error e) {
            action.cancel();
            throw e;
        }
    }

    static String rootMessage(Throwable t) {
        String m = t.getMessage() == null ? t.toString() : t.getMessage();
        int nl = m.indexOf('\n');
        return nl > 0 ? m.substring(0, nl) : m;
    }

    private SparkConf conf(RunPlan plan) {
        SparkConf conf = new SparkConf(); // spark.* system properties (spark-submit, -Dspark.x=y) included
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        boolean local = conf.get("spark.master").startsWith("local");
        if (!conf.contains("spark.app.name")) {
            conf.setAppName("fsil " + plan.protocol().id() + " (" + plan.units().size() + " units)");
        }
        // rows (about 4 KB a unit) are streamed into the store as tasks end and not kept by the driver, so Spark's
        // cap on a job's total result size (1 GB by default: 250,000 units) does not apply
        conf.setIfMissing("spark.driver.maxResultSize", "0");
        String opts = conf.get("spark.executor.extraJavaOptions", "");
        if (!opts.contains("java.base/sun.nio.ch")) {
            conf.set("spark.executor.extraJavaOptions", (opts + " " + JAVA17_OPENS).trim());
        }
        if (local) {
            // everything in this JVM: nothing listens beyond the loopback
            conf.setIfMissing("spark.driver.host", "127.0.0.1");
            conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
            conf.setIfMissing("spark.ui.enabled", "false");
        } else if (!conf.contains("spark.jars")) {
            List<String> jars = shippedJars();
            if (!jars.isEmpty()) {
                conf.set("spark.jars", String.join(",", jars));
            }
        }
        return conf;
    }

    /**
     * The jars executors need from fsil, when this class comes from engine-spark's build: its jar and the jars of
     * {@code lib/} beside it (fsil, the methods and their libraries; Spark itself is the cluster's). Empty when not
     * found (spark-submit ships the application jar and --jars itself).
     */
    static List<String> shippedJars() {
        Path here;
        try {
            here = Path.of(SparkEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return List.of();
        }
        Path jar = null;
        Path target = null;
        if (Files.isRegularFile(here) && here.toString().endsWith(".jar")) {
            jar = here;
            target = here.getParent();
        } else if (Files.isDirectory(here) && here.getParent() != null) { // target/classes of a build
            target = here.getParent();
            try (Stream<Path> s = Files.list(target)) {
                jar = s.filter(p -> p.getFileName().toString().matches("engine-spark-.*\\.jar")
                        && !p.getFileName().toString().contains("-tests")).findFirst().orElse(null);
            } catch (IOException e) {
                return List.of();
            }
        }
        if (jar == null || target == null || !Files.isDirectory(target.resolve("lib"))) {
            return List.of();
        }
        List<String> out = new ArrayList<>(List.of(jar.toAbsolutePath().toString()));
        try (Stream<Path> s = Files.list(target.resolve("lib"))) {
            s.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> out.add(p.toAbsolutePath().toString()));
        } catch (IOException e) {
            return List.of();
        }
        return out;
    }

    /** The task: runs its units on this executor and returns their rows. */
    static final class RunPartition extends AbstractFunction1<scala.collection.Iterator<int[]>, String[]>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final RunContext.Descriptor d;

        RunPartition(RunContext.Descriptor d) {
            this.d = d;
        }

        @Override
        public String[] apply(scala.collection.Iterator<int[]> chunks) {
            RunContext ctx = RunContext.of(d);
            List<String> rows = new ArrayList<>();
            while (chunks.hasNext()) {
                for (int i : chunks.next()) {
                    rows.add(UnitStore.encode(ctx.units.run(ctx.plan, ctx.plan.units().get(i),
                            SessionContext.DIRECT)));
                }
            }
            return rows.toArray(new String[0]);
        }
    }

    /** On the driver, as each task's result arrives (Spark's scheduler thread): queued for the store. */
    private static final class Arrived extends AbstractFunction2<Object, String[], BoxedUnit> {
        private final BlockingQueue<String[]> queue;

        Arrived(BlockingQueue<String[]> queue) {
            this.queue = queue;
        }

        @Override
        public BoxedUnit apply(Object partition, String[] rows) {
            queue.add(rows);
            return BoxedUnit.UNIT;
        }
    }

    private static final class Done extends AbstractFunction0<BoxedUnit> {
        @Override
        public BoxedUnit apply() {
            return BoxedUnit.UNIT;
        }
    }

    /** Counts lost executors and failed task attempts (re-run by Spark). */
    private static final class Listener extends SparkListener {
        final AtomicInteger executorsRemoved = new AtomicInteger();
        final AtomicInteger failedTasks = new AtomicInteger();

        @Override
        public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
            executorsRemoved.incrementAndGet();
        }

        @Override
        public void onTaskEnd(SparkListenerTaskEnd e) {
            if (!e.taskInfo().successful()) {
                failedTasks.incrementAndGet();
            }
        }
    }
}
