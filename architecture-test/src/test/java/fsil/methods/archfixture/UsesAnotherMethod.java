package fsil.methods.archfixture;

/** Breaks "methods do not use each other" (ArchitectureTest.rulesRejectViolations). */
public final class UsesAnotherMethod {
    public static Object other() {
        return new fsil.methods.archfixtureb.OtherMethod();
    }
}
