package fsil.data.io;

import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NpyReaderTest {
    @TempDir
    Path dir;

    /** 2 x 3 matrix [[1,2,3],[4,5,6]]: C order stores rows, Fortran order stores columns. */
    @ParameterizedTest
    @CsvSource({"<f4,false", ">f4,false", "<f8,false", ">f8,true", "<i4,false", ">i4,true", "<i8,true",
            ">i8,false", "<f4,true", "|u1,true"})
    void readsEveryDtypeOrderAndEndianness(String descr, boolean fortran) {
        double[] storage = fortran ? new double[]{1, 4, 2, 5, 3, 6} : new double[]{1, 2, 3, 4, 5, 6};
        byte[] bytes = NpyBytes.build(1, NpyBytes.header(descr, fortran, "(2, 3)"), NpyBytes.encode(descr, storage));
        Path f = NpyBytes.write(dir, "x.npy", bytes);
        FeatureMatrix m = NpyReader.read(f).toFeatureMatrix();
        assertEquals(2, m.rows());
        assertEquals(3, m.cols());
        assertArrayEquals(new float[]{1, 2, 3, 4, 5, 6}, m.rawData());
    }

    @Test
    void fortranOrderOf3dArrayFlattensPerSampleInCOrder() {
        // shape (2, 2, 2): element [i][j][k] = 100 i + 10 j + k; Fortran storage: i fastest, then j, then k.
        double[] storage = new double[8];
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                for (int k = 0; k < 2; k++) {
                    storage[i + 2 * j + 4 * k] = 100 * i + 10 * j + k;
                }
            }
        }
        byte[] bytes = NpyBytes.build(1, NpyBytes.header("<f8", true, "(2, 2, 2)"), NpyBytes.encode("<f8", storage));
        FeatureMatrix m = NpyReader.read("mem", bytes).toFeatureMatrix();
        assertArrayEquals(new float[]{0, 1, 10, 11, 100, 101, 110, 111}, m.rawData());
    }

    @Test
    void readsVersion2And3Headers() {
        for (int v : new int[]{2, 3}) {
            byte[] bytes = NpyBytes.build(v, NpyBytes.header("<i8", false, "(3,)"), NpyBytes.encode("<i8", 7, 8, 9));
            assertArrayEquals(new int[]{7, 8, 9}, NpyReader.read("v" + v, bytes).toLabels());
        }
    }

    @Test
    void writerOutputRoundTripsAndHasNumpyAlignment() {
        FeatureMatrix m = FeatureMatrix.wrap(2, 2, new float[]{1.5f, -2f, 3e-8f, 4e7f});
        Path f = dir.resolve("m.npy");
        NpyWriter.writeFloat32(f, m);
        assertArrayEquals(m.rawData(), NpyReader.read(f).toFeatureMatrix().rawData());
        assertEquals(0, NpyWriter.header("<f4", new int[]{2, 2}).length % 64);
        Path l = dir.resolve("l.npy");
        NpyWriter.writeInt32(l, new int[]{3, 1, 2});
        assertArrayEquals(new int[]{3, 1, 2}, NpyReader.read(l).toLabels());
    }

    private InvalidDataException fails(byte[] bytes) {
        Path f = NpyBytes.write(dir, "bad.npy", bytes);
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> NpyReader.read(f).toFeatureMatrix());
        assertTrue(e.getMessage().contains(f.toString()), "message names the file: " + e.getMessage());
        return e;
    }

    private static void contains(InvalidDataException e, String text) {
        assertTrue(e.getMessage().contains(text), "expected '" + text + "' in: " + e.getMessage());
    }

    @Test
    void rejectsWrongMagic() {
        byte[] bytes = NpyBytes.build(1, NpyBytes.header("<f4", false, "(1,)"), NpyBytes.encode("<f4", 1));
        bytes[1] = 'X';
        contains(fails(bytes), "wrong magic");
    }

    @Test
    void rejectsTruncatedData() {
        byte[] bytes = NpyBytes.build(1, NpyBytes.header("<f4", false, "(2, 3)"), NpyBytes.encode("<f4", 1, 2, 3, 4, 5, 6));
        contains(fails(Arrays.copyOf(bytes, bytes.length - 3)), "truncated");
        contains(fails(Arrays.copyOf(bytes, 9)), "truncated");
        contains(fails(Arrays.copyOf(bytes, 20)), "truncated");
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] bytes = NpyBytes.build(1, NpyBytes.header("<f4", false, "(2,)"), NpyBytes.encode("<f4", 1, 2, 3));
        contains(fails(bytes), "4 unexpected bytes");
    }

    @Test
    void rejectsUnsupportedAndStructuredDtypes() {
        contains(fails(NpyBytes.build(1, NpyBytes.header("<c8", false, "(1,)"), new byte[8])), "unsupported dtype '<c8'");
        contains(fails(NpyBytes.build(1, NpyBytes.header("<U3", false, "(1,)"), new byte[12])), "must be numbers");
        contains(fails(NpyBytes.build(1, NpyBytes.header("|S3", false, "(1,)"), new byte[3])), "unsupported dtype");
        contains(fails(NpyBytes.build(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n",
                new byte[4])), "structured");
    }

    @Test
    void rejectsOversizedHeaderBeforeReadingIt() {
        byte[] bytes = NpyBytes.build(2, NpyBytes.header("<f4", false, "(1,)"), NpyBytes.encode("<f4", 1));
        // claim a 1 GiB header
        bytes[8] = 0;
        bytes[9] = 0;
        bytes[10] = 0;
        bytes[11] = 0x40;
        contains(fails(bytes), "exceeds the limit");
    }

    @Test
    void rejectsAbsurdShapeBeforeAllocating() {
        byte[] bytes = NpyBytes.build(1, NpyBytes.header("<f8", false, "(100000, 100000)"), NpyBytes.encode("<f8", 1));
        contains(fails(bytes), "more than the supported");
        byte[] big = NpyBytes.build(1, NpyBytes.header("<f4", false, "(1000, 1000)"), NpyBytes.encode("<f4", 1));
        contains(fails(big), "truncated");
    }

    @Test
    void rejectsMalformedHeader() {
        contains(fails(NpyBytes.build(1, "{'descr': '<f4', 'shape': (1,)}\n", new byte[4])), "malformed");
        contains(fails(NpyBytes.build(1, NpyBytes.header("<f4", false, "(a, 2)"), new byte[4])), "malformed shape");
        contains(fails(NpyBytes.build(9, NpyBytes.header("<f4", false, "(1,)"), new byte[4])), "version 9");
    }

    @Test
    void namesRowAndColumnOfNaNAndInf() {
        byte[] bytes = NpyBytes.build(1, NpyBytes.header("<f8", false, "(2, 3)"),
                NpyBytes.encode("<f8", 1, 2, 3, 4, Double.NaN, 6));
        contains(fails(bytes), "row 1, column 1");
        byte[] inf = NpyBytes.build(1, NpyBytes.header("<f4", true, "(2, 3)"),
                NpyBytes.encode("<f4", 1, 4, 2, 5, Double.POSITIVE_INFINITY, 6));
        contains(fails(inf), "row 0, column 2");
        byte[] overflow = NpyBytes.build(1, NpyBytes.header("<f8", false, "(1,)"), NpyBytes.encode("<f8", 1e300));
        contains(fails(overflow), "overflows float32");
    }

    @Test
    void labelsMustBeNonNegativeIntegers() throws Exception {
        Path f = NpyBytes.write(dir, "y.npy", NpyBytes.build(1, NpyBytes.header("<f8", false, "(2,)"),
                NpyBytes.encode("<f8", 1, 2.5)));
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> NpyReader.read(f).toLabels());
        assertTrue(e.getMessage().contains("not an integer") && e.getMessage().contains(f.toString()));
        Path g = NpyBytes.write(dir, "y2.npy", NpyBytes.build(1, NpyBytes.header("<i4", false, "(2,)"),
                NpyBytes.encode("<i4", 1, -1)));
        assertTrue(assertThrows(InvalidDataException.class, () -> NpyReader.read(g).toLabels()).getMessage()
                .contains("out of range"));
        Path h = NpyBytes.write(dir, "y3.npy", NpyBytes.build(1, NpyBytes.header("<i4", false, "(2, 2)"),
                NpyBytes.encode("<i4", 1, 1, 1, 1)));
        assertTrue(assertThrows(InvalidDataException.class, () -> NpyReader.read(h).toLabels()).getMessage()
                .contains("1-d"));
        assertTrue(Files.exists(h));
    }

    @Test
    void missingFileIsAClearError() {
        Path f = dir.resolve("nope.npy");
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> NpyReader.read(f));
        assertTrue(e.getMessage().contains("not found") && e.getMessage().contains("nope.npy"));
    }
}
