package fsil.eval.run;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three ways of running the episodes (outside JMH) agree: the runner's records, TaskRunner and the direct loop
 * see the same episodes and give the same mean accuracy; the run directories are removed after each call.
 */
class RunnerUnitBenchTest {

    @Test
    void directTaskRunnerAndRunnerAgree() throws IOException {
        RunnerUnitBench b = new RunnerUnitBench();
        b.dim = 16;
        agree(b);
    }

    @Test
    void directTaskRunnerAndRunnerAgreeOnDigits() throws IOException {
        RunnerUnitBench b = new RunnerUnitBench();
        b.dataset = "digits";
        agree(b);
    }

    @Test
    void largerUnitsAreMeasuredOverTheSameBlocksByBothHalves() throws IOException {
        RunnerUnitBench b = new RunnerUnitBench();
        b.dim = 16;
        b.perUnit = 1000;
        agree(b);
    }

    @Test
    void aChosenSetOfMetricsIsWhatBothHalvesMeasure() throws IOException {
        RunnerUnitBench b = new RunnerUnitBench();
        b.dim = 16;
        b.metrics = "episode_acc";
        agree(b);
    }

    private static void agree(RunnerUnitBench b) throws IOException {
        b.setup();
        try {
            int n = RunnerUnitBench.EPISODES;
            double direct = b.direct() / (75.0 * n);
            double task = b.taskRunner() / n;
            RunnerUnitBench.RunDir dir = new RunnerUnitBench.RunDir();
            dir.create();
            Runner.Outcome o = b.runner(dir);
            assertEquals(n, o.tasks());
            assertEquals((n + b.block(n) - 1) / b.block(n), o.records().size(), "units of perUnit episodes");
            assertEquals(0, o.failedTasks());
            double run = o.records().stream().flatMapToDouble(r -> java.util.Arrays.stream(
                    fsil.eval.metrics.BuiltinMetrics.EpisodeAccuracy.accuracies(r.metric("episode_acc")))).average().orElseThrow();
            dir.delete();
            assertFalse(Files.exists(dir.dir.getParent()));
            assertTrue(direct > 0.3 && direct <= 1, "accuracy " + direct);
            assertEquals(direct, task, 1e-12);
            assertEquals(direct, run, 1e-12);
            // taskRunnerMetrics measures what the runner stores: the same metrics over the same blocks of tasks
            int stored = o.records().stream().mapToInt(r -> {
                int size = 0;
                for (var it = r.metrics().fields(); it.hasNext(); ) {
                    size += it.next().getValue().size();
                }
                return size;
            }).sum();
            assertEquals(stored, b.taskRunnerMetrics());
            if (!b.metrics.equals("all")) {
                for (fsil.eval.store.UnitRecord r : o.records()) {
                    java.util.Set<String> names = new java.util.HashSet<>();
                    r.metrics().fieldNames().forEachRemaining(names::add);
                    assertEquals(java.util.Set.of(b.metrics.split("\\+")), names, "only the chosen metrics");
                }
            }
            RunnerUnitBench.RunDir rowsDir = new RunnerUnitBench.RunDir();
            rowsDir.create();
            assertEquals(o.records().size(), b.storeRows(rowsDir));
            var written = fsil.eval.store.UnitStore.read(rowsDir.dir.resolve(Runner.UNITS)).rows();
            assertEquals(o.records().stream().map(r -> r.key() + " " + r.metric("episode_acc")).toList(),
                    written.stream().map(r -> r.key() + " " + r.metric("episode_acc")).toList(),
                    "storeRows writes the rows of a run of the same episodes");
            rowsDir.delete();
            RunnerUnitBench.RunDir one = new RunnerUnitBench.RunDir();
            one.create();
            assertEquals(1, b.runnerOneEpisode(one).tasks());
            one.delete();
            // paired: one pair of both halves, kept when measuring
            RunnerUnitBench.Pairs pairs = new RunnerUnitBench.Pairs();
            pairs.episodes = 400;
            pairs.measuring = true;
            RunnerUnitBench.RunDir pairDir = new RunnerUnitBench.RunDir();
            pairDir.create();
            b.paired(pairDir, pairs, new org.openjdk.jmh.infra.Blackhole("Today's password is swordfish. I understand "
                    + "instantiating Blackholes directly is dangerous."));
            assertTrue(Files.isRegularFile(pairDir.dir.resolve(Runner.UNITS)), "the runner half ran");
            assertEquals(400, fsil.eval.store.UnitStore.read(pairDir.dir.resolve(Runner.UNITS)).rows().stream()
                    .mapToLong(fsil.eval.store.UnitRecord::tasks).sum(),
                    "the pair ran its own number of episodes");
            pairDir.delete();
            assertEquals(1, pairs.pairs.size());
            long[] pair = pairs.pairs.get(0);
            assertTrue(pair[0] > 0 && pair[3] > 0, "both halves timed");
            assertTrue(pair[6] > 0 && pair[7] > 0 && pair[6] + pair[7] < pair[3],
                    "the runner's time before and after its units is part of its run: "
                            + java.util.Arrays.toString(pair));
        } finally {
            b.tearDown();
        }
    }
}
