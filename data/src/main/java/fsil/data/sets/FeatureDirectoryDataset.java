package fsil.data.sets;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.data.Images;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import fsil.data.io.InputFiles;
import fsil.data.io.LabelEncoder;
import fsil.data.io.NpyArray;
import fsil.data.io.NpyDType;
import fsil.data.io.NpyReader;
import fsil.data.io.RawLabels;
import fsil.data.io.TextLines;
import fsil.data.split.SplitFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * User features in a directory (dataset name {@code dir:/path/to/dir}):
 * <ul>
 *   <li>{@code features.npy}: n x d float32 or float64 (any numeric dtype is converted to float32), n, d >= 1;</li>
 *   <li>{@code images.npy} (optional beside features.npy, or instead of it): the samples as images, n x h x w
 *       (grayscale) or n x c x h x w (c <= 4), uint8 (divided by 255) or float32/float64 (as given, finite), for
 *       backbones that need the spatial layout ({@link RawDataset#images()}). Alone, the flattened images are also
 *       the raw features; beside features.npy the features stay features.npy's. With a separate test set,
 *       {@code test_images.npy} goes with it;</li>
 *   <li>{@code labels.npy}: n labels: integers of any value (e.g. 100, 103, ...) or NumPy unicode strings. They
 *       are mapped to class ids 0..K-1 as {@code np.unique(labels, return_inverse=True)} maps them (sorted
 *       distinct values; the union with test_labels.npy when that exists), see {@link LabelEncoder};</li>
 *   <li>optional {@code test_features.npy} + {@code test_labels.npy}: a separate test set; otherwise
 *       optional {@code splits/test_indices.txt} (row indices into features.npy); otherwise a stratified 30% per
 *       class with seed 1993 is held out as test set (documented, deterministic);</li>
 *   <li>optional {@code classes.txt}: class names for integer labels, one per line (blank lines ignored). With
 *       exactly K lines, line k names the k-th smallest label (class id k); with more lines, line v names the
 *       label <em>value</em> v (so every label must be in 0..lines-1). Without it the names are the original
 *       labels as text. Not allowed with string labels, which name their classes themselves;</li>
 *   <li>optional {@code splits/base.txt}, {@code splits/validation.txt}, {@code splits/novel.txt}: classes given
 *       by their <em>original</em> labels (whitespace separated), translated to class ids; without them every
 *       class is novel and none is base (so only the identity backbone applies);</li>
 *   <li>optional {@code splits/fscil.txt}: {@code base <original labels>} and {@code session <row indices into
 *       the training set>} lines (see {@link SplitFiles}).</li>
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
        Path fi = dir.resolve("images.npy");
        boolean hasFeatures = Files.exists(fx);
        boolean hasImages = Files.exists(fi);
        if (!(hasFeatures || hasImages) || !Files.exists(fy)) {
            throw new FsilException("feature directory " + dir + " must hold features.npy (n x d float32/float64)"
                    + " or images.npy (n x h x w or n x c x h x w), and labels.npy (n labels); missing "
                    + (hasFeatures || hasImages ? fy.getFileName() : fx.getFileName()));
        }
        Path tx = dir.resolve("test_features.npy");
        Path ty = dir.resolve("test_labels.npy");
        Path ti = dir.resolve("test_images.npy");
        boolean separateTest = Files.exists(tx) || Files.exists(ty) || Files.exists(ti);
        if (separateTest) {
            // the test files mirror the training files: test_labels.npy, and test_<x>.npy for every <x>.npy
            for (Path[] pair : new Path[][]{{fy, ty}, {fx, tx}, {fi, ti}}) {
                if (Files.exists(pair[0]) != Files.exists(pair[1])) {
                    Path present = Files.exists(pair[0]) ? pair[0] : pair[1];
                    Path absent = Files.exists(pair[0]) ? pair[1] : pair[0];
                    throw new InvalidDataException("feature directory " + dir + ": " + present.getFileName()
                            + " needs " + absent.getFileName() + " beside it (a separate test set mirrors the"
                            + " training files)");
                }
            }
        }
        ImageArray images = hasImages ? ImageArray.read(fi) : null;
        FeatureMatrix x = hasFeatures ? features(fx) : images.pixels();
        RawLabels y = labels(fy, x.rows(), hasFeatures ? fx : fi);
        if (hasFeatures && hasImages && images.pixels().rows() != x.rows()) {
            throw new InvalidDataException(fi + ": " + images.pixels().rows() + " images but features.npy and"
                    + " labels.npy have " + x.rows() + " rows; every sample needs exactly one image");
        }
        FeatureMatrix xTest = null;
        RawLabels yTest = null;
        ImageArray imagesTest = null;
        if (separateTest) {
            imagesTest = hasImages ? ImageArray.read(ti) : null;
            xTest = hasFeatures ? features(tx) : imagesTest.pixels();
            yTest = labels(ty, xTest.rows(), hasFeatures ? tx : ti);
            if (xTest.cols() != x.cols() && hasFeatures) {
                throw new InvalidDataException(tx + ": test features have " + xTest.cols()
                        + " columns but features.npy has " + x.cols());
            }
            if (hasImages) {
                if (!imagesTest.shapeText().equals(images.shapeText())) {
                    throw new InvalidDataException(ti + ": test images are " + imagesTest.shapeText()
                            + " (c x h x w) but images.npy holds " + images.shapeText());
                }
                if (hasFeatures && imagesTest.pixels().rows() != xTest.rows()) {
                    throw new InvalidDataException(ti + ": " + imagesTest.pixels().rows() + " images but"
                            + " test_features.npy and test_labels.npy have " + xTest.rows() + " rows; every sample"
                            + " needs exactly one image");
                }
            }
        }
        LabelEncoder.Encoding enc = LabelEncoder.encode(separateTest ? List.of(y, yTest) : List.of(y));
        LabeledData all = new LabeledData(x, enc.ids(0));
        LabeledData train;
        LabeledData test;
        Images imageSet = null;
        if (separateTest) {
            train = all;
            test = new LabeledData(xTest, enc.ids(1));
            if (hasImages) {
                imageSet = images.with(images.pixels(), imagesTest.pixels());
            }
        } else {
            Path testIdx = dir.resolve("splits").resolve("test_indices.txt");
            int[] idx = Files.exists(testIdx) ? SplitFiles.ints(SplitFiles.fileLines(testIdx), testIdx.toString())
                    : Partitions.stratifiedTestIndices(all.labels(), 0.3, 1993);
            Partitions.TrainTest tt = Partitions.byTestIndices(all, idx, testIdx.toString());
            train = tt.train();
            test = tt.test();
            if (hasImages) {
                Partitions.TrainTest it = hasFeatures
                        ? Partitions.byTestIndices(new LabeledData(images.pixels(), all.labels()), idx,
                        testIdx.toString())
                        : tt; // images.npy alone: the features are the flattened images
                imageSet = images.with(it.train().features(), it.test().features());
            }
        }
        int numClasses = enc.size();
        ClassTable classes = new ClassTable(classNames(dir.resolve("classes.txt"), enc), List.of());
        Path splits = dir.resolve("splits");
        int[] base = classList(splits.resolve("base.txt"), enc);
        int[] validation = classList(splits.resolve("validation.txt"), enc);
        int[] novel = Files.exists(splits.resolve("novel.txt")) ? classList(splits.resolve("novel.txt"), enc)
                : complement(numClasses, base, validation);
        Path fscilFile = splits.resolve("fscil.txt");
        Optional<SplitSet.FscilSplit> fscil = Optional.empty();
        if (Files.exists(fscilFile)) {
            String source = fscilFile.toString();
            SplitSet.FscilSplit f = SplitFiles.parseFscil(SplitFiles.fileLines(fscilFile), source,
                    label -> classId(enc, label, source));
            for (int[] session : f.sessionSamples()) {
                for (int i : session) {
                    if (i >= train.size()) {
                        throw new InvalidDataException(source + ": session sample " + i + " is out of range; the"
                                + " training set has " + train.size() + " samples");
                    }
                }
            }
            fscil = Optional.of(f);
        }
        return new RawDataset(PREFIX + dir.toAbsolutePath().normalize(), classes, train, test,
                new SplitSet(base, validation, novel, fscil), imageSet);
    }

    /** Reads a features/labels pair of .npy files, checks that they match, and maps the labels to 0..K-1. */
    public static LabeledData read(Path features, Path labels) {
        FeatureMatrix x = features(features);
        LabelEncoder.Encoding enc = LabelEncoder.encode(labels(labels, x.rows(), features));
        return new LabeledData(x, enc.ids(0));
    }

    private static FeatureMatrix features(Path file) {
        return NpyReader.read(file).toFeatureMatrix();
    }

    private static RawLabels labels(Path file, int rows, Path features) {
        RawLabels y = NpyReader.read(file).toLabelValues();
        if (y.size() != rows) {
            throw new InvalidDataException(file + ": " + y.size() + " labels but " + features.getFileName()
                    + " has " + rows + " rows; every feature row needs exactly one label");
        }
        return y;
    }

    /** An {@code images.npy}: its shape (c x h x w) and pixels, one flattened row per image. */
    private record ImageArray(int channels, int height, int width, FeatureMatrix pixels) {

        /** Most channels accepted: 1 (grayscale), 3 (RGB) or 4 (RGBA); more usually means n x h x w x c. */
        static final int MAX_CHANNELS = 4;

        String shapeText() {
            return channels + "x" + height + "x" + width;
        }

        Images with(FeatureMatrix train, FeatureMatrix test) {
            return new Images(channels, height, width, train, test);
        }

        static ImageArray read(Path file) {
            NpyArray a = NpyReader.read(file);
            int[] s = a.shape();
            NpyDType t = a.dtype();
            if (t != NpyDType.UINT8 && t != NpyDType.FLOAT32 && t != NpyDType.FLOAT64) {
                throw new InvalidDataException(file + ": images must be uint8 (0..255, scaled to [0, 1]) or"
                        + " float32/float64 (taken as they are), got " + t.descr(java.nio.ByteOrder.LITTLE_ENDIAN)
                        + "; convert with x.astype(np.uint8) or x.astype(np.float32)");
            }
            if (s.length != 3 && s.length != 4) {
                throw new InvalidDataException(file + ": images must have shape n x h x w (grayscale) or"
                        + " n x c x h x w, got " + NpyReader.shapeString(s));
            }
            int c = s.length == 3 ? 1 : s[1];
            int h = s[s.length - 2];
            int w = s[s.length - 1];
            if (s[0] == 0 || c == 0 || h == 0 || w == 0) {
                throw new InvalidDataException(file + ": images of shape " + NpyReader.shapeString(s)
                        + " are empty");
            }
            if (c > MAX_CHANNELS) {
                boolean channelsLast = s[3] <= MAX_CHANNELS;
                throw new InvalidDataException(file + ": images of shape " + NpyReader.shapeString(s) + " would have "
                        + c + " channels (n x c x h x w; at most " + MAX_CHANNELS + ")"
                        + (channelsLast ? "; for n x h x w x c images save np.transpose(x, (0, 3, 1, 2))" : ""));
            }
            FeatureMatrix m = a.toFeatureMatrix(); // NaN/Inf rejected with row and column
            if (t == NpyDType.UINT8) {
                float[] v = m.rawData(); // a fresh array of this reader's own
                for (int i = 0; i < v.length; i++) {
                    v[i] /= 255f;
                }
            }
            return new ImageArray(c, h, w, m);
        }
    }

    /** The class names: from classes.txt (see the class comment) or the original labels. */
    static List<String> classNames(Path file, LabelEncoder.Encoding enc) {
        if (!Files.exists(file)) {
            return enc.names();
        }
        if (enc.isText()) {
            throw new InvalidDataException(file + ": the labels are strings, which already name the classes;"
                    + " remove classes.txt (it names integer labels only)");
        }
        List<String> lines = TextLines.readAll(file).stream().map(String::strip).filter(s -> !s.isEmpty())
                .toList();
        int k = enc.size();
        if (lines.size() == k) {
            return lines;
        }
        long[] values = enc.intValues();
        long min = values[0];
        long max = values[values.length - 1];
        if (lines.size() > k && min >= 0 && max < lines.size()) {
            List<String> out = new ArrayList<>(k);
            for (long v : values) {
                out.add(lines.get((int) v));
            }
            return out;
        }
        throw new InvalidDataException(file + ": " + lines.size() + " class names, but the labels have " + k
                + " distinct values from " + min + " to " + max + "; list either " + k + " names (line k names the"
                + " k-th smallest label) or one name for every label value 0.." + max);
    }

    private static int classId(LabelEncoder.Encoding enc, String label, String source) {
        int id = enc.idOf(label);
        if (id < 0) {
            throw new InvalidDataException(source + ": class '" + InputFiles.oneLine(label, 60) + "' does not"
                    + " occur in the labels (split files list classes by their original labels)");
        }
        return id;
    }

    private static int[] classList(Path file, LabelEncoder.Encoding enc) {
        if (!Files.exists(file)) {
            return new int[0];
        }
        String source = file.toString();
        int[] ids = SplitFiles.fileLines(file).stream().flatMap(l -> Arrays.stream(l.split("\\s+")))
                .mapToInt(label -> classId(enc, label, source)).toArray();
        boolean[] seen = new boolean[enc.size()];
        for (int c : ids) {
            if (seen[c]) {
                throw new InvalidDataException(source + ": class '" + enc.names().get(c) + "' is listed twice");
            }
            seen[c] = true;
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
        return IntStream.range(0, n).filter(c -> !used[c]).toArray();
    }
}
