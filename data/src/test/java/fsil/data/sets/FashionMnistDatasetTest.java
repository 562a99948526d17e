package fsil.data.sets;

import fsil.data.DatasetInfo;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.data.split.SplitFiles;
import fsil.data.sets.SplitGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class FashionMnistDatasetTest {
    @TempDir
    Path dir;

    private static void assumeInstalled() {
        assumeTrue(FashionMnistDataset.missing() == null,
                "fashion-mnist not installed (apt-get install dataset-fashion-mnist): " + FashionMnistDataset.missing());
    }

    @Test
    void standardSplitShapesAndBalancedClasses() {
        assumeInstalled();
        FeatureSet fs = Datasets.load("fashion-mnist", "identity", 0, dir);
        assertEquals(60_000, fs.train().size());
        assertEquals(10_000, fs.test().size());
        assertEquals(784, fs.dimension());
        assertEquals("Ankle boot", fs.classes().name(9));
        for (int c = 0; c < 10; c++) {
            int cc = c;
            assertEquals(6000, Arrays.stream(fs.train().labels()).filter(y -> y == cc).count());
            assertEquals(1000, Arrays.stream(fs.test().labels()).filter(y -> y == cc).count());
        }
        float max = 0;
        for (float v : fs.train().features().rawData()) {
            assertTrue(v >= 0 && v <= 1);
            max = Math.max(max, v);
        }
        assertEquals(1f, max);
        // FSCIL shots belong to the session's class
        var f = fs.splits().fscil().orElseThrow();
        for (int[] s : f.sessionSamples()) {
            assertEquals(5, s.length);
            assertEquals(1, Arrays.stream(s).map(i -> fs.train().labels()[i]).distinct().count());
        }
    }

    @Test
    void committedSplitFilesEqualTheGenerator() {
        assumeInstalled();
        SplitGenerator.Files gen = SplitGenerator.tenClass("fashion-mnist", FashionMnistDataset.readTrainLabels());
        for (int i = 0; i < gen.names().size(); i++) {
            String committed = String.join("\n", SplitFiles.resourceLines("fashion-mnist", gen.names().get(i)));
            String generated = String.join("\n", gen.contents().get(i).lines()
                    .filter(l -> !l.startsWith("#") && !l.isBlank()).map(String::strip).toList());
            assertEquals(generated, committed, gen.names().get(i));
        }
    }

    @Test
    void catalogSaysWhichPackageToInstallWhenMissing() {
        DatasetInfo info = FashionMnistDataset.info();
        if (!info.available()) {
            assertTrue(info.howToGet().contains("dataset-fashion-mnist"), info.howToGet());
        } else {
            assertEquals(70_000, info.samples());
        }
    }
}
