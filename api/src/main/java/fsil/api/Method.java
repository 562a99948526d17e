package fsil.api;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A classification method plugged into fsil: a stable id, what it can do, its parameters, and a factory.
 *
 * <p>Life cycle, as in scikit-learn's estimator contract but split in two levels:
 * <ol>
 *   <li>{@link #learner(Params, Background)} builds an immutable {@link Learner} once per configuration and
 *   dataset. This is where a method uses the base (background) classes, e.g. to meta-train a feature map or
 *   to estimate a within-class scatter. Methods that need nothing return a lambda.</li>
 *   <li>{@link Learner#newSession(SessionContext)} creates a fresh stateful {@link Session} for one task unit
 *   (one episode, one incremental run).</li>
 * </ol>
 * Register an implementation in {@code META-INF/services/fsil.api.Method}, or programmatically with
 * registration with the application (e.g. {@code new FsilModule(myMethod)}).
 */
public interface Method extends Plugin {

    /** Stable lower-case id used on the command line and in results, e.g. {@code ppca}. */
    @Override
    String id();

    /** One line saying what the method is. */
    @Override
    String description();

    @Override
    default String kind() {
        return "method";
    }

    /** The paper the method comes from (short citation), or "" for a plain baseline. */
    default String reference() {
        return "";
    }

    /** The task kinds this method supports. */
    Set<Capability> capabilities();

    /**
     * Whether a learner with these parameters needs base classes (a non-empty {@link Background}), e.g. to centre
     * and whiten features on them. A run refuses such a method before any work on a dataset and setting that
     * provides none (a dataset without a base split, or a protocol that draws the base classes itself), rather than
     * failing every unit.
     */
    default boolean needsBaseClasses(Params params) {
        return false;
    }

    /**
     * The method's training objective on embeddings with these parameters, for backbones that train their network
     * with it ({@link EmbeddingObjective}); empty (the default) when the method has none.
     */
    default java.util.Optional<EmbeddingObjective> objective(Params params) {
        return java.util.Optional.empty();
    }

    /** Declared parameters with defaults and documentation. */
    @Override
    List<Param<?>> parameters();

    /**
     * Builds the learner for a parameter setting. Must be a pure function of (params, background): the same
     * inputs give a learner that produces the same numbers.
     */
    Learner learner(Params params, Background background);

    /** All defaults (a method's {@link Params#methodId()} is its id alone, as recorded in runs). */
    @Override
    default Params defaults() {
        return Params.defaults(id(), parameters());
    }

    /** Defaults overridden by textual values; unknown names or bad values throw {@link InvalidParameterException}. */
    @Override
    default Params params(Map<String, String> values) {
        return Params.resolve(id(), parameters(), values);
    }
}
