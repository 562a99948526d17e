package fsil.eval.archfixture;

/** Breaks "eval knows no method" (ArchitectureTest.rulesRejectViolations). */
public final class UsesMethod {
    public static Class<?> method() {
        return fsil.methods.baselines.NcmMethod.class;
    }
}
