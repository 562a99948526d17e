package fsil.methods.lsgp;

import fsil.testkit.MethodConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

/** The api conformance kit with the default inference and several non-default settings (meta-training kept short). */
class LsgpConformanceTest {

    @TestFactory
    Stream<DynamicTest> meanFieldMl() {
        return MethodConformance.of(new LsgpMethod())
                .withParams(Map.of("train_episodes", "40", "train_queries", "5", "hidden", "32", "mc_samples", "300",
                        "val_every", "7", "val_episodes", "5")).tests();
    }

    @TestFactory
    Stream<DynamicTest> gibbsPlAuthorsVariants() {
        return MethodConformance.of(new LsgpMethod()).withParams(pairs("inference", "gibbs", "loss", "pl",
                "train_episodes", "30", "train_queries", "5", "gibbs_burnin", "20", "gibbs_samples", "10", "mean", "0",
                "elbo", "authors", "query_mean", "authors", "tau", "1", "hidden", "0", "select", "last")).tests();
    }

    static Map<String, String> pairs(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @TestFactory
    Stream<DynamicTest> fixedKernelCalibrated() {
        return MethodConformance.of(new LsgpMethod()).withParams(Map.of("meta_train", "false", "calibrate", "true",
                "val_fraction", "0.4", "val_episodes", "20", "mean", "0", "steps", "5", "tol", "1e-6")).tests();
    }
}
