package fsil.api;

import java.util.concurrent.Executor;

/**
 * What a session knows about its task before any data arrives.
 *
 * @param kind          the task kind
 * @param dimension     feature dimension
 * @param jointQueries  whether predictions may use the whole query batch jointly (transductive episodes)
 * @param seed          seed of this unit's random stream for the method (derived from train_seed and the unit)
 * @param executor      for parallel work inside the session; results must not depend on its thread count
 */
public record SessionContext(TaskKind kind, int dimension, boolean jointQueries, long seed, Executor executor) {

    /** Runs tasks in the calling thread. */
    public static final Executor DIRECT = Runnable::run;

    public static SessionContext forEpisode(Episode episode, long seed) {
        return new SessionContext(TaskKind.FEWSHOT_EPISODE, episode.support().dimension(), episode.jointQueries(),
                seed, DIRECT);
    }

    public static SessionContext incremental(int dimension, long seed) {
        return new SessionContext(TaskKind.CLASS_INCREMENTAL, dimension, false, seed, DIRECT);
    }

    public SessionContext withExecutor(Executor e) {
        return new SessionContext(kind, dimension, jointQueries, seed, e);
    }
}
