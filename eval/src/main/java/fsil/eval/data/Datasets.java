package fsil.eval.data;

import fsil.api.FsilException;
import fsil.eval.data.backbone.Backbones;
import fsil.eval.data.sets.DigitsDataset;
import fsil.eval.data.sets.FashionMnistDataset;
import fsil.eval.data.sets.FeatureDirectoryDataset;
import fsil.eval.data.sets.FileDataset;
import fsil.eval.data.sets.SyntheticDataset;
import fsil.eval.data.sets.glyphs.GlyphsDataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The entry point of the data layer: loads a dataset by name and applies a backbone, and lists the catalog.
 * <p>
 * Names: the built-in datasets {@code digits}, {@code fashion-mnist}, {@code glyphs[:...]} (see
 * {@link GlyphsDataset}) and {@code synthetic[:...]} (see {@link SyntheticDataset}); {@code dir:/path} for a user feature directory (see
 * {@link FeatureDirectoryDataset}); {@code file:/path} for one labelled .npz/.csv/.tsv/.arff file (see
 * {@link FileDataset}).
 */
public final class Datasets {
    /** Environment variable that overrides the default cache directory. */
    public static final String CACHE_ENV = "FSIL_CACHE";

    private Datasets() {
    }

    /** The built-in dataset names, in catalog order. */
    public static List<String> names() {
        return List.of(DigitsDataset.NAME, FashionMnistDataset.NAME, GlyphsDataset.NAME, SyntheticDataset.NAME);
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
     * Loads {@code name} and applies {@code backbone}.
     *
     * @param name     a built-in name (optionally with parameters), or {@code dir:/path}
     * @param backbone the frozen feature extractor
     * @param seed     the backbone's training seed (ignored by identity)
     * @param cacheDir where generated datasets and trained-backbone features are cached
     * @throws FsilException for an unknown name (the message lists the valid ones) or a missing package
     */
    public static FeatureSet load(String name, BackboneSpec backbone, long seed, Path cacheDir) {
        return Backbones.apply(loadRaw(name, cacheDir), backbone, seed, cacheDir);
    }

    /** Loads {@code name} with the identity backbone and the default cache directory. */
    public static FeatureSet load(String name) {
        return load(name, BackboneSpec.identity(), 0, defaultCacheDir());
    }

    /** The raw dataset (before any backbone). */
    public static RawDataset loadRaw(String name, Path cacheDir) {
        String n = name.strip();
        if (n.startsWith(FeatureDirectoryDataset.PREFIX)) {
            return FeatureDirectoryDataset.load(Path.of(n.substring(FeatureDirectoryDataset.PREFIX.length())));
        }
        if (n.startsWith(FileDataset.PREFIX)) {
            return FileDataset.load(Path.of(n.substring(FileDataset.PREFIX.length())));
        }
        String base = n.contains(":") ? n.substring(0, n.indexOf(':')) : n;
        String params = n.contains(":") ? n.substring(n.indexOf(':') + 1) : "";
        switch (base) {
            case DigitsDataset.NAME -> {
                noParams(base, params);
                return DigitsDataset.load();
            }
            case FashionMnistDataset.NAME -> {
                noParams(base, params);
                return FashionMnistDataset.load();
            }
            case SyntheticDataset.NAME -> {
                return SyntheticDataset.generate(SyntheticDataset.parse(params));
            }
            case GlyphsDataset.NAME -> {
                return GlyphsDataset.load(GlyphsDataset.parse(params), cacheDir);
            }
            default -> throw unknown(n);
        }
    }

    private static void noParams(String base, String params) {
        if (!params.isBlank()) {
            throw new FsilException("dataset " + base + " takes no parameters, got '" + params + "'");
        }
    }

    private static FsilException unknown(String name) {
        return new FsilException("unknown dataset '" + name + "'; valid datasets: " + String.join(", ", names())
                + ", dir:/path/to/features (a directory with features.npy and labels.npy) or file:/path/data.npz"
                + " (also .csv, .tsv, .arff)");
    }

    /** One catalog row per built-in dataset; never throws for missing packages (it reports them). */
    public static List<DatasetInfo> catalog() {
        return catalog(defaultCacheDir());
    }

    /** The catalog, with cache locations under {@code cacheDir}. */
    public static List<DatasetInfo> catalog(Path cacheDir) {
        List<DatasetInfo> out = new ArrayList<>();
        out.add(DigitsDataset.info());
        out.add(FashionMnistDataset.info());
        out.add(GlyphsDataset.info(cacheDir));
        out.add(SyntheticDataset.info());
        return out;
    }
}
