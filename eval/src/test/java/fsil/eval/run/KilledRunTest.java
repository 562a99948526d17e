package fsil.eval.run;

import fsil.eval.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run killed with SIGKILL (Process.destroyForcibly on Linux) in the middle of its units, in a JVM of its own,
 * resumes to exactly the summary of an uninterrupted run: the rows written before the kill are kept (a torn last row
 * is dropped), the units that were running are run again. The OS released the killed process's lock on the run.
 */
class KilledRunTest {
    static final int EPISODES = 150;
    static final String METHODS = "ncm,knn,flaky[sleep-ms=8]";

    static RunSpec spec(int threads) {
        return RunnerTest.spec(METHODS, "fewshot", RunnerTest.episodes(EPISODES, 5), threads);
    }

    /** The child process: runs {@link #spec} into the directory given. */
    public static void main(String[] args) {
        RunnerTest.runner(RunnerTest.TOY).run(spec(2), Path.of(args[0]));
    }

    @Test
    void aRunKilledMidwayResumesToTheSummaryOfAnUninterruptedRun(@TempDir Path tmp) throws Exception {
        Path full = tmp.resolve("full");
        RunnerTest.runner(RunnerTest.TOY).run(spec(2), full);

        Path killed = tmp.resolve("killed");
        Path units = killed.resolve(Runner.UNITS);
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), KilledRunTest.class.getName(), killed.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
        int total = 3 * EPISODES / 5;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int rows = 0;
        while (rows < total / 4 && child.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
            rows = Files.exists(units) ? lines(units) - 1 : 0;
        }
        child.destroyForcibly(); // SIGKILL: no shutdown hook, no finally block runs
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertTrue(rows >= total / 4 && rows < total, "killed midway: " + rows + " of " + total + " rows written; "
                + Files.readString(tmp.resolve("child.log")));
        assertFalse(Files.exists(killed.resolve(Report.SUMMARY)), "the killed run did not get to its summary");

        Runner.Outcome resumed = RunnerTest.runner(RunnerTest.TOY).resume(killed, 1);
        int kept = total - resumed.ranNow();
        assertTrue(kept >= total / 4 && kept < total, "kept " + kept + " completed units");
        assertEquals(RunnerTest.stableSummary(full), RunnerTest.stableSummary(killed));
        assertEquals(1 + total, lines(units), "header and one row per unit");
    }

    private static int lines(Path file) throws IOException {
        byte[] b = Files.readAllBytes(file);
        int n = 0;
        for (byte x : b) {
            n += x == '\n' ? 1 : 0;
        }
        return n;
    }
}
