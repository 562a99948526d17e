package fsil.eval.run;

import fsil.api.FsilException;
import fsil.eval.report.AccuracyMatrixTable;
import fsil.eval.report.ReliabilityTable;
import fsil.eval.report.Report;
import fsil.eval.report.SettingOptions;
import fsil.eval.report.Summary;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run does not keep its rows: its summaries read them back from units.csv, the first rows held and the others
 * decoded again on every pass. Whatever is held, the summaries are the same bytes.
 */
class StreamedSummaryTest {

    private static String csv(Table t) {
        StringWriter w = new StringWriter();
        t.write().csv(w);
        return w.toString();
    }

    /** summary.csv, a_matrix.csv and reliability.csv of the rows of a run directory's units.csv. */
    private static List<String> tables(Path dir, UnitStore.Contents c) {
        List<UnitRecord> rows = c.rows();
        return List.of(csv(Summary.summarize(rows, RunnerTest.metrics(), SettingOptions.read(dir))),
                csv(AccuracyMatrixTable.of(rows)), csv(ReliabilityTable.of(rows)));
    }

    @Test
    void summariesOfRowsReadAgainAreThoseOfRowsHeld(@TempDir Path tmp) throws IOException {
        Map<String, List<String>> fewshot = Map.of("episodes", List.of("30"), "queries", List.of("20"), "ways",
                List.of("4"), "shots", List.of("1", "2"), "episodes-per-unit", List.of("4"));
        Path f = tmp.resolve("f");
        RunnerTest.runner(RunnerTest.TOY).run(RunnerTest.spec("flaky[fail-mod=3],ncm,knn", "fewshot", fewshot, 2), f);
        Path c = tmp.resolve("c");
        RunnerTest.runner(RunnerTest.TOY).run(RunnerTest.spec("ncm,knn", "cil",
                Map.of("steps", List.of("3"), "runs", List.of("3")), 2), c);
        for (Path dir : List.of(f, c)) {
            Path units = dir.resolve(UnitStore.FILE);
            UnitStore.Contents held = UnitStore.read(units, Long.MAX_VALUE);
            assertTrue(held.rows().size() > 4, "several units: " + held.rows().size());
            List<String> expected = tables(dir, held);
            assertEquals(Files.readString(dir.resolve(Report.SUMMARY)), expected.get(0), "the run's summary.csv");
            assertEquals(Files.readString(dir.resolve(Report.A_MATRIX)), expected.get(1));
            assertEquals(Files.readString(dir.resolve(Report.RELIABILITY)), expected.get(2));
            for (long cached : new long[]{0, Files.size(units) / 2}) {
                UnitStore.Contents read = UnitStore.read(units, cached);
                assertEquals(held.rows(), read.rows(), "rows read again, " + cached + " bytes held");
                assertEquals(expected, tables(dir, read), "summaries, " + cached + " bytes held");
            }
            RunnerTest.assertRebuildsIdentically(dir);
        }
    }

    @Test
    void aRowReadAgainFromAChangedFileIsRefused(@TempDir Path tmp) {
        Path dir = tmp.resolve("f");
        RunnerTest.runner(RunnerTest.TOY).run(RunnerTest.spec("ncm", "fewshot",
                Map.of("episodes", List.of("12"), "episodes-per-unit", List.of("3")), 1), dir);
        Path units = dir.resolve(UnitStore.FILE);
        UnitStore.Contents lazy = UnitStore.read(units, 0);
        List<UnitRecord> reordered = new ArrayList<>(UnitStore.read(units).rows());
        Collections.reverse(reordered);
        UnitStore.rewrite(units, reordered);
        FsilException e = assertThrows(FsilException.class, () -> lazy.rows().get(0));
        assertTrue(e.getMessage().contains("changed while it was read"), e.getMessage());
    }
}
