package fsil.methods.gptree;

import fsil.testkit.MethodConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

class GpTreeConformanceTest {

    @TestFactory
    Stream<DynamicTest> conformanceDefaults() {
        return MethodConformance.of(new GpTreeMethod()).tests();
    }

    @TestFactory
    Stream<DynamicTest> conformanceBaselineTreesAndPlugIn() {
        Stream<DynamicTest> s = Stream.empty();
        for (String tree : new String[]{"random", "stick-break"}) {
            s = Stream.concat(s, MethodConformance.of(new GpTreeMethod())
                    .withParams(Map.of("tree", tree, "chains", "4", "predictive", "plug-in", "draw", "covariance"))
                    .tests().filter(t -> !t.getDisplayName().contains("rejected")));
        }
        return s;
    }

    @TestFactory
    Stream<DynamicTest> conformanceViBaseWithDeepKernelAndOtherNovelTrees() {
        Stream<DynamicTest> s = Stream.empty();
        for (String novel : new String[]{"gptree", "session", "rebuild"}) {
            s = Stream.concat(s, MethodConformance.of(new GpTreeMethod())
                    .withParams(Map.of("inference", "vi", "novel_tree", novel, "epochs", "10", "pretrain_epochs", "5",
                            "batch_size", "32", "dkl_hidden", "16", "dkl_out", "8", "chains", "4"))
                    .tests().filter(t -> t.getDisplayName().contains("incremental")));
        }
        return s;
    }
}
