package fsil.methods.ppca;

import fsil.testkit.MethodConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

/** The api conformance kit, with the defaults and with every non-default choice. */
class PpcaConformanceTest {

    @TestFactory
    Stream<DynamicTest> defaults() {
        return MethodConformance.of(new PpcaMethod()).tests();
    }

    @TestFactory
    Stream<DynamicTest> logLikelihoodBiasedKeep() {
        return MethodConformance.of(new PpcaMethod())
                .withParams(Map.of("score", "loglik", "covariance", "biased", "scatter", "keep", "q", "3"))
                .tests();
    }

    @TestFactory
    Stream<DynamicTest> euclideanBaseline() {
        return MethodConformance.of(new PpcaMethod()).withParams(Map.of("q", "0", "lambda", "1")).tests();
    }

    @TestFactory
    Stream<DynamicTest> randomizedSolverHigherDimension() {
        return MethodConformance.of(new PpcaMethod()).withDimension(48)
                .withParams(Map.of("solver", "randomized", "q", "5", "temperature", "100")).tests();
    }

    @TestFactory
    Stream<DynamicTest> fullSolver() {
        return MethodConformance.of(new PpcaMethod()).withParams(Map.of("solver", "full", "lambda", "0.5")).tests();
    }
}
