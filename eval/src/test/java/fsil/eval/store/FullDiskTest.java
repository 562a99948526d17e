package fsil.eval.store;

import fsil.api.FsilException;
import fsil.eval.report.Report;
import fsil.eval.run.RunnerTest;
import fsil.eval.testing.TestPlugins;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real full disk: a 1 MB tmpfs (mounted by the test; it needs root, as in CI, and is skipped otherwise). The run
 * stores its units, then the report (which needs the 4.5 MB plotly.js) does not fit: one line naming the file, no
 * temporary file left, every unit kept; once there is room, {@code fsil report} rebuilds the same summary as a run
 * on a roomy disk.
 */
class FullDiskTest {
    static boolean sh(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void aFullDiskGivesOneLineLeavesNoTemporaryFileAndLosesNoUnit(@TempDir Path tmp) throws IOException {
        Path mnt = tmp.resolve("small");
        Files.createDirectories(mnt);
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name"))
                && sh("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt.toString()),
                "needs root to mount a small tmpfs");
        try {
            Map<String, List<String>> options = Map.of("episodes", List.of("30"), "queries", List.of("20"), "ways",
                    List.of("4"), "episodes-per-unit", List.of("10"));
            Path dir = mnt.resolve("run");
            // plotly.js cannot be hard-linked across file systems, and a copy does not fit
            FsilException e = assertThrows(FsilException.class, () -> RunnerTest.runner(RunnerTest.TOY)
                    .run(RunnerTest.spec("ncm,knn", "fewshot", options, 1), dir));
            assertTrue(e.getMessage().contains("No space left on device") && !e.getMessage().contains("\n"),
                    e.getMessage());
            try (Stream<Path> s = Files.walk(mnt)) {
                List<Path> temps = s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
                assertEquals(List.of(), temps, "no temporary file left");
            }
            UnitStore.Contents units = UnitStore.read(dir.resolve(UnitStore.FILE));
            assertEquals(6, units.rows().size(), "every unit was stored before the report failed");
            assertEquals(List.of(), units.invalid());

            assertTrue(sh("mount", "-o", "remount,size=32m", mnt.toString()));
            Report.rebuild(dir, TestPlugins.metrics().all());
            Path roomy = tmp.resolve("roomy");
            RunnerTest.runner(RunnerTest.TOY).run(RunnerTest.spec("ncm,knn", "fewshot", options, 1), roomy);
            assertEquals(RunnerTest.stableSummary(roomy), RunnerTest.stableSummary(dir));
        } finally {
            sh("umount", "-l", mnt.toString());
        }
    }
}
