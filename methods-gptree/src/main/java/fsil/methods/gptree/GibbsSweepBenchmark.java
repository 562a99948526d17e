package fsil.methods.gptree;

import fsil.api.InvalidParameterException;
import fsil.api.SessionContext;
import fsil.core.bench.BenchTimer;
import fsil.core.bench.Benchmark;
import fsil.core.gp.Kernel;
import fsil.core.gp.KernelFamily;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.pg.PolyaGammaSampler;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import fsil.core.linalg.JitterPolicy;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.RandomMatrices_DDRM;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One Gibbs node at n = 1000 training points: a sweep (one f | omega draw and n PG draws) with the pathwise and the
 * covariance draw, a fit (T = 1) with M chains against one chain, and the Gauss-Hermite predictive against the plug-in
 * one, each as a ratio to one Cholesky factorisation of the n x n kernel matrix measured in the same run.
 */
public final class GibbsSweepBenchmark implements Benchmark {
    private static final Set<String> KEYS = Set.of("n", "d", "chains", "queries", "seed");

    @Override
    public String id() {
        return "gptree-gibbs-sweep";
    }

    @Override
    public String description() {
        return "GP-Tree Gibbs node at n = 1000: sweep (pathwise vs covariance draw), M chains vs 1, Gauss-Hermite vs "
                + "plug-in predictive, vs one n x n Cholesky (options: n, d, chains, queries, seed)";
    }

    @Override
    public void run(Map<String, String> options, PrintStream out) {
        for (String k : options.keySet()) {
            if (!KEYS.contains(k)) {
                throw new InvalidParameterException("gptree-gibbs-sweep: unknown option '" + k + "'; known: " + KEYS);
            }
        }
        int n = Integer.parseInt(options.getOrDefault("n", "1000"));
        int d = Integer.parseInt(options.getOrDefault("d", "64"));
        int chains = Integer.parseInt(options.getOrDefault("chains", "4"));
        int t = Integer.parseInt(options.getOrDefault("queries", "1000"));
        long seed = Long.parseLong(options.getOrDefault("seed", "1"));
        if (n < 2 || d < 1 || chains < 1 || t < 1) {
            throw new InvalidParameterException("gptree-gibbs-sweep: need n >= 2, d >= 1, chains >= 1, queries >= 1");
        }
        Random r = new Random(seed);
        DMatrixRMaj x = RandomMatrices_DDRM.rectangle(n, d, -1, 1, r);
        DMatrixRMaj q = RandomMatrices_DDRM.rectangle(t, d, -1, 1, r);
        boolean[] right = new boolean[n];
        for (int i = 0; i < n; i++) {
            right[i] = x.get(i, 0) > 0;
        }
        Kernel kernel = KernelFamily.RBF.create(8.0, 1.0);
        DMatrixRMaj k = GibbsNode.priorCovariance(kernel, x, 1e-3);
        int reps = n >= 500 ? 3 : 7;
        double tChol = BenchTimer.medianSeconds(1, reps,
                () -> Double.doubleToLongBits(Cholesky.factor(k, JitterPolicy.none()).logDet()));
        CholeskyFactor lk = Cholesky.factor(k, JitterPolicy.none());
        double[] kappa = new double[n];
        for (int i = 0; i < n; i++) {
            kappa[i] = right[i] ? 0.5 : -0.5;
        }
        UniformRandomProvider rng = RandomStreams.create(seed);
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        PolyaGammaSampler pg = new PolyaGammaSampler(rng);
        double[] omega = new double[n];
        java.util.Arrays.fill(omega, 0.25);
        double tSweep = BenchTimer.medianSeconds(1, reps, () -> Double.doubleToLongBits(
                GibbsNode.sweep(k, lk, kappa, omega, GibbsNode.Draw.PATHWISE, gauss, pg)[0]));
        double tSweepC = BenchTimer.medianSeconds(1, reps, () -> Double.doubleToLongBits(
                GibbsNode.sweep(k, lk, kappa, omega, GibbsNode.Draw.COVARIANCE, gauss, pg)[0]));
        double fit1 = time(x, right, kernel, 1, 1, GibbsNode.Draw.PATHWISE, reps);
        double fitM = time(x, right, kernel, chains, 1, GibbsNode.Draw.PATHWISE, reps);
        GibbsNode gh = GibbsNode.fit(x, right, kernel, options(chains, 1, GibbsNode.Draw.PATHWISE,
                GibbsNode.Predictive.GAUSS_HERMITE), 3, SessionContext.DIRECT);
        GibbsNode plug = GibbsNode.fit(x, right, kernel, options(chains, 1, GibbsNode.Draw.PATHWISE,
                GibbsNode.Predictive.PLUG_IN), 3, SessionContext.DIRECT);
        double tGh = BenchTimer.medianSeconds(1, reps, () -> Double.doubleToLongBits(gh.probabilityRight(q)[0]));
        double tPlug = BenchTimer.medianSeconds(1, reps, () -> Double.doubleToLongBits(plug.probabilityRight(q)[0]));
        out.printf(Locale.ROOT, "gptree-gibbs-sweep: n = %d, d = %d, %d queries, one thread%n", n, d, t);
        out.printf(Locale.ROOT, "%-58s %10s %16s%n", "operation", "ms", "ratio to Cholesky");
        row(out, "Cholesky of the n x n kernel matrix (reference)", tChol, tChol);
        row(out, "one sweep, pathwise f | omega draw + n PG draws", tSweep, tChol);
        row(out, "one sweep, covariance f | omega draw + n PG draws", tSweepC, tChol);
        row(out, "fit, 1 chain, T = 1", fit1, tChol);
        row(out, "fit, " + chains + " chains, T = 1", fitM, tChol);
        row(out, "predict " + t + " queries, " + chains + " chains, Gauss-Hermite", tGh, tChol);
        row(out, "predict " + t + " queries, " + chains + " chains, plug-in", tPlug, tChol);
    }

    private static GibbsNode.Options options(int chains, int steps, GibbsNode.Draw draw, GibbsNode.Predictive p) {
        return new GibbsNode.Options(chains, steps, draw, p, 1e-3);
    }

    private static double time(DMatrixRMaj x, boolean[] right, Kernel kernel, int chains, int steps, GibbsNode.Draw draw,
                               int reps) {
        return BenchTimer.medianSeconds(1, reps, () -> Double.doubleToLongBits(GibbsNode.fit(x, right, kernel,
                options(chains, steps, draw, GibbsNode.Predictive.GAUSS_HERMITE), 7, SessionContext.DIRECT).logMarginal()));
    }

    private static void row(PrintStream out, String what, double seconds, double ref) {
        out.printf(Locale.ROOT, "%-58s %10.1f %16.3f%n", what, seconds * 1e3, seconds / ref);
    }
}
