package fsil.eval.store;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.api.FsilException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnitStoreTest {

    static UnitRecord record(String method, int unit, double acc) {
        ObjectNode m = JsonNodeFactory.instance.objectNode();
        m.putArray("episode_acc").add(acc).addNull();
        m.putObject("diagnostics").put("note", 1.5);
        return new UnitRecord(method, "ncm", "synthetic:classes=4,dim=2", "fewshot", "5-way 1-shot Q75 balanced",
                unit, unit * 2, 2, 1993, 42L + unit, UnitRecord.OK, "", 0.25,
                (fsil.eval.metrics.Value.Obj) ValueJson.parse(m.toString()));
    }

    static Path write(Path dir, List<UnitRecord> rows) {
        Path f = dir.resolve(UnitStore.FILE);
        try (UnitStore s = UnitStore.append(f)) {
            rows.forEach(s::add);
        }
        return f;
    }

    @Test
    void rowsReadBackExactly(@TempDir Path tmp) {
        List<UnitRecord> rows = new ArrayList<>();
        rows.add(record("plain", 0, 0.1 + 0.2));
        rows.add(record("label, with \"quotes\" and ü", 1, 1.0 / 3));
        rows.add(new UnitRecord("flaky", "flaky", "d", "cil", "B-half S5", 0, 0, 1, 1993, 7, UnitRecord.FAILED,
                "error, with \"quotes\"", 0.5, null));
        UnitStore.Contents c = UnitStore.read(write(tmp, rows));
        assertEquals(List.of(), c.invalid());
        assertEquals(rows, c.rows());
        assertEquals(0.1 + 0.2, c.rows().get(0).value("episode_acc").get(0).asDouble(), 0.0, "doubles exactly");
        assertTrue(c.rows().get(0).value("episode_acc").get(1).isNull(), "NaN is stored as null");
    }

    /** A flipped digit in one row invalidates that row only, named by its line; every other row is kept. */
    @Test
    void oneChangedRowIsNamedAndTheRestKept(@TempDir Path tmp) throws IOException {
        List<UnitRecord> rows = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            rows.add(record("ncm", i, i / 600.0));
        }
        Path f = write(tmp, rows);
        List<String> lines = new ArrayList<>(Files.readAllLines(f));
        lines.set(101, lines.get(101).replace("0.16666666666666666", "0.16666666666666667")); // unit 100
        Files.write(f, lines);
        UnitStore.Contents c = UnitStore.read(f);
        assertEquals(1, c.invalid().size());
        assertEquals(102, c.invalid().get(0).line());
        assertTrue(c.invalid().get(0).reason().contains("checksum"), c.invalid().get(0).reason());
        assertEquals(599, c.rows().size());
        assertEquals(101, c.rows().get(100).unit(), "the rows after the bad one are kept");
    }

    @Test
    void tornLastRowAndDuplicateKeysAreInvalid(@TempDir Path tmp) throws IOException {
        Path f = write(tmp, List.of(record("ncm", 0, 0.5), record("ncm", 1, 0.6)));
        String full = Files.readString(f);
        String duplicate = full.split("\n")[1] + "\n";
        String torn = full.split("\n")[2].substring(0, 40);
        Files.writeString(f, full + duplicate + torn);
        UnitStore.Contents c = UnitStore.read(f);
        assertEquals(2, c.rows().size());
        assertEquals(2, c.invalid().size());
        assertTrue(c.invalid().get(0).reason().contains("first on line 2"), c.invalid().get(0).toString());
        assertEquals(5, c.invalid().get(1).line());
        assertTrue(c.invalid().get(1).reason().contains("incomplete"));
        UnitStore.rewrite(f, c.rows());
        assertEquals(List.of(), UnitStore.read(f).invalid(), "a rewrite keeps the valid rows only");
        assertEquals(c.rows(), UnitStore.read(f).rows());
    }

    @Test
    void notAStoreIsAClearError(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("units.csv"));
        FsilException e = assertThrows(FsilException.class, () -> UnitStore.read(dir));
        assertTrue(e.getMessage().contains("is not a file"), e.getMessage());
        Path other = tmp.resolve("other.csv");
        Files.writeString(other, "method,accuracy\nncm,0.5\n");
        e = assertThrows(FsilException.class, () -> UnitStore.read(other));
        assertTrue(e.getMessage().contains("not a units.csv"), e.getMessage());
        Path bad = tmp.resolve("bad.csv");
        Files.write(bad, (String.join(",", UnitStore.HEADER) + "\n\u00ff\u00fe,\n").getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(1, UnitStore.read(bad).invalid().size(), "bytes that are not UTF-8: an invalid row, no exception");
    }
}
