package fsil.eval.run;

import fsil.api.FsilException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Run files are checked field by field: a wrong type is an error naming the field, never a silent coercion. */
class RunSpecTest {
    static final String BASE = "methods: [ncm, 'knn[k=3]']\ndatasets: digits\nprotocol: fewshot\n";

    static RunSpec yaml(Path dir, String text) throws IOException {
        Path f = dir.resolve("run.yaml");
        Files.writeString(f, text);
        return RunSpec.read(f);
    }

    static void rejects(Path dir, String extra, String expected) {
        FsilException e = assertThrows(FsilException.class, () -> yaml(dir, BASE + extra), extra);
        assertTrue(e.getMessage().contains(expected), extra + " -> " + e.getMessage());
        assertTrue(e.getMessage().contains("run.yaml"), "names the file: " + e.getMessage());
    }

    @Test
    void wrongTypesAreRejectedNamingTheField(@TempDir Path tmp) {
        rejects(tmp, "order_seed: abc\n", "'order_seed' must be an integer");
        rejects(tmp, "order_seed: 7.9\n", "'order_seed' must be an integer");
        rejects(tmp, "order_seed: 1e30\n", "'order_seed' must be an integer between");
        rejects(tmp, "train_seed: '7'\n", "'train_seed' must be an integer");
        rejects(tmp, "options: 5\n", "'options' must be a mapping");
        rejects(tmp, "options: {shots: {a: 1}}\n", "'options.shots' must be a value or a list");
        rejects(tmp, "threads: 0\n", "'threads' must be an integer between 1 and");
        rejects(tmp, "threads: -3\n", "'threads' must be an integer between 1 and");
        rejects(tmp, "threads: many\n", "'threads' must be an integer");
        rejects(tmp, "select_metric: \"\"\n", "'select_metric' must name a metric, got ''");
        rejects(tmp, "calibrate: ''\n", "'calibrate' must be one of none, temperature, got ''");
        rejects(tmp, "calibrate: ' '\n", "'calibrate' must be one of none, temperature, got ' '");
        rejects(tmp, "protocol2: cil\n", "unknown field 'protocol2'");
        rejects(tmp, "backbone: [identity]\n", "'backbone' must be text");
        rejects(tmp, "order_seed: 1\norder_seed: 2\n", "Duplicate field 'order_seed'");
        FsilException m = assertThrows(FsilException.class, () -> yaml(tmp, "methods: [1, 2]\ndatasets: digits\n"
                + "protocol: fewshot\n"));
        assertTrue(m.getMessage().contains("'methods' must list names"), m.getMessage());
        FsilException p = assertThrows(FsilException.class, () -> yaml(tmp, "methods: ncm\ndatasets: digits\n"));
        assertTrue(p.getMessage().contains("'protocol' is missing"), p.getMessage());
        FsilException y = assertThrows(FsilException.class, () -> yaml(tmp, "methods: [ncm\n"));
        assertTrue(y.getMessage().contains("is malformed"), y.getMessage());
    }

    @Test
    void validFilesReadAsWritten(@TempDir Path tmp) throws IOException {
        RunSpec s = yaml(tmp, BASE + "order_seed: 7\nthreads: 2\noptions: {shots: [1, 5], queries: 75}\n"
                + "backbone: identity\n");
        assertEquals(7, s.orderSeed());
        assertEquals(2, s.threads());
        assertEquals(List.of("1", "5"), s.options().get("shots"));
        assertEquals(List.of("75"), s.options().get("queries"));
        assertEquals("knn[k=3]", s.methods().get(1).label());
        Path json = tmp.resolve("spec.json");
        Files.writeString(json, s.toJson());
        assertEquals(s, RunSpec.read(json), "spec.json reads back to the same spec");
    }
}
