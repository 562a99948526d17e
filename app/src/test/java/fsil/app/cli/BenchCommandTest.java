package fsil.app.cli;

import fsil.core.bench.BenchResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code fsil bench}: the list of end-to-end benchmarks, one small run, and the text form of a result. */
class BenchCommandTest {

    @Test
    void listsTheEndToEndBenchmarksOnly() {
        CliTest.Result r = CliTest.run("bench");
        assertEquals(0, r.code(), r.err());
        List<String> ids = r.out().lines().filter(l -> !l.isBlank() && !l.startsWith(" "))
                .map(l -> l.split(" ")[0]).sorted().toList();
        assertEquals(List.of("bavardage-episodes", "gptree-classes-sweep", "lsgp-inference", "ncmf-incremental",
                "ppca-scale"), ids);
        assertTrue(r.out().contains("    classes=10000  (integer") && r.out().contains("synthetic classes"),
                "each benchmark's typed parameters are listed:\n" + r.out());
    }

    @Test
    void runsOneAndPrintsItsTable() {
        CliTest.Result r = CliTest.run("bench", "gptree-classes-sweep", "classes=3", "per_class=3", "d=4",
                "chains=1", "steps=1");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("gptree-classes-sweep: C = 3"), r.out());
        assertTrue(lines.get(1).matches("variant +s +time/ref +accuracy"), lines.get(1));
        assertTrue(lines.get(2).matches("kmeans tree, chains=1 \\(reference\\) +[0-9.e-]+ +1\\.000 +[0-9.]+"),
                lines.get(2));
        assertEquals(2 + 5 + 1, lines.size(), r.out()); // title, header, five variants, one note
    }

    @Test
    void badOptionsAreUserErrors() {
        CliTest.Result r = CliTest.run("bench", "ppca-scale", "classes");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("key=value"), r.err());
        CliTest.Result u = CliTest.run("bench", "ppca-scael");
        assertEquals(2, u.code());
        assertTrue(u.err().contains("ppca-scale"), u.err());
    }

    @Test
    void tableTextAlignsColumnsAndRoundsNumbers() {
        BenchResult r = BenchResult.builder("t: title", "variant", "ms", "time/ref", "n")
                .row("reference", 12.345678, 1.0, 3).row("x", 1234567.0, 0.00001234, 10L).note("a note").build();
        assertEquals("""
                t: title
                variant         ms   time/ref   n
                reference    12.35      1.000   3
                x          1235000  1.234e-05  10
                # a note
                """, BenchTable.format(r));
    }
}
