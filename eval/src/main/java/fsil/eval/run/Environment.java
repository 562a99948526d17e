package fsil.eval.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What a run ran on: fsil version, git commit, JDK, cores, memory. Written to {@code environment.json}. */
public final class Environment {
    /** What {@code git_commit} and {@code git_dirty} say when git is absent, slow or not in a repository. */
    public static final String UNKNOWN = "unknown";
    private static final long GIT_TIMEOUT_SECONDS = 5;

    private Environment() {
    }

    public static String version() {
        String v = Environment.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    /**
     * The checkout of the working directory, read once per process: the fsil code a process runs is the code it
     * loaded at start, so a later commit or edit in the checkout does not change what its runs ran, and a run does
     * not pay for starting git (tens of milliseconds on a loaded machine, most of a short run's fixed cost).
     */
    private static final class Checkout {
        static final Git GIT = git(Paths.get("").toAbsolutePath());
    }

    public static Map<String, Object> describe() {
        Git git = Checkout.GIT;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fsil_version", version());
        m.put("git_commit", git.commit());
        m.put("git_dirty", git.dirty());
        m.put("java_version", System.getProperty("java.version"));
        m.put("java_vendor", System.getProperty("java.vendor"));
        m.put("java_vm", System.getProperty("java.vm.name"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        m.put("started", Instant.now().toString());
        return m;
    }

    /**
     * The checkout around a directory: {@code commit} is {@code git rev-parse HEAD}, {@code dirty} is "true" when
     * {@code git status} lists a change (untracked files included), "false" when it lists none; either is
     * {@link #UNKNOWN} where git cannot tell.
     */
    record Git(String commit, String dirty) {
    }

    /**
     * The checkout around {@code dir}, from one {@code git status --porcelain=v2 --branch}: its header line
     * {@code # branch.oid} names the commit ("(initial)" before the first one), every other line is a change. One
     * process, not two, because starting git is most of what a short run's provenance costs.
     */
    static Git git(Path dir) {
        String out = git(dir, "status", "--porcelain=v2", "--branch");
        if (out == null) {
            return new Git(UNKNOWN, UNKNOWN);
        }
        String commit = UNKNOWN;
        boolean dirty = false;
        for (String line : out.split("\n")) {
            if (line.startsWith("# branch.oid ")) {
                String oid = line.substring("# branch.oid ".length()).trim();
                commit = oid.matches("[0-9a-f]{40,64}") ? oid : UNKNOWN;
            } else if (!line.isBlank() && !line.startsWith("#")) {
                dirty = true;
            }
        }
        return new Git(commit, Boolean.toString(dirty));
    }

    /**
     * The standard output of {@code git -C dir args...}, or null when git is absent, fails or takes longer than
     * {@value #GIT_TIMEOUT_SECONDS} s. The output goes to a temporary file, so a long one cannot block git.
     */
    private static String git(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Path out = null;
        Process p = null;
        try {
            out = Files.createTempFile("fsil-git", ".out");
            p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.getOutputStream().close(); // git reads nothing
            if (!p.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                return null;
            }
            return p.exitValue() == 0 ? Files.readString(out, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null; // no git on the PATH, or no temporary file
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a leftover temporary file
                }
            }
        }
    }
}
