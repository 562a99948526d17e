package fsil.eval;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import fsil.api.Method;
import fsil.api.plugin.MethodsModule;
import fsil.eval.run.CacheDir;
import fsil.eval.run.FeatureSource;

import java.nio.file.Path;

/**
 * Guice wiring of the toolkit: the method plugins (ServiceLoader + programmatic additions), the feature source
 * (built-in datasets unless a test or notebook supplies another) and the cache directory.
 *
 * <pre>{@code
 * Injector fsil = Guice.createInjector(new FsilModule(new MyMethod()));
 * Runner runner = fsil.getInstance(Runner.class);
 * }</pre>
 */
public final class FsilModule extends AbstractModule {
    private final Method[] extraMethods;
    private final FeatureSource features;
    private final Path cacheDir;

    public FsilModule(Method... extraMethods) {
        this(null, null, extraMethods);
    }

    /**
     * @param features null for the built-in datasets
     * @param cacheDir null for {@link #defaultCacheDir()}
     */
    public FsilModule(FeatureSource features, Path cacheDir, Method... extraMethods) {
        this.extraMethods = extraMethods;
        this.features = features;
        this.cacheDir = cacheDir;
    }

    @Override
    protected void configure() {
        install(new MethodsModule(extraMethods));
    }

    @Provides
    FeatureSource featureSource() {
        return features != null ? features : new BuiltinFeatures();
    }

    @Provides
    @CacheDir
    Path cacheDir() {
        return cacheDir != null ? cacheDir : defaultCacheDir();
    }

    /** $FSIL_CACHE, or ~/.cache/fsil. */
    public static Path defaultCacheDir() {
        return fsil.eval.data.Datasets.defaultCacheDir();
    }
}
