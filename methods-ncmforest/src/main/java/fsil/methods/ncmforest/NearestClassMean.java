package fsil.methods.ncmforest;

import fsil.core.linalg.Distances;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;

/**
 * Plain nearest-class-mean scoring over all class means with the forest's distance kernel: the reference that the
 * forest's benchmarks compare with (|C| distance evaluations per sample, the means contiguous in memory).
 */
final class NearestClassMean {
    private NearestClassMean() {
    }

    /** Class means (float32) of classes 0..classes-1, computed in float64. */
    static float[] classMeans(LabeledData data, int classes, int dim) {
        double[] sum = new double[classes * dim];
        int[] cnt = new int[classes];
        float[] x = data.features().rawData();
        for (int i = 0; i < data.size(); i++) {
            int c = data.labels()[i];
            cnt[c]++;
            for (int j = 0; j < dim; j++) {
                sum[c * dim + j] += x[i * dim + j];
            }
        }
        float[] m = new float[classes * dim];
        for (int c = 0; c < classes; c++) {
            for (int j = 0; j < dim; j++) {
                m[c * dim + j] = (float) (sum[c * dim + j] / Math.max(1, cnt[c]));
            }
        }
        return m;
    }

    /** The nearest class mean of every query, into {@code out}. */
    static void predict(FeatureMatrix q, float[] means, int classes, int[] out) {
        int d = q.cols();
        float[] x = q.rawData();
        for (int i = 0; i < q.rows(); i++) {
            int best = 0;
            double bestD = Double.POSITIVE_INFINITY;
            for (int c = 0; c < classes; c++) {
                double dist = Distances.squared(x, i * d, means, c * d, d);
                if (dist < bestD) {
                    bestD = dist;
                    best = c;
                }
            }
            out[i] = best;
        }
    }

    /** The fraction of {@code predicted} equal to {@code truth}. */
    static double accuracy(int[] predicted, int[] truth) {
        int ok = 0;
        for (int i = 0; i < predicted.length; i++) {
            ok += predicted[i] == truth[i] ? 1 : 0;
        }
        return ok / (double) predicted.length;
    }
}
