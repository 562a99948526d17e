package fsil.data.sets;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import fsil.data.io.LabeledTable;
import fsil.data.io.NpyReader;
import fsil.data.split.SplitFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * User features in a directory (dataset name {@code dir:/path/to/dir}):
 * <ul>
 *   <li>{@code features.npy}: n x d float32 or float64 (any numeric dtype is converted to float32);</li>
 *   <li>{@code labels.npy}: n integer class ids (0..K-1);</li>
 *   <li>optional {@code test_features.npy} + {@code test_labels.npy}: a separate test set; otherwise
 *       optional {@code splits/test_indices.txt} (indices into features.npy); otherwise a stratified 30% per
 *       class with seed 1993 is held out as test set (documented, deterministic);</li>
 *   <li>optional {@code classes.txt}: one class name per line, line k names class k;</li>
 *   <li>optional {@code splits/base.txt}, {@code splits/validation.txt}, {@code splits/novel.txt}: class ids;
 *       without them every class is novel and none is base (so only the identity backbone applies);</li>
 *   <li>optional {@code splits/fscil.txt} (see {@link SplitFiles}).</li>
 * </ul>
 */
public final class FeatureDirectoryDataset {
    public static final String PREFIX = "dir:";

    private FeatureDirectoryDataset() {
    }

    public static RawDataset load(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new FsilException("feature directory " + dir + " does not exist; it must hold features.npy and"
                    + " labels.npy");
        }
        Path fx = dir.resolve("features.npy");
        Path fy = dir.resolve("labels.npy");
        if (!Files.exists(fx) || !Files.exists(fy)) {
            throw new FsilException("feature directory " + dir + " must hold features.npy (n x d float32/float64)"
                    + " and labels.npy (n ints); missing " + (Files.exists(fx) ? fy : fx).getFileName());
        }
        LabeledData all = read(fx, fy);
        LabeledData train;
        LabeledData test;
        Path tx = dir.resolve("test_features.npy");
        Path ty = dir.resolve("test_labels.npy");
        Path testIdx = dir.resolve("splits").resolve("test_indices.txt");
        if (Files.exists(tx) || Files.exists(ty)) {
            train = all;
            test = read(tx, ty);
            if (test.dimension() != train.dimension()) {
                throw new InvalidDataException(tx + ": test features have " + test.dimension()
                        + " columns but features.npy has " + train.dimension());
            }
        } else {
            int[] idx = Files.exists(testIdx) ? SplitFiles.ints(SplitFiles.fileLines(testIdx), testIdx.toString())
                    : Partitions.stratifiedTestIndices(all.labels(), 0.3, 1993);
            Partitions.TrainTest tt = Partitions.byTestIndices(all, idx, testIdx.toString());
            train = tt.train();
            test = tt.test();
        }
        int numClasses = Math.max(max(train.labels()), max(test.labels())) + 1;
        ClassTable classes = ClassTable.numbered(numClasses);
        Path names = dir.resolve("classes.txt");
        if (Files.exists(names)) {
            List<String> lines;
            try {
                lines = Files.readAllLines(names).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(names + ": " + e.getMessage(), e);
            }
            if (lines.size() < numClasses) {
                throw new InvalidDataException(names + ": " + lines.size() + " class names but the labels use "
                        + numClasses + " classes (0.." + (numClasses - 1) + ")");
            }
            classes = new ClassTable(lines, List.of());
            numClasses = lines.size();
        }
        Path splits = dir.resolve("splits");
        int[] base = classList(splits.resolve("base.txt"), numClasses);
        int[] validation = classList(splits.resolve("validation.txt"), numClasses);
        int[] novel = Files.exists(splits.resolve("novel.txt")) ? classList(splits.resolve("novel.txt"), numClasses)
                : complement(numClasses, base, validation);
        Path fscilFile = splits.resolve("fscil.txt");
        Optional<SplitSet.FscilSplit> fscil = Files.exists(fscilFile)
                ? Optional.of(SplitFiles.parseFscil(SplitFiles.fileLines(fscilFile), fscilFile.toString()))
                : Optional.empty();
        return new RawDataset(PREFIX + dir.toAbsolutePath().normalize(), classes, train, test,
                new SplitSet(base, validation, novel, fscil), 0);
    }

    /** Reads a features/labels pair of .npy files and checks that they match. */
    public static LabeledData read(Path features, Path labels) {
        FeatureMatrix x = NpyReader.read(features).toFeatureMatrix();
        int[] y = NpyReader.read(labels).toLabels();
        if (x.rows() != y.length) {
            throw new InvalidDataException(labels + ": " + y.length + " labels but " + features.getFileName()
                    + " has " + x.rows() + " rows; every feature row needs exactly one label");
        }
        return new LabeledTable(features.toString(), x, y, List.of()).data();
    }

    private static int[] classList(Path file, int numClasses) {
        if (!Files.exists(file)) {
            return new int[0];
        }
        int[] ids = SplitFiles.ints(SplitFiles.fileLines(file), file.toString());
        for (int c : ids) {
            if (c >= numClasses) {
                throw new InvalidDataException(file + ": class " + c + " does not exist (the data has " + numClasses
                        + " classes)");
            }
        }
        return ids;
    }

    private static int[] complement(int n, int[] a, int[] b) {
        boolean[] used = new boolean[n];
        for (int c : a) {
            used[c] = true;
        }
        for (int c : b) {
            used[c] = true;
        }
        return java.util.stream.IntStream.range(0, n).filter(c -> !used[c]).toArray();
    }

    private static int max(int[] a) {
        return Arrays.stream(a).max().orElse(-1);
    }
}
