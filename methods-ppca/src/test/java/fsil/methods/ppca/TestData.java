package fsil.methods.ppca;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;

/** Gaussian classes with chosen spectra, and explicit (d x d) reference computations, for the tests. */
final class TestData {
    private TestData() {
    }

    /**
     * n samples of N(mean, U diag(s) U^T + noise^2 I) with a random orthonormal U (d x s.length), as float32 rows.
     */
    static float[] gaussianClass(int n, double[] mean, double[] spectrum, double noise, long seed) {
        int d = mean.length;
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        int r = spectrum.length;
        double[] u = new double[r * d];
        for (int i = 0; i < u.length; i++) {
            u[i] = g.sample();
        }
        TopEigen.orthonormaliseRows(u, r, d);
        float[] x = new float[n * d];
        double[] z = new double[r];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < r; j++) {
                z[j] = Math.sqrt(spectrum[j]) * g.sample();
            }
            for (int t = 0; t < d; t++) {
                double v = mean[t] + noise * g.sample();
                for (int j = 0; j < r; j++) {
                    v += z[j] * u[j * d + t];
                }
                x[i * d + t] = (float) v;
            }
        }
        return x;
    }

    /** s_i = scale * i^-alpha, i = 1..r. */
    static double[] powerLaw(int r, double scale, double alpha) {
        double[] s = new double[r];
        for (int i = 0; i < r; i++) {
            s[i] = scale * Math.pow(i + 1, -alpha);
        }
        return s;
    }

    /** A random mean with entries N(0, spread^2). */
    static double[] randomMean(int d, double spread, long seed) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(seed));
        double[] m = new double[d];
        for (int i = 0; i < d; i++) {
            m[i] = spread * g.sample();
        }
        return m;
    }

    /**
     * Labelled data of several classes (class ids given), each a Gaussian with its own random mean and subspace.
     */
    static LabeledData classes(int[] ids, int perClass, int d, double[] spectrum, double noise, double spread,
                               long seed) {
        float[] x = new float[ids.length * perClass * d];
        int[] y = new int[ids.length * perClass];
        for (int c = 0; c < ids.length; c++) {
            long s = RandomStreams.derive(seed, ids[c]);
            float[] xc = gaussianClass(perClass, randomMean(d, spread, s), spectrum, noise, s + 1);
            System.arraycopy(xc, 0, x, c * perClass * d, xc.length);
            for (int i = 0; i < perClass; i++) {
                y[c * perClass + i] = ids[c];
            }
        }
        return new LabeledData(FeatureMatrix.wrap(y.length, d, x), y);
    }

    /** Test queries drawn from the same classes (another stream of each class's samples). */
    static LabeledData queries(int[] ids, int perClass, int d, double[] spectrum, double noise, double spread,
                               long seed) {
        float[] x = new float[ids.length * perClass * d];
        int[] y = new int[ids.length * perClass];
        for (int c = 0; c < ids.length; c++) {
            long s = RandomStreams.derive(seed, ids[c]);
            float[] xc = gaussianClass(perClass, randomMean(d, spread, s), spectrum, noise, s + 1 + 7919);
            System.arraycopy(xc, 0, x, c * perClass * d, xc.length);
            for (int i = 0; i < perClass; i++) {
                y[c * perClass + i] = ids[c];
            }
        }
        return new LabeledData(FeatureMatrix.wrap(y.length, d, x), y);
    }

    /** Sigma = L^T D L + lambda I as an explicit d x d matrix. */
    static DMatrixRMaj explicitCovariance(ClassModel m) {
        return m.explicitCovariance();
    }

    /** (x - mu)^T Sigma^-1 (x - mu) from the Cholesky factor of the explicit Sigma. */
    static double explicitMahalanobis(CholeskyFactor chol, ClassModel m, double[] x) {
        double[] r = new double[m.dim];
        for (int t = 0; t < m.dim; t++) {
            r[t] = x[t] - m.mean[t];
        }
        return chol.quadForm(r);
    }

    static CholeskyFactor cholesky(ClassModel m) {
        return Cholesky.factor(explicitCovariance(m), fsil.core.linalg.JitterPolicy.none());
    }

    /** Row i of a float matrix as doubles. */
    static double[] row(float[] x, int d, int i) {
        double[] r = new double[d];
        for (int t = 0; t < d; t++) {
            r[t] = x[i * d + t];
        }
        return r;
    }

    static double[] toDouble(float[] x) {
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = x[i];
        }
        return out;
    }

    /** Reference mean and scatter of the rows, two-pass in double. */
    static double[][] meanAndScatter(float[] x, int n, int d) {
        double[] mean = new double[d];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                mean[t] += x[i * d + t];
            }
        }
        for (int t = 0; t < d; t++) {
            mean[t] /= n;
        }
        double[] m2 = new double[d * d];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < d; a++) {
                double ra = x[i * d + a] - mean[a];
                for (int b = 0; b < d; b++) {
                    m2[a * d + b] += ra * (x[i * d + b] - mean[b]);
                }
            }
        }
        return new double[][]{mean, m2};
    }

    static int[] allRows(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    /** max_i |a_i - b_i| / max(|b_i|, floor). */
    static double maxRelative(double[] a, double[] b, double floor) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(Math.abs(b[i]), floor));
        }
        return worst;
    }
}
