package fsil.api;

/**
 * One unit of a protocol as a method sees it: a few-shot {@link Episode} or an incremental stream of
 * {@link Experience}s. The evaluation labels stay with the protocol.
 */
public sealed interface Task permits Episode, ExperienceStream {

    TaskKind kind();

    int dimension();
}
