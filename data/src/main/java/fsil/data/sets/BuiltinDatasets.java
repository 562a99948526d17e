package fsil.data.sets;

import fsil.api.FsilException;
import fsil.api.Param;
import fsil.api.Params;
import fsil.data.Dataset;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.sets.glyphs.GlyphsDataset;

import java.nio.file.Path;
import java.util.List;

/**
 * The built-in datasets as {@link Dataset} plugins (listed in {@code META-INF/services/fsil.data.Dataset}), each
 * with its typed parameters.
 */
public final class BuiltinDatasets {
    private BuiltinDatasets() {
    }

    /** {@code digits}: the embedded UCI optical digits. */
    public static final class Digits implements Dataset {
        public String id() {
            return DigitsDataset.NAME;
        }

        public String description() {
            return DigitsDataset.info().description();
        }

        public DatasetInfo info(Path cacheDir) {
            return DigitsDataset.info();
        }

        public RawDataset load(Params params, Path cacheDir) {
            return DigitsDataset.load();
        }
    }

    /** {@code fashion-mnist}: from the Debian package. */
    public static final class FashionMnist implements Dataset {
        public String id() {
            return FashionMnistDataset.NAME;
        }

        public String description() {
            return FashionMnistDataset.info().description();
        }

        public DatasetInfo info(Path cacheDir) {
            return FashionMnistDataset.info();
        }

        public RawDataset load(Params params, Path cacheDir) {
            return FashionMnistDataset.load();
        }
    }

    /** {@code glyphs[...]}: rendered from the pinned fonts, cached. */
    public static final class Glyphs implements Dataset {
        static final Param<String> SCRIPTS = Param.text("scripts", "all",
                "all, or Unicode script names joined by '+', e.g. LATIN+GREEK");
        static final Param<Integer> MAX_PER_SCRIPT = Param.integer("max_per_script", 20, 1, 1_000_000,
                "at most this many characters (classes) per script");
        static final Param<Integer> INSTANCES = Param.integer("instances", 20, 2, 10_000,
                "rendered images per class");
        static final Param<Integer> TRAIN_PER_CLASS = Param.integer("train_per_class", 15, 1, 9_999,
                "training images per class (the rest are test images); below instances");
        static final Param<Integer> SEED = Param.integer("seed", 0, 0, Integer.MAX_VALUE, "rendering seed");

        public String id() {
            return GlyphsDataset.NAME;
        }

        public String description() {
            return "an Omniglot-style many-class set rendered from pinned font files (background, validation and"
                    + " evaluation scripts)";
        }

        public List<Param<?>> parameters() {
            return List.of(SCRIPTS, MAX_PER_SCRIPT, INSTANCES, TRAIN_PER_CLASS, SEED);
        }

        public DatasetInfo info(Path cacheDir) {
            return GlyphsDataset.info(cacheDir);
        }

        public RawDataset load(Params p, Path cacheDir) {
            return GlyphsDataset.load(of(p), cacheDir);
        }

        /** The generation parameters. */
        public static GlyphsDataset.Params of(Params p) {
            return GlyphsDataset.params(p.get(SCRIPTS), p.get(MAX_PER_SCRIPT), p.get(INSTANCES), p.get(TRAIN_PER_CLASS),
                    p.get(SEED));
        }
    }

    /** {@code synthetic[...]}: seeded Gaussian class clusters. */
    public static final class Synthetic implements Dataset {
        static final Param<Integer> CLASSES = Param.integer("classes", 10, 2, Integer.MAX_VALUE, "number of classes");
        static final Param<Integer> DIM = Param.integer("dim", 64, 1, Integer.MAX_VALUE, "feature dimension");
        static final Param<Integer> PER_CLASS = Param.integer("per_class", 50, 1, Integer.MAX_VALUE,
                "training samples per class");
        static final Param<Integer> TEST_PER_CLASS = Param.integer("test_per_class", 20, 0, Integer.MAX_VALUE,
                "test samples per class");
        static final Param<Integer> RANK = Param.integer("rank", 0, 0, Integer.MAX_VALUE,
                "dimension of the class subspace, at most dim; 0 = min(16, dim)");
        static final Param<Double> SEP = Param.real("sep", 2.0, 0, Double.MAX_VALUE,
                "spread of the class centres in within-class standard deviations");
        static final Param<Double> NOISE = Param.real("noise", 0.5, 0, Double.MAX_VALUE,
                "isotropic noise standard deviation");
        static final Param<Integer> SEED = Param.integer("seed", 1, 0, Integer.MAX_VALUE, "generator seed");

        public String id() {
            return SyntheticDataset.NAME;
        }

        public String description() {
            return SyntheticDataset.info().description();
        }

        public List<Param<?>> parameters() {
            return List.of(CLASSES, DIM, PER_CLASS, TEST_PER_CLASS, RANK, SEP, NOISE, SEED);
        }

        public DatasetInfo info(Path cacheDir) {
            return SyntheticDataset.info();
        }

        public RawDataset load(Params p, Path cacheDir) {
            return SyntheticDataset.generate(of(p));
        }

        /** The generator's parameters. */
        public static SyntheticDataset.Params of(Params p) {
            int dim = p.get(DIM);
            int rank = p.get(RANK) == 0 ? Math.min(16, dim) : p.get(RANK);
            return new SyntheticDataset.Params(p.get(CLASSES), dim, p.get(PER_CLASS), p.get(TEST_PER_CLASS), rank,
                    p.get(SEP), p.get(NOISE), p.get(SEED));
        }
    }

    static final Param<String> PATH = Param.text("path", "", "the data's location (required)");

    /** {@code dir[path=...]} or {@code dir:/path}: a directory of the user's features. */
    public static final class Directory implements Dataset {
        public String id() {
            return "dir";
        }

        public String description() {
            return "your own features: a directory with features.npy (n x d), labels.npy (n), optional classes.txt"
                    + " and splits/*.txt (see DATA.md)";
        }

        public List<Param<?>> parameters() {
            return List.of(PATH);
        }

        public DatasetInfo info(Path cacheDir) {
            return new DatasetInfo("dir:/path", description(), true, "your files", -1, -1, -1,
                    -1, -1, List.of("base/validation/novel from splits/*.txt if present"), "yours");
        }

        public RawDataset load(Params params, Path cacheDir) {
            return FeatureDirectoryDataset.load(path(id(), params));
        }
    }

    /** {@code file[path=...,label=...]} or {@code file:/path}: one labelled .npz, .csv, .tsv or .arff file. */
    public static final class File implements Dataset {
        static final Param<String> LABEL = Param.text("label", "",
                "for .csv/.tsv: the label column's header name or index (0 = first, -1 = last); default the last");

        public String id() {
            return "file";
        }

        public String description() {
            return "your own features in one file: .npz (features, labels), .csv/.tsv (a label column, the last"
                    + " unless label= names another) or .arff (see DATA.md)";
        }

        public List<Param<?>> parameters() {
            return List.of(PATH, LABEL);
        }

        public DatasetInfo info(Path cacheDir) {
            return new DatasetInfo("file:/path", description(), true, "your files", -1, -1, -1, -1, -1, List.of(),
                    "yours");
        }

        public RawDataset load(Params params, Path cacheDir) {
            return FileDataset.load(path(id(), params), params.get(LABEL));
        }
    }

    private static Path path(String id, Params params) {
        String p = params.get(PATH);
        if (p.isBlank()) {
            throw new FsilException("dataset " + id + " needs a path: " + id + ":/path/to/data or " + id
                    + "[path=/path/to/data]");
        }
        return Path.of(p);
    }
}
