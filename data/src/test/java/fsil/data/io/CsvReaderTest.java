package fsil.data.io;

import fsil.api.InvalidDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsvReaderTest {
    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void theLabelColumnIsNamedByHeaderOrIndex() throws IOException {
        Path f = file("named.csv", "species,x1,x2\nb,1,2\na,3,4\n");
        LabeledTable byName = CsvReader.read(f, "species");
        assertArrayEquals(new float[]{1f, 2f, 3f, 4f}, byName.features().rawData());
        assertEquals(List.of("a", "b"), byName.classes().names());
        assertArrayEquals(new int[]{1, 0}, byName.labels());
        LabeledTable byIndex = CsvReader.read(f, "0");
        assertArrayEquals(byName.features().rawData(), byIndex.features().rawData());
        assertArrayEquals(byName.labels(), byIndex.labels());
        String missing = assertThrows(InvalidDataException.class, () -> CsvReader.read(f, "label")).getMessage();
        assertTrue(missing.contains("no column named 'label'") && missing.contains("species, x1, x2"), missing);
        // the default is still the last column: here x2, so the species text is not a number
        assertThrows(InvalidDataException.class, () -> CsvReader.read(f, ""));
    }

    @Test
    void readsHeaderIntegerLabelsAndComments() throws IOException {
        LabeledTable t = CsvReader.read(file("a.csv", "x1,x2,y\n# comment\n1.5,2,0\n\n3,4e-1,2\n"));
        assertEquals(2, t.features().rows());
        assertArrayEquals(new float[]{1.5f, 2f, 3f, 0.4f}, t.features().rawData());
        // labels 0 and 2 are the two classes 0 and 1, named by their original labels (np.unique)
        assertArrayEquals(new int[]{0, 1}, t.labels());
        assertEquals(List.of("0", "2"), t.classes().names());
    }

    @Test
    void stringLabelsBecomeSortedClassNames() throws IOException {
        LabeledTable t = CsvReader.read(file("b.tsv", "cat\t1\t2\ndog\t3\t4\nant\t5\t6\n"), 0);
        assertEquals(List.of("ant", "cat", "dog"), t.classNames());
        assertArrayEquals(new int[]{1, 2, 0}, t.labels());
        assertArrayEquals(new float[]{1, 2, 3, 4, 5, 6}, t.features().rawData());
    }

    @Test
    void readsGzipAndSemicolons() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            gz.write("1;2;1\n3;4;0\n".getBytes(StandardCharsets.UTF_8));
        }
        Path p = dir.resolve("c.csv.gz");
        Files.write(p, bos.toByteArray());
        LabeledTable t = CsvReader.read(p);
        assertArrayEquals(new int[]{1, 0}, t.labels());
    }

    private void fails(String content, String expected) throws IOException {
        Path p = file("bad.csv", content);
        InvalidDataException e = assertThrows(InvalidDataException.class, () -> CsvReader.read(p));
        assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in " + e.getMessage());
    }

    @Test
    void malformedInputsNameFileLineAndColumn() throws IOException {
        fails("1,2,0\n3,4\n", "line 2 has 2 columns");
        fails("1,2,0\n3,x,1\n", "line 2, column 2: 'x' is not a number");
        fails("1,2,0\n3,NaN,1\n", "line 2, column 2: value NaN is not finite");
        fails("1,2,0\n3,-Infinity,1\n", "not finite");
        fails("", "no data rows");
        fails("a,b\n", "no data rows");
        fails("1\n", "at least one feature column");
    }

    @Test
    void labelColumnOutOfRange() throws IOException {
        Path p = file("d.csv", "1,2\n");
        assertTrue(assertThrows(InvalidDataException.class, () -> CsvReader.read(p, 5)).getMessage()
                .contains("label column 5 does not exist"));
    }
}
