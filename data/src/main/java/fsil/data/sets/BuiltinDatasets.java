package fsil.data.sets;

import fsil.api.FsilException;
import fsil.data.Dataset;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.sets.glyphs.GlyphsDataset;

import java.nio.file.Path;
import java.util.List;

/** The built-in datasets as {@link Dataset} plugins (listed in {@code META-INF/services/fsil.data.Dataset}). */
public final class BuiltinDatasets {
    private BuiltinDatasets() {
    }

    static void noArguments(String name, String arguments) {
        if (!arguments.isBlank()) {
            throw new FsilException("dataset " + name + " takes no parameters, got '" + arguments + "'");
        }
    }

    /** {@code digits}: the embedded UCI optical digits. */
    public static final class Digits implements Dataset {
        public String name() {
            return DigitsDataset.NAME;
        }

        public DatasetInfo info(Path cacheDir) {
            return DigitsDataset.info();
        }

        public RawDataset load(String arguments, Path cacheDir) {
            noArguments(name(), arguments);
            return DigitsDataset.load();
        }
    }

    /** {@code fashion-mnist}: from the Debian package. */
    public static final class FashionMnist implements Dataset {
        public String name() {
            return FashionMnistDataset.NAME;
        }

        public DatasetInfo info(Path cacheDir) {
            return FashionMnistDataset.info();
        }

        public RawDataset load(String arguments, Path cacheDir) {
            noArguments(name(), arguments);
            return FashionMnistDataset.load();
        }
    }

    /** {@code glyphs[:...]}: rendered from the installed fonts, cached. */
    public static final class Glyphs implements Dataset {
        public String name() {
            return GlyphsDataset.NAME;
        }

        public DatasetInfo info(Path cacheDir) {
            return GlyphsDataset.info(cacheDir);
        }

        public RawDataset load(String arguments, Path cacheDir) {
            return GlyphsDataset.load(GlyphsDataset.parse(arguments), cacheDir);
        }
    }

    /** {@code synthetic[:...]}: seeded Gaussian class clusters. */
    public static final class Synthetic implements Dataset {
        public String name() {
            return SyntheticDataset.NAME;
        }

        public DatasetInfo info(Path cacheDir) {
            return SyntheticDataset.info();
        }

        public RawDataset load(String arguments, Path cacheDir) {
            return SyntheticDataset.generate(SyntheticDataset.parse(arguments));
        }
    }

    /** {@code dir:/path}: a directory of the user's features. */
    public static final class Directory implements Dataset {
        public String name() {
            return "dir";
        }

        public DatasetInfo info(Path cacheDir) {
            return new DatasetInfo("dir:/path", "your own features: a directory with features.npy (n x d), labels.npy"
                    + " (n), optional classes.txt and splits/*.txt (see DATA.md)", true, "your files", -1, -1, -1,
                    -1, -1, List.of("base/validation/novel from splits/*.txt if present"), "yours");
        }

        public RawDataset load(String arguments, Path cacheDir) {
            return FeatureDirectoryDataset.load(path(name(), arguments));
        }
    }

    /** {@code file:/path}: one labelled .npz, .csv, .tsv or .arff file. */
    public static final class File implements Dataset {
        public String name() {
            return "file";
        }

        public DatasetInfo info(Path cacheDir) {
            return new DatasetInfo("file:/path", "your own features in one file: .npz (features, labels), .csv/.tsv "
                    + "(label column) or .arff (see DATA.md)", true, "your files", -1, -1, -1, -1, -1, List.of(),
                    "yours");
        }

        public RawDataset load(String arguments, Path cacheDir) {
            return FileDataset.load(path(name(), arguments));
        }
    }

    private static Path path(String name, String arguments) {
        if (arguments.isBlank()) {
            throw new FsilException("dataset " + name + " needs a path: " + name + ":/path/to/data");
        }
        return Path.of(arguments);
    }
}
