package fsil.backbones.djl;

import fsil.data.RawDataset;
import fsil.testkit.BackboneConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/** The backbone conformance kit on conv4, resnet12 and resnet18, at sizes that train in seconds on digits' 8x8 images. */
class ConformanceTest {
    @TempDir
    static Path cache;

    @TestFactory
    Stream<DynamicTest> conv4() {
        return BackboneConformance.of(new Conv4Backbone())
                .withParams(Map.of("epochs", "1", "val_episodes", "0", "threads", "1"))
                .withData(TestData.digits(cache)).tests();
    }

    /** The ResNets at quarter width (16 to 160 channels). */
    @TestFactory
    Stream<DynamicTest> resnets() {
        RawDataset digits = TestData.digits(cache);
        Map<String, String> narrow = Map.of("epochs", "1", "val_episodes", "0", "threads", "1", "width", "0.25");
        return Stream.concat(
                BackboneConformance.of(new ResNet12Backbone()).withParams(narrow).withData(digits).tests(),
                BackboneConformance.of(new ResNet18Backbone()).withParams(narrow).withData(digits).tests());
    }
}
