package fsil.methods.gptree;

import fsil.api.SessionContext;
import fsil.core.bench.MicroBenchmark;
import fsil.core.gp.Kernel;
import fsil.core.gp.KernelFamily;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import fsil.core.pg.PolyaGammaSampler;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One GP-Tree Gibbs node at n training points (default 1000, d = 64, RBF kernel, one thread): a sweep (one
 * f | omega draw and n Polya-Gamma draws) with the pathwise and with the covariance draw, a fit (T = 1) with one
 * chain and with M chains, and the prediction of the queries with the Gauss-Hermite and with the plug-in
 * predictive, against one Cholesky factorisation of the n x n kernel matrix (the reference) in the same run.
 * Scores are ms per operation.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class GibbsNodeBench extends MicroBenchmark {
    @Param("1000")
    public int n;
    @Param("64")
    public int d;
    @Param("4")
    public int chains;
    @Param("1000")
    public int queries;

    private DMatrixRMaj x;
    private DMatrixRMaj q;
    private boolean[] right;
    private Kernel kernel;
    private DMatrixRMaj k;
    private CholeskyFactor lk;
    private double[] kappa;
    private double[] omega;
    private ZigguratSampler.NormalizedGaussian gauss;
    private PolyaGammaSampler pg;
    private GibbsNode gaussHermite;
    private GibbsNode plugIn;

    @Setup
    public void setup() {
        Random r = new Random(1);
        x = RandomMatrices_DDRM.rectangle(n, d, -1, 1, r);
        q = RandomMatrices_DDRM.rectangle(queries, d, -1, 1, r);
        right = new boolean[n];
        kappa = new double[n];
        for (int i = 0; i < n; i++) {
            right[i] = x.get(i, 0) > 0;
            kappa[i] = right[i] ? 0.5 : -0.5;
        }
        kernel = KernelFamily.RBF.create(8.0, 1.0);
        k = GibbsNode.priorCovariance(kernel, x, 1e-3);
        lk = Cholesky.factor(k, JitterPolicy.none());
        UniformRandomProvider rng = RandomStreams.create(1);
        gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        pg = new PolyaGammaSampler(rng);
        omega = new double[n];
        Arrays.fill(omega, 0.25);
        gaussHermite = GibbsNode.fit(x, right, kernel, options(chains, GibbsNode.Predictive.GAUSS_HERMITE), 3,
                SessionContext.DIRECT);
        plugIn = GibbsNode.fit(x, right, kernel, options(chains, GibbsNode.Predictive.PLUG_IN), 3,
                SessionContext.DIRECT);
    }

    private static GibbsNode.Options options(int chains, GibbsNode.Predictive p) {
        return new GibbsNode.Options(chains, 1, GibbsNode.Draw.PATHWISE, p, 1e-3);
    }

    /** Reference: one Cholesky factorisation of the n x n kernel matrix. */
    @Benchmark
    public CholeskyFactor choleskyReference() {
        return Cholesky.factor(k, JitterPolicy.none());
    }

    /** One sweep with the pathwise f | omega draw (the default). */
    @Benchmark
    public double[] sweepPathwise() {
        return GibbsNode.sweep(k, lk, kappa, omega, GibbsNode.Draw.PATHWISE, gauss, pg);
    }

    /** One sweep with the covariance f | omega draw (forms Sigma and factors it). */
    @Benchmark
    public double[] sweepCovariance() {
        return GibbsNode.sweep(k, lk, kappa, omega, GibbsNode.Draw.COVARIANCE, gauss, pg);
    }

    @Benchmark
    public double fitOneChain() {
        return GibbsNode.fit(x, right, kernel, options(1, GibbsNode.Predictive.GAUSS_HERMITE), 7,
                SessionContext.DIRECT).logMarginal();
    }

    @Benchmark
    public double fitChains() {
        return GibbsNode.fit(x, right, kernel, options(chains, GibbsNode.Predictive.GAUSS_HERMITE), 7,
                SessionContext.DIRECT).logMarginal();
    }

    @Benchmark
    public double[] predictGaussHermite() {
        return gaussHermite.probabilityRight(q);
    }

    @Benchmark
    public double[] predictPlugIn() {
        return plugIn.probabilityRight(q);
    }
}
