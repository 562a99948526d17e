package fsil.app.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static fsil.app.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeadlineTest {

    private static Table row(double value, double ci, int n) {
        return Table.create("s", DoubleColumn.create("value", value), DoubleColumn.create("ci95", ci),
                IntColumn.create("n", new int[]{n}));
    }

    @Test
    void accuracyShowsItsIntervalWhenThereAreSeveralUnits() {
        assertEquals("71.35" + TermTable.PLUS_MINUS + "1.20 %", Headline.plain("final_acc", row(0.7135, 0.012, 5).row(0)));
    }

    @Test
    void oneUnitHasNoIntervalRatherThanAZeroOne() {
        assertEquals("71.35 %", Headline.plain("final_acc", row(0.7135, 0.0, 1).row(0)));
    }

    @Test
    void calibrationTimesAndSizesInReadableUnits() {
        assertEquals("0.0581", Headline.plain("ece", row(0.058131, 0.0, 1).row(0)));
        assertEquals("46.4 us", Headline.plain("fit_s", row(4.64e-05, 0.0, 1).row(0)));
        assertEquals("12.30 ms", Headline.plain("predict_s", row(0.0123, 0.0, 1).row(0)));
        assertEquals("1.3 KB", Headline.plain("memory_bytes", row(1340, 0.0, 1).row(0)));
        assertEquals("2.5 MB", Headline.plain("memory_bytes", row(2.5e6, 0.0, 1).row(0)));
    }

    /**
     * A real run with long method labels and four settings, then fsil compare of it: every printed line fits
     * {@link TermTable#WIDTH} columns (the tables were 206 and 120+ wide), and the numbers are all there: each
     * accuracy of summary.csv with its interval, each mean difference of pairs.csv, each label in full.
     */
    @Test
    void tablesOfALongLabelledRunFitTheTerminalWithEveryNumber(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        List<String> labels = List.of("nearest-class-mean-cosine-metric", "k-nearest-neighbours-three",
                "k-nearest-neighbours-five");
        CliTest.Result r = run("run", "--methods", labels.get(0) + ":ncm[metric=cosine]," + labels.get(1)
                        + ":knn[k=3]," + labels.get(2) + ":knn[k=5]", "--datasets", "digits", "--protocol", "fewshot",
                "--shots", "1,5", "--query-allocation", "balanced,dirichlet", "--episodes", "10", "-o",
                "episodes-per-unit=5", "--out", dir.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        fitsAndNamesEveryLabel(r.out(), labels);
        List<String> summary = Files.readAllLines(dir.resolve("summary.csv"));
        List<String> head = List.of(summary.get(0).split(","));
        int accuracies = 0;
        for (String line : summary.subList(1, summary.size())) {
            String[] f = line.split(",", -1);
            if (f[head.indexOf("metric")].equals("episode_acc") && f[head.indexOf("step")].isEmpty()) {
                String acc = String.format(Locale.ROOT, "%.2f" + TermTable.PLUS_MINUS + "%.2f",
                        100 * Double.parseDouble(f[head.indexOf("value")]),
                        100 * Double.parseDouble(f[head.indexOf("ci95")]));
                assertTrue(r.out().contains(acc), acc + " of " + line + " in:\n" + r.out());
                accuracies++;
            }
        }
        assertEquals(12, accuracies, "3 methods x 4 settings");
        assertTrue(r.out().contains("5-way 1-shot Q75 dirichlet(2.0)"), "settings in full:\n" + r.out());

        Path cmp = tmp.resolve("cmp");
        CliTest.Result c = run("compare", dir.toString(), "--out", cmp.toString());
        assertEquals(0, c.code(), c.err());
        fitsAndNamesEveryLabel(c.out(), labels);
        List<String> pairs = Files.readAllLines(cmp.resolve("pairs.csv"));
        int mean = List.of(pairs.get(0).split(",")).indexOf("mean_diff");
        assertEquals(13, pairs.size(), "3 pairs in each of 4 settings");
        for (String line : pairs.subList(1, pairs.size())) {
            String diff = String.format(Locale.ROOT, "%+.3f", 100 * Double.parseDouble(line.split(",")[mean]));
            assertTrue(c.out().contains(diff), diff + " of " + line + " in:\n" + c.out());
        }
    }

    private static void fitsAndNamesEveryLabel(String out, List<String> labels) {
        out.lines().forEach(l -> assertTrue(l.length() <= TermTable.WIDTH, "line of " + l.length() + ": " + l
                + "\nin:\n" + out));
        assertTrue(out.lines().noneMatch(l -> l.startsWith("     ")), "no padded title:\n" + out);
        for (String label : labels) {
            assertTrue(out.contains(" = " + label), label + " in the legend:\n" + out);
        }
    }
}
