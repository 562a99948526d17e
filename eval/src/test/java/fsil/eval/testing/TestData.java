package fsil.eval.testing;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.data.FeatureSet;
import fsil.data.SplitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/** Small synthetic feature sets for harness tests: Gaussian clusters, classes 0..C-1, base = first third. */
public final class TestData {
    private TestData() {
    }

    public static FeatureSet clusters(int classes, int trainPerClass, int testPerClass, int dim, double noise, long seed) {
        return clusters(classes, trainPerClass, testPerClass, dim, noise, seed, Optional.empty());
    }

    public static FeatureSet clusters(int classes, int trainPerClass, int testPerClass, int dim, double noise, long seed,
                                      Optional<SplitSet.FscilSplit> fscil) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] means = new double[classes][dim];
        for (int c = 0; c < classes; c++) {
            for (int j = 0; j < dim; j++) {
                means[c][j] = r.nextDouble(-2, 2);
            }
        }
        LabeledData train = sample(means, trainPerClass, noise, r);
        LabeledData test = sample(means, testPerClass, noise, r);
        int base = classes / 3;
        int[] baseClasses = IntStream.range(0, base).toArray();
        int[] novel = IntStream.range(base, classes).toArray();
        List<String> names = new ArrayList<>();
        for (int c = 0; c < classes; c++) {
            names.add("c" + c);
        }
        return new FeatureSet("toy", "identity", "toy-" + seed, new ClassTable(names, List.of()), train, test,
                new SplitSet(baseClasses, new int[0], novel, fscil));
    }

    private static LabeledData sample(double[][] means, int per, double noise, SplittableRandom r) {
        int classes = means.length;
        int dim = means[0].length;
        float[] x = new float[classes * per * dim];
        int[] y = new int[classes * per];
        int row = 0;
        // Interleave classes so class rows are not contiguous (catches index bugs).
        for (int s = 0; s < per; s++) {
            for (int c = 0; c < classes; c++) {
                for (int j = 0; j < dim; j++) {
                    double u1 = r.nextDouble();
                    double u2 = r.nextDouble();
                    double g = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
                    x[row * dim + j] = (float) (means[c][j] + noise * g);
                }
                y[row++] = c;
            }
        }
        return new LabeledData(FeatureMatrix.wrap(y.length, dim, x), y);
    }
}
