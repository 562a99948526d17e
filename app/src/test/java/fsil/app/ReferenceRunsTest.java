package fsil.app;

import fsil.app.cli.Main;
import fsil.testkit.EngineConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Refactors keep every number: each run file under {@code reference-runs/} (every protocol, every method, digits
 * and synthetic data) is run through the command line, and its {@code summary.csv} must equal the one saved in
 * {@code reference-runs/expected/} value for value, timings aside. A deliberate change of numbers regenerates
 * the expected file in its own commit (see reference-runs/README.md).
 */
class ReferenceRunsTest {
    static final Path DIR = Path.of("..", "reference-runs");

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> summariesAreUnchanged() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
    }

    private void check(Path runFile) throws IOException {
        String name = runFile.getFileName().toString().replace(".yaml", "");
        Path out = tmp.resolve(name);
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[]{"run", "--run-file", runFile.toString(), "--out", out.toString(),
                "--cache", tmp.resolve("cache").toString(), "--quiet"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err));
        assertEquals(0, code, err.toString());
        Map<String, String> expected = EngineConformance.summaryValues(
                DIR.resolve("expected").resolve(name + ".summary.csv"));
        Map<String, String> actual = EngineConformance.summaryValues(out.resolve("summary.csv"));
        assertEquals(expected.keySet(), actual.keySet(), name + ": the same summary rows");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertEquals(e.getValue(), actual.get(e.getKey()), name + ": " + e.getKey());
        }
    }
}
