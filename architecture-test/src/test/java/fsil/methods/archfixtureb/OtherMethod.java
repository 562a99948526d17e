package fsil.methods.archfixtureb;

/** A second "method" for ArchitectureTest.rulesRejectViolations. */
public final class OtherMethod {
}
