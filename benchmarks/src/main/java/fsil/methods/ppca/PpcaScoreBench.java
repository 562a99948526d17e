package fsil.methods.ppca;

import fsil.api.SessionContext;
import fsil.core.bench.MicroBenchmark;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Scoring every query against every class (default 10 random PPCA models, d = 640, q = 20, 1,000 queries) with the
 * fast score of Theorem 1 (O(q d) per query-class pair; on one thread and on {@code threads} threads) against the
 * explicit d x d Mahalanobis form: with the precision matrix Sigma^-1 (Eq. 7 as the paper computes it, built with
 * Woodbury, batched with EJML's product) and with a Cholesky factor of Sigma (one multi-column triangular solve per
 * class). All four score the same pairs, so their time ratios are the per-pair ratios. The setup checks that the
 * three forms agree (max relative difference below 1e-9) and prints the difference. Scores are ms per call; per
 * query-class pair divide by classes x queries.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PpcaScoreBench extends MicroBenchmark {
    @Param("10")
    public int classes;
    @Param("640")
    public int dim;
    @Param("20")
    public int q;
    @Param("1000")
    public int queries;
    @Param("0.01")
    public double lambda;
    @Param("2")
    public int threads;

    private ClassModel[] models;
    private float[] x;
    private double[][] precision;
    private CholeskyFactor[] chol;
    private double[] precScores;
    private double[] cholScores;
    private ExecutorService pool;

    @Setup(Level.Trial)
    public void setup() {
        models = new ClassModel[classes];
        for (int c = 0; c < classes; c++) {
            models[c] = randomModel(dim, Math.min(dim, q), lambda, RandomStreams.derive(1, c));
        }
        x = queries(models, queries, RandomStreams.derive(1, "queries"));
        precision = new double[classes][];
        chol = new CholeskyFactor[classes];
        for (int c = 0; c < classes; c++) {
            precision[c] = precisionMatrix(models[c]);
            chol[c] = Cholesky.factor(models[c].explicitCovariance(), JitterPolicy.none());
        }
        precScores = new double[queries * classes];
        cholScores = new double[queries * classes];
        pool = BenchSupport.pool(threads);
        double[] fast = fastOneThread();
        explicitPrecision();
        explicitCholesky();
        double dp = maxRelative(fast, precScores);
        double dc = maxRelative(fast, cholScores);
        System.out.printf("# max relative score difference fast vs precision %.2e, fast vs Cholesky %.2e%n", dp, dc);
        if (!(dp < 1e-9 && dc < 1e-9)) {
            throw new IllegalStateException("Theorem 1 and the explicit forms disagree: " + dp + ", " + dc);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** The fast score of Theorem 1 on the calling thread. */
    @Benchmark
    public double[] fastOneThread() {
        return Scorer.scores(models, x, queries, dim, false, SessionContext.DIRECT);
    }

    /** The fast score, query tiles spread over {@code threads} threads. */
    @Benchmark
    public double[] fastThreads() {
        return Scorer.scores(models, x, queries, dim, false, BenchSupport.executor(pool));
    }

    /** Reference: r^T Sigma^-1 r with the d x d precision matrix; Y = R P (one n x d x d product per class). */
    @Benchmark
    public double[] explicitPrecision() {
        int d = dim;
        int k = classes;
        DMatrixRMaj y = new DMatrixRMaj(queries, d);
        for (int c = 0; c < k; c++) {
            DMatrixRMaj r = residuals(models[c]);
            CommonOps_DDRM.mult(r, DMatrixRMaj.wrap(d, d, precision[c]), y);
            for (int i = 0; i < queries; i++) {
                precScores[i * k + c] = TopEigen.dot(y.data, i * d, r.data, i * d, d);
            }
        }
        return precScores;
    }

    /** Reference: ||C^-1 r||^2 with the Cholesky factor C of Sigma, all queries of a class in one solve. */
    @Benchmark
    public double[] explicitCholesky() {
        int k = classes;
        for (int c = 0; c < k; c++) {
            DMatrixRMaj rt = new DMatrixRMaj(dim, queries);
            CommonOps_DDRM.transpose(residuals(models[c]), rt);
            double[] s = chol[c].columnQuadForms(rt);
            for (int i = 0; i < queries; i++) {
                cholScores[i * k + c] = s[i];
            }
        }
        return cholScores;
    }

    /** Residuals of all queries against one class, n x d. */
    private DMatrixRMaj residuals(ClassModel m) {
        int d = dim;
        DMatrixRMaj r = new DMatrixRMaj(queries, d);
        for (int i = 0; i < queries; i++) {
            for (int t = 0; t < d; t++) {
                r.data[i * d + t] = x[i * d + t] - m.mean[t];
            }
        }
        return r;
    }

    /** A PPCA model with a random mean, random orthonormal components and variances i^-1. */
    static ClassModel randomModel(int dim, int q, double lambda, long seed) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(seed));
        double[] mean = new double[dim];
        for (int t = 0; t < dim; t++) {
            mean[t] = g.sample();
        }
        double[] basis = new double[q * dim];
        for (int i = 0; i < basis.length; i++) {
            basis[i] = g.sample();
        }
        TopEigen.orthonormaliseRows(basis, q, dim);
        double[] values = new double[q];
        for (int i = 0; i < q; i++) {
            values[i] = 1.0 / (i + 1);
        }
        return ClassModel.of(100, mean, new TopEigen.Pairs(values, basis, TopEigen.Method.NONE, 0, false), lambda);
    }

    /** Queries drawn from the models in turn: mean + sum_i sqrt(d_i) z_i l_i + 0.1 e. */
    private static float[] queries(ClassModel[] models, int n, long seed) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(RandomStreams.create(seed));
        int d = models[0].dim;
        float[] x = new float[n * d];
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            ClassModel m = models[i % models.length];
            System.arraycopy(m.mean, 0, row, 0, d);
            for (int j = 0; j < m.rank; j++) {
                double z = Math.sqrt(m.variances[j]) * g.sample();
                for (int t = 0; t < d; t++) {
                    row[t] += z * m.basis[j * d + t];
                }
            }
            for (int t = 0; t < d; t++) {
                x[i * d + t] = (float) (row[t] + 0.1 * g.sample());
            }
        }
        return x;
    }

    /** Sigma^-1 = (I - L^T diag(d / (d + lambda)) L) / lambda (Woodbury; no inversion), row-major d x d. */
    static double[] precisionMatrix(ClassModel m) {
        int d = m.dim;
        double[] p = new double[d * d];
        for (int i = 0; i < d; i++) {
            p[i * d + i] = 1.0;
        }
        for (int j = 0; j < m.rank; j++) {
            double w = m.variances[j] / (m.variances[j] + m.lambda);
            for (int a = 0; a < d; a++) {
                double la = w * m.basis[j * d + a];
                for (int b = 0; b < d; b++) {
                    p[a * d + b] -= la * m.basis[j * d + b];
                }
            }
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= m.lambda;
        }
        return p;
    }

    /** max_i |a_i - ref_i| / |ref_i|. */
    private static double maxRelative(double[] a, double[] ref) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - ref[i]) / Math.abs(ref[i]));
        }
        return worst;
    }
}
