package fsil.app.cli;

import fsil.app.cli.CliTest.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static fsil.app.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fsil compare on real runs of digits: where it writes, what it refuses, the unit of what it prints. */
class CompareTest {
    @TempDir
    static Path tmp;
    /** ncm and ppca on digits, 5-shot, 40 episodes. */
    static Path both;

    @BeforeAll
    static void runs() {
        both = tmp.resolve("both");
        Result r = run("run", "--methods", "ncm,ppca", "--datasets", "digits", "--protocol", "fewshot", "--shots",
                "5", "--episodes", "40", "-o", "episodes-per-unit=10", "--out", both.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
    }

    static void refusedInOneLine(Result r, String start) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().startsWith("error: " + start), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
    }

    static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** --out follows fsil run's rule: a new or empty directory; a user's files are never overwritten. */
    @Test
    void outIsANewOrEmptyDirectoryAsForRuns() throws IOException {
        Path mine = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(mine.resolve("pairs.csv"), "my own table\n");
        Files.writeString(mine.resolve("compare.html"), "<p>my page</p>\n");
        refusedInOneLine(run("compare", both.toString(), "--baseline", "ncm", "--out", mine.toString()),
                "cannot write a comparison into " + mine + ": it is not empty");
        assertEquals("my own table\n", Files.readString(mine.resolve("pairs.csv")));
        assertEquals("<p>my page</p>\n", Files.readString(mine.resolve("compare.html")));
        assertEquals(List.of("compare.html", "pairs.csv"), listing(mine));

        refusedInOneLine(run("compare", both.toString(), "--out", ""),
                "--out must name a directory for a comparison (it is created); got an empty path");
        List<String> runFiles = listing(both);
        refusedInOneLine(run("compare", both.toString(), "--out", both.toString()),
                "cannot write a comparison into " + both + ": it is not empty");
        refusedInOneLine(run("compare", both.toString(), "--out", both.resolve("units.csv").toString()),
                "cannot write a comparison into " + both.resolve("units.csv") + ": it is a file");

        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Result ok = run("compare", both.toString(), "--baseline", "ncm", "--out", empty.toString());
        assertEquals(0, ok.code(), ok.err());
        assertEquals(List.of("compare.html", "friedman.txt", "pairs.csv", "plotly.min.js", "ranks.csv"),
                listing(empty));
        String pairs = Files.readString(empty.resolve("pairs.csv"));
        refusedInOneLine(run("compare", both.toString(), "--out", empty.toString()),
                "cannot write a comparison into " + empty + ": it is not empty");
        assertEquals(pairs, Files.readString(empty.resolve("pairs.csv")));
        assertEquals(runFiles, listing(both), "nothing written into the run");
    }

    /** Without --out, a new directory runs/compare-<time> (as fsil run's runs/<protocol>-<time>), not the run's. */
    @Test
    void withoutOutANewDirectoryUnderRuns() throws IOException {
        List<String> runFiles = listing(both);
        Result r = run("compare", both.toString(), "--baseline", "ncm");
        assertEquals(0, r.code(), r.err());
        Matcher m = Pattern.compile("wrote (runs/compare-\\d{8}-\\d{6})/pairs.csv").matcher(r.out());
        assertTrue(m.find(), r.out());
        Path dir = Paths.get(m.group(1));
        try {
            assertTrue(Files.isRegularFile(dir.resolve("pairs.csv")) && Files.isRegularFile(dir.resolve(
                    "compare.html")), "written to " + dir);
            assertEquals(runFiles, listing(both), "nothing written into the run");
        } finally {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
            try (Stream<Path> s = Files.list(dir.getParent())) {
                if (s.findAny().isEmpty()) {
                    Files.delete(dir.getParent());
                }
            }
        }
    }

    /** The terminal shows accuracy differences in percentage points, pairs.csv the same values as fractions. */
    @Test
    void differencesArePrintedInPercentagePointsOfTheFractionsInPairsCsv() throws IOException {
        Path out = tmp.resolve("units");
        Result r = run("compare", both.toString(), "--baseline", "ncm", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().replaceAll("\\s+", " ").startsWith("paired differences in episode_acc, method - baseline, "
                + "in percentage points (pp; pairs.csv holds fractions: 0.01 = 1 pp)"), r.out());
        assertTrue(r.out().contains("baseline ncm") && r.out().contains("diff pp") && r.out().contains("interval pp"),
                "the unit is in the column titles: " + r.out());
        Matcher m = Pattern.compile("(?m)^ppca +40 +([-+][0-9.]+) +\\[([-+][0-9.]+), ([-+][0-9.]+)\\] ")
                .matcher(r.out());
        assertTrue(m.find(), r.out());
        String[] row = Files.readAllLines(out.resolve("pairs.csv")).get(1).split(",");
        assertEquals("mean_diff", Files.readAllLines(out.resolve("pairs.csv")).get(0).split(",")[6]);
        assertEquals(String.format(Locale.ROOT, "%+.3f", 100 * Double.parseDouble(row[6])), m.group(1));
        assertEquals(String.format(Locale.ROOT, "%+.3f", 100 * Double.parseDouble(row[7])), m.group(2));
        assertEquals(String.format(Locale.ROOT, "%+.3f", 100 * Double.parseDouble(row[8])), m.group(3));
        assertTrue(Math.abs(Double.parseDouble(row[6])) < 1, "a fraction: " + row[6]);
    }

    /** The demo's directory holds runs and is none: compare and report name them. */
    @Test
    void theDemoDirectoryNamesItsRuns() throws IOException {
        Path demo = tmp.resolve("demo-x");
        Result d = run("demo", "--methods", "ncm", "--episodes", "10", "--out", demo.toString(), "--quiet");
        assertEquals(0, d.code(), d.err());
        Path out = tmp.resolve("demo-cmp");
        refusedInOneLine(run("compare", demo.toString(), "--out", out.toString()),
                demo + " is not a run; it holds the runs fewshot/, cil/: compare one of them");
        assertFalse(Files.exists(out), "nothing written");
        Result fewshot = run("compare", demo.resolve("fewshot").toString(), "--out", out.toString());
        assertEquals(0, fewshot.code(), fewshot.err());
        List<String> before = listing(demo);
        refusedInOneLine(run("report", demo.toString()),
                demo + " is not a run; it holds the runs fewshot/, cil/: report one of them");
        assertEquals(before, listing(demo), "nothing written into the demo's directory (no lock file)");
        Result report = run("report", demo.resolve("cil").toString());
        assertEquals(0, report.code(), report.err());
    }

    /** A run compared with itself (through a link), runs of other data, and an unfinished run are refused. */
    @Test
    void refusesTheSameRunOtherDataAndUnfinishedRuns() throws IOException {
        Path out = tmp.resolve("never");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), both);
        refusedInOneLine(run("compare", both.toString(), link.toString(), "--out", out.toString()),
                "runs " + both + " and " + link + " are the same run");

        Path mlp = tmp.resolve("mlp");
        Result r = run("run", "--methods", "knn", "--datasets", "digits", "--backbone", "pretrained-mlp",
                "--protocol", "fewshot", "--shots", "5", "--episodes", "40", "-o", "episodes-per-unit=10", "--out",
                mlp.toString(), "--cache", tmp.resolve("cache").toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.isDirectory(tmp.resolve("cache").resolve("features")), "--cache reaches the injected runner");
        refusedInOneLine(run("compare", both.toString(), mlp.toString(), "--baseline", "ncm", "--out",
                out.toString()), "runs " + both + " and " + mlp + " ran on different data for dataset digits");

        Files.delete(mlp.resolve("summary.csv"));
        refusedInOneLine(run("compare", mlp.toString(), "--out", out.toString()), mlp + " is unfinished");
        assertFalse(Files.exists(out), "nothing written");
    }
}
