package fsil.eval.run;

import fsil.eval.metrics.Metric;
import fsil.eval.store.UnitRecord;

import java.nio.file.Path;
import java.util.List;

/**
 * What runs a plan's units. {@link Runner} does everything else, the same for every engine: it plans, creates or
 * opens the locked run directory, writes the run files, validates the store on a resume, records each unit once
 * and writes the summaries and the report at the end. The local engine ({@link LocalEngine}, the default) runs the
 * units on a thread pool; other engines (e.g. Apache Spark) are found by {@link java.util.ServiceLoader} through
 * {@link EngineProvider}, so nothing needs them on the class path.
 */
public interface Engine {

    /** The engine's name, as {@code fsil run --engine} takes it. */
    String name();

    /**
     * Runs {@code job.todo()} and hands each unit's record to {@link Job#results()} as it completes (from any
     * thread). Returns when every unit was handed over; throws when the engine cannot go on (units handed over
     * before stay recorded, a resume runs the rest). A unit whose method throws is a failed record, not an error.
     */
    void execute(Job job) throws InterruptedException;

    /**
     * The units to run and where their records go.
     *
     * @param plan     the resolved plan (the driver's: its data is loaded)
     * @param todo     the plan's units still to run, in plan order
     * @param results  records the results
     * @param metrics  the metrics every record must hold
     * @param cacheDir cache of datasets, features and method artifacts
     * @param progress where engines report messages; the runner counts completed tasks itself
     */
    record Job(RunPlan plan, List<RunPlan.Unit> todo, Results results, List<Metric> metrics, Path cacheDir,
               Progress progress) {
        public Job {
            todo = List.copyOf(todo);
            metrics = List.copyOf(metrics);
        }
    }

    /** Where an engine hands records: the runner's store, which records a unit once. */
    interface Results {
        /**
         * Records a unit's row; safe from several threads.
         *
         * @return true when it was recorded now, false when the unit was already recorded (a task that an engine
         *         ran twice, e.g. after losing an executor or by speculation: the second row is dropped)
         * @throws fsil.api.FsilException when the row is no unit of the plan
         */
        boolean accept(UnitRecord record);
    }
}
