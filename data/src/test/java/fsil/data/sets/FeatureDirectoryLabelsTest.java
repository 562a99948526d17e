package fsil.data.sets;

import fsil.api.InvalidDataException;
import fsil.data.RawDataset;
import fsil.data.io.NpyBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Feature directories with labels as users have them, and the clear errors of bad directory files. */
class FeatureDirectoryLabelsTest {
    @TempDir
    Path dir;

    /** n x 2 features (row i = (i, -i)) and the given int64 labels. */
    private void intLabels(long... labels) {
        int n = labels.length;
        double[] x = new double[2 * n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[2 * i] = i;
            x[2 * i + 1] = -i;
            y[i] = labels[i];
        }
        NpyBytes.write(dir, "features.npy", NpyBytes.npy("<f4", "(" + n + ", 2)", NpyBytes.encode("<f4", x)));
        NpyBytes.write(dir, "labels.npy", NpyBytes.npy("<i8", "(" + n + ",)", NpyBytes.encode("<i8", y)));
    }

    private void textLabels(String descr, String... labels) {
        int n = labels.length;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
        }
        NpyBytes.write(dir, "features.npy", NpyBytes.npy("<f8", "(" + n + ", 1)", NpyBytes.encode("<f8", x)));
        NpyBytes.write(dir, "labels.npy", NpyBytes.npy(descr, "(" + n + ",)", NpyBytes.unicode(descr, labels)));
    }

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    private static long[] repeat(long[] values, int times) {
        long[] out = new long[values.length * times];
        for (int i = 0; i < out.length; i++) {
            out[i] = values[i % values.length];
        }
        return out;
    }

    private InvalidDataException fails(Path named, String expected) {
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> FeatureDirectoryDataset.load(dir));
        assertTrue(e.getMessage().contains(named.toString()), "names " + named + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e;
    }

    @Test
    void aLabelOfOneBillionCostsNothing() {
        intLabels(repeat(new long[]{0, 1_000_000_000L, 7}, 10));
        // before: ClassTable.numbered(10^9 + 1) and per-class lists sized by the largest label (minutes, then
        // OutOfMemoryError)
        RawDataset raw = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> FeatureDirectoryDataset.load(dir));
        assertEquals(List.of("0", "7", "1000000000"), raw.classes().names());
        assertEquals(30, raw.train().size() + raw.test().size());
        for (int y : raw.train().labels()) {
            assertTrue(y >= 0 && y < 3);
        }
        int[] test = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> Partitions.stratifiedTestIndices(new int[]{Integer.MAX_VALUE, 0, Integer.MAX_VALUE, 0}, 0.5, 1));
        assertEquals(2, test.length);
    }

    @Test
    void sparseIdsAreMappedAndSplitFilesUseTheOriginalLabels() throws IOException {
        intLabels(repeat(new long[]{100, 103, 107, 110}, 6));
        file("splits/base.txt", "# original labels\n110 100\n");
        file("splits/fscil.txt", "base 100 110\nsession 0 1\n");
        RawDataset raw = FeatureDirectoryDataset.load(dir);
        assertEquals(List.of("100", "103", "107", "110"), raw.classes().names());
        assertArrayEquals(new int[]{3, 0}, raw.splits().base());
        assertArrayEquals(new int[]{1, 2}, raw.splits().novel());
        assertArrayEquals(new int[]{0, 3}, raw.splits().fscil().orElseThrow().baseClasses());
        // stratified 30%: every class keeps train samples, ids 0..3
        assertArrayEquals(new int[]{0, 1, 2, 3}, raw.train().classes());
        assertArrayEquals(new int[]{0, 1, 2, 3}, raw.test().classes());
        // a split naming a label no sample has is an error in the original label space
        file("splits/base.txt", "100 101\n");
        fails(dir.resolve("splits/base.txt"), "class '101' does not occur in the labels");
    }

    @Test
    void stringLabelsBecomeSortedClassesNamedByThemselves() throws IOException {
        textLabels("<U8", "zebra", "ant", "\u00e9l\u00e8ve", "ant", "zebra", "bee", "bee", "\u00e9l\u00e8ve",
                "ant", "bee", "zebra", "\u00e9l\u00e8ve");
        file("splits/base.txt", "zebra ant\n");
        file("splits/test_indices.txt", "0 1 2 5\n");
        RawDataset raw = FeatureDirectoryDataset.load(dir);
        assertEquals(List.of("ant", "bee", "zebra", "\u00e9l\u00e8ve"), raw.classes().names());
        assertArrayEquals(new int[]{2, 0}, raw.splits().base());
        assertArrayEquals(new int[]{2, 0, 3, 1}, raw.test().labels());
        file("classes.txt", "a\nb\nc\nd\n");
        fails(dir.resolve("classes.txt"), "the labels are strings");
    }

    @Test
    void separateTestLabelsAreEncodedTogetherWithTheTrainingLabels() {
        intLabels(5, 9, 5, 9);
        NpyBytes.write(dir, "test_features.npy", NpyBytes.npy("<f4", "(2, 2)", NpyBytes.encode("<f4", 1, 2, 3, 4)));
        NpyBytes.write(dir, "test_labels.npy", NpyBytes.npy("<i8", "(2,)", NpyBytes.encode("<i8", 9, 7)));
        RawDataset raw = FeatureDirectoryDataset.load(dir);
        assertEquals(List.of("5", "7", "9"), raw.classes().names());
        assertArrayEquals(new int[]{0, 2, 0, 2}, raw.train().labels());
        assertArrayEquals(new int[]{2, 1}, raw.test().labels());
    }

    @Test
    void classesTxtNamesClassesByPositionOrByLabelValue() throws IOException {
        intLabels(repeat(new long[]{0, 2, 3}, 4));
        file("classes.txt", "zero\ntwo\nthree\n"); // 3 names for 3 classes: the k-th smallest label
        assertEquals(List.of("zero", "two", "three"), FeatureDirectoryDataset.load(dir).classes().names());
        file("classes.txt", "zero\none\ntwo\nthree\nfour\n"); // more names: line v names label v
        assertEquals(List.of("zero", "two", "three"), FeatureDirectoryDataset.load(dir).classes().names());
        file("classes.txt", "zero\none\n");
        fails(dir.resolve("classes.txt"), "2 class names, but the labels have 3 distinct values");
    }

    @Test
    void nonUtf8TextFilesAreClearErrors() throws IOException {
        intLabels(repeat(new long[]{0, 1}, 5));
        Path names = dir.resolve("classes.txt");
        Files.write(names, "cat\nd\u00f6g\n".getBytes(StandardCharsets.ISO_8859_1));
        fails(names, "line 2, column 2: invalid UTF-8");
        Files.delete(names);
        Path base = dir.resolve("splits").resolve("base.txt");
        Files.createDirectories(base.getParent());
        Files.write(base, new byte[]{'0', ' ', (byte) 0xFF});
        fails(base, "line 1, column 3: invalid UTF-8");
        Files.delete(base);
        Path idx = dir.resolve("splits").resolve("test_indices.txt");
        Files.write(idx, new byte[]{'1', (byte) 0xC0, '\n'});
        fails(idx, "invalid UTF-8");
    }

    @Test
    void directoriesAndEmptyFeaturesAreClearErrors() throws IOException {
        Files.createDirectory(dir.resolve("features.npy"));
        NpyBytes.write(dir, "labels.npy", NpyBytes.npy("<i8", "(1,)", NpyBytes.encode("<i8", 0)));
        fails(dir.resolve("features.npy"), "is a directory");
        Files.delete(dir.resolve("features.npy"));
        Files.delete(dir.resolve("labels.npy"));
        intLabels(0, 1);
        Files.delete(dir.resolve("labels.npy"));
        Files.createDirectory(dir.resolve("labels.npy"));
        fails(dir.resolve("labels.npy"), "is a directory");
        Files.delete(dir.resolve("labels.npy"));
        NpyBytes.write(dir, "features.npy", NpyBytes.npy("<f4", "(2, 0)", new byte[0]));
        NpyBytes.write(dir, "labels.npy", NpyBytes.npy("<i8", "(2,)", NpyBytes.encode("<i8", 0, 1)));
        fails(dir.resolve("features.npy"), "no feature columns");
    }
}
