package fsil.eval.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code environment.json}'s git fields, from a real temporary repository and from a directory outside any. */
class EnvironmentTest {

    @Test
    void commitAndDirtyOfARepository(@TempDir Path dir) throws Exception {
        Path repo = Files.createDirectory(dir.resolve("repo"));
        git(repo, "init", "-q");
        Files.writeString(repo.resolve("a.txt"), "a\n");
        git(repo, "add", "a.txt");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "a");
        String head = git(repo, "rev-parse", "HEAD").trim();
        assertTrue(head.matches("[0-9a-f]{40}"), head);
        assertEquals(new Environment.Git(head, "false"), Environment.git(repo));
        Path sub = Files.createDirectory(repo.resolve("sub"));
        Files.writeString(sub.resolve("b.txt"), "b\n");
        assertEquals(head, Environment.git(sub).commit(), "found from a subdirectory");
        assertEquals("true", Environment.git(repo).dirty(), "an untracked file");
        git(repo, "add", "sub/b.txt");
        assertEquals("true", Environment.git(repo).dirty(), "a staged file");
    }

    @Test
    void noCommitBeforeTheFirst(@TempDir Path dir) throws Exception {
        git(dir, "init", "-q");
        assertEquals(new Environment.Git(Environment.UNKNOWN, "false"), Environment.git(dir));
    }

    @Test
    void unknownOutsideARepository(@TempDir Path dir) {
        // the temporary directory lies outside any checkout
        var unknown = new Environment.Git(Environment.UNKNOWN, Environment.UNKNOWN);
        assertEquals(unknown, Environment.git(dir));
        assertEquals(unknown, Environment.git(dir.resolve("missing")));
    }

    @Test
    void describeNamesEveryField() {
        var m = Environment.describe();
        assertTrue(m.keySet().containsAll(java.util.List.of("fsil_version", "git_commit", "git_dirty", "cores")), m
                .toString());
    }

    private static String git(Path dir, String... args) throws Exception {
        var command = new java.util.ArrayList<>(java.util.List.of("git", "-C", dir.toString()));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, command + ": " + out);
        return out;
    }
}
