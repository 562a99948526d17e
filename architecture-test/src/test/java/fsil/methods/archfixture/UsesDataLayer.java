package fsil.methods.archfixture;

/** Breaks "methods use only the api and core" (ArchitectureTest.rulesRejectViolations). */
public final class UsesDataLayer {
    public static Class<?> reader() {
        return fsil.data.io.NpyReader.class;
    }
}
