package fsil.archfixture.a;

/** With {@link fsil.archfixture.b.B}, a package cycle (ArchitectureTest.rulesRejectViolations). */
public final class A {
    public static fsil.archfixture.b.B b() {
        return null;
    }
}
