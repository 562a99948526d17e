package fsil.methods.ncmforest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cumulative training-cost diagnostics the ncmf protocol reads once per run: incremental_* are the sums over
 * the learn() calls after the first, so a 'retrain' session reports the cost of retraining at every step and the
 * incremental strategies report their own, on the same scale.
 */
class TrainingCostDiagnosticsTest {

    @ParameterizedTest
    @ValueSource(strings = {"uls", "igt", "rtst", "rust", "retrain"})
    void incrementalTotalsAreTheSumsOverTheLaterLearnCalls(String strategy) {
        NcmForestSession s = StrategyTest.session(strategy, Map.of(), 11);
        s.learn(StrategyTest.initial());
        Map<String, Double> first = s.diagnostics();
        assertEquals(0.0, first.get("incremental_comparisons"), "the initial training is not incremental");
        assertEquals(0.0, first.get("incremental_cpu_seconds"));
        assertEquals(0.0, first.get("incremental_seconds"));
        double comparisons = 0;
        double cpu = 0;
        double wall = 0;
        for (int c = 6; c < 9; c++) {
            s.learn(StrategyTest.chunk(new int[]{c}, 40, 100 + c));
            Map<String, Double> d = s.diagnostics();
            comparisons += d.get("train_comparisons");
            cpu += d.get("train_cpu_seconds");
            wall += d.get("train_seconds");
            assertEquals(comparisons, d.get("incremental_comparisons"), strategy);
            assertEquals(cpu, d.get("incremental_cpu_seconds"), 1e-12, strategy);
            assertEquals(wall, d.get("incremental_seconds"), 1e-12, strategy);
        }
        if (!strategy.equals("uls")) {
            assertTrue(comparisons > 0, strategy + " does work when classes are added");
        }
    }

    @Test
    void retrainTotalsEqualTrainingFromScratchOnTheDataSoFar() {
        NcmForestSession retrain = StrategyTest.session("retrain", Map.of(), 11);
        retrain.learn(StrategyTest.initial());
        retrain.learn(StrategyTest.chunk(new int[]{6}, 40, 106));
        double total = retrain.diagnostics().get("incremental_comparisons");
        assertTrue(total > 0);
        assertEquals(1.0, retrain.diagnostics().get("train_from_scratch"));
        assertEquals(total, retrain.diagnostics().get("train_comparisons"), "one later learn: the total is that learn");
    }

    @Test
    void cpuTimeIsMeasuredWhenTheJvmSupportsIt() {
        NcmForestSession s = StrategyTest.session("retrain", Map.of(), 3);
        s.learn(StrategyTest.initial());
        double cpu = s.diagnostics().get("train_cpu_seconds");
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        if (mx.isCurrentThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled()) {
            assertTrue(cpu > 0, "training 4 trees on 240 samples takes some CPU time");
        } else {
            assertEquals(0.0, cpu);
        }
    }
}
