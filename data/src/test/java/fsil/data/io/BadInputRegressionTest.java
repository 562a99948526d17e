package fsil.data.io;

import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ordinary bad input gives a one-line {@link InvalidDataException} naming the file and the problem (never another
 * exception), and labels as users have them (sparse ids, strings) are read the way np.unique maps them.
 */
class BadInputRegressionTest {
    @TempDir
    Path dir;

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(raw);
        }
        return bos.toByteArray();
    }

    /** The reader fails with an InvalidDataException whose single-line message names the file and the problem. */
    static InvalidDataException clearError(Path file, String expected, Function<Path, Object> reader) {
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> reader.apply(file));
        String m = e.getMessage();
        assertTrue(m.contains(file.toString()), "names the file: " + m);
        assertTrue(m.contains(expected), "expected '" + expected + "' in: " + m);
        assertFalse(m.contains("\n") || m.contains("\r"), "one line: " + m);
        return e;
    }

    private static byte[] csvRows(int n) {
        StringBuilder sb = new StringBuilder("a,b,label\n");
        for (int i = 0; i < n; i++) {
            sb.append(i).append(',').append(i * 0.5).append(',').append(i % 3).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------ defect 1: clear errors for ordinary bad input

    @Test
    void truncatedCsvGzIsAClearError() throws IOException {
        byte[] gz = gzip(csvRows(5000));
        Path cut = write("cut.csv.gz", Arrays.copyOf(gz, gz.length / 2));
        clearError(cut, "corrupt or truncated", CsvReader::read);
        byte[] corrupt = gz.clone();
        for (int i = 20; i < 60; i++) {
            corrupt[i] ^= 0x5A;
        }
        clearError(write("corrupt.csv.gz", corrupt), "corrupt or truncated", CsvReader::read);
        Path arff = write("cut.arff.gz", Arrays.copyOf(gzip(("@relation r\n@attribute a numeric\n"
                + "@attribute class {x,y}\n@data\n" + "1,x\n".repeat(5000)).getBytes()), 40));
        clearError(arff, "corrupt or truncated", ArffReader::read);
    }

    @Test
    void corruptGzipIdxIsAClearError() throws IOException {
        byte[] raw = LoadersMalformedInputTest.idx(0x08, new int[]{100, 28, 28}, new byte[100 * 784]);
        byte[] gz = gzip(raw);
        byte[] corrupt = gz.clone();
        for (int i = 12; i < gz.length - 8; i += 7) {
            corrupt[i] ^= 0x33;
        }
        clearError(write("corrupt-idx3-ubyte.gz", corrupt), "corrupt or truncated", IdxReader::read);
        clearError(write("gzip-header-only.gz", Arrays.copyOf(gz, 10)), "corrupt or truncated", IdxReader::read);
    }

    @Test
    void directoriesInsteadOfFilesAreClearErrors() throws IOException {
        Path d = Files.createDirectory(dir.resolve("features.npy"));
        clearError(d, "is a directory", NpyReader::read);
        clearError(d, "is a directory", IdxReader::read);
        clearError(d, "is a directory", CsvReader::read);
        clearError(d, "is a directory", ArffReader::read);
        clearError(d, "is a directory", NpzReader::read);
        clearError(d, "is a directory", TextLines::readAll);
    }

    @Test
    void unreadableFilesAreClearErrors() throws IOException {
        Path p = write("secret.csv", csvRows(3));
        boolean locked = p.toFile().setReadable(false, false) && !Files.isReadable(p);
        try {
            if (locked) { // not as root, who reads everything
                clearError(p, "permission denied", CsvReader::read);
                clearError(p, "permission denied", NpyReader::read);
            }
        } finally {
            p.toFile().setReadable(true, false);
        }
        clearError(dir.resolve("absent.npy"), "file not found", NpyReader::read);
    }

    // ------------------------------------------------------------ defect 3: silent merges and degenerate shapes

    @Test
    void invalidUtf8InCsvIsRejectedWithLineAndColumn() throws IOException {
        // "café" and "cafè" in ISO-8859-1: both decoded to "caf\uFFFD" before, i.e. one class
        byte[] latin1 = "x,label\n1,caf\u00e9\n2,caf\u00e8\n".getBytes(StandardCharsets.ISO_8859_1);
        clearError(write("latin1.csv", latin1), "line 2, column 6: invalid UTF-8 (byte 0xE9)", CsvReader::read);
        clearError(write("latin1.csv.gz", gzip(latin1)), "line 2, column 6", CsvReader::read);
        byte[] arff = "@relation r\n@attribute a numeric\n@attribute class {caf\u00e9,b}\n@data\n1,b\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        clearError(write("latin1.arff", arff), "line 3, column 22", ArffReader::read);
        // valid UTF-8 (with a byte order mark) still reads
        byte[] utf8 = ("\ufeffx,label\n1,caf\u00e9\n2,caf\u00e8\n").getBytes(StandardCharsets.UTF_8);
        LabeledTable t = CsvReader.read(write("utf8.csv", utf8));
        assertEquals(List.of("caf\u00e8", "caf\u00e9"), t.classNames());
        assertArrayEquals(new int[]{1, 0}, t.labels());
    }

    @Test
    void npzWithTwoEntriesOfTheSameNameIsRefused() throws IOException {
        byte[] x = NpyBytes.npy("<f4", "(2, 1)", NpyBytes.encode("<f4", 1, 2));
        byte[] y1 = NpyBytes.npy("<i8", "(2,)", NpyBytes.encode("<i8", 0, 1));
        byte[] y2 = NpyBytes.npy("<i8", "(2,)", NpyBytes.encode("<i8", 1, 1));
        Path p = NpzFiles.withDuplicate(dir.resolve("dup.npz"), "x.npy", x, "y.npy", y1, y2);
        clearError(p, "two entries", NpzReader::readLabeled);
    }

    @Test
    void featuresWithoutColumnsOrRowsAreRefused() throws IOException {
        Path n0 = write("n0.npy", NpyBytes.npy("<f4", "(3, 0)", new byte[0]));
        clearError(n0, "no feature columns", p -> NpyReader.read(p).toFeatureMatrix());
        Path zero = write("zero.npy", NpyBytes.npy("<f4", "(0, 4)", new byte[0]));
        clearError(zero, "no samples", p -> NpyReader.read(p).toFeatureMatrix());
        Path idx = write("n0-idx", LoadersMalformedInputTest.idx(0x08, new int[]{3, 0}, new byte[0]));
        clearError(idx, "no feature values", p -> IdxReader.read(p).toFeatures(1f));
        Path npz = NpzFiles.write(dir.resolve("n0.npz"), "x.npy", NpyBytes.npy("<f4", "(3, 0)", new byte[0]),
                "y.npy", NpyBytes.npy("<i8", "(3,)", NpyBytes.encode("<i8", 0, 1, 0)));
        clearError(npz, "no feature columns", NpzReader::readLabeled);
    }

    // ------------------------------------------------------------ defects 2 and 4: labels as users have them

    @Test
    void sparseIntegerLabelsAreMappedLikeNpUnique() throws IOException {
        byte[] x = NpyBytes.npy("<f4", "(5, 1)", NpyBytes.encode("<f4", 1, 2, 3, 4, 5));
        byte[] y = NpyBytes.npy("<i8", "(5,)", NpyBytes.encode("<i8", 103, 100, 1e9, 103, -1));
        LabeledTable t = NpzReader.readLabeled(NpzFiles.write(dir.resolve("sparse.npz"), "x.npy", x, "y.npy", y));
        // np.unique([103, 100, 1e9, 103, -1], return_inverse=True) -> [-1, 100, 103, 1e9], [2, 1, 3, 2, 0]
        assertEquals(List.of("-1", "100", "103", "1000000000"), t.classNames());
        assertArrayEquals(new int[]{2, 1, 3, 2, 0}, t.labels());
        assertEquals(4, t.classes().size());
        LabeledTable csv = CsvReader.read(write("sparse.csv", "1,103\n2,100\n3,1000000000\n4,103\n5,-1\n"
                .getBytes()));
        assertEquals(t.classNames(), csv.classNames());
        assertArrayEquals(t.labels(), csv.labels());
    }

    @Test
    void unicodeLabelsAreReadInBothByteOrders() throws IOException {
        byte[] x = NpyBytes.npy("<f4", "(4, 1)", NpyBytes.encode("<f4", 1, 2, 3, 4));
        for (String descr : List.of("<U5", ">U5")) {
            byte[] y = NpyBytes.npy(descr, "(4,)", NpyBytes.unicode(descr, "dog", "cat", "\u00e9l\u00e8ve", "cat"));
            LabeledTable t = NpzReader.readLabeled(NpzFiles.write(dir.resolve("u" + descr.charAt(0) + ".npz"),
                    "x.npy", x, "y.npy", y));
            // np.unique(['dog', 'cat', 'élève', 'cat']) -> ['cat', 'dog', 'élève'] (code point order)
            assertEquals(List.of("cat", "dog", "\u00e9l\u00e8ve"), t.classNames());
            assertArrayEquals(new int[]{1, 0, 2, 0}, t.labels());
        }
        byte[] bad = NpyBytes.npy("<U1", "(1,)", new byte[]{0, (byte) 0xD8, 0, 0}); // a surrogate code point
        Path p = NpzFiles.write(dir.resolve("bad.npz"), "x.npy", NpyBytes.npy("<f4", "(1, 1)",
                NpyBytes.encode("<f4", 1)), "y.npy", bad);
        clearError(p, "invalid character", NpzReader::readLabeled);
    }

    @Test
    void arffDropsDeclaredClassesWithoutRows() throws IOException {
        byte[] arff = "@relation r\n@attribute a numeric\n@attribute class {a,b,c}\n@data\n1,c\n2,a\n".getBytes();
        LabeledTable t = ArffReader.read(write("gap.arff", arff));
        assertEquals(List.of("a", "c"), t.classNames());
        assertArrayEquals(new int[]{1, 0}, t.labels());
        clearError(write("twice.arff", "@relation r\n@attribute a numeric\n@attribute class {a,a}\n@data\n1,a\n"
                .getBytes()), "declared twice", ArffReader::read);
    }

    @Test
    void textLinesCountLinesAndColumnsInCharacters() {
        byte[] bytes = "ab\r\n\u00e9\u00e9\u00ff\n".getBytes(StandardCharsets.UTF_8);
        bytes[bytes.length - 2] = (byte) 0xC3; // "éé" then a lone lead byte before the newline
        try (TextLines t = new TextLines("mem", new java.io.ByteArrayInputStream(bytes))) {
            assertEquals("ab", t.next());
            InvalidDataException e = assertThrows(InvalidDataException.class, t::next);
            assertTrue(e.getMessage().startsWith("mem: line 2, column 3: invalid UTF-8"), e.getMessage());
        }
        assertThrows(FsilException.class, () -> TextLines.readAll(dir.resolve("missing.txt")));
    }
}
