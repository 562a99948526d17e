package fsil.eval.run;

import fsil.api.Background;
import fsil.api.FsilException;
import fsil.api.Learner;
import fsil.api.Prediction;
import fsil.core.calibration.TemperatureScaling;
import fsil.core.random.RandomStreams;
import fsil.eval.metrics.Metric;
import fsil.eval.metrics.Value;
import fsil.eval.protocol.TaskOutcome;
import fsil.eval.protocol.TaskRunner;
import fsil.eval.store.UnitRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Runs units of a plan into rows: each task of the unit through {@link TaskRunner}, measured by every metric as
 * soon as it ends (a unit keeps its metrics' running values, not its tasks). A method's learner is prepared once
 * per (variant, dataset, background data) and shared by the units that need it (meta-training happens once); a
 * failure marks the unit failed with its reason, and the next units go on. Thread-safe; one instance serves a
 * whole run (or a whole executor of a distributed engine).
 */
public final class UnitRunner {
    private final Path cacheDir;
    private final List<Metric> metrics;
    private final Progress progress;
    private final Map<String, Future<Learner>> learners = new ConcurrentHashMap<>();
    private final Map<String, Background> backgrounds = new ConcurrentHashMap<>();

    public UnitRunner(Path cacheDir, List<Metric> metrics, Progress progress) {
        this.cacheDir = cacheDir;
        this.metrics = List.copyOf(metrics);
        this.progress = progress;
    }

    /** Runs a unit; session work may use {@code sessionExecutor} (results do not depend on it). */
    public UnitRecord run(RunPlan plan, RunPlan.Unit unit, Executor sessionExecutor) {
        RunPlan.Group g = unit.group();
        long start = System.nanoTime();
        String error = "";
        Double temperature = plan.temperature(g);
        List<Metric.Accumulator> measured = new ArrayList<>();
        List<Metric.Accumulator> scaled = new ArrayList<>();
        for (Metric m : metrics) {
            measured.add(m.accumulator());
            scaled.add(temperature != null && m.usesProbabilities() ? m.accumulator() : null);
        }
        int task = unit.firstTask();
        try {
            Learner learner = learner(plan, g);
            var capabilities = g.variant().method().capabilities(); // a new set per call for some methods
            for (; task < unit.firstTask() + unit.tasks(); task++) {
                TaskOutcome o = TaskRunner.run(g.plan().task(task, capabilities), learner, g.trainSeed(task),
                        sessionExecutor);
                add(measured, o);
                if (temperature != null) {
                    add(scaled, scaled(o, temperature));
                }
            }
        } catch (VirtualMachineError e) {
            throw e;
        } catch (MetricFailure e) { // a metric's bug, not the method's: the run stops, as it did when measure failed
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw (RuntimeException) e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        } catch (Throwable t) {
            // one line, as units.csv stores it, so the run's report matches one rebuilt from the file
            error = ((unit.tasks() > 1 ? "task " + task + ": " : "") + describe(t)).replace('\n', ' ')
                    .replace('\r', ' ');
        }
        Map<String, Value> stored = new LinkedHashMap<>();
        if (error.isEmpty()) {
            for (int i = 0; i < metrics.size(); i++) {
                Value v = measured.get(i).result();
                if (v != null) {
                    stored.put(metrics.get(i).id(), v);
                }
            }
            for (int i = 0; i < metrics.size(); i++) {
                Value v = scaled.get(i) == null ? null : scaled.get(i).result();
                if (v != null) {
                    stored.put(metrics.get(i).id() + Metric.TEMPERATURE_SCALED, v);
                }
            }
        }
        return new UnitRecord(g.variant().label(), g.variant().method().id(), g.dataset(), plan.protocol().id(),
                g.setting().label(), unit.index(), unit.firstTask(), unit.tasks(), plan.spec().orderSeed(),
                g.trainSeed(unit.firstTask()), error.isEmpty() ? UnitRecord.OK : UnitRecord.FAILED, error,
                (System.nanoTime() - start) * 1e-9, new Value.Obj(stored));
    }

    /** Adds a task to a unit's metrics (null: a metric not measured); a metric's exception stops the run. */
    private static void add(List<Metric.Accumulator> metrics, TaskOutcome o) {
        for (Metric.Accumulator a : metrics) {
            if (a != null) {
                try {
                    a.update(o);
                } catch (VirtualMachineError e) {
                    throw e;
                } catch (RuntimeException | Error e) {
                    throw new MetricFailure(e);
                }
            }
        }
    }

    /** A metric that threw while measuring a task: not a failure of the unit's method. */
    private static final class MetricFailure extends RuntimeException {
        MetricFailure(Throwable failure) {
            super(failure);
        }
    }

    /** A task's outcome with its probabilities temperature-scaled: softmax(log p / T); labels and accuracy unchanged. */
    static TaskOutcome scaled(TaskOutcome o, double temperature) {
        double[] p = o.prediction().rawProbabilities().clone();
        TemperatureScaling.apply(p, o.prediction().numClasses(), temperature);
        Prediction scaled = Prediction.of(o.prediction().classes(), p);
        return new TaskOutcome(o.episodic(), o.accuracy(), o.correct(), scaled, o.truth(), o.accSeen(), o.aMatrix(),
                o.classesSeen(), o.relativeAcc(), o.fitSeconds(), o.predictSeconds(), o.memoryBytes(), o.extra());
    }

    /**
     * The learner of a group, prepared once per (variant, dataset, background data): groups whose settings share a
     * background share the learner. A failed preparation fails each unit that needs it.
     */
    private Learner learner(RunPlan plan, RunPlan.Group g) throws InterruptedException {
        long backgroundSeed = RandomStreams.derive(plan.spec().trainSeed(), "background");
        Background bg = backgrounds.computeIfAbsent(g.dataset() + "|" + g.setting().label(),
                k -> g.plan().background(backgroundSeed, Optional.of(cacheDir)));
        String key = g.variant().label() + "|" + g.dataset() + "|" + bg.dataKey();
        FutureTask<Learner> task = new FutureTask<>(() -> {
            progress.message("preparing " + g.variant().label() + " on " + g.dataset());
            return g.variant().method().learner(g.variant().params(), bg);
        });
        Future<Learner> existing = learners.putIfAbsent(key, task);
        if (existing == null) {
            task.run();
        }
        try {
            return (existing == null ? task : existing).get();
        } catch (ExecutionException e) {
            throw new FsilException("preparing " + g.variant().label() + " failed: " + describe(e.getCause()),
                    e.getCause());
        }
    }

    static String describe(Throwable t) {
        if (t instanceof FsilException) {
            return t.getMessage();
        }
        StackTraceElement[] st = t.getStackTrace();
        return t.getClass().getSimpleName() + ": " + t.getMessage() + (st.length > 0 ? " (at " + st[0] + ")" : "");
    }
}
