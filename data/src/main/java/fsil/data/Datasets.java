package fsil.data;

import fsil.api.FsilException;
import fsil.api.Params;
import fsil.api.PluginRef;
import fsil.api.Registry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The entry point of the data layer: loads a dataset by reference and applies a backbone, and lists the catalog.
 * A reference is {@code ID[key=value,...]} where ID is a {@link Dataset} plugin: the built-ins {@code digits},
 * {@code fashion-mnist}, {@code glyphs[...]}, {@code synthetic[...]}, {@code dir[path=...]} or {@code dir:/path} (a
 * feature directory) and {@code file[path=...,label=...]} or {@code file:/path} (one labelled .npz/.csv/.tsv/.arff
 * file), plus any plugin on the class path; see {@link #resolve}.
 */
public final class Datasets {
    /** Environment variable that overrides the default cache directory. */
    public static final String CACHE_ENV = "FSIL_CACHE";

    private Datasets() {
    }

    /** The datasets {@link java.util.ServiceLoader} finds (the built-ins and plugins on the class path). */
    public static Registry<Dataset> discover() {
        return Registry.discover("dataset", Dataset.class, Dataset::id);
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

    /** A dataset with resolved parameters. */
    public record Resolved(Dataset dataset, Params params) {
        public RawDataset load(Path cacheDir) {
            return dataset.load(params, cacheDir);
        }
    }

    /**
     * Resolves a reference: {@code id} or {@code id[key=value,...]}, or the older {@code id:key=value,...}; for a
     * dataset with a {@code path} parameter, {@code id:/some/path} is {@code id[path=/some/path]} (the only way to
     * write a path holding ',' or ']'). Unknown ids, unknown parameters and bad values are rejected with the valid
     * choices.
     */
    public static Resolved resolve(Registry<Dataset> datasets, String ref) {
        String t = ref == null ? "" : ref.strip();
        int colon = t.indexOf(':');
        int bracket = t.indexOf('[');
        if (colon > 0 && (bracket < 0 || colon < bracket)) {
            Dataset d = datasets.get(t.substring(0, colon).strip());
            return new Resolved(d, d.params(legacyArguments(d, t.substring(colon + 1))));
        }
        PluginRef r = PluginRef.parse("dataset", t);
        Dataset d = datasets.get(r.id());
        return new Resolved(d, d.params(r.params()));
    }

    /** The text after {@code id:}: a path for a dataset with a {@code path} parameter, else key=value pairs. */
    private static Map<String, String> legacyArguments(Dataset d, String rest) {
        Map<String, String> out = new LinkedHashMap<>();
        if (d.parameters().stream().anyMatch(p -> p.name().equals("path"))) {
            out.put("path", rest);
            return out;
        }
        for (String part : rest.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new FsilException("dataset " + d.id() + ": '" + part.strip() + "' must be key=value, e.g. "
                        + d.id() + "[key=value,...]");
            }
            out.put(part.substring(0, eq).strip().toLowerCase(Locale.ROOT), part.substring(eq + 1).strip());
        }
        return out;
    }

    /** The raw dataset (before any backbone). */
    public static RawDataset loadRaw(Registry<Dataset> datasets, String ref, Path cacheDir) {
        return resolve(datasets, ref).load(cacheDir);
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
