package fsil.methods.ppca;

import fsil.core.bench.BenchTimer;
import fsil.core.bench.Benchmark;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * {@code ppca-score}: the fast score of Theorem 1 (O(q d) per query and class, batched, parallel over query
 * batches) against the explicit d x d Mahalanobis form in the same run: with the precision matrix Sigma^-1
 * (Eq. 7 as the paper computes it, batched with EJML's matrix product) and with a Cholesky factor of Sigma (one
 * triangular solve per query). The models are random PPCA models (d = 640, q = 20 by default); the scores of the
 * three forms are compared.
 */
public final class ScoreBenchmark implements Benchmark {
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("classes", "200");
        d.put("dim", "640");
        d.put("q", "20");
        d.put("queries", "1000");
        d.put("explicit_classes", "10");
        d.put("threads", "2");
        d.put("reps", "3");
        d.put("lambda", "0.01");
        d.put("seed", "1");
        return d;
    }

    @Override
    public String id() {
        return "ppca-score";
    }

    @Override
    public String description() {
        return "PPCA scoring: fast Theorem 1 form (1 and N threads) vs explicit d x d Mahalanobis (precision matrix, "
                + "Cholesky) per query-class pair (default d = 640, q = 20)";
    }

    @Override
    public void run(Map<String, String> options, PrintStream out) {
        BenchSupport o = BenchSupport.options(id(), DEFAULTS, options);
        int classes = o.integer("classes", 1);
        int dim = o.integer("dim", 1);
        int q = Math.min(dim, o.integer("q", 0));
        int n = o.integer("queries", 1);
        int explicitClasses = Math.min(classes, o.integer("explicit_classes", 1));
        int threads = o.integer("threads", 1);
        int reps = o.integer("reps", 1);
        double lambda = o.real("lambda", 1e-12);
        long seed = o.integer("seed", 0);
        out.println("# " + id() + ": " + o);
        ClassModel[] models = new ClassModel[classes];
        for (int c = 0; c < classes; c++) {
            models[c] = randomModel(dim, q, lambda, RandomStreams.derive(seed, c));
        }
        float[] x = queries(models, n, RandomStreams.derive(seed, "queries"));
        ClassModel[] subset = java.util.Arrays.copyOf(models, explicitClasses);

        ExecutorService pool = BenchSupport.pool(threads);
        try {
            double[] fastScores = Scorer.scores(subset, x, n, dim, false, fsil.api.SessionContext.DIRECT);
            double tFast = BenchTimer.medianSeconds(1, reps,
                    () -> (long) Scorer.scores(models, x, n, dim, false, fsil.api.SessionContext.DIRECT)[0]);
            double tPar = BenchTimer.medianSeconds(1, reps,
                    () -> (long) Scorer.scores(models, x, n, dim, false, BenchSupport.executor(pool))[0]);
            double[][] precision = new double[explicitClasses][];
            CholeskyFactor[] chol = new CholeskyFactor[explicitClasses];
            for (int c = 0; c < explicitClasses; c++) {
                precision[c] = precisionMatrix(models[c]);
                chol[c] = Cholesky.factor(models[c].explicitCovariance(), JitterPolicy.none());
            }
            double[] precScores = new double[n * explicitClasses];
            double[] cholScores = new double[n * explicitClasses];
            double tPrec = BenchTimer.medianSeconds(1, reps,
                    () -> precisionScores(subset, precision, x, n, dim, precScores));
            double tChol = BenchTimer.medianSeconds(1, reps, () -> choleskyScores(subset, chol, x, n, dim, cholScores));
            double pairsAll = (double) n * classes;
            double pairsExplicit = (double) n * explicitClasses;
            double nsFast = tFast / pairsAll * 1e9;
            out.printf(Locale.ROOT, "# %d classes, d = %d, q = %d, %d queries; explicit forms on %d classes%n",
                    classes, dim, q, n, explicitClasses);
            out.printf(Locale.ROOT, "%-42s %12s %14s %14s%n", "scorer", "ns/pair", "pairs/s", "time/fast");
            line(out, "fast (Theorem 1), 1 thread", nsFast, nsFast);
            line(out, "fast (Theorem 1), " + threads + " threads", tPar / pairsAll * 1e9, nsFast);
            line(out, "explicit precision Sigma^-1 (EJML GEMM)", tPrec / pairsExplicit * 1e9, nsFast);
            line(out, "explicit Cholesky (triangular solve)", tChol / pairsExplicit * 1e9, nsFast);
            out.printf(Locale.ROOT, "# max relative score difference fast vs precision %.2e, fast vs Cholesky %.2e%n",
                    maxRelative(fastScores, precScores), maxRelative(fastScores, cholScores));
            out.printf(Locale.ROOT, "# fast is %.1fx faster than the precision form and %.1fx faster than Cholesky "
                    + "(1 thread each); %d threads give %.2fx over 1 thread%n", tPrec / pairsExplicit * 1e9 / nsFast,
                    tChol / pairsExplicit * 1e9 / nsFast, threads, tFast / tPar);
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    private static void line(PrintStream out, String name, double ns, double nsFast) {
        out.printf(Locale.ROOT, "%-42s %12.1f %14.3g %14.2f%n", name, ns, 1e9 / ns, ns / nsFast);
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

    /** Residuals of all queries against one class, n x d. */
    private static DMatrixRMaj residuals(ClassModel m, float[] x, int n, int d) {
        DMatrixRMaj r = new DMatrixRMaj(n, d);
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                r.data[i * d + t] = x[i * d + t] - m.mean[t];
            }
        }
        return r;
    }

    /** r^T Sigma^-1 r for every query and class: Y = R P (one n x d x d product per class), then rows of Y . R. */
    private static long precisionScores(ClassModel[] models, double[][] precision, float[] x, int n, int d,
                                        double[] out) {
        int k = models.length;
        DMatrixRMaj y = new DMatrixRMaj(n, d);
        for (int c = 0; c < k; c++) {
            DMatrixRMaj r = residuals(models[c], x, n, d);
            CommonOps_DDRM.mult(r, DMatrixRMaj.wrap(d, d, precision[c]), y);
            for (int i = 0; i < n; i++) {
                out[i * k + c] = TopEigen.dot(y.data, i * d, r.data, i * d, d);
            }
        }
        return (long) out[0];
    }

    /** ||C^-1 r||^2 with the Cholesky factor C of Sigma, all queries of a class in one multi-column solve. */
    private static long choleskyScores(ClassModel[] models, CholeskyFactor[] chol, float[] x, int n, int d,
                                       double[] out) {
        int k = models.length;
        for (int c = 0; c < k; c++) {
            DMatrixRMaj rt = new DMatrixRMaj(d, n);
            CommonOps_DDRM.transpose(residuals(models[c], x, n, d), rt);
            double[] s = chol[c].columnQuadForms(rt);
            for (int i = 0; i < n; i++) {
                out[i * k + c] = s[i];
            }
        }
        return (long) out[0];
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
