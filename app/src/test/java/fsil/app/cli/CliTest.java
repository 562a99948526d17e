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
        assertTrue(summary.contains("plugin-probe,probe-data:shift=2,probe-protocol,all-vs-all x3,units,,,3.0"),
                summary);
        assertTrue(summary.contains("ncm,probe-data:shift=2,probe-protocol,all-vs-all x3,episode_acc"), summary);
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
        lines.set(3, lines.get(3).replaceFirst("\\[0\\.(\\d)", "[0.9$1"));
        Files.write(units, lines);
        Result report = run("report", dir.toString());
        assertEquals(3, report.code(), report.err());
        assertTrue(report.err().contains("invalid row of units.csv, line 4: checksum mismatch"), report.err());
        assertTrue(Files.readString(dir.resolve("report.html")).contains("1 invalid row(s)"));
        Result resumed = run("run", "--resume", dir.toString(), "--quiet");
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.out().contains("(1 units run now)"), resumed.out());
        assertEquals(0, run("report", dir.toString()).code());
        Result notARun = run("report", tmp.toString());
        assertEquals(2, notARun.code());
        assertTrue(notARun.err().contains("is not a run directory"), notARun.err());
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
