package fsil.app;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import fsil.api.Method;
import fsil.api.ProgressSink;
import fsil.api.Registry;
import fsil.core.bench.Benchmark;
import fsil.data.Backbone;
import fsil.data.Dataset;
import fsil.data.Datasets;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.Protocol;
import fsil.eval.run.EngineProvider;
import fsil.eval.run.FeatureSource;
import fsil.eval.run.Runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Guice assembly of the toolkit. Seven plugin points, each a {@link Multibinder} filled with the classes that
 * {@code META-INF/services} files name on the class path (made by the injector, so a plugin may take what the
 * application provides in an {@code @Inject} constructor: a {@link ProgressSink}) plus what is registered here or
 * by another module:
 * {@link Method}s, {@link Dataset}s, {@link Backbone}s, {@link Protocol}s, {@link Metric}s, engines ({@link EngineProvider}s) and {@link Benchmark}s. Each becomes a
 * {@link Registry} (one validation path: ids, duplicates, unknown ids with suggestions); {@link Plugins} holds
 * them.
 *
 * <pre>{@code
 * Injector fsil = Guice.createInjector(new FsilModule().withMethods(new MyMethod()));
 * Runner runner = fsil.getInstance(Runner.class);
 * }</pre>
 *
 * Another Guice module can contribute plugins too:
 * {@code Multibinder.newSetBinder(binder(), Method.class).addBinding().to(MyMethod.class)}.
 */
public final class FsilModule extends AbstractModule {
    private static final List<Class<?>> KINDS = List.of(Method.class, Dataset.class, Backbone.class, Protocol.class,
            Metric.class, EngineProvider.class, Benchmark.class);
    private final java.util.Map<Class<?>, List<? extends Class<?>>> discovered = new java.util.HashMap<>();
    private final List<Method> methods = new ArrayList<>();
    private final List<Dataset> datasets = new ArrayList<>();
    private final List<Backbone> backbones = new ArrayList<>();
    private final List<Protocol> protocols = new ArrayList<>();
    private final List<Metric> metrics = new ArrayList<>();
    private final List<EngineProvider> engines = new ArrayList<>();
    private FeatureSource features;
    private Path cacheDir;
    private ProgressSink progress = ProgressSink.LOGGING;

    /** The discovered plugins, the datasets' features and the default cache directory. */
    public FsilModule() {
        this(new Method[0]);
    }

    /** The discovered methods plus these. */
    public FsilModule(Method... extraMethods) {
        // read now, so that a wrong service file is a plain FsilException here, not an error inside the injector's
        for (Class<?> kind : KINDS) {
            discovered.put(kind, ServiceClasses.of(kind));
        }
        withMethods(extraMethods);
    }

    public FsilModule withMethods(Method... more) {
        methods.addAll(List.of(more));
        return this;
    }

    public FsilModule withDatasets(Dataset... more) {
        datasets.addAll(List.of(more));
        return this;
    }

    public FsilModule withBackbones(Backbone... more) {
        backbones.addAll(List.of(more));
        return this;
    }

    public FsilModule withProtocols(Protocol... more) {
        protocols.addAll(List.of(more));
        return this;
    }

    public FsilModule withMetrics(Metric... more) {
        metrics.addAll(List.of(more));
        return this;
    }

    public FsilModule withEngines(EngineProvider... more) {
        engines.addAll(List.of(more));
        return this;
    }

    /** Where runs get their features (default: the dataset plugins through their backbones, kept in memory). */
    public FsilModule withFeatures(FeatureSource source) {
        this.features = source;
        return this;
    }

    /**
     * Where plugins report the progress of long preparation work (default {@link ProgressSink#LOGGING}, which a
     * running run shows in its progress display).
     */
    public FsilModule withProgress(ProgressSink sink) {
        this.progress = sink;
        return this;
    }

    /** The cache directory (default: {@link #defaultCacheDir()}); null keeps the default. */
    public FsilModule withCacheDir(Path dir) {
        this.cacheDir = dir;
        return this;
    }

    @Override
    protected void configure() {
        plugins(Method.class, methods);
        plugins(Dataset.class, datasets);
        plugins(Backbone.class, backbones);
        plugins(Protocol.class, protocols);
        plugins(Metric.class, metrics);
        plugins(EngineProvider.class, engines);
        plugins(Benchmark.class, List.of());
        bind(ProgressSink.class).toInstance(progress);
    }

    private <T> void plugins(Class<T> type, List<T> extra) {
        Multibinder<T> binder = Multibinder.newSetBinder(binder(), type).permitDuplicates();
        for (Class<?> c : discovered.get(type)) {
            binder.addBinding().to(c.asSubclass(type)); // made by the injector: its @Inject constructor, or no-argument
        }
        for (T t : extra) {
            binder.addBinding().toInstance(t);
        }
    }

    @Provides
    @Singleton
    Plugins plugins(Set<Method> m, Set<Dataset> d, Set<Backbone> k, Set<Protocol> p, Set<Metric> s,
                    Set<EngineProvider> e, Set<Benchmark> b) {
        return new Plugins(new Registry<>("method", Method::id).registerAll(m),
                new Registry<>("dataset", Dataset::id).registerAll(d),
                new Registry<>("backbone", Backbone::id).registerAll(k),
                new Registry<>("protocol", Protocol::id).registerAll(p),
                new Registry<>("metric", Metric::id).registerAll(s),
                new Registry<>("engine", EngineProvider::id).registerAll(e),
                new Registry<>("benchmark", Benchmark::id).registerAll(b));
    }

    @Provides
    @Singleton
    @CacheDir
    Path cacheDir() {
        return cacheDir != null ? cacheDir : defaultCacheDir();
    }

    @Provides
    @Singleton
    FeatureSource featureSource(Plugins plugins) {
        return features != null ? features : new DatasetFeatures(plugins.datasets(), plugins.backbones());
    }

    @Provides
    Runner runner(Plugins plugins, FeatureSource source, @CacheDir Path cache) {
        return new Runner(plugins.methods(), plugins.protocols(), plugins.metrics(), source, cache);
    }

    /** $FSIL_CACHE, or ~/.cache/fsil. */
    public static Path defaultCacheDir() {
        return Datasets.defaultCacheDir();
    }
}
