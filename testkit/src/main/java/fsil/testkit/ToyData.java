package fsil.testkit;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;

import java.util.SplittableRandom;

/** Well-separated Gaussian clusters for the conformance kit: class c has mean 3*e_(c mod d) + c-dependent offset. */
public final class ToyData {
    private ToyData() {
    }

    /** Deterministic mean of a class: a random direction of norm {@code separation}, seeded by the class id. */
    public static double[] classMean(int classId, int dim, double separation) {
        SplittableRandom r = new SplittableRandom(0x5eedL * 31 + classId);
        double[] m = new double[dim];
        double norm = 0;
        for (int j = 0; j < dim; j++) {
            m[j] = r.nextDouble(-1, 1);
            norm += m[j] * m[j];
        }
        norm = Math.sqrt(norm);
        if (dim == 1) {
            // On a line, spread the classes out by id so they stay separable.
            m[0] = separation * (classId % 97);
            return m;
        }
        for (int j = 0; j < dim; j++) {
            m[j] *= separation / norm;
        }
        return m;
    }

    /** {@code perClass} samples of each class id, isotropic noise with std {@code noise}. */
    public static LabeledData clusters(int[] classIds, int perClass, int dim, double separation, double noise, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = classIds.length * perClass;
        float[] x = new float[n * dim];
        int[] y = new int[n];
        int row = 0;
        for (int c : classIds) {
            double[] m = classMean(c, dim, separation);
            for (int s = 0; s < perClass; s++) {
                for (int j = 0; j < dim; j++) {
                    x[row * dim + j] = (float) (m[j] + noise * gaussian(r));
                }
                y[row] = c;
                row++;
            }
        }
        return new LabeledData(FeatureMatrix.wrap(n, dim, x), y);
    }

    private static double gaussian(SplittableRandom r) {
        // Box-Muller; enough for test data.
        double u1 = r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    }
}
