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
        FeatureSet fs = Datasets.load("digits", BackboneSpec.identity(), 0, dir);
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
        FsilException e = assertThrows(FsilException.class, () -> Datasets.load("mnist", BackboneSpec.identity(), 0, dir));
        assertTrue(e.getMessage().contains("unknown dataset 'mnist'") && e.getMessage().contains("digits"),
                e.getMessage());
        assertThrows(FsilException.class, () -> Datasets.load("digits:x=1", BackboneSpec.identity(), 0, dir));
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
        FeatureSet fs = Datasets.load("dir:" + dir, BackboneSpec.identity(), 0, dir);
        assertEquals(n, fs.train().size() + fs.test().size());
        assertEquals(12, fs.test().size());
        assertEquals("c", fs.classes().name(2));
        assertArrayEquals(new int[]{0, 1}, fs.splits().base());
        assertArrayEquals(new int[]{2, 3}, fs.splits().novel());
        // mismatched label count
        NpyWriter.writeInt32(dir.resolve("labels.npy"), Arrays.copyOf(y, n - 1));
        InvalidDataException e = assertThrows(InvalidDataException.class,
                () -> Datasets.load("dir:" + dir, BackboneSpec.identity(), 0, dir));
        assertTrue(e.getMessage().contains("labels.npy") && e.getMessage().contains("39 labels"), e.getMessage());
        assertThrows(FsilException.class, () -> Datasets.load("dir:" + dir.resolve("nope"), BackboneSpec.identity(), 0, dir));
    }

    @Test
    void backboneSpecParsesAndDescribes() {
        BackboneSpec s = BackboneSpec.parse("pretrained-mlp:hidden=64-32,epochs=3");
        assertEquals(java.util.List.of(64, 32), s.hidden());
        assertEquals(3, s.epochs());
        assertEquals(s, BackboneSpec.parse(s.describe()));
        assertEquals(BackboneSpec.identity(), BackboneSpec.parse("identity"));
        assertTrue(assertThrows(FsilException.class, () -> BackboneSpec.parse("resnet")).getMessage()
                .contains("valid backbones"));
        assertThrows(FsilException.class, () -> BackboneSpec.parse("pretrained-mlp:depth=3"));
    }
}
