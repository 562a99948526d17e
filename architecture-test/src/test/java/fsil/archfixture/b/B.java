package fsil.archfixture.b;

/** With {@link fsil.archfixture.a.A}, a package cycle (ArchitectureTest.rulesRejectViolations). */
public final class B {
    public static fsil.archfixture.a.A a() {
        return null;
    }
}
