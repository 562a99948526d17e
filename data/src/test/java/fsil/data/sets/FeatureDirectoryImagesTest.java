package fsil.data.sets;

import fsil.api.ClassTable;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.data.Images;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import fsil.data.io.NpyBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code images.npy} in a feature directory: the round trip, how it combines with features.npy, and its errors. */
class FeatureDirectoryImagesTest {
    @TempDir
    Path dir;

    /** n labels 0, 1, 0, 1, ... as int64. */
    private void labels(String name, int n) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
        }
        NpyBytes.write(dir, name, NpyBytes.npy("<i8", "(" + n + ",)", NpyBytes.encode("<i8", y)));
    }

    /** n images of the given shape (after n) in dtype descr; pixel j of image i is (i * 7 + j) % 256. */
    private void images(String name, String descr, int n, int... shape) {
        int per = 1;
        StringBuilder s = new StringBuilder("(" + n);
        for (int d : shape) {
            per *= d;
            s.append(", ").append(d);
        }
        s.append(shape.length == 0 ? ",)" : ")");
        double[] v = new double[n * per];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < per; j++) {
                v[i * per + j] = (i * 7 + j) % 256;
            }
        }
        NpyBytes.write(dir, name, NpyBytes.npy(descr, s.toString(), NpyBytes.encode(descr, v)));
    }

    /** n x 2 features, row i = (i, -i). */
    private void features(String name, int n) {
        double[] x = new double[2 * n];
        for (int i = 0; i < n; i++) {
            x[2 * i] = i;
            x[2 * i + 1] = -i;
        }
        NpyBytes.write(dir, name, NpyBytes.npy("<f4", "(" + n + ", 2)", NpyBytes.encode("<f4", x)));
    }

    private void testIndices(String text) throws IOException {
        Files.createDirectories(dir.resolve("splits"));
        Files.writeString(dir.resolve("splits/test_indices.txt"), text);
    }

    private FsilException fails(String file, String expected) {
        FsilException e = assertThrows(FsilException.class, () -> FeatureDirectoryDataset.load(dir));
        assertTrue(e.getMessage().contains(file), "names " + file + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e;
    }

    @Test
    void imagesAloneAreTheRawDataScaledToTheUnitInterval() throws IOException {
        images("images.npy", "|u1", 10, 4, 5);
        labels("labels.npy", 10);
        testIndices("3 8\n");
        RawDataset raw = FeatureDirectoryDataset.load(dir);
        Images im = raw.images();
        assertNotNull(im);
        assertEquals("1x4x5", im.shapeText());
        assertEquals(0, raw.imageSide(), "4x5 is not square: no imageSide");
        assertEquals(20, raw.dimension());
        assertEquals(8, im.train().rows());
        assertEquals(2, im.test().rows());
        // test row 0 is sample 3, training row 3 is sample 4 (sample 3 went to the test set)
        assertEquals((3 * 7 + 5) / 255f, im.test().get(0, 5), 1e-7);
        assertEquals((4 * 7 + 19) / 255f, im.train().get(3, 19), 1e-7);
        assertEquals(im.train().get(3, 19), raw.train().features().get(3, 19), "features are the images");
    }

    @Test
    void imagesBesideFeaturesFollowTheSamePartition() throws IOException {
        features("features.npy", 12);
        images("images.npy", "<f4", 12, 3, 2, 2);
        labels("labels.npy", 12);
        testIndices("0 5 11");
        RawDataset raw = FeatureDirectoryDataset.load(dir);
        assertEquals(2, raw.dimension(), "the features stay features.npy");
        assertEquals("3x2x2", raw.images().shapeText());
        for (int r = 0; r < raw.train().size(); r++) {
            int sample = (int) raw.train().features().get(r, 0);
            assertEquals((sample * 7 + 11) % 256, raw.images().train().get(r, 11), 0, "row " + r);
        }
        assertEquals(11 * 7 % 256, raw.images().test().get(2, 0), 0);
    }

    @Test
    void separateTestImages() {
        images("images.npy", "<f8", 6, 1, 3, 3);
        labels("labels.npy", 6);
        images("test_images.npy", "<f8", 4, 1, 3, 3);
        labels("test_labels.npy", 4);
        RawDataset raw = FeatureDirectoryDataset.load(dir);
        assertEquals(3, raw.imageSide());
        assertEquals(4, raw.images().test().rows());
        assertEquals((2 * 7 + 4) % 256, raw.images().test().get(2, 4), 0);
    }

    @Test
    void featuresAloneHaveNoImages() {
        features("features.npy", 6);
        labels("labels.npy", 6);
        assertNull(FeatureDirectoryDataset.load(dir).images());
        assertFalse(FeatureDirectoryDataset.load(dir).hasImages());
    }

    @Test
    void wrongRank() {
        images("images.npy", "|u1", 6, 20);
        labels("labels.npy", 6);
        fails("images.npy", "must have shape n x h x w (grayscale) or n x c x h x w, got (6, 20)");
    }

    @Test
    void channelsLastIsExplained() {
        images("images.npy", "|u1", 4, 8, 8, 3);
        labels("labels.npy", 4);
        fails("images.npy", "would have 8 channels");
        fails("images.npy", "np.transpose(x, (0, 3, 1, 2))");
    }

    @Test
    void integerImagesOtherThanUint8AreRefused() {
        images("images.npy", "<i8", 4, 3, 3);
        labels("labels.npy", 4);
        fails("images.npy", "images must be uint8");
    }

    @Test
    void notANumberIsRefused() {
        NpyBytes.write(dir, "images.npy", NpyBytes.npy("<f4", "(2, 2, 2)",
                NpyBytes.encode("<f4", 0, 0, 0, 0, 0, Double.NaN, 0, 0)));
        labels("labels.npy", 2);
        fails("images.npy", "not finite");
    }

    @Test
    void imageCountMustMatchTheLabels() {
        images("images.npy", "|u1", 5, 3, 3);
        labels("labels.npy", 6);
        fails("labels.npy", "6 labels but images.npy has 5 rows");
    }

    @Test
    void imageCountMustMatchTheFeatures() {
        features("features.npy", 6);
        images("images.npy", "|u1", 5, 3, 3);
        labels("labels.npy", 6);
        fails("images.npy", "5 images but features.npy and labels.npy have 6 rows");
    }

    @Test
    void testImagesNeedTrainingImages() {
        features("features.npy", 6);
        labels("labels.npy", 6);
        features("test_features.npy", 4);
        labels("test_labels.npy", 4);
        images("test_images.npy", "|u1", 4, 3, 3);
        fails("test_images.npy", "needs images.npy beside it");
    }

    @Test
    void testImagesMustHaveTheTrainingShape() {
        images("images.npy", "|u1", 6, 3, 3);
        labels("labels.npy", 6);
        images("test_images.npy", "|u1", 4, 3, 4);
        labels("test_labels.npy", 4);
        fails("test_images.npy", "test images are 1x3x4 (c x h x w) but images.npy holds 1x3x3");
    }

    @Test
    void emptyImagesAreRefused() {
        images("images.npy", "|u1", 3, 0, 4);
        labels("labels.npy", 3);
        fails("images.npy", "are empty");
    }

    @Test
    void neitherFeaturesNorImages() {
        labels("labels.npy", 3);
        fails(dir.toString(), "must hold features.npy (n x d float32/float64) or images.npy");
    }

    @Test
    void aDatasetRefusesImagesThatDoNotMatchItsSamples() {
        var d = new fsil.api.LabeledData(fsil.api.FeatureMatrix.wrap(2, 4, new float[8]), new int[]{0, 1});
        var one = fsil.api.FeatureMatrix.wrap(1, 4, new float[4]);
        assertThrows(FsilException.class, () -> new RawDataset("x", ClassTable.numbered(2), d, d,
                new SplitSet(new int[0], new int[0], new int[]{0, 1}, Optional.empty()),
                new Images(1, 2, 2, one, one)));
        assertEquals(2, new RawDataset("x", ClassTable.numbered(2), d, d,
                new SplitSet(new int[0], new int[0], new int[]{0, 1}, Optional.empty()), 2).imageSide());
    }
}
