package fsil.api;

import java.util.concurrent.Executor;

/**
 * What a session knows about its task before any data arrives.
 *
 * @param task      what the task asks of the method: an inductive or transductive episode, or an incremental
 *                  stream (a few-shot class-incremental one starts with its base session)
 * @param dimension feature dimension
 * @param seed      seed of this unit's random stream for the method (derived from train_seed and the unit)
 * @param executor  for parallel work inside the session; results must not depend on its thread count
 */
public record SessionContext(Capability task, int dimension, long seed, Executor executor) {

    /** Runs tasks in the calling thread. */
    public static final Executor DIRECT = Runnable::run;

    /** The context of a session that solves this task. */
    public static SessionContext of(Task task, long seed, Executor executor) {
        return new SessionContext(task.capability(), task.dimension(), seed, executor);
    }

    public static SessionContext forEpisode(Episode episode, long seed) {
        return of(episode, seed, DIRECT);
    }

    public static SessionContext incremental(int dimension, long seed) {
        return new SessionContext(Capability.CLASS_INCREMENTAL, dimension, seed, DIRECT);
    }

    /** Whether predictions may use the whole query batch jointly (transductive episodes). */
    public boolean jointQueries() {
        return task == Capability.TRANSDUCTIVE_FEWSHOT;
    }

    public SessionContext withExecutor(Executor e) {
        return new SessionContext(task, dimension, seed, e);
    }
}
