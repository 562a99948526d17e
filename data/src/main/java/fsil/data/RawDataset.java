package fsil.data;

import fsil.api.ClassTable;
import fsil.api.LabeledData;

/**
 * A dataset before a backbone is applied: raw inputs (pixels scaled to [0, 1], or user features) with labels,
 * class names, the train/test partition and the committed class splits.
 *
 * @param name    the dataset's canonical name including any parameters, e.g. {@code digits} or
 *                {@code synthetic:classes=100,dim=64,...}; it identifies the data exactly (used in cache keys)
 * @param classes class names and groups
 * @param train   training samples
 * @param test    test samples
 * @param splits  base/validation/novel classes and FSCIL sessions
 * @param imageSide side length of square images (8 for digits, 28 for Fashion-MNIST and glyphs), 0 otherwise
 */
public record RawDataset(String name, ClassTable classes, LabeledData train, LabeledData test, SplitSet splits,
                         int imageSide) {

    public int dimension() {
        return train.dimension();
    }
}
