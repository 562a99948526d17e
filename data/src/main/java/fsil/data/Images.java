package fsil.data;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;

/**
 * The images of a dataset, for backbones that need the spatial layout (convolutional networks): every sample is
 * {@code channels x height x width} float32 values, channel-major then row-major (NumPy's C order of an
 * {@code n x c x h x w} array), in the same row order as the dataset's training and test samples. Pixels of the
 * built-in datasets are in [0, 1]; images from a feature directory are uint8 / 255 or the floats as given.
 *
 * <p>For the built-in image datasets the images <em>are</em> the raw features ({@code train} is
 * {@code raw.train().features()}); a feature directory with both {@code features.npy} and {@code images.npy} has
 * separate images.
 *
 * @param channels colour channels (1 for grayscale)
 * @param height   rows of pixels
 * @param width    columns of pixels
 * @param train    the training samples' pixels, one row per sample
 * @param test     the test samples' pixels, one row per sample
 */
public record Images(int channels, int height, int width, FeatureMatrix train, FeatureMatrix test) {

    public Images {
        if (channels < 1 || height < 1 || width < 1) {
            throw new FsilException("an image shape needs channels, height and width >= 1, got " + channels + "x"
                    + height + "x" + width);
        }
        long d = (long) channels * height * width;
        if (train.cols() != d || test.cols() != d) {
            throw new FsilException("images of shape " + channels + "x" + height + "x" + width + " have " + d
                    + " values each, but the pixel rows have " + train.cols() + " (train) and " + test.cols()
                    + " (test)");
        }
    }

    /** Square grayscale images that are the given features ({@code side x side} columns). */
    public static Images square(int side, FeatureMatrix train, FeatureMatrix test) {
        return new Images(1, side, side, train, test);
    }

    /** Values per image. */
    public int pixels() {
        return channels * height * width;
    }

    /** The shape as text, e.g. {@code 1x28x28}. */
    public String shapeText() {
        return channels + "x" + height + "x" + width;
    }
}
