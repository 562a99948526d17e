package fsil.backbones.djl;

import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import fsil.data.io.NpyWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A user's images.npy (here digits as n x 1 x 8 x 8 uint8) with splits/base.txt trains conv4 end to end. */
class ImagesDirectoryTest {
    @Test
    void imagesNpyTrainsAConvBackbone(@TempDir Path dir, @TempDir Path cache) throws IOException {
        RawDataset digits = Datasets.loadRaw("digits", cache);
        int n = digits.train().size();
        float[] px = digits.train().features().rawData();
        byte[] bytes = new byte[px.length];
        for (int i = 0; i < px.length; i++) {
            bytes[i] = (byte) Math.round(px[i] * 255);
        }
        NpyWriter.writeUint8(dir.resolve("images.npy"), bytes, new int[]{n, 1, 8, 8});
        NpyWriter.writeInt32(dir.resolve("labels.npy"), digits.train().labels());
        Files.createDirectories(dir.resolve("splits"));
        Files.writeString(dir.resolve("splits/base.txt"), "0 2 4 6 7\n");
        RawDataset raw = Datasets.loadRaw("dir:" + dir, cache);
        assertEquals("1x8x8", raw.images().shapeText());
        Conv4Backbone b = new Conv4Backbone();
        FeatureSet f = b.apply(raw, b.params(Map.of("epochs", "1")), 3, cache);
        assertEquals(raw.train().size(), f.train().size());
        assertEquals(raw.test().size(), f.test().size());
        assertEquals(64, f.train().dimension(), "8 -> 4 -> 2 -> 1 pixels, the fourth pool skipped: 64 x 1 x 1");
    }
}
