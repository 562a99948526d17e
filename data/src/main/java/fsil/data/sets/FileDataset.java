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
 * {@code .csv}/{@code .tsv} (label in the last column), {@code .arff} (nominal class), each optionally
 * {@code .gz}. A stratified 30% per class (seed 1993) is held out as test set; every class is novel.
 */
public final class FileDataset {
    public static final String PREFIX = "file:";

    private FileDataset() {
    }

    public static LabeledTable read(Path file) {
        if (!Files.exists(file)) {
            throw new FsilException(file + ": file not found");
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String plain = name.endsWith(".gz") ? name.substring(0, name.length() - 3) : name;
        if (plain.endsWith(".npz")) {
            return NpzReader.readLabeled(file);
        }
        if (plain.endsWith(".csv") || plain.endsWith(".tsv") || plain.endsWith(".tab") || plain.endsWith(".txt")) {
            return CsvReader.read(file);
        }
        if (plain.endsWith(".arff")) {
            return ArffReader.read(file);
        }
        throw new FsilException(file + ": unknown file type; supported: .npz, .csv, .tsv, .arff (optionally .gz),"
                + " or a feature directory (dir:/path with features.npy and labels.npy)");
    }

    public static RawDataset load(Path file) {
        LabeledTable t = read(file);
        int[] test = Partitions.stratifiedTestIndices(t.labels(), 0.3, 1993);
        Partitions.TrainTest tt = Partitions.byTestIndices(t.data(), test, file.toString());
        int k = t.classes().size();
        return new RawDataset(PREFIX + file.toAbsolutePath().normalize(), t.classes(), tt.train(), tt.test(),
                new SplitSet(new int[0], new int[0], IntStream.range(0, k).toArray(), Optional.empty()), 0);
    }
}
