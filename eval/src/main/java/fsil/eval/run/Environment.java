package fsil.eval.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a run ran on: fsil version, git commit, JDK, cores, memory. Written to {@code environment.json}. */
public final class Environment {
    private Environment() {
    }

    public static String version() {
        String v = Environment.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    public static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fsil_version", version());
        m.put("git_commit", gitCommit(Paths.get("").toAbsolutePath()));
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

    /** The commit of the enclosing git checkout (read from .git, no process), or "unknown". */
    static String gitCommit(Path start) {
        for (Path p = start; p != null; p = p.getParent()) {
            Path git = p.resolve(".git");
            try {
                if (Files.isRegularFile(git)) {
                    // a worktree: "gitdir: <path>"
                    String s = Files.readString(git, StandardCharsets.UTF_8).trim();
                    if (s.startsWith("gitdir:")) {
                        git = p.resolve(s.substring(7).trim());
                    }
                }
                if (Files.isDirectory(git)) {
                    String head = Files.readString(git.resolve("HEAD"), StandardCharsets.UTF_8).trim();
                    if (!head.startsWith("ref:")) {
                        return head;
                    }
                    String ref = head.substring(4).trim();
                    for (Path dir = git; dir != null; dir = commonDir(dir)) {
                        Path r = dir.resolve(ref);
                        if (Files.exists(r)) {
                            return Files.readString(r, StandardCharsets.UTF_8).trim();
                        }
                        Path packed = dir.resolve("packed-refs");
                        if (Files.exists(packed)) {
                            for (String line : Files.readAllLines(packed, StandardCharsets.UTF_8)) {
                                if (line.endsWith(" " + ref)) {
                                    return line.substring(0, line.indexOf(' '));
                                }
                            }
                        }
                        if (dir.equals(commonDir(dir))) {
                            break;
                        }
                    }
                    return "unknown";
                }
            } catch (IOException e) {
                return "unknown";
            }
        }
        return "unknown";
    }

    private static Path commonDir(Path gitDir) throws IOException {
        Path c = gitDir.resolve("commondir");
        if (Files.exists(c)) {
            return gitDir.resolve(Files.readString(c, StandardCharsets.UTF_8).trim()).normalize();
        }
        return null;
    }
}
