package fsil.data.sets;

import fsil.api.ClassTable;
import fsil.api.FsilException;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.io.IdxReader;
import fsil.data.io.LabeledTable;
import fsil.data.split.SplitFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Fashion-MNIST (Xiao, Rasul, Vollgraf 2017; Zalando SE, MIT licence): 28x28 grayscale product images in 10
 * classes, the standard 60,000 training / 10,000 test split, pixels scaled to [0, 1]. Read from the IDX files of
 * the Debian package {@code dataset-fashion-mnist} ({@code /usr/share/datasets/fashion-mnist/}); the environment
 * variable {@code FSIL_FASHION_MNIST_DIR} points elsewhere.
 */
public final class FashionMnistDataset {
    public static final String NAME = "fashion-mnist";
    public static final String PACKAGE = "dataset-fashion-mnist";
    public static final Path DEFAULT_DIR = Path.of("/usr/share/datasets/fashion-mnist");
    public static final List<String> CLASS_NAMES = List.of("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
            "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot");
    private static final String[] FILES = {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
        "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"};

    private FashionMnistDataset() {
    }

    /** The directory holding the IDX files. */
    public static Path directory() {
        String env = System.getenv("FSIL_FASHION_MNIST_DIR");
        return env != null && !env.isBlank() ? Path.of(env) : DEFAULT_DIR;
    }

    /** Null when all four files exist, else what is missing and how to install it. */
    public static String missing() {
        Path dir = directory();
        for (String f : FILES) {
            if (!Files.isRegularFile(dir.resolve(f))) {
                return "missing " + dir.resolve(f) + ": install the Debian package " + PACKAGE
                        + " (sudo apt-get install " + PACKAGE + ") or set FSIL_FASHION_MNIST_DIR to a directory"
                        + " with the four *-ubyte.gz files";
            }
        }
        return null;
    }

    private static void requireFiles() {
        String m = missing();
        if (m != null) {
            throw new FsilException("dataset fashion-mnist is not available: " + m);
        }
    }

    public static RawDataset load() {
        requireFiles();
        Path dir = directory();
        float scale = 1f / 255f;
        LabeledTable train = IdxReader.readPair(dir.resolve(FILES[0]), dir.resolve(FILES[1]), scale);
        LabeledTable test = IdxReader.readPair(dir.resolve(FILES[2]), dir.resolve(FILES[3]), scale);
        return new RawDataset(NAME, new ClassTable(CLASS_NAMES, List.of()), train.data(), test.data(),
                SplitFiles.committedSplits(NAME), 28);
    }

    /** Training labels only (for the split generator). */
    public static int[] readTrainLabels() {
        requireFiles();
        return IdxReader.read(directory().resolve(FILES[1])).toLabels();
    }

    public static DatasetInfo info() {
        String m = missing();
        return new DatasetInfo(NAME, "Fashion-MNIST: 28x28 grayscale product images (pixels/255), 10 classes,"
                + " standard 60k/10k split", m == null, m == null ? "files of the Debian package " + PACKAGE
                + " in " + directory() : m, 70_000, 10, 784, 60_000, 10_000,
                List.of("train/test 60,000/10,000 (standard)", "base/validation/novel 5/0/5",
                        "class order (order_seed 1993, numpy-compatible)",
                        "fscil: 5 base classes + 5 sessions 1-way 5-shot"),
                "MIT (Expat); Zalando SE; H. Xiao, K. Rasul, R. Vollgraf, arXiv:1708.07747");
    }
}
