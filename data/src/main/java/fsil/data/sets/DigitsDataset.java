package fsil.data.sets;

import fsil.api.ClassTable;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.io.CsvReader;
import fsil.data.io.InputFiles;
import fsil.data.io.LabeledTable;
import fsil.data.split.SplitFiles;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The embedded default dataset: the UCI optical recognition of handwritten digits (the 1,797-sample copy that
 * scikit-learn ships, taken from Debian's python3-sklearn), 8x8 images with values 0..16, 10 classes, CC BY 4.0.
 * Pixels are scaled to [0, 1] (divided by 16). The train/test partition is the committed stratified 70/30 split
 * {@code fsil/splits/digits/test_indices.txt}.
 */
public final class DigitsDataset {
    public static final String NAME = "digits";
    static final String RESOURCE = "fsil/data/digits/digits.csv.gz";
    public static final int SAMPLES = 1797;

    private DigitsDataset() {
    }

    /** The full 1,797 x 64 data in file order, pixels in [0, 1]. */
    public static LabeledTable readAll() {
        InputStream raw = DigitsDataset.class.getClassLoader().getResourceAsStream(RESOURCE);
        if (raw == null) {
            throw new FsilException("the embedded digits resource " + RESOURCE + " is missing from the classpath");
        }
        try (InputStream in = InputFiles.maybeGunzip(new BufferedInputStream(raw))) {
            LabeledTable t = CsvReader.read("classpath:" + RESOURCE, in, ',', -1);
            float[] x = t.features().rawData();
            for (int i = 0; i < x.length; i++) {
                x[i] /= 16f;
            }
            return t;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RawDataset load() {
        LabeledTable all = readAll();
        int[] test = SplitFiles.resourceInts(NAME, "test_indices.txt");
        Partitions.TrainTest tt = Partitions.byTestIndices(new LabeledData(all.features(), all.labels()), test,
                "fsil/splits/digits/test_indices.txt");
        return new RawDataset(NAME, ClassTable.numbered(10), tt.train(), tt.test(), SplitFiles.committedSplits(NAME),
                8);
    }

    public static DatasetInfo info() {
        int test = SplitFiles.resourceInts(NAME, "test_indices.txt").length;
        return new DatasetInfo(NAME, "UCI optical recognition of handwritten digits: 8x8 images (values/16), 10"
                + " classes; embedded default", true, "embedded in the jar", SAMPLES, 10, 64, SAMPLES - test, test,
                List.of("train/test stratified 70/30 (committed test_indices.txt)", "base/validation/novel 5/0/5",
                        "class order (order_seed 1993, numpy-compatible)",
                        "fscil: 5 base classes + 5 sessions 1-way 5-shot"),
                "CC BY 4.0; E. Alpaydin, C. Kaynak, UCI Machine Learning Repository"
                        + " (doi:10.24432/C50P49)");
    }

}
