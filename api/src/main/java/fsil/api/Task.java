package fsil.api;

/**
 * One unit of a protocol as a method sees it: a few-shot {@link Episode} or an incremental stream of
 * {@link Experience}s. The evaluation labels stay with the protocol.
 */
public sealed interface Task permits Episode, ExperienceStream {

    /** What the task asks of the method that solves it. */
    Capability capability();

    int dimension();
}
