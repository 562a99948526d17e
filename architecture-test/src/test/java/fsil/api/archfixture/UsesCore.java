package fsil.api.archfixture;

/** Breaks "the api uses the JDK only" (ArchitectureTest.rulesRejectViolations). */
public final class UsesCore {
    public static Class<?> streams() {
        return fsil.core.random.RandomStreams.class;
    }
}
