package fsil.core.gp;

import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stable B-form against the textbook explicit-inverse formulas (used here only as an independent reference
 * on well-conditioned problems).
 */
class DiagonalPrecisionPosteriorTest {
    private static final int N = 9;
    private static final int T = 4;

    private static DMatrixRMaj inv(DMatrixRMaj a) {
        DMatrixRMaj i = a.copy();
        assertTrue(CommonOps_DDRM.invert(i));
        return i;
    }

    private static double[] mult(DMatrixRMaj a, double[] x) {
        DMatrixRMaj out = new DMatrixRMaj(a.numRows, 1);
        CommonOps_DDRM.mult(a, new DMatrixRMaj(x.length, 1, true, x), out);
        return out.data;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** Joint kernel matrix over N training and T test points, plus a small model jitter. */
    private static DMatrixRMaj jointK(long seed) {
        DMatrixRMaj x = RandomMatrices_DDRM.rectangle(N + T, 3, -1, 1, new Random(seed));
        DMatrixRMaj k = new RbfKernel(2.0, 0.8).matrix(x);
        for (int i = 0; i < N + T; i++) {
            k.add(i, i, 1e-2);
        }
        return k;
    }

    @Test
    void agreesWithExplicitInverseFormulas() {
        Random r = new Random(1);
        DMatrixRMaj joint = jointK(2);
        DMatrixRMaj k = CommonOps_DDRM.extract(joint, 0, N, 0, N);
        DMatrixRMaj kStar = CommonOps_DDRM.extract(joint, 0, N, N, N + T);
        double[] kss = new double[T];
        for (int j = 0; j < T; j++) {
            kss[j] = joint.get(N + j, N + j);
        }
        double[] d = new double[N];
        double[] m = new double[N];
        double[] b = new double[N];
        for (int i = 0; i < N; i++) {
            d[i] = i == 3 ? 0.0 : 3 * r.nextDouble();
            m[i] = -0.5 + r.nextDouble();
            b[i] = r.nextGaussian();
        }
        double[] mStar = {0.3, -0.2, 0.0, 0.1};
        DiagonalPrecisionPosterior post = DiagonalPrecisionPosterior.of(k, d);

        DMatrixRMaj kInv = inv(k);
        DMatrixRMaj prec = kInv.copy();
        for (int i = 0; i < N; i++) {
            prec.add(i, i, d[i]);
        }
        DMatrixRMaj sigmaRef = inv(prec);
        double[] rhs = mult(kInv, m);
        for (int i = 0; i < N; i++) {
            rhs[i] += b[i];
        }
        double[] muRef = mult(sigmaRef, rhs);

        DMatrixRMaj sigma = post.covariance();
        for (int i = 0; i < N * N; i++) {
            assertEquals(sigmaRef.data[i], sigma.data[i], 1e-12);
        }
        double[] v = post.weights(m, b);
        double[] mu = post.mean(m, v);
        for (int i = 0; i < N; i++) {
            assertEquals(muRef[i], mu[i], 1e-11);
        }
        assertEquals(Math.log(CommonOps_DDRM.det(k)) - Math.log(CommonOps_DDRM.det(sigmaRef)), post.logDetB(), 1e-10);
        double[] rr = b.clone();
        assertEquals(dot(rr, mult(sigmaRef, rr)), post.quadFormCovariance(rr), 1e-11);

        // KL(N(mu, Sigma) || N(m, K)) directly
        double[] diff = new double[N];
        for (int i = 0; i < N; i++) {
            diff[i] = mu[i] - m[i];
        }
        DMatrixRMaj kis = new DMatrixRMaj(N, N);
        CommonOps_DDRM.mult(kInv, sigmaRef, kis);
        double klRef = 0.5 * (CommonOps_DDRM.trace(kis) + dot(diff, mult(kInv, diff)) - N
                + Math.log(CommonOps_DDRM.det(k)) - Math.log(CommonOps_DDRM.det(sigmaRef)));
        assertEquals(klRef, post.klToPrior(v), 1e-10);

        // predictive at the test points: m_* + K_*^T K^{-1} (mu - m), k_** - K_*^T K^{-1} K_* + K_*^T K^{-1} Sigma K^{-1} K_*
        DMatrixRMaj a = new DMatrixRMaj(N, T);
        CommonOps_DDRM.mult(kInv, kStar, a);
        double[] pm = post.predictiveMean(kStar, mStar, v);
        double[] pv = post.predictiveVariance(kStar, kss);
        for (int j = 0; j < T; j++) {
            double mean = mStar[j];
            double var = kss[j];
            for (int i = 0; i < N; i++) {
                mean += a.get(i, j) * diff[i];
                var -= kStar.get(i, j) * a.get(i, j);
                for (int l = 0; l < N; l++) {
                    var += a.get(i, j) * sigmaRef.get(i, l) * a.get(l, j);
                }
            }
            assertEquals(mean, pm[j], 1e-10);
            assertEquals(var, pv[j], 1e-10);
        }
    }

    @Test
    void zeroPrecisionLeavesThePrior() {
        DMatrixRMaj k = CommonOps_DDRM.extract(jointK(3), 0, N, 0, N);
        double[] m = new double[N];
        double[] b = new double[N];
        for (int i = 0; i < N; i++) {
            m[i] = 0.1 * i;
            b[i] = 1 - 0.2 * i;
        }
        DiagonalPrecisionPosterior post = DiagonalPrecisionPosterior.of(k, new double[N]);
        assertEquals(0.0, post.logDetB(), 0);
        DMatrixRMaj sigma = post.covariance();
        for (int i = 0; i < N * N; i++) {
            assertEquals(k.data[i], sigma.data[i], 1e-15);
        }
        double[] v = post.weights(m, b);
        double[] mu = post.mean(m, v);
        double[] kb = mult(k, b);
        for (int i = 0; i < N; i++) {
            assertEquals(b[i], v[i], 0);
            assertEquals(m[i] + kb[i], mu[i], 1e-14);
        }
        assertEquals(0.5 * dot(b, kb), post.klToPrior(v), 1e-13);
    }

    @Test
    void singularPriorCovarianceIsFine() {
        // cosine kernel with n > d has rank d: K^{-1} does not exist, the B form does not need it
        DMatrixRMaj x = RandomMatrices_DDRM.rectangle(12, 3, -1, 1, new Random(4));
        DMatrixRMaj k = new CosineKernel(1.5).matrix(x);
        double[] d = new double[12];
        java.util.Arrays.fill(d, 0.25);
        DiagonalPrecisionPosterior post = DiagonalPrecisionPosterior.of(k, d);
        DMatrixRMaj sigma = post.covariance();
        // reference with K + 1e-9 I through explicit inverses: agrees to ~1e-7
        DMatrixRMaj kj = k.copy();
        for (int i = 0; i < 12; i++) {
            kj.add(i, i, 1e-9);
        }
        DMatrixRMaj prec = inv(kj);
        for (int i = 0; i < 12; i++) {
            prec.add(i, i, 0.25);
        }
        DMatrixRMaj ref = inv(prec);
        for (int i = 0; i < 144; i++) {
            assertEquals(ref.data[i], sigma.data[i], 1e-6);
        }
        Cholesky.factor(sigma, JitterPolicy.fixed(1e-10, 0)); // PSD
    }

    @Test
    void pathwiseDrawsHaveThePosteriorMoments() {
        int n = 4;
        DMatrixRMaj joint = jointK(5);
        DMatrixRMaj k = CommonOps_DDRM.extract(joint, 0, n, 0, n);
        double[] d = {0.5, 2.0, 0.0, 1.2};
        double[] m = {0.2, -0.1, 0.0, 0.4};
        double[] b = {0.5, -0.5, 0.5, -0.5};
        DiagonalPrecisionPosterior post = DiagonalPrecisionPosterior.of(k, d);
        double[] mu = post.mean(m, post.weights(m, b));
        DMatrixRMaj sigma = post.covariance();
        CholeskyFactor lk = Cholesky.factor(k, JitterPolicy.none());
        ContinuousSampler g = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(8));
        int draws = 40000;
        double[] mean = new double[n];
        double[][] second = new double[n][n];
        double[] z = new double[n];
        double[] e = new double[n];
        for (int t = 0; t < draws; t++) {
            for (int i = 0; i < n; i++) {
                z[i] = g.sample();
                e[i] = g.sample();
            }
            double[] f = post.sample(mu, lk.multiplyLower(z), e);
            for (int i = 0; i < n; i++) {
                mean[i] += f[i] / draws;
                for (int j = 0; j < n; j++) {
                    second[i][j] += (f[i] - mu[i]) * (f[j] - mu[j]) / draws;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(mu[i], mean[i], 5 * Math.sqrt(sigma.get(i, i) / draws));
            for (int j = 0; j < n; j++) {
                double se = Math.sqrt((sigma.get(i, i) * sigma.get(j, j) + sigma.get(i, j) * sigma.get(i, j)) / draws);
                assertEquals(sigma.get(i, j), second[i][j], 5 * se);
            }
        }
    }

    @Test
    void validatesArguments() {
        DMatrixRMaj k = CommonOps_DDRM.identity(3);
        assertThrows(IllegalArgumentException.class, () -> DiagonalPrecisionPosterior.of(k, new double[]{1, -1, 0}));
        assertThrows(IllegalArgumentException.class, () -> DiagonalPrecisionPosterior.of(k, new double[]{1, Double.NaN, 0}));
        assertThrows(IllegalArgumentException.class, () -> DiagonalPrecisionPosterior.of(k, new double[2]));
        DiagonalPrecisionPosterior p = DiagonalPrecisionPosterior.of(k, new double[3]);
        assertThrows(IllegalArgumentException.class, () -> p.weights(new double[2], new double[3]));
        assertThrows(IllegalArgumentException.class, () -> p.predictiveVariance(new DMatrixRMaj(2, 1), new double[1]));
    }
}
