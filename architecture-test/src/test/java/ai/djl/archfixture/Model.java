package ai.djl.archfixture;

/** Stands in for a DJL class (DJL is not a dependency) in ArchitectureTest.rulesRejectViolations. */
public final class Model {
}
