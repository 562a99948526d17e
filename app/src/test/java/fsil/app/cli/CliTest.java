package fsil.app.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliTest {
    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void pluginFromServicesFileAppearsWithoutChangingEval() {
        Result r = run("methods", "--json");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\"id\" : \"plugin-probe\""), r.out());
        assertTrue(r.out().contains("\"knob\""), "its parameters are listed");
        assertTrue(r.out().contains("\"id\" : \"ncm\""), "built-in baselines are listed too");
    }

    /** Every plugin kind is listed with its parameters, as text and JSON, and a typo is refused naming the choices. */
    @Test
    void everyPluginKindIsListedAndATypoIsRefusedWithTheChoices(@TempDir Path tmp) {
        java.util.Map<String, java.util.List<String>> expected = java.util.Map.of(
                "backbones", java.util.List.of("identity", "pretrained-mlp", "hidden=512-256-128"),
                "protocols", java.util.List.of("fewshot", "cil", "fscil", "ncmf", "gp-classes", "shots=", "ways="),
                "metrics", java.util.List.of("episode_acc", "calibration", "scores", "fit_s"),
                "engines", java.util.List.of("local"),
                "datasets", java.util.List.of("synthetic", "classes=10", "file", "label="));
        expected.forEach((kind, words) -> {
            Result text = run(kind);
            assertEquals(0, text.code(), kind + ": " + text.err());
            words.forEach(w -> assertTrue(text.out().contains(w), kind + " should list " + w + ":\n" + text.out()));
            Result json = run(kind, "--json");
            assertEquals(0, json.code(), kind + " --json: " + json.err());
            assertTrue(json.out().strip().startsWith("[") && json.out().contains("\"parameters\""), json.out());
        });
        String[] base = {"run", "--methods", "ncm", "--protocol", "fewshot", "--episodes", "2", "--out",
                tmp.resolve("x").toString()};
        java.util.Map<java.util.List<String>, java.util.List<String>> typos = java.util.Map.of(
                java.util.List.of("--datasets", "digits", "--backbone", "pretrained-mpl"),
                java.util.List.of("pretrained-mlp", "identity"),
                java.util.List.of("--datasets", "digits", "--backbone", "pretrained-mlp[epoch=3]"),
                java.util.List.of("epochs", "hidden"),
                java.util.List.of("--datasets", "synthetic[clases=4]"), java.util.List.of("classes", "per_class"),
                java.util.List.of("--datasets", "digits", "--engine", "locl"), java.util.List.of("local"));
        typos.forEach((extra, words) -> {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(base));
            args.addAll(extra);
            Result r = run(args.toArray(String[]::new));
            assertEquals(2, r.code(), extra + ": " + r.out() + r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
            words.forEach(w -> assertTrue(r.err().contains(w), extra + " should name " + w + ": " + r.err()));
            assertFalse(java.nio.file.Files.exists(tmp.resolve("x").resolve("units.csv")), "no work before the error");
        });
    }

    @Test
    void userErrorsAreOneLineWithoutStackTrace() {
        Result r = run("run", "--methods", "ncm[tempreature=1]", "--datasets", "digits", "--protocol", "fewshot");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: method 'ncm' has no parameter 'tempreature'"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        Result p = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshoot");
        assertEquals(2, p.code());
        assertTrue(p.err().contains("unknown protocol 'fewshoot' (did you mean 'fewshot'?)"), p.err());
        assertTrue(p.err().contains("Known protocols: cil, fewshot, fscil, gp-classes, ncmf"), p.err());
    }

    /** Without the optional Spark module on the class path, --engine spark says how to get it; local is default. */
    @Test
    void enginesOtherThanLocalComeFromTheClassPath(@TempDir Path tmp) {
        Result spark = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot", "--engine",
                "spark", "--master", "local[2]", "--out", tmp.resolve("a").toString(), "--quiet");
        assertEquals(2, spark.code());
        assertTrue(spark.err().startsWith("error: engine 'spark' is not on the class path (engines here: local)"),
                spark.err());
        assertTrue(spark.err().contains("engine-spark/README.md"), spark.err());
        Result master = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot", "--master",
                "local[2]", "--out", tmp.resolve("b").toString(), "--quiet");
        assertEquals(2, master.code());
        assertTrue(master.err().contains("the local engine takes no engine options (master)"), master.err());
        Result local = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot", "--episodes",
                "10", "--engine", "local", "--out", tmp.resolve("c").toString(), "--quiet");
        assertEquals(0, local.code(), local.err());
    }

    /**
     * A method, a dataset and a protocol that exist only as test classes with one services line each (as an outside
     * plugin jar would bring them) are listed and run together with the built-ins, with no change to fsil.
     */
    @Test
    void datasetAndProtocolPluginsAppearAndRun(@TempDir Path tmp) throws Exception {
        Result d = run("datasets");
        assertEquals(0, d.code(), d.err());
        assertTrue(d.out().contains("probe-data  -  test-only dataset plugin"), d.out());
        Result r = run("run", "--methods", "ncm,plugin-probe", "--datasets", "probe-data:shift=2", "--protocol",
                "probe-protocol", "--option", "repeats=3", "--out", tmp.resolve("run").toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        String summary = Files.readString(tmp.resolve("run").resolve("summary.csv"));
        assertTrue(summary.contains("plugin-probe,probe-data:shift=2,probe-protocol,all-vs-all x3,3,units,,,3.0"),
                summary);
        assertTrue(summary.contains("ncm,probe-data:shift=2,probe-protocol,all-vs-all x3,3,episode_acc"), summary);
    }

    /** --resume takes the run's own spec; a changed row makes 'fsil report' name it and exit 3. */
    @Test
    void resumeKeepsItsSpecAndReportNamesInvalidRows(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Result r = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot", "--episodes", "20",
                "-o", "episodes-per-unit=5", "--out", dir.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        Result changed = run("run", "--resume", dir.toString(), "--methods", "knn", "--episodes", "30");
        assertEquals(2, changed.code());
        assertTrue(changed.err().contains("--methods, --episodes cannot change it"), changed.err());
        Path units = dir.resolve("units.csv");
        java.util.List<String> lines = new java.util.ArrayList<>(Files.readAllLines(units));
        lines.set(3, lines.get(3).replace("\"\"correct\"\":[", "\"\"correct\"\":[1")); // one accuracy changed by hand
        Files.write(units, lines);
        Result report = run("report", dir.toString());
        assertEquals(3, report.code(), report.err());
        assertTrue(report.err().contains("invalid row of units.csv, line 4: checksum mismatch"), report.err());
        assertTrue(Files.readString(dir.resolve("report.html")).contains("1 invalid row(s)"));
        Result resumed = run("run", "--resume", dir.toString(), "--quiet");
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.out().contains("20 tasks in 4 units (1 unit run now"), resumed.out());
        assertEquals(0, run("report", dir.toString()).code());
        Result notARun = run("report", tmp.toString());   // holds the run: named
        assertEquals(2, notARun.code());
        assertTrue(notARun.err().contains(tmp + " is not a run; it holds the runs run/: report one of them"),
                notARun.err());
        Result empty = run("report", Files.createDirectories(tmp.resolve("empty")).toString());
        assertEquals(2, empty.code());
        assertTrue(empty.err().contains("is not a run directory (no spec.json)"), empty.err());
    }

    /**
     * fsil compare of two runs of one spec (different methods) on real data: ppca beats ncm on digits 5-shot; two
     * runs with other seeds are refused, naming the mismatch; the tables land in --out.
     */
    @Test
    void compareTwoRunsOfOneSpecAndRefuseOtherSeeds(@TempDir Path tmp) throws Exception {
        String[] common = {"--datasets", "digits", "--protocol", "fewshot", "--shots", "5", "--episodes", "40",
                "-o", "episodes-per-unit=10", "--quiet"};
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        Path c = tmp.resolve("c");
        assertEquals(0, run(concat(new String[]{"run", "--methods", "ncm", "--out", a.toString()}, common)).code());
        assertEquals(0, run(concat(new String[]{"run", "--methods", "ppca", "--out", b.toString()}, common)).code());
        assertEquals(0, run(concat(new String[]{"run", "--methods", "ppca", "--order-seed", "7", "--out",
                c.toString()}, common)).code());
        Path out = tmp.resolve("cmp");
        Result r = run("compare", a.toString(), b.toString(), "--baseline", "ncm", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(java.util.regex.Pattern.compile("(?m)^ppca +40 +[-+][0-9.]+ +\\[").matcher(r.out()).find(),
                r.out());
        java.util.List<String> pairs = Files.readAllLines(out.resolve("pairs.csv"));
        assertEquals(2, pairs.size(), "header and one pair");
        String[] row = pairs.get(1).split(",");
        assertEquals("ppca", row[3]);
        assertTrue(Double.parseDouble(row[6]) > 0, "ppca gains over ncm at 5 shots: " + pairs.get(1));
        assertTrue(Files.readString(out.resolve("compare.html")).contains("Wilcoxon signed-rank"));

        Result refused = run("compare", a.toString(), c.toString(), "--out", tmp.resolve("other").toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().startsWith("error: methods ncm and ppca were not run on identical units in digits"),
                refused.err());
        assertTrue(refused.err().contains("order seed 1993") && refused.err().contains("order seed 7"), refused.err());
        assertEquals(1, refused.err().strip().lines().count(), refused.err());

        // --pool: runs of one spec with two order seeds are one experiment of 80 paired episodes
        Path d = tmp.resolve("d");
        assertEquals(0, run(concat(new String[]{"run", "--methods", "ncm", "--order-seed", "7", "--out",
                d.toString()}, common)).code());
        Result pooled = run("compare", a.toString(), b.toString(), c.toString(), d.toString(), "--pool",
                "--baseline", "ncm", "--out", tmp.resolve("pooled").toString());
        assertEquals(0, pooled.code(), pooled.err());
        assertTrue(java.util.regex.Pattern.compile("(?m)^ppca +80 +[-+][0-9.]+ +\\[").matcher(pooled.out()).find(),
                pooled.out());
        Result half = run("compare", a.toString(), b.toString(), c.toString(), "--pool", "--out",
                tmp.resolve("half").toString());
        assertEquals(2, half.code());
        assertTrue(half.err().contains("not run on identical units"), half.err());
    }

    /** --select on glyphs (which has validation classes) records its choice; digits (which has none) is refused. */
    @Test
    void selectionOnGlyphsRecordsItsChoice(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("sel");
        Result r = run("run", "--methods", "ncm,ppca", "--datasets", "glyphs", "--protocol", "fewshot", "--shots", "5",
                "--episodes", "20", "--select", "ppca.q=0,4", "--out", dir.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        java.util.List<String> sel = Files.readAllLines(dir.resolve("selection.csv"));
        assertEquals(3, sel.size(), String.join("\n", sel));
        assertEquals(1, sel.stream().filter(l -> l.endsWith(",true")).count(), String.join("\n", sel));
        assertTrue(sel.get(1).startsWith("ppca,glyphs,5-way 5-shot Q75 balanced,5-way 5-shot Q75 balanced,q=0,"
                + "episode_acc,"), sel.get(1));
        assertTrue(Files.readString(dir.resolve("config.json")).contains("\"selected\""));
        assertTrue(Files.readString(dir.resolve("report.html")).contains("Parameters chosen on the validation classes"));
        String chosen = sel.stream().filter(l -> l.endsWith(",true")).findFirst().orElseThrow().split(",")[4];
        assertTrue(r.out().contains("chosen") && r.out().lines().anyMatch(l -> l.startsWith("ppca ")
                && l.contains(" " + chosen + " ")), "the table shows the chosen " + chosen + ":\n" + r.out());
        Result again = run("run", "--resume", dir.toString(), "--select", "ppca.q=1,2");
        assertEquals(2, again.code());
        assertTrue(again.err().contains("--select cannot change it"), again.err());
        Result digits = run("run", "--methods", "ppca", "--datasets", "digits", "--protocol", "fewshot", "--select",
                "ppca.q=0,4", "--out", tmp.resolve("d").toString(), "--quiet");
        assertEquals(2, digits.code());
        assertTrue(digits.err().contains("dataset digits has none"), digits.err());
    }

    /** --help works on every command, shows defaults and every protocol option; listings fit the terminal. */
    @Test
    void helpShowsEveryProtocolOptionAndListingsWrap() {
        Result help = run("run", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.err().isEmpty(), "no picocli warnings: " + help.err());
        for (String option : new String[]{"episodes-per-unit=0", "runs=1", "num-classes=0", "alpha=2.0",
                "query-allocation=balanced", "sessions-from=committed"}) {
            assertTrue(help.out().contains(option), option + " in:\n" + help.out());
        }
        assertTrue(help.out().contains("queries per EPISODE in total"), "queries are per episode");
        assertEquals(0, run("run", "-h").code());
        for (String command : new String[]{"methods", "datasets", "report", "compare", "demo", "bench"}) {
            Result h = run(command, "--help");
            assertEquals(0, h.code(), command + ": " + h.err());
            assertTrue(h.err().isEmpty(), command + " --help warns: " + h.err());
        }
        Result methods = run("methods");
        int longest = methods.out().lines().mapToInt(String::length).max().orElse(0);
        assertTrue(longest <= 100, "methods lines wrap (longest " + longest + ")");
        Result typo = run("run", "--methods", "ncmm", "--datasets", "digits", "--protocol", "fewshot");
        assertEquals(2, typo.code());
        assertTrue(typo.err().contains("did you mean 'ncm'"), typo.err());
    }

    /**
     * Help is wrapped at spaces only: picocli's own wrapping broke after '.', '/' and ':' ("config." / "json",
     * "k8s:" / "//..."). At several usage widths no line is longer than the width, and every word of a description
     * with a '.' or '/' in it that fits its column is printed whole.
     */
    @Test
    void helpWrapsAtSpacesOnlyAndFitsTheUsageWidth() {
        String old = System.getProperty("picocli.usage.width");
        try {
            for (int width : new int[]{60, 70, 80, 100, 120}) {
                System.setProperty("picocli.usage.width", Integer.toString(width));
                for (String command : new String[]{"run", "compare", "demo"}) {
                    Result h = run(command, "--help");
                    assertEquals(0, h.code(), command + ": " + h.err());
                    h.out().lines().forEach(l -> assertTrue(l.length() <= width,
                            command + " --help at " + width + ": line of " + l.length() + ": " + l));
                    java.util.List<String> words = new java.util.ArrayList<>();
                    new picocli.CommandLine(new Main()).getSubcommands().get(command).getCommandSpec().options()
                            .forEach(o -> words.addAll(java.util.List.of(String.join(" ", o.description())
                                    .replace("%%", "%").split("\\s+"))));
                    int room = width - 32;
                    for (String w : words) {
                        if ((w.contains(".") || w.contains("/")) && w.length() <= room) {
                            assertTrue(h.out().contains(w), command + " --help at " + width + " breaks " + w
                                    + ":\n" + h.out());
                        }
                    }
                }
                String run = run("run", "--help").out();
                // the footer lists the protocols, which are plugins: injected only once the arguments are parsed
                assertTrue(run.contains("Protocols and their options") && run.contains("  fewshot: "), run);
                assertEquals(run, run("help", "run").out(), "'fsil help run' prints the same help");
                for (String w : new String[]{"config.json,", "a_matrix.csv,", "engine-spark/README.md);",
                        "k8s://...;", "runs/<protocol>-<time>)", "method.param=value"}) {
                    assertTrue(run.contains(w), w + " broken at " + width + ":\n" + run);
                }
            }
        } finally {
            if (old == null) {
                System.clearProperty("picocli.usage.width");
            } else {
                System.setProperty("picocli.usage.width", old);
            }
        }
    }

    /**
     * --protocol cannot be a picocli required option (--resume and --run-file give it), so its help says it is
     * required, and a run without it is refused in one line naming the protocols.
     */
    @Test
    void missingProtocolIsOneLineNamingTheProtocols() {
        String help = run("run", "--help").out();
        String line = help.lines().filter(l -> l.strip().startsWith("--protocol=NAME")).findFirst().orElseThrow();
        assertTrue(line.contains("required unless --resume or --run-file gives"), line);
        Result r = run("run", "--methods", "ncm", "--datasets", "digits", "--quiet");
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertTrue(r.err().startsWith("error: --protocol is required"), r.err());
        for (String p : new String[]{"cil", "fewshot", "fscil", "gp-classes", "ncmf"}) {
            assertTrue(r.err().contains(p + ","), p + " named: " + r.err());
        }
    }

    /** A method that needs base classes is refused before any work where the setting gives it none. */
    @Test
    void methodsThatNeedBaseClassesAreRefusedAtPlanning(@TempDir Path tmp) {
        Result r = run("run", "--methods", "ncm,bavardage", "--datasets", "digits", "--protocol", "fewshot", "-o",
                "classes-from=base", "--out", tmp.resolve("r").toString(), "--quiet");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: method 'bavardage' needs base classes"), r.err());
        assertTrue(r.err().contains("splits/base.txt"), r.err());
        assertFalse(Files.exists(tmp.resolve("r")), "nothing written");
    }

    /**
     * Run-file values a flag overrides are still checked; an empty --calibrate is an error, not the default;
     * --retry-failed belongs to --resume and is documented in --help.
     */
    @Test
    void runFileValuesAreCheckedEvenWhenAFlagOverridesThem(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("run.yaml");
        Files.writeString(file, "methods: ncm\ndatasets: digits\nprotocol: fewshot\nthreads: 0\n");
        Result r = run("run", "--run-file", file.toString(), "--threads", "1", "--out", tmp.resolve("a").toString(),
                "--quiet");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().startsWith("error: " + file + ": 'threads' must be an integer between 1 and"), r.err());
        Result empty = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot", "--calibrate",
                "", "--out", tmp.resolve("b").toString(), "--quiet");
        assertEquals(2, empty.code());
        assertTrue(empty.err().contains("'calibrate' must be one of none, temperature, got ''"), empty.err());
        Result retry = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot",
                "--retry-failed", "--out", tmp.resolve("c").toString(), "--quiet");
        assertEquals(2, retry.code());
        assertTrue(retry.err().contains("--retry-failed goes with --resume"), retry.err());
        assertFalse(Files.exists(tmp.resolve("a")) || Files.exists(tmp.resolve("b"))
                || Files.exists(tmp.resolve("c")), "nothing written");
        assertTrue(run("run", "--help").out().contains("--retry-failed"));
    }

    /** Rows dropped by a resume are said in one line, also under --quiet, and in the run's final line. */
    @Test
    void droppedRowsAreSaidUnderQuietAndInTheFinalLine(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        assertEquals(0, run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot", "--episodes",
                "10", "-o", "episodes-per-unit=5", "--out", dir.toString(), "--quiet").code());
        Path units = dir.resolve("units.csv");
        String text = Files.readString(units);
        Files.writeString(units, text.substring(0, text.length() - 40)); // the last row cut off
        Result r = run("run", "--resume", dir.toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("dropped 1 invalid row of units.csv (recomputed): line 3: incomplete row"),
                r.err());
        String last = r.out().lines().filter(l -> l.contains(" tasks in ")).findFirst().orElseThrow();
        assertTrue(last.startsWith("10 tasks in 2 units (1 unit run now; 1 invalid row of units.csv dropped and "
                + "recomputed), 0 tasks failed."), last);
    }

    /** Temperatures fitted on a handful of held-out classes are said to be unreliable (digits: 5 base classes). */
    @Test
    void calibrationOnFewHeldOutClassesWarns(@TempDir Path tmp) {
        Result r = run("run", "--methods", "ncm", "--datasets", "digits", "--protocol", "fewshot", "--episodes", "10",
                "--calibrate", "temperature", "--out", tmp.resolve("t").toString(), "--quiet");
        assertEquals(0, r.code(), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("warning: temperatures fitted on 5 held-out classes"))
                .count(), r.err());
    }

    static String[] concat(String[] a, String[] b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    @Test
    void datasetListsKeepParameterisedNamesTogether() {
        assertEquals(java.util.List.of("synthetic:classes=40,dim=64", "digits", "dir:/a/b"),
                fsil.eval.run.RunSpec.splitDatasets("synthetic:classes=40,dim=64, digits,dir:/a/b"));
    }

    @Test
    void variantSyntaxAndSetOverrides() {
        Result r = run("run", "--methods", "ncm,ncm[metric=cosine]", "--set", "knn.k=3", "--datasets", "digits",
                "--protocol", "fewshot");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no method variant 'knn'"), r.err());
    }
}
