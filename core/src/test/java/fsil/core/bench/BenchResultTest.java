package fsil.core.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchResultTest {

    private static BenchResult table() {
        return BenchResult.builder("t", "variant", "ms", "time/ref").row("ref", 2.0, 1.0).row("fast", 1, 0.5)
                .note("a note").build();
    }

    @Test
    void lookupsByColumnAndRowLabel() {
        BenchResult r = table();
        assertEquals(List.of("variant", "ms", "time/ref"), r.columns());
        assertEquals(2, r.rows().size());
        assertArrayEquals(new double[]{1.0, 0.5}, r.numbers("time/ref"));
        assertEquals(List.of("ref", "fast"), r.values("variant"));
        assertEquals(1.0, r.number("fast", "ms"));
        assertEquals(List.of("a note"), r.notes());
    }

    @Test
    void malformedTablesAndUnknownNamesAreErrors() {
        assertThrows(IllegalArgumentException.class,
                () -> BenchResult.builder("t", "a", "b").row("only one cell").build());
        assertThrows(IllegalArgumentException.class,
                () -> BenchResult.builder("t", "a").row(new Object()).build());
        BenchResult r = table();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.numbers("ratio"));
        assertTrue(e.getMessage().contains("time/ref"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.numbers("variant"));
        assertThrows(IllegalArgumentException.class, () -> r.row("slow"));
    }

    @Test
    void theRecordIsACopy() {
        List<List<Object>> rows = new ArrayList<>();
        rows.add(new ArrayList<>(List.of("a", 1.0)));
        BenchResult r = new BenchResult("t", List.of("x", "y"), rows, List.of());
        rows.get(0).set(1, 2.0);
        rows.clear();
        assertEquals(1.0, r.number("a", "y"));
        assertThrows(UnsupportedOperationException.class, () -> r.rows().clear());
    }
}
