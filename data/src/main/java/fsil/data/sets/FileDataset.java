package fsil.data.sets;

import fsil.api.FsilException;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import fsil.data.io.ArffReader;
import fsil.data.io.CsvReader;
import fsil.data.io.LabeledTable;
import fsil.data.io.NpzReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A single labelled file as a dataset (name {@code file:/path}): {@code .npz} (keys features/labels or x/y),
 * {@code .csv}/{@code .tsv} (label in the last column, or the one named by the {@code label} parameter), {@code .arff} (nominal class), each optionally
 * {@code .gz}. A stratified 30% per class (seed 1993) is held out as test set; every class is novel.
 */
public final class FileDataset {
    public static final String PREFIX = "file:";

    private FileDataset() {
    }

    public static LabeledTable read(Path file) {
        return read(file, "");
    }

    /**
     * Reads one labelled file.
     *
     * @param label for .csv/.tsv: the label column's header name, or its index (0 = first, -1 = last), or "" for
     *              the last column; other formats store their labels apart and take only ""
     */
    public static LabeledTable read(Path file, String label) {
        if (!Files.exists(file)) {
            throw new FsilException(file + ": file not found");
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String plain = name.endsWith(".gz") ? name.substring(0, name.length() - 3) : name;
        boolean text = plain.endsWith(".csv") || plain.endsWith(".tsv") || plain.endsWith(".tab")
                || plain.endsWith(".txt");
        if (!text && !label.isBlank()) {
            throw new FsilException(file + ": label=" + label + " names a column of a .csv/.tsv file; this file's"
                    + " labels are stored apart from its features");
        }
        if (plain.endsWith(".npz")) {
            return NpzReader.readLabeled(file);
        }
        if (text) {
            return CsvReader.read(file, label);
        }
        if (plain.endsWith(".arff")) {
            return ArffReader.read(file);
        }
        throw new FsilException(file + ": unknown file type; supported: .npz, .csv, .tsv, .arff (optionally .gz),"
                + " or a feature directory (dir:/path with features.npy and labels.npy)");
    }

    public static RawDataset load(Path file) {
        return load(file, "");
    }

    /** The file's data, 30% of each class held out as test set; {@code label} as in {@link #read(Path, String)}. */
    public static RawDataset load(Path file, String label) {
        LabeledTable t = read(file, label);
        int[] test = Partitions.stratifiedTestIndices(t.labels(), 0.3, 1993);
        Partitions.TrainTest tt = Partitions.byTestIndices(t.data(), test, file.toString());
        int k = t.classes().size();
        String name = PREFIX + file.toAbsolutePath().normalize() + (label.isBlank() ? "" : "|label=" + label.strip());
        return new RawDataset(name, t.classes(), tt.train(), tt.test(),
                new SplitSet(new int[0], new int[0], IntStream.range(0, k).toArray(), Optional.empty()), 0);
    }
}
