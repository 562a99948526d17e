package fsil.data;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.data.io.NpyWriter;
import fsil.data.split.NumpyLegacyRandom;
import fsil.data.split.SplitFiles;
import fsil.data.sets.SplitGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DatasetsTest {
    @TempDir
    Path dir;

    @Test
    void digitsHasTheUciShapeAndCommittedSplits() {
        FeatureSet fs = Datasets.load("digits", "identity", 0, dir);
        assertEquals(1797, fs.train().size() + fs.test().size());
        assertEquals(64, fs.dimension());
        assertEquals(10, fs.classes().size());
        assertEquals(539, fs.test().size());
        // stratified: every class has about 30% of its samples in the test set
        for (int c = 0; c < 10; c++) {
            int cc = c;
            long tr = Arrays.stream(fs.train().labels()).filter(y -> y == cc).count();
            long te = Arrays.stream(fs.test().labels()).filter(y -> y == cc).count();
            assertEquals(0.3, te / (double) (tr + te), 0.01);
        }
        float[] x = fs.train().features().rawData();
        for (float v : x) {
            assertTrue(v >= 0 && v <= 1);
        }
        // base and novel partition the classes; FSCIL sessions are 5-shot samples of single novel classes
        SplitSet s = fs.splits();
        int[] all = IntStream.concat(Arrays.stream(s.base()), Arrays.stream(s.novel())).sorted().toArray();
        assertArrayEquals(IntStream.range(0, 10).toArray(), all);
        SplitSet.FscilSplit f = s.fscil().orElseThrow();
        assertArrayEquals(s.base(), f.baseClasses());
        assertEquals(5, f.sessionSamples().size());
        int[] order = NumpyLegacyRandom.classOrder(10, 1993);
        for (int k = 0; k < 5; k++) {
            int[] idx = f.sessionSamples().get(k);
            assertEquals(5, idx.length);
            for (int i : idx) {
                assertEquals(order[5 + k], fs.train().labels()[i]);
            }
        }
        assertArrayEquals(order, SplitFiles.resourceInts("digits", "order_1993.txt"));
    }

    @Test
    void committedDigitsSplitFilesEqualTheGenerator() {
        SplitGenerator.Files gen = SplitGenerator.digits();
        for (int i = 0; i < gen.names().size(); i++) {
            String committed = String.join("\n", SplitFiles.resourceLines("digits", gen.names().get(i)));
            String generated = String.join("\n", gen.contents().get(i).lines()
                    .filter(l -> !l.startsWith("#") && !l.isBlank()).map(String::strip).toList());
            assertEquals(generated, committed, gen.names().get(i));
        }
    }

    @Test
    void unknownNameListsValidOnes() {
        FsilException e = assertThrows(FsilException.class, () -> Datasets.load("mnist", "identity", 0, dir));
        assertTrue(e.getMessage().contains("unknown dataset 'mnist'") && e.getMessage().contains("digits"),
                e.getMessage());
        assertThrows(FsilException.class, () -> Datasets.load("digits:x=1", "identity", 0, dir));
    }

    @Test
    void catalogListsDigits() {
        DatasetInfo d = Datasets.catalog().stream().filter(i -> i.name().equals("digits")).findFirst().orElseThrow();
        assertTrue(d.available());
        assertEquals(1797, d.samples());
        assertEquals(10, d.classes());
        assertTrue(d.license().contains("CC BY 4.0"));
    }

    @Test
    void featureDirectoryConvention() throws IOException {
        int n = 40;
        float[] x = new float[n * 3];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 4;
            x[3 * i] = i;
        }
        NpyWriter.writeFloat32(dir.resolve("features.npy"), FeatureMatrix.wrap(n, 3, x));
        NpyWriter.writeInt32(dir.resolve("labels.npy"), y);
        Files.writeString(dir.resolve("classes.txt"), "a\nb\nc\nd\n");
        Files.createDirectories(dir.resolve("splits"));
        Files.writeString(dir.resolve("splits/base.txt"), "# base\n0 1\n");
        FeatureSet fs = Datasets.load("dir:" + dir, "identity", 0, dir);
        assertEquals(n, fs.train().size() + fs.test().size());
        assertEquals(12, fs.test().size());
        assertEquals("c", fs.classes().name(2));
        assertArrayEquals(new int[]{0, 1}, fs.splits().base());
        assertArrayEquals(new int[]{2, 3}, fs.splits().novel());
        // mismatched label count
        NpyWriter.writeInt32(dir.resolve("labels.npy"), Arrays.copyOf(y, n - 1));
        InvalidDataException e = assertThrows(InvalidDataException.class,
                () -> Datasets.load("dir:" + dir, "identity", 0, dir));
        assertTrue(e.getMessage().contains("labels.npy") && e.getMessage().contains("39 labels"), e.getMessage());
        assertThrows(FsilException.class, () -> Datasets.load("dir:" + dir.resolve("nope"), "identity", 0, dir));
    }

    @Test
    void datasetReferencesResolveInBothSpellings(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("d,x.csv");
        Files.writeString(csv, "a,b,y\n1,0,0\n1.1,0,0\n0.9,0,0\n0,1,1\n0,1.1,1\n0,0.9,1\n");
        RawDataset legacy = Datasets.loadRaw("synthetic:classes=4,dim=3,per_class=2", dir);
        RawDataset typed = Datasets.loadRaw("synthetic[classes=4,dim=3,per_class=2]", dir);
        assertEquals(legacy.name(), typed.name(), "the canonical name (cache keys) is the same in both spellings");
        assertArrayEquals(legacy.train().features().rawData(), typed.train().features().rawData());
        // a path holding ',' needs the legacy spelling; label= names the CSV's label column
        RawDataset file = Datasets.loadRaw(Datasets.discover(), "file:" + csv, dir);
        assertEquals(2, file.dimension(), "file: takes the last column as label");
        assertEquals(java.util.List.of("0", "1"), file.classes().names());
        String wrongLabel = assertThrows(FsilException.class,
                () -> Datasets.loadRaw("file[path=" + dir.resolve("plain.csv") + ",label=label]", dir)).getMessage();
        assertTrue(wrongLabel.contains("not found"), wrongLabel);
        Files.writeString(dir.resolve("plain.csv"), "label,a,b\np,1,0\np,1,0\np,1,0\nq,0,1\nq,0,1\nq,0,1\n");
        RawDataset named = Datasets.loadRaw("file[path=" + dir.resolve("plain.csv") + ",label=label]", dir);
        assertEquals(java.util.List.of("p", "q"), named.classes().names());
        assertEquals(2, named.dimension());
        String unknown = assertThrows(FsilException.class,
                () -> Datasets.loadRaw("synthetic[colour=red]", dir)).getMessage();
        assertTrue(unknown.contains("colour") && unknown.contains("classes"), unknown);
        assertThrows(FsilException.class, () -> Datasets.loadRaw("synthetic[classes=1]", dir));
        assertThrows(FsilException.class, () -> Datasets.loadRaw("dir", dir), "dir needs a path");
        assertThrows(FsilException.class, () -> Datasets.loadRaw("digits[x=1]", dir));
    }

    @Test
    void backboneReferencesResolveInBothSpellingsAndKeepTheirCanonicalText() {
        Backbones.Configured s = Backbones.resolve("pretrained-mlp[hidden=64-32,epochs=3]");
        PretrainedMlpBackbone.Config c = PretrainedMlpBackbone.Config.of(s.params());
        assertEquals(java.util.List.of(64, 32), c.hidden());
        assertEquals(3, c.epochs());
        // the canonical text is the one recorded since the first version: cache keys and fingerprints rest on it
        assertEquals("pretrained-mlp:hidden=64-32,epochs=3,batch=128,lr=0.001,wd=1.0E-4", s.describe());
        assertEquals("pretrained-mlp:hidden=512-256-128,epochs=15,batch=128,lr=0.001,wd=1.0E-4",
                Backbones.resolve("pretrained-mlp").describe());
        assertEquals(s.describe(), Backbones.resolve(s.describe()).describe(), "the legacy spelling still parses");
        assertEquals(s.describe(), Backbones.resolve("pretrained-mlp:hidden=64x32,epochs=3").describe());
        assertEquals("identity", Backbones.resolve("identity").describe());
        String unknown = assertThrows(FsilException.class, () -> Backbones.resolve("resnet")).getMessage();
        assertTrue(unknown.contains("identity") && unknown.contains("pretrained-mlp"), unknown);
        String badKey = assertThrows(FsilException.class, () -> Backbones.resolve("pretrained-mlp[depth=3]"))
                .getMessage();
        assertTrue(badKey.contains("depth") && badKey.contains("hidden"), badKey);
        assertThrows(FsilException.class, () -> Backbones.resolve("pretrained-mlp:depth=3"));
        assertThrows(FsilException.class, () -> Backbones.resolve("pretrained-mlp[epochs=0]"));
        assertThrows(FsilException.class, () -> Backbones.resolve("pretrained-mlp[hidden=64-0]"));
        assertThrows(FsilException.class, () -> Backbones.resolve("pretrained-mlp[hidden=abc]"));
        assertThrows(FsilException.class, () -> Backbones.resolve("identity[x=1]"));
    }
}
