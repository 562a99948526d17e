package fsil.backbones.djl;

import fsil.api.FsilException;
import fsil.api.InvalidParameterException;
import fsil.data.Datasets;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Inputs a conv backbone cannot use are one-line errors, before any training, and leave no cache entry. */
class ErrorsTest {
    @TempDir
    Path cache;

    private static void oneLine(FsilException e, String expected) {
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aDatasetWithoutImagesIsRefused() {
        RawDataset synthetic = Datasets.loadRaw("synthetic", cache);
        oneLine(assertThrows(FsilException.class, () -> new Conv4Backbone().apply(synthetic,
                new Conv4Backbone().defaults(), 1, cache)), "backbone conv4 needs images, dataset synthetic");
        assertFalse(Files.exists(cache.resolve("features")));
    }

    @Test
    void aDatasetWithoutBaseClassesIsRefused() {
        RawDataset d = Datasets.loadRaw("digits", cache);
        RawDataset noBase = new RawDataset(d.name(), d.classes(), d.train(), d.test(),
                new SplitSet(new int[0], new int[0], new int[]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Optional.empty()),
                d.images());
        ResNet12Backbone b = new ResNet12Backbone();
        oneLine(assertThrows(FsilException.class, () -> b.apply(noBase, b.defaults(), 1, cache)),
                "needs at least 2 base classes to train on, dataset digits has 0");
        assertFalse(Files.exists(cache.resolve("features")));
    }

    @Test
    void badParametersAreRefusedWithTheValidOnes() {
        ResNet18Backbone b = new ResNet18Backbone();
        oneLine(assertThrows(InvalidParameterException.class, () -> b.params(Map.of("optimizer", "rmsprop"))),
                "optimizer");
        oneLine(assertThrows(InvalidParameterException.class, () -> b.params(Map.of("width", "0"))), "width");
        oneLine(assertThrows(InvalidParameterException.class,
                () -> new Conv4Backbone().params(Map.of("width", "0.5"))), "width");
    }

    @Test
    void channelsLastImagesInAFeatureDirectoryAreRefused(@TempDir Path dir) {
        fsil.data.io.NpyWriter.writeUint8(dir.resolve("images.npy"), new byte[4 * 8 * 8 * 3], new int[]{4, 8, 8, 3});
        fsil.data.io.NpyWriter.writeInt32(dir.resolve("labels.npy"), new int[]{0, 1, 0, 1});
        oneLine(assertThrows(FsilException.class, () -> Datasets.loadRaw("dir:" + dir, cache)),
                "for n x h x w x c images save np.transpose(x, (0, 3, 1, 2))");
    }
}
