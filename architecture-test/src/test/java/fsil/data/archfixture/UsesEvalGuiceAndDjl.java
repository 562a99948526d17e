package fsil.data.archfixture;

/** Breaks the data, Guice and DJL rules (ArchitectureTest.rulesRejectViolations). */
public final class UsesEvalGuiceAndDjl {
    public static Object[] used() {
        return new Object[]{fsil.eval.protocol.Protocol.class, com.google.inject.Injector.class,
                new ai.djl.archfixture.Model()};
    }
}
