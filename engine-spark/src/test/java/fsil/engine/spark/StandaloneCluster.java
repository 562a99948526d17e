package fsil.engine.spark;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;

/**
 * A real Spark standalone cluster on this machine for tests and benchmarks: a master and N worker JVMs started from
 * the Spark jars on the test class path (no Spark distribution needed), on 127.0.0.1 only. Its SPARK_HOME/jars has
 * every jar of the class path except fsil's own, so executors find fsil only in the jars the driver ships
 * (spark.jars), as on a cluster with a Spark installation. Each JVM runs under {@code timeout -s KILL}, so none
 * outlives its time limit even if this process dies; {@link #close} kills them and their executors.
 */
final class StandaloneCluster implements AutoCloseable {
    /** Time for a master or worker JVM to start, before the load scaling; and the limit whatever the load. */
    static final Duration START = Duration.ofSeconds(90);
    static final Duration START_CAP = Duration.ofMinutes(5);
    private final Path dir;
    private final Path home;
    private final int port;
    private final long lifeSeconds;
    private final List<Process> processes = new ArrayList<>();
    private final List<Process> workers = new ArrayList<>();

    private StandaloneCluster(Path dir, int port, long lifeSeconds) {
        this.dir = dir;
        this.home = dir.resolve("spark-home");
        this.port = port;
        this.lifeSeconds = lifeSeconds;
    }

    /** Starts a master and {@code n} workers of {@code cores} cores and {@code memory} each; waits for them. */
    static StandaloneCluster start(Path dir, int n, int cores, String memory, long lifeSeconds)
            throws IOException, InterruptedException {
        StandaloneCluster c = new StandaloneCluster(dir, freePort(), lifeSeconds);
        try {
            c.linkJars();
            Process master = c.launch("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                    "--port", Integer.toString(c.port), "--webui-port", Integer.toString(freePort()));
            c.await(master, "master", "I have been elected leader", START);
            for (int i = 0; i < n; i++) {
                Path work = dir.resolve("work-" + i);
                Files.createDirectories(work);
                Process w = c.launch("worker-" + i, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                        "--cores", Integer.toString(cores), "--memory", memory, "--webui-port",
                        Integer.toString(freePort()), "--work-dir", work.toString(), c.url());
                c.workers.add(w);
                c.await(w, "worker-" + i, "Successfully registered with master", START);
            }
            return c;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            c.close();
            throw e;
        }
    }

    String url() {
        return "spark://127.0.0.1:" + port;
    }

    /** SIGKILL to worker {@code i}'s JVM (not its executor: that one notices its worker is gone and exits). */
    long killWorker(int i) {
        ProcessHandle java = javaOf(workers.get(i));
        java.destroyForcibly();
        return java.pid();
    }

    /** The executor JVMs running now (children of the workers' JVMs). */
    List<ProcessHandle> executors() {
        List<ProcessHandle> out = new ArrayList<>();
        for (Process w : workers) {
            ProcessHandle java = javaOf(w);
            java.children().filter(ProcessHandle::isAlive).forEach(out::add);
        }
        return out;
    }

    String log(String name) throws IOException {
        Path f = dir.resolve(name + ".log");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    private static ProcessHandle javaOf(Process p) {
        // the JVM is the child of `timeout`
        return p.toHandle().children().findFirst().orElse(p.toHandle());
    }

    private Process launch(String name, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("timeout", "-s", "KILL", Long.toString(lifeSeconds),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
        cmd.addAll(List.of(SparkEngine.JAVA17_OPENS.split(" ")));
        cmd.addAll(List.of("-cp", home.resolve("jars") + File.separator + "*", mainClass));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        Map<String, String> env = pb.environment();
        env.put("SPARK_HOME", home.toString());
        env.put("SPARK_SCALA_VERSION", "2.13");
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        env.put("SPARK_LOCAL_DIRS", dir.resolve("local").toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    /**
     * Waits for a log line of a JVM starting, for {@code base} scaled by the machine's load (a JVM start takes
     * seconds on a quiet machine, several times that under load), at most {@link #START_CAP}.
     */
    private void await(Process p, String name, String line, Duration base) throws IOException, InterruptedException {
        long seconds = Patience.scaled(base, START_CAP).toSeconds();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (log(name).contains(line)) {
                return;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException(name + " exited (" + p.exitValue() + "): " + log(name));
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " did not log '" + line + "' within " + seconds + " s (load factor "
                + String.format(java.util.Locale.ROOT, "%.1f", Patience.loadFactor()) + "): " + log(name));
    }

    /** Every jar of the test class path that holds no fsil class, linked into SPARK_HOME/jars. */
    private void linkJars() throws IOException {
        Path jars = home.resolve("jars");
        Files.createDirectories(jars);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String e : cp.split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (!e.endsWith(".jar") || !Files.isRegularFile(p) || holdsFsil(p)) {
                continue;
            }
            Path link = jars.resolve(p.getFileName());
            if (!Files.exists(link)) {
                Files.createSymbolicLink(link, p.toAbsolutePath());
            }
        }
    }

    private static boolean holdsFsil(Path jar) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            return z.stream().anyMatch(en -> en.getName().startsWith("fsil/"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        // the links into the Maven repository go (JUnit's @TempDir would warn about each)
        try (var links = Files.list(home.resolve("jars"))) {
            for (Path l : links.toList()) {
                Files.deleteIfExists(l);
            }
        } catch (IOException e) {
            // left for the temporary directory's cleanup
        }
    }
}
