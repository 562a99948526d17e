package fsil.engine.spark;

import fsil.app.cli.Main;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Test helpers: fsil's command line, and summary.csv values without the timings (as ReferenceRunsTest reads them). */
final class Summaries {
    /** Timings: measurements, not results. */
    static final Pattern TIMING = Pattern.compile("(^|_)(fit_s|predict_s|s|seconds|cpu_seconds)$|_s_step\\d+$");

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

    /** (method, dataset, protocol, setting, metric, step) -> "classes,value,ci95,ci95_t,std,n", timings left out. */
    static Map<String, String> values(Path run) throws IOException {
        List<String> lines = Files.readAllLines(run.resolve("summary.csv"));
        List<String> header = UnitStore.fields(lines.get(0));
        Map<String, String> out = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = UnitStore.fields(line);
            Map<String, String> row = new TreeMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), cells.get(i));
            }
            if (TIMING.matcher(row.get("metric")).find()) {
                continue;
            }
            out.put(String.join("|", row.get("method"), row.get("dataset"), row.get("protocol"), row.get("setting"),
                    row.get("metric"), row.get("step")), String.join(",", row.get("classes"), row.get("value"),
                    row.get("ci95"), row.get("ci95_t"), row.get("std"), row.get("n")));
        }
        return out;
    }

    /** The same summary values, and the same units (key, status, error) stored once each. */
    static void assertSameResults(Path expected, Path actual) throws IOException {
        Map<String, String> e = values(expected);
        Map<String, String> a = values(actual);
        assertEquals(e.keySet(), a.keySet(), "the same summary rows");
        for (Map.Entry<String, String> x : e.entrySet()) {
            assertEquals(x.getValue(), a.get(x.getKey()), x.getKey());
        }
        assertEquals(units(expected), units(actual), "the same units, each once, with the same status");
    }

    /** key -> status and error of every unit of units.csv; no invalid and no duplicate row. */
    static Map<String, String> units(Path run) {
        UnitStore.Contents c = UnitStore.read(run.resolve("units.csv"));
        assertTrue(c.invalid().isEmpty(), () -> "invalid or duplicate rows: " + c.describeInvalid(5));
        Map<String, String> out = new TreeMap<>();
        for (UnitRecord r : c.rows()) {
            out.put(r.key().toString(), r.status() + " " + r.error() + " " + r.firstTask() + "+" + r.tasks());
        }
        return out;
    }
}
