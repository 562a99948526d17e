package fsil.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import fsil.app.CacheDir;
import fsil.app.Plugins;
import fsil.data.Dataset;
import fsil.data.DatasetInfo;
import fsil.data.Datasets;
import jakarta.inject.Inject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
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
    @Inject
    Plugins plugins;
    @Inject
    @CacheDir
    Path cacheDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<Dataset> datasets = plugins.datasets().all();
        List<DatasetInfo> all = Datasets.catalog(plugins.datasets(), cacheDir);
        if (json) {
            List<Map<String, Object>> rows = new ArrayList<>();
            ObjectMapper mapper = new ObjectMapper();
            for (int i = 0; i < all.size(); i++) {
                Map<String, Object> row = new LinkedHashMap<>(mapper.convertValue(all.get(i),
                        new TypeReference<Map<String, Object>>() { }));
                row.put("id", datasets.get(i).id());
                row.put("parameters", MethodsCommand.parameters(datasets.get(i).parameters()));
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
            if (!datasets.get(i).parameters().isEmpty()) {
                out.println("    parameters (" + datasets.get(i).id() + "[key=value,...]):");
                out.println(MethodsCommand.parameters(datasets.get(i).parameters(), width));
            }
            out.println();
        }
        return 0;
    }

    private static String n(long v) {
        return v < 0 ? "?" : Long.toString(v);
    }
}
