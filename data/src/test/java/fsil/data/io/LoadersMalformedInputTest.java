package fsil.data.io;

import fsil.api.InvalidDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** IDX, ARFF and NPZ: valid files round-trip; every malformed input gives an error that names the file. */
class LoadersMalformedInputTest {
    @TempDir
    Path dir;

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(raw);
        }
        return bos.toByteArray();
    }

    private static void failsNaming(Path file, String expected, Function<Path, Object> reader) {
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> reader.apply(file));
        assertTrue(e.getMessage().contains(file.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }

    // ---------------------------------------------------------------- IDX

    static byte[] idx(int type, int[] shape, byte[] data) {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 * shape.length + data.length);
        b.put((byte) 0).put((byte) 0).put((byte) type).put((byte) shape.length);
        for (int s : shape) {
            b.putInt(s);
        }
        b.put(data);
        return b.array();
    }

    @Test
    void idxReadsRawAndGzippedImagesAndLabels() throws IOException {
        byte[] pixels = {0, (byte) 255, 10, 20, 30, 40, 50, 60};
        Path raw = write("img-idx3-ubyte", idx(0x08, new int[]{2, 2, 2}, pixels));
        Path gz = write("img-idx3-ubyte.gz", gzip(idx(0x08, new int[]{2, 2, 2}, pixels)));
        Path lab = write("lab-idx1-ubyte.gz", gzip(idx(0x08, new int[]{2}, new byte[]{7, 3})));
        for (Path p : List.of(raw, gz)) {
            LabeledTable t = IdxReader.readPair(p, lab, 1f / 255);
            assertEquals(2, t.features().rows());
            assertEquals(4, t.features().cols());
            assertEquals(1f, t.features().get(0, 1));
            assertArrayEquals(new int[]{7, 3}, t.labels());
        }
        ByteBuffer f = ByteBuffer.allocate(8).putFloat(1.5f).putFloat(-2f);
        assertArrayEquals(new float[]{1.5f, -2f}, IdxReader.read(write("f.idx", idx(0x0D, new int[]{1, 2},
                f.array()))).toFeatures(1f).rawData());
    }

    @Test
    void idxMalformed() throws IOException {
        byte[] good = idx(0x08, new int[]{2, 2, 2}, new byte[8]);
        byte[] magic = good.clone();
        magic[0] = 1;
        failsNaming(write("magic", magic), "wrong magic", IdxReader::read);
        byte[] type = good.clone();
        type[2] = 0x0A;
        failsNaming(write("type", type), "wrong magic", IdxReader::read);
        failsNaming(write("trunc", Arrays.copyOf(good, good.length - 1)), "truncated", IdxReader::read);
        failsNaming(write("trunc.gz", gzip(Arrays.copyOf(good, good.length - 1))), "truncated", IdxReader::read);
        failsNaming(write("trunc-gzip.gz", Arrays.copyOf(gzip(good), 15)), "truncated", IdxReader::read);
        failsNaming(write("dims", Arrays.copyOf(good, 9)), "truncated", IdxReader::read);
        byte[] extra = Arrays.copyOf(good, good.length + 3);
        failsNaming(write("extra", extra), "trailing bytes", IdxReader::read);
        failsNaming(write("extra.gz", gzip(extra)), "trailing bytes", IdxReader::read);
        failsNaming(write("huge", idx(0x0E, new int[]{100000, 100000}, new byte[0])), "more than the supported",
                IdxReader::read);
        Path img = write("img", good);
        Path lab3 = write("lab3", idx(0x08, new int[]{3}, new byte[]{1, 2, 3}));
        failsNaming(lab3, "3 labels", p -> IdxReader.readPair(img, p, 1f));
        Path nan = write("nan", idx(0x0D, new int[]{1, 1}, ByteBuffer.allocate(4).putFloat(Float.NaN).array()));
        failsNaming(nan, "not finite", p -> IdxReader.read(p).toFeatures(1f));
        Path floatLabels = write("fl", idx(0x0D, new int[]{1}, new byte[4]));
        failsNaming(floatLabels, "integer IDX type", p -> IdxReader.read(p).toLabels());
    }

    // ---------------------------------------------------------------- ARFF

    private static final String ARFF = """
            % comment
            @relation toy
            @attribute a numeric
            @attribute 'b c' real
            @attribute class {setosa, 'versi color', virginica}
            @data
            1.0, 2.0, setosa
            3, 4, 'versi color'
            5,6,virginica
            """;

    @Test
    void arffReadsNumericAttributesAndNominalClass() throws IOException {
        LabeledTable t = ArffReader.read(write("iris.arff", ARFF.getBytes()));
        assertEquals(List.of("setosa", "versi color", "virginica"), t.classNames());
        assertArrayEquals(new int[]{0, 1, 2}, t.labels());
        assertArrayEquals(new float[]{1, 2, 3, 4, 5, 6}, t.features().rawData());
        LabeledTable g = ArffReader.read(write("iris.arff.gz", gzip(ARFF.getBytes())));
        assertArrayEquals(t.labels(), g.labels());
    }

    @Test
    void arffMalformed() throws IOException {
        Function<Path, Object> r = ArffReader::read;
        failsNaming(write("t.arff", ARFF.substring(0, ARFF.indexOf("@data")).getBytes()), "no @data", r);
        failsNaming(write("m.arff", "hello world\n".getBytes()), "not an ARFF file", r);
        failsNaming(write("n.arff", ARFF.replace("5,6,virginica", "5,NaN,virginica").getBytes()), "not finite", r);
        failsNaming(write("q.arff", ARFF.replace("5,6,virginica", "5,?,virginica").getBytes()), "missing values", r);
        failsNaming(write("c.arff", ARFF.replace("5,6,virginica", "5,6,rose").getBytes()), "class 'rose'", r);
        failsNaming(write("w.arff", ARFF.replace("5,6,virginica", "5,virginica").getBytes()), "2 values", r);
        failsNaming(write("s.arff", ARFF.replace("@attribute a numeric", "@attribute a string").getBytes()),
                "type 'string'", r);
        failsNaming(write("x.arff", ARFF.replace("5,6,virginica", "5,abc,virginica").getBytes()), "not a number", r);
        failsNaming(write("sp.arff", ARFF.replace("5,6,virginica", "{0 5, 2 virginica}").getBytes()), "sparse", r);
        failsNaming(write("nc.arff", ARFF.replace("{setosa, 'versi color', virginica}", "numeric").getBytes()),
                "no nominal class", r);
    }

    // ---------------------------------------------------------------- NPZ

    private Path npz(String name, Map<String, byte[]> entries, boolean deflate) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream os = Files.newOutputStream(p); ZipOutputStream zip = new ZipOutputStream(os)) {
            zip.setMethod(deflate ? ZipOutputStream.DEFLATED : ZipOutputStream.STORED);
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                ZipEntry z = new ZipEntry(e.getKey());
                if (!deflate) {
                    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                    crc.update(e.getValue());
                    z.setSize(e.getValue().length);
                    z.setCompressedSize(e.getValue().length);
                    z.setCrc(crc.getValue());
                }
                zip.putNextEntry(z);
                zip.write(e.getValue());
                zip.closeEntry();
            }
        }
        return p;
    }

    private static byte[] features2x2() {
        return NpyBytes.build(1, NpyBytes.header("<f4", false, "(2, 2)"), NpyBytes.encode("<f4", 1, 2, 3, 4));
    }

    private static byte[] labels(double... y) {
        return NpyBytes.build(1, NpyBytes.header("<i8", false, "(" + y.length + ",)"), NpyBytes.encode("<i8", y));
    }

    @Test
    void npzReadsStoredAndCompressedArchives() throws IOException {
        for (boolean deflate : new boolean[]{false, true}) {
            Path p = npz("ok" + deflate + ".npz", Map.of("x.npy", features2x2(), "y.npy", labels(1, 0)), deflate);
            LabeledTable t = NpzReader.readLabeled(p);
            assertArrayEquals(new float[]{1, 2, 3, 4}, t.features().rawData());
            assertArrayEquals(new int[]{1, 0}, t.labels());
        }
    }

    @Test
    void npzMalformed() throws IOException {
        Function<Path, Object> r = NpzReader::readLabeled;
        failsNaming(npz("trav.npz", Map.of("../evil.npy", features2x2()), true), "path traversal", r);
        failsNaming(npz("abs.npz", Map.of("/etc/evil.npy", features2x2()), true), "path traversal", r);
        failsNaming(npz("nested.npz", Map.of("a/../../evil.npy", features2x2()), false), "path traversal", r);
        failsNaming(npz("mism.npz", Map.of("features.npy", features2x2(), "labels.npy", labels(1, 0, 1)), true),
                "3 labels", r);
        failsNaming(npz("nolab.npz", Map.of("features.npy", features2x2()), true), "no labels array", r);
        failsNaming(npz("txt.npz", Map.of("readme.txt", new byte[3]), true), "not a .npy", r);
        byte[] trunc = Arrays.copyOf(features2x2(), features2x2().length - 2);
        failsNaming(npz("trunc.npz", Map.of("x.npy", trunc, "y.npy", labels(1, 0)), false), "truncated", r);
        failsNaming(npz("trunc2.npz", Map.of("x.npy", trunc, "y.npy", labels(1, 0)), true), "truncated", r);
        byte[] nan = NpyBytes.build(1, NpyBytes.header("<f8", false, "(2, 1)"), NpyBytes.encode("<f8", 1, Double.NaN));
        failsNaming(npz("nan.npz", Map.of("x.npy", nan, "y.npy", labels(1, 0)), true), "row 1, column 0", r);
        byte[] bomb = new byte[4 << 20];
        failsNaming(npz("bomb.npz", Map.of("x.npy", bomb), true), "zip bomb", r);
        failsNaming(write("notzip.npz", "plain text".getBytes()), "not a valid .npz", r);
        byte[] header = features2x2();
        header[8] = (byte) 0xFF;
        header[9] = (byte) 0xFF;
        failsNaming(npz("hdr.npz", Map.of("x.npy", header), false), "truncated", r);
    }

    // ---------------------------------------------------------------- atomic writes

    @Test
    void failedAtomicWriteLeavesNoFileBehind() throws IOException {
        Path target = dir.resolve("cache").resolve("x.npy");
        assertThrows(IllegalStateException.class, () -> AtomicFiles.write(target, out -> {
            out.write(new byte[1000]);
            throw new IllegalStateException("simulated crash");
        }));
        assertFalse(Files.exists(target));
        try (var files = Files.list(target.getParent())) {
            assertEquals(0, files.count(), "no temporary file is left");
        }
        AtomicFiles.writeString(target, "one");
        AtomicFiles.writeString(target, "two");
        assertEquals("two", Files.readString(target));
    }
}
