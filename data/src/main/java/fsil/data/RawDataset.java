package fsil.data;

import fsil.api.ClassTable;
import fsil.api.FsilException;
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
 * @param images  the samples as images (shape and pixels, rows as in {@code train} and {@code test}), or null for a
 *                dataset without images; for digits, Fashion-MNIST and glyphs they are the raw features
 */
public record RawDataset(String name, ClassTable classes, LabeledData train, LabeledData test, SplitSet splits,
                         Images images) {

    public RawDataset {
        if (images != null && (images.train().rows() != train.size() || images.test().rows() != test.size())) {
            throw new FsilException("dataset " + name + ": " + images.train().rows() + " training and "
                    + images.test().rows() + " test images for " + train.size() + " training and " + test.size()
                    + " test samples");
        }
    }

    /**
     * A dataset whose raw features are square grayscale images of side {@code imageSide} (8 for digits, 28 for
     * Fashion-MNIST and glyphs), or that has no images ({@code imageSide} 0).
     */
    public RawDataset(String name, ClassTable classes, LabeledData train, LabeledData test, SplitSet splits,
                      int imageSide) {
        this(name, classes, train, test, splits,
                imageSide > 0 ? Images.square(imageSide, train.features(), test.features()) : null);
    }

    public int dimension() {
        return train.dimension();
    }

    /** Whether the samples are also available as images ({@link #images()} is not null). */
    public boolean hasImages() {
        return images != null;
    }

    /** Side length of square grayscale images (8 for digits, 28 for Fashion-MNIST and glyphs), 0 otherwise. */
    public int imageSide() {
        return images != null && images.channels() == 1 && images.height() == images.width() ? images.height() : 0;
    }
}
