package fsil.backbones.djl;

import fsil.api.Params;
import fsil.data.Backbones;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import fsil.data.sets.glyphs.GlyphsDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A tiny conv4, trained for 5 epochs on the background scripts of a glyphs subset (120 base classes, 720 images;
 * the epoch chosen on 40 validation classes), beats raw pixels with nearest-class-mean on the 60 classes of the
 * evaluation scripts (5-way 1-shot). Glyphs need fonts-noto-core (CI installs it; FSIL_FONT_DIRS points elsewhere). On the embedded
 * digits a conv4 trained on 5 base classes does not beat pixels on the other 5 (measured: 57% vs 71% 1-shot), as
 * pretrained-mlp on Fashion-MNIST (data/DATA.md): too few base classes to transfer.
 */
class Conv4TrainingTest {
    static final String GLYPHS = "glyphs:scripts=AHOM+ANATOLIAN_HIEROGLYPHS+ARABIC+ARMENIAN+AVESTAN+BATAK+BUGINESE"
            + "+CYPRIOT+ADLAM+BALINESE+BAMUM,instances=10,train_per_class=6";

    @TempDir
    Path cache;

    @Test
    void beatsPixelsOnNovelClasses() {
        assumeTrue(GlyphsDataset.missing() == null, "needs the glyphs fonts: " + GlyphsDataset.missing());
        RawDataset raw = Datasets.loadRaw(GLYPHS, cache);
        assertEquals(120, raw.splits().base().length);
        assertEquals(40, raw.splits().validation().length);
        Conv4Backbone b = new Conv4Backbone();
        Params p = b.params(Map.of("epochs", "5", "batch", "16", "val_episodes", "50"));
        FeatureSet f = b.apply(raw, p, 7, cache);
        assertEquals(64, f.train().dimension(), "28 -> 14 -> 7 -> 3 -> 1 pixels, 64 filters");
        FeatureSet pixels = Backbones.identity(raw);
        int[] novel = raw.splits().novel();
        double conv = TestData.ncmRandomEpisodes(f, novel, 5, 1, 300);
        double pix = TestData.ncmRandomEpisodes(pixels, novel, 5, 1, 300);
        System.out.printf("glyphs subset, 5-way 1-shot NCM on the novel classes: conv4 %.4f, pixels %.4f%n", conv, pix);
        assertTrue(conv > pix + 0.03, "conv4 " + conv + " vs pixels " + pix);
    }
}
