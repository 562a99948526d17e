package fsil.testkit;

import fsil.api.Method;
import fsil.api.Registry;
import fsil.data.Datasets;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.Protocol;
import fsil.eval.run.EngineProvider;
import fsil.eval.run.LocalEngine;
import fsil.eval.run.RunSpec;
import fsil.eval.run.RunSpecBuilder;
import fsil.eval.run.Runner;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance kit of an engine plugin: the numbers do not depend on the engine.
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> conformance(@TempDir Path tmp) {
 *     return EngineConformance.of(new MyEngineProvider()).withOptions(Map.of("master", "local[2]"))
 *             .in(tmp).tests();
 * }
 * }</pre>
 *
 * Checks: metadata and typed parameters; a small few-shot run (two settings, several units of episodes) and a
 * class-incremental run on the embedded digits, with the methods given (default {@code toy-ncm}; they must be found
 * by ServiceLoader, as an engine that runs units in other processes finds them), give on this engine the same summary
 * values (timings aside) and the same units, each stored once with the same status, as on the local engine with one
 * thread.
 */
public final class EngineConformance {
    /** Timings: measurements, not results. */
    static final Pattern TIMING = Pattern.compile("(^|_)(fit_s|predict_s|s|seconds|cpu_seconds)$|_s_step\\d+$");

    private final EngineProvider provider;
    private Map<String, String> options = Map.of();
    private String methods = "toy-ncm";
    private Path dir;

    private EngineConformance(EngineProvider provider) {
        this.provider = provider;
    }

    public static EngineConformance of(EngineProvider provider) {
        return new EngineConformance(provider);
    }

    /** The engine's parameter values (e.g. a master URL). */
    public EngineConformance withOptions(Map<String, String> values) {
        this.options = Map.copyOf(values);
        return this;
    }

    /** Method variants to run ({@code --methods} syntax), found by ServiceLoader. */
    public EngineConformance methods(String variants) {
        this.methods = variants;
        return this;
    }

    /** Where the runs and the feature cache go (a temporary directory). */
    public EngineConformance in(Path directory) {
        this.dir = directory;
        return this;
    }

    public Stream<DynamicTest> tests() {
        if (dir == null) {
            throw new IllegalStateException("give a directory for the runs: .in(tmp)");
        }
        String id = provider.id();
        return Stream.of(
                DynamicTest.dynamicTest(id + ": metadata and typed parameters", () -> {
                    PluginChecks.metadata(provider);
                    PluginChecks.unknownParameterRejected(provider);
                }),
                DynamicTest.dynamicTest(id + ": few-shot episodes give the local engine's numbers", () -> same(
                        "fewshot", new RunSpecBuilder("engine conformance").methods(methods).datasets("digits")
                                .protocol("fewshot").option("shots", "1,5").option("episodes", "40")
                                .option("episodes-per-unit", "10"))),
                DynamicTest.dynamicTest(id + ": class-incremental runs give the local engine's numbers", () -> same(
                        "cil", new RunSpecBuilder("engine conformance").methods(methods).datasets("digits")
                                .protocol("cil").option("steps", "2").option("runs", "3"))));
    }

    private void same(String name, RunSpecBuilder spec) {
        Registry<Method> all = Registry.discover("method", Method.class, Method::id);
        Registry<Protocol> protocols = Registry.discover("protocol", Protocol.class, Protocol::id);
        Registry<Metric> metrics = Registry.discover("metric", Metric.class, Metric::id);
        Path cache = dir.resolve("cache");
        Runner local = new Runner(all, protocols, metrics, (ds, backbone, seed, c) -> Datasets.load(ds, backbone, seed,
                c), cache).withEngine(new LocalEngine.Provider().create(new LocalEngine.Provider().defaults()));
        Runner engine = new Runner(all, protocols, metrics, (ds, backbone, seed, c) -> Datasets.load(ds, backbone,
                seed, c), cache).withEngine(provider.create(provider.params(options)));
        RunSpec s1 = spec.threads(1).build();
        Path expected = local.run(s1, dir.resolve(name + "-reference")).dir();
        Path actual = engine.run(s1.withThreads(2), dir.resolve(name + "-engine-" + provider.id())).dir();
        Map<String, String> e = values(expected);
        assertTrue(e.size() > 0, "the local run has summary values");
        assertEquals(e, values(actual), "the same summary values (timings aside)");
        assertEquals(units(expected), units(actual), "the same units, each once, with the same status");
    }

    /** (method, dataset, protocol, setting, metric, step) to "classes,value,ci95,ci95_t,std,n", timings left out. */
    public static Map<String, String> values(Path run) {
        return summaryValues(run.resolve("summary.csv"));
    }

    /**
     * As {@link #values(Path)}, from a summary.csv file by its path (for example a saved copy of one). Columns are
     * found by name, so columns added later do not break a comparison.
     */
    public static Map<String, String> summaryValues(Path summary) {
        List<String> lines;
        try {
            lines = Files.readAllLines(summary);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
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

    /** key to status and error of every unit of units.csv; no invalid and no duplicate row. */
    public static Map<String, String> units(Path run) {
        UnitStore.Contents c = UnitStore.read(run.resolve(UnitStore.FILE));
        assertTrue(c.invalid().isEmpty(), () -> "invalid or duplicate rows: " + c.describeInvalid(5));
        Map<String, String> out = new TreeMap<>();
        for (UnitRecord r : c.rows()) {
            out.put(r.key().toString(), r.status() + " " + r.error() + " " + r.firstTask() + "+" + r.tasks());
        }
        assertEquals(c.rows().size(), out.size(), "each unit stored once");
        return out;
    }
}
