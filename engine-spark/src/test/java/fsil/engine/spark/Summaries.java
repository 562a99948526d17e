package fsil.engine.spark;

import fsil.app.cli.Main;
import fsil.testkit.EngineConformance;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Test helpers: fsil's command line, and two runs' results compared as testkit's engine kit compares them. */
final class Summaries {
    private Summaries() {
    }

    record Result(int code, String out, String err) {
    }

    static Result fsil(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    static Result fsil(List<String> args) {
        return fsil(args.toArray(new String[0]));
    }

    /** The same summary values, and the same units (key, status, error) stored once each. */
    static void assertSameResults(Path expected, Path actual) {
        Map<String, String> e = EngineConformance.values(expected);
        Map<String, String> a = EngineConformance.values(actual);
        assertEquals(e.keySet(), a.keySet(), "the same summary rows");
        for (Map.Entry<String, String> x : e.entrySet()) {
            assertEquals(x.getValue(), a.get(x.getKey()), x.getKey());
        }
        assertEquals(EngineConformance.units(expected), EngineConformance.units(actual),
                "the same units, each once, with the same status");
    }
}
