package fsil.notebook;

import com.google.inject.Guice;
import com.google.inject.Module;
import fsil.api.Capability;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Registry;
import fsil.app.Plugins;
import fsil.app.FsilModule;
import fsil.data.DatasetInfo;
import fsil.data.Datasets;
import fsil.app.CacheDir;
import fsil.eval.protocol.Protocol;
import fsil.eval.compare.Comparison;
import fsil.eval.compare.RunSet;
import fsil.eval.run.FeatureSource;
import fsil.eval.run.Runner;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The notebook entry point to the toolkit: the available methods (ServiceLoader plugins plus methods defined in
 * the notebook) and experiments on the built-in datasets.
 *
 * <pre>{@code
 * Fsil fsil = Fsil.create();                         // or Fsil.create(new MyMethod()) to add a notebook method
 * Show.table(fsil.methodsTable());
 * Results r = fsil.experiment("fewshot").dataset("digits").methods("ncm", "soft-kmeans")
 *                 .option("shots", 1, 5).option("episodes", 300).run();
 * Show.table(r.headline());
 * }</pre>
 *
 * A thin layer over the Guice wiring ({@link FsilModule}) and the {@link Runner}: everything it runs is an
 * ordinary run directory with {@code units.csv}, summaries and {@code report.html}, exactly as {@code fsil run}
 * writes it.
 */
public final class Fsil {
    private final Plugins plugins;
    private final Provider<Runner> runners;
    private final Path cacheDir;

    @Inject
    Fsil(Plugins plugins, Provider<Runner> runners, @CacheDir Path cacheDir) {
        this.plugins = plugins;
        this.runners = runners;
        this.cacheDir = cacheDir;
    }

    /**
     * The built-in datasets, the default cache ({@code $FSIL_CACHE} or {@code ~/.cache/fsil}), every discovered
     * method plus {@code extra} (registered programmatically; an id already taken is an error). Call it again
     * after redefining a method class in a notebook: each call builds a fresh registry.
     */
    public static Fsil create(Method... extra) {
        return of(new FsilModule(extra));
    }

    /**
     * The methods of a plugin jar, loaded afresh: {@code Fsil.create(Fsil.methodsIn(Path.of("my-plugin.jar")))}.
     * Each call reads the jar again with a class loader of its own, so after rebuilding the jar, re-running the
     * cell (and the cells after it) uses the new code without restarting the kernel. Keep the jar out of
     * {@code plugins/} meanwhile: a copy there is discovered at start-up and its id would be taken twice.
     */
    public static Method[] methodsIn(Path jar) {
        return PluginJar.methods(jar, Fsil.class.getClassLoader()).toArray(Method[]::new);
    }

    /** Other data (e.g. in-memory features for tests) or another cache directory. */
    public static Fsil create(FeatureSource features, Path cacheDir, Method... extra) {
        return of(new FsilModule(extra).withFeatures(features).withCacheDir(cacheDir));
    }

    /** The toolkit as a Guice module assembles it: {@link FsilModule}, or a module that installs it. */
    public static Fsil of(Module module) {
        return Guice.createInjector(module).getInstance(Fsil.class);
    }

    /** The plugins: methods, datasets, protocols and benchmarks (the instances the runner uses). */
    public Plugins plugins() {
        return plugins;
    }

    /** The method registry (the same instance the runner uses: methods registered here can be run). */
    public Registry<Method> methods() {
        return plugins().methods();
    }

    /** Adds a method to this toolkit's registry. */
    public Fsil register(Method method) {
        methods().register(method);
        return this;
    }

    /** Ids of the methods that can take part in a protocol, sorted. */
    public List<String> methodsFor(String protocol) {
        Protocol p = plugins().protocols().get(protocol);
        return methods().all().stream().filter(m -> p.incompatibility(m) == null).map(Method::id).toList();
    }

    /** One row per method: id, capabilities, parameters with defaults, reference, description. */
    public Table methodsTable() {
        StringColumn id = StringColumn.create("method");
        StringColumn caps = StringColumn.create("capabilities");
        StringColumn params = StringColumn.create("parameters (defaults)");
        StringColumn ref = StringColumn.create("reference");
        StringColumn desc = StringColumn.create("description");
        for (Method m : methods().all()) {
            id.append(m.id());
            caps.append(m.capabilities().stream().sorted().map(Fsil::shortName).collect(Collectors.joining(", ")));
            params.append(m.parameters().stream().map(Fsil::withDefault).collect(Collectors.joining(", ")));
            ref.append(m.reference() == null ? "" : m.reference());
            desc.append(m.description());
        }
        return Table.create("methods", id, caps, params, ref, desc);
    }

    /** One row per protocol: name, description, options with defaults, methods that can take part. */
    public Table protocolsTable() {
        StringColumn name = StringColumn.create("protocol");
        StringColumn desc = StringColumn.create("description");
        StringColumn opts = StringColumn.create("options (defaults)");
        StringColumn who = StringColumn.create("methods");
        for (Protocol p : plugins().protocols().all()) {
            name.append(p.id());
            desc.append(p.description());
            opts.append(p.parameters().stream().map(Fsil::withDefault).collect(Collectors.joining(", ")));
            who.append(String.join(", ", methodsFor(p.id())));
        }
        return Table.create("protocols", name, desc, opts, who);
    }

    /** One row per built-in dataset: name, whether it is available here, sizes, split, how to get it. */
    public Table datasetsTable() {
        StringColumn name = StringColumn.create("dataset");
        StringColumn avail = StringColumn.create("available");
        StringColumn classes = StringColumn.create("classes");
        StringColumn dim = StringColumn.create("dimension");
        StringColumn samples = StringColumn.create("train / test");
        StringColumn desc = StringColumn.create("description");
        for (DatasetInfo d : Datasets.catalog(plugins().datasets(), cacheDir)) {
            name.append(d.name());
            avail.append(d.available() ? "yes" : "no: " + d.howToGet());
            classes.append(known(d.classes()));
            dim.append(known(d.dimension()));
            samples.append(known(d.trainSamples()) + " / " + known(d.testSamples()));
            desc.append(d.description());
        }
        return Table.create("datasets", name, avail, classes, dim, samples, desc);
    }

    private static String known(long v) {
        return v < 0 ? "after generation" : Long.toString(v);
    }

    private static String withDefault(Param<?> p) {
        return p.name() + "=" + p.format(p.defaultValue());
    }

    static String shortName(Capability c) {
        return switch (c) {
            case INDUCTIVE_FEWSHOT -> "few-shot (inductive)";
            case TRANSDUCTIVE_FEWSHOT -> "few-shot (transductive)";
            case CLASS_INCREMENTAL -> "class-incremental";
            case FEWSHOT_CLASS_INCREMENTAL -> "few-shot class-incremental";
        };
    }

    /** A new experiment under a protocol ({@code fewshot}, {@code cil}, {@code fscil}, {@code ncmf}, {@code gp-classes}). */
    public Experiment experiment(String protocol) {
        plugins().protocols().get(protocol);
        return new Experiment(this, protocol);
    }

    /**
     * Paired statistics and ranks of the methods of stored run directories (say, two runs of the same spec with
     * different methods), as {@code fsil compare DIR...}: every pair, or each method against {@code baseline}
     * (null), in {@code metric} (null: episode_acc for episodes, final_acc for incremental runs).
     */
    public Comparison compare(String baseline, String metric, Path... runDirs) {
        return Comparison.of(RunSet.load(List.of(runDirs)), plugins().metrics().all(), metric, baseline);
    }

    Runner runner() {
        return runners.get();
    }
}
