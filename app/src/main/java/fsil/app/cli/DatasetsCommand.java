package fsil.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import fsil.data.Dataset;
import fsil.data.DatasetInfo;
import com.google.inject.Injector;
import com.google.inject.Key;
import fsil.app.CacheDir;
import fsil.app.Plugins;
import fsil.data.Datasets;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** Lists the datasets with availability, size, classes and splits. */
@Command(name = "datasets", mixinStandardHelpOptions = true, description = "List the datasets: availability, size, classes, splits.")
final class DatasetsCommand implements Callable<Integer> {
    @Option(names = "--json", description = "machine-readable output")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Injector injector = Cli.injector(null);
        List<Dataset> plugins = injector.getInstance(Plugins.class).datasets().all();
        List<DatasetInfo> all = Datasets.catalog(injector.getInstance(Plugins.class).datasets(),
                injector.getInstance(Key.get(Path.class, CacheDir.class)));
        if (json) {
            List<Map<String, Object>> rows = new ArrayList<>();
            ObjectMapper mapper = new ObjectMapper();
            for (int i = 0; i < all.size(); i++) {
                Map<String, Object> row = new LinkedHashMap<>(mapper.convertValue(all.get(i),
                        new TypeReference<Map<String, Object>>() { }));
                row.put("id", plugins.get(i).id());
                row.put("parameters", MethodsCommand.parameters(plugins.get(i).parameters()));
                rows.add(row);
            }
            out.println(mapper.enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(rows));
            return 0;
        }
        int width = spec.commandLine().getUsageHelpWidth();
        for (int i = 0; i < all.size(); i++) {
            DatasetInfo d = all.get(i);
            out.printf("%s  -  %s%n", d.name(), d.description());
            out.printf("    available: %s%s%n", d.available() ? "yes" : "NO", d.howToGet().isEmpty() ? "" : " (" + d.howToGet() + ")");
            out.printf("    samples: %s (train %s, test %s), classes: %s, input dimension: %s%n", n(d.samples()),
                    n(d.trainSamples()), n(d.testSamples()), n(d.classes()), n(d.dimension()));
            d.splits().forEach(s -> out.println("    split: " + s));
            out.println("    license: " + d.license());
            if (!plugins.get(i).parameters().isEmpty()) {
                out.println("    parameters (" + plugins.get(i).id() + "[key=value,...]):");
                out.println(MethodsCommand.parameters(plugins.get(i).parameters(), width));
            }
            out.println();
        }
        return 0;
    }

    private static String n(long v) {
        return v < 0 ? "?" : Long.toString(v);
    }
}
