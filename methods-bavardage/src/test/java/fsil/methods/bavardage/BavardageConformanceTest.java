package fsil.methods.bavardage;

import fsil.testkit.MethodConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

class BavardageConformanceTest {

    @TestFactory
    Stream<DynamicTest> conformance() {
        return MethodConformance.of(new BavardageMethod()).tests();
    }

    @TestFactory
    Stream<DynamicTest> conformancePaperPreprocessingBalanced() {
        return MethodConformance.of(new BavardageMethod())
                .withParams(Map.of("preprocessing", "paper", "preset", "mini-balanced", "eps_softmax", "true")).tests();
    }

    @TestFactory
    Stream<DynamicTest> conformanceAblations() {
        return Stream.concat(
                MethodConformance.of(new BavardageMethod()).withParams(Map.of("variant", "vb-no-plda")).tests(),
                MethodConformance.of(new BavardageMethod()).withParams(Map.of("variant", "softkmeans")).tests());
    }
}
