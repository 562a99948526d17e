package fsil.methods.ppca;

import fsil.api.FsilException;
import fsil.core.bench.Benchmark;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The three benchmarks are registered, run at tiny sizes, print their ratio tables and reject unknown options. */
class BenchmarkSmokeTest {

    private static String run(Benchmark b, Map<String, String> options) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        b.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void registered() {
        Set<String> ids = new TreeSet<>();
        for (Benchmark b : ServiceLoader.load(Benchmark.class)) {
            ids.add(b.id());
        }
        assertTrue(ids.containsAll(Set.of("ppca-fit", "ppca-score", "ppca-scale")), ids.toString());
    }

    @Test
    void fitBenchmarkRunsSmall() {
        String out = run(new FitBenchmark(), Map.of("classes", "6", "per_class", "120", "dim", "96",
                "exact_classes", "3", "chunk", "2", "warmup", "1", "queries", "10"));
        assertTrue(out.contains("full d x d eigen decomposition"), out);
        assertTrue(out.contains("max relative score difference"), out);
        double diff = Double.parseDouble(out.replaceAll("(?s).*difference to full[^:]*: ([0-9.eE+-]+).*", "$1"));
        assertTrue(diff < 1e-6, "fast vs full scores: " + diff);
    }

    @Test
    void scoreBenchmarkRunsSmall() {
        String out = run(new ScoreBenchmark(), Map.of("classes", "5", "dim", "40", "q", "4", "queries", "30",
                "explicit_classes", "3", "reps", "1"));
        assertTrue(out.contains("explicit Cholesky"), out);
        String diffs = out.replaceAll("(?s).*fast vs precision ([0-9.eE+-]+), fast vs Cholesky ([0-9.eE+-]+).*",
                "$1 $2");
        for (String v : diffs.split(" ")) {
            assertTrue(Double.parseDouble(v) < 1e-9, "Theorem 1 vs explicit: " + diffs);
        }
    }

    @Test
    void scaleBenchmarkRunsSmall() {
        String out = run(new ScaleBenchmark(), Map.of("classes", "40", "per_class", "12", "dim", "32",
                "chunk", "15", "queries", "30", "batch", "7", "threads", "2"));
        assertTrue(out.contains("q=0 (reference)") && out.contains("heap"), out);
    }

    @Test
    void unknownOptionsAreRejected() {
        FsilException e = assertThrows(FsilException.class, () -> run(new ScaleBenchmark(), Map.of("clases", "3")));
        assertTrue(e.getMessage().contains("clases") && e.getMessage().contains("classes"), e.getMessage());
        FsilException bad = assertThrows(FsilException.class, () -> run(new FitBenchmark(), Map.of("classes", "x")));
        assertTrue(bad.getMessage().contains("classes=x"), bad.getMessage());
        FsilException model = assertThrows(FsilException.class,
                () -> run(new FitBenchmark(), Map.of("model", "gaussian")));
        assertEquals("benchmark ppca-fit: model=gaussian must be shared or power-law", model.getMessage());
    }
}
