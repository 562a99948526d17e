package fsil.backbones.djl;

import fsil.api.FeatureMatrix;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ResNet-12 and ResNet-18 at 1/16 width train one epoch on digits and embed every sample (global average pool).
 */
class ResNetTest {
    @TempDir
    Path cache;

    private static void finiteAndNotConstant(FeatureMatrix m) {
        float[] v = m.rawData();
        boolean differs = false;
        for (float x : v) {
            assertTrue(Float.isFinite(x));
            differs |= x != v[0];
        }
        assertTrue(differs, "features vary");
    }

    @Test
    void resnet12() {
        RawDataset raw = TestData.digits(cache);
        ResNet12Backbone b = new ResNet12Backbone();
        FeatureSet f = b.apply(raw, b.params(Map.of("epochs", "1", "width", "0.0625", "val_episodes", "10")), 1, cache);
        assertEquals(48, f.train().dimension(), "640 / 16 = 40, rounded to a multiple of 16");
        assertEquals(raw.test().size(), f.test().size());
        finiteAndNotConstant(f.test().features());
    }

    @Test
    void resnet18() {
        RawDataset raw = TestData.digits(cache);
        ResNet18Backbone b = new ResNet18Backbone();
        FeatureSet f = b.apply(raw, b.params(Map.of("epochs", "1", "width", "0.0625", "val_episodes", "10")), 1, cache);
        assertEquals(32, f.train().dimension(), "512 / 16, a multiple of 16");
        finiteAndNotConstant(f.train().features());
    }
}
