package fsil.api;

/**
 * A configured method, possibly trained on base classes; immutable and safe to share between threads.
 * Creates one {@link Session} per task unit.
 */
@FunctionalInterface
public interface Learner {

    Session newSession(SessionContext context);

    /**
     * Convenience for notebooks and tests: solve one few-shot episode (learn the support set, predict the
     * queries) in a fresh session.
     */
    default Prediction solve(Episode episode, long seed) {
        Session s = newSession(SessionContext.forEpisode(episode, seed));
        s.learn(episode.support());
        return s.predict(episode.queries());
    }
}
