package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;

/**
 * Per-feature whitening by the mean and standard deviation of the first data the session learns (paper Sec. 5:
 * "Each feature was whitened by its mean and standard deviation over the starting training subset"). Statistics
 * are computed in float64 with a two-pass centred variance; a constant feature keeps scale 1.
 */
final class Standardizer {
    private final float[] mean;
    private final float[] invStd;

    private Standardizer(float[] mean, float[] invStd) {
        this.mean = mean;
        this.invStd = invStd;
    }

    static Standardizer fit(FeatureMatrix f) {
        int n = f.rows();
        int d = f.cols();
        float[] x = f.rawData();
        double[] m = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                m[j] += x[i * d + j];
            }
        }
        for (int j = 0; j < d; j++) {
            m[j] /= n;
        }
        double[] v = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double t = x[i * d + j] - m[j];
                v[j] += t * t;
            }
        }
        float[] mean = new float[d];
        float[] inv = new float[d];
        for (int j = 0; j < d; j++) {
            double sd = Math.sqrt(v[j] / n);
            mean[j] = (float) m[j];
            inv[j] = sd > 0 && Double.isFinite(1 / sd) ? (float) (1 / sd) : 1f;
        }
        return new Standardizer(mean, inv);
    }

    /** A whitened copy (the input is never modified). */
    FeatureMatrix apply(FeatureMatrix f) {
        int n = f.rows();
        int d = f.cols();
        float[] x = f.rawData();
        float[] out = new float[n * d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                out[i * d + j] = (x[i * d + j] - mean[j]) * invStd[j];
            }
        }
        return FeatureMatrix.wrap(n, d, out);
    }
}
