package fsil.data;

import fsil.api.FsilException;
import fsil.api.Registry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The entry point of the data layer: loads a dataset by reference and applies a backbone, and lists the catalog.
 * A reference is {@code NAME[:ARGUMENTS]} where NAME is a {@link Dataset} plugin: the built-ins {@code digits},
 * {@code fashion-mnist}, {@code glyphs[:...]}, {@code synthetic[:...]}, {@code dir:/path} (a feature directory)
 * and {@code file:/path} (one labelled .npz/.csv/.tsv/.arff file), plus any plugin on the class path.
 */
public final class Datasets {
    /** Environment variable that overrides the default cache directory. */
    public static final String CACHE_ENV = "FSIL_CACHE";

    private Datasets() {
    }

    /** The datasets {@link java.util.ServiceLoader} finds (the built-ins and plugins on the class path). */
    public static Registry<Dataset> discover() {
        return Registry.discover("dataset", Dataset.class, Dataset::name);
    }

    /** {@code $FSIL_CACHE}, or {@code ~/.cache/fsil}. */
    public static Path defaultCacheDir() {
        String env = System.getenv(CACHE_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "fsil");
    }

    /**
     * Loads a dataset and applies a backbone.
     *
     * @param datasets the known datasets
     * @param ref      {@code NAME[:ARGUMENTS]}
     * @param backbone the frozen feature extractor
     * @param seed     the backbone's training seed (ignored by identity)
     * @param cacheDir where generated datasets and trained-backbone features are cached
     * @throws FsilException for an unknown name (the message lists the valid ones) or missing data
     */
    public static FeatureSet load(Registry<Dataset> datasets, String ref, Backbones.Configured backbone, long seed,
                                  Path cacheDir) {
        return backbone.apply(loadRaw(datasets, ref, cacheDir), seed, cacheDir);
    }

    /** {@link #load(Registry, String, Backbones.Configured, long, Path)} with the discovered plugins. */
    public static FeatureSet load(String ref, String backbone, long seed, Path cacheDir) {
        return load(discover(), ref, Backbones.resolve(backbone), seed, cacheDir);
    }

    /** Loads {@code ref} with the identity backbone and the default cache directory. */
    public static FeatureSet load(String ref) {
        return load(ref, IdentityBackbone.ID, 0, defaultCacheDir());
    }

    /** The raw dataset (before any backbone). */
    public static RawDataset loadRaw(Registry<Dataset> datasets, String ref, Path cacheDir) {
        String n = ref.strip();
        int colon = n.indexOf(':');
        String name = colon < 0 ? n : n.substring(0, colon);
        return datasets.get(name).load(colon < 0 ? "" : n.substring(colon + 1), cacheDir);
    }

    /** {@link #loadRaw(Registry, String, Path)} with the discovered datasets. */
    public static RawDataset loadRaw(String ref, Path cacheDir) {
        return loadRaw(discover(), ref, cacheDir);
    }

    /** One catalog row per dataset; never throws for missing packages (it reports them). */
    public static List<DatasetInfo> catalog(Registry<Dataset> datasets, Path cacheDir) {
        List<DatasetInfo> out = new ArrayList<>();
        for (Dataset d : datasets.all()) {
            out.add(d.info(cacheDir));
        }
        return out;
    }

    /** The catalog of the discovered datasets, with cache locations under the default cache directory. */
    public static List<DatasetInfo> catalog() {
        return catalog(discover(), defaultCacheDir());
    }
}
