package fsil.app.cli;

import fsil.api.Method;
import fsil.api.Registry;
import fsil.app.Plugins;
import fsil.eval.protocol.Protocol;
import fsil.eval.report.Report;
import fsil.eval.report.SettingOptions;
import fsil.eval.run.RunSpec;
import fsil.eval.run.Runner;
import fsil.eval.store.UnitRecord;
import fsil.eval.run.VariantSpec;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * A small comparison of every available method on the embedded {@code digits} dataset: 5-way 1-shot and
 * 5-shot episodes (methods with a few-shot capability) and a B-half class-incremental run (class-incremental
 * methods), each method with its default parameters. Writes both run directories and a combined report.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Compare the available methods on the embedded digits dataset (few-shot "
        + "episodes and class-incremental) and write a report.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--episodes", description = "few-shot episodes per setting (default 300)")
    int episodes = 300;
    @Option(names = "--methods", description = "method ids (default: all available)")
    String methods;
    @Option(names = "--out", description = "output directory (default runs/demo-<time>)")
    Path out;
    @Option(names = "--threads", description = "parallel units (default: all cores)")
    int threads = 0;
    @Option(names = "--quiet", description = "no progress bar")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Inject
    Plugins plugins;
    @Inject
    Provider<Runner> runners;

    /**
     * Built-in methods whose defaults would make the demo long, with the lighter settings the demo runs (its tables
     * name them): gptree's 30 Gibbs chains take about 80 s per class-incremental run on digits, 4 take about 10 s.
     */
    static final Map<String, Map<String, Map<String, String>>> LIGHTER = Map.of(
            "cil", Map.of("gptree", Map.of("chains", "4")));

    static VariantSpec demoVariant(String id, String protocol) {
        Map<String, String> p = LIGHTER.getOrDefault(protocol, Map.of()).getOrDefault(id, Map.of());
        return VariantSpec.parse(new VariantSpec(id, id, p).text().replaceFirst("^[^:]*:", ""));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter outw = spec.commandLine().getOut();
        Registry<Method> registry = plugins.methods();
        Path dir = out != null ? out : Paths.get("runs", "demo-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        List<String> ids = methods != null ? List.of(methods.split(","))
                : registry.all().stream().map(Method::id).toList();
        List<UnitRecord> all = new ArrayList<>();
        SettingOptions settings = SettingOptions.none();
        int failed = 0;
        record Part(String protocol, Map<String, List<String>> options) {
        }
        List<Part> parts = List.of(
                new Part("fewshot", Map.of("shots", List.of("1", "5"), "episodes", List.of(Integer.toString(episodes)))),
                new Part("cil", Map.of("steps", List.of("5"), "runs", List.of("3"))));
        for (Part part : parts) {
            Protocol protocol = plugins.protocols().get(part.protocol());
            List<VariantSpec> variants = ids.stream().map(String::trim).filter(id -> !id.isEmpty())
                    .filter(id -> protocol.incompatibility(registry.get(id)) == null)
                    .map(id -> demoVariant(id, part.protocol())).toList();
            if (variants.isEmpty()) {
                continue;
            }
            outw.println("demo: " + part.protocol() + " on digits with " + variants.stream().map(VariantSpec::label).toList());
            outw.flush();
            Runner runner = runners.get();
            if (!quiet) {
                runner.withProgress(ConsoleProgress.of(spec.commandLine().getErr()));
            }
            Runner.Outcome o = runner.run(new RunSpec(variants, List.of("digits"), "identity", part.protocol(),
                    part.options(), RunSpec.DEFAULT_ORDER_SEED, 0, 1, threads > 0 ? threads : RunSpec.defaultThreads()),
                    dir.resolve(part.protocol()));
            all.addAll(o.records());
            settings = settings.plus(SettingOptions.read(o.dir()));
            failed += o.failedTasks();
        }
        Files.createDirectories(dir);
        Report.write(dir, all, plugins.metrics().all(), settings);
        outw.println(Headline.text(all, plugins.metrics().all()));
        outw.printf("%d tasks, %d failed.%nReport: %s%n", all.stream().mapToInt(UnitRecord::tasks).sum(), failed,
                dir.resolve(Report.HTML).toAbsolutePath());
        return failed > 0 ? 3 : 0;
    }
}
