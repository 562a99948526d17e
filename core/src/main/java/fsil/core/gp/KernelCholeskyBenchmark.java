package fsil.core.gp;

import fsil.api.InvalidParameterException;
import fsil.core.bench.BenchTimer;
import fsil.core.bench.Benchmark;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.RandomMatrices_DDRM;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The GP building blocks at size n (default 1000): RBF kernel matrix K(x, x) on d-dimensional inputs, its
 * backward pass, the jittered Cholesky factorisation, and a solve with n right-hand sides, each as a ratio to
 * EJML's plain n x n matrix multiply measured in the same run.
 */
public final class KernelCholeskyBenchmark implements Benchmark {
    private static final Set<String> KEYS = Set.of("n", "d", "seed");

    @Override
    public String id() {
        return "gp-kernel-cholesky";
    }

    @Override
    public String description() {
        return "RBF kernel matrix, its backward pass, Cholesky and solve at n = 1000 vs EJML's n x n multiply (options: n, d, seed)";
    }

    @Override
    public void run(Map<String, String> options, PrintStream out) {
        for (String k : options.keySet()) {
            if (!KEYS.contains(k)) {
                throw new InvalidParameterException("gp-kernel-cholesky: unknown option '" + k + "'; known: " + KEYS);
            }
        }
        int n = Integer.parseInt(options.getOrDefault("n", "1000"));
        int d = Integer.parseInt(options.getOrDefault("d", "64"));
        long seed = Long.parseLong(options.getOrDefault("seed", "1"));
        if (n < 2 || d < 1) {
            throw new InvalidParameterException("gp-kernel-cholesky: need n >= 2 and d >= 1, got n=" + n + ", d=" + d);
        }
        Random r = new Random(seed);
        DMatrixRMaj x = RandomMatrices_DDRM.rectangle(n, d, -1, 1, r);
        DMatrixRMaj a = RandomMatrices_DDRM.rectangle(n, n, -1, 1, r);
        DMatrixRMaj b = RandomMatrices_DDRM.rectangle(n, n, -1, 1, r);
        DMatrixRMaj g = RandomMatrices_DDRM.rectangle(n, n, -1, 1, r);
        DMatrixRMaj prod = new DMatrixRMaj(n, n);
        RbfKernel kernel = new RbfKernel(8.0, 1.0);
        DMatrixRMaj k = kernel.matrix(x);
        for (int i = 0; i < n; i++) {
            k.add(i, i, 1e-3); // GP-Tree's Gibbs-node jitter, part of the model
        }
        CholeskyFactor factor = Cholesky.factor(k, JitterPolicy.DEFAULT);
        int reps = n >= 500 ? 3 : 7;
        double tMult = BenchTimer.medianSeconds(1, reps, () -> {
            CommonOps_DDRM.mult(a, b, prod);
            return Double.doubleToLongBits(prod.data[0]);
        });
        double tKernel = BenchTimer.medianSeconds(1, reps, () -> Double.doubleToLongBits(kernel.matrix(x).data[1]));
        double tBackward = BenchTimer.medianSeconds(1, reps,
                () -> Double.doubleToLongBits(kernel.backward(x, g).dHyper()[0]));
        double tChol = BenchTimer.medianSeconds(1, reps,
                () -> Double.doubleToLongBits(Cholesky.factor(k, JitterPolicy.DEFAULT).logDet()));
        double tSolve = BenchTimer.medianSeconds(1, reps, () -> Double.doubleToLongBits(factor.solve(b).data[0]));
        out.printf(Locale.ROOT, "gp-kernel-cholesky: n = %d, d = %d, one thread%n", n, d);
        out.printf(Locale.ROOT, "%-44s %12s %14s%n", "operation", "ms", "ratio to mult");
        row(out, "EJML mult n x n by n x n (reference)", tMult, tMult);
        row(out, "RBF kernel matrix K(x, x)", tKernel, tMult);
        row(out, "RBF backward (dL/dx, dL/dhyper)", tBackward, tMult);
        row(out, "Cholesky with jitter policy", tChol, tMult);
        row(out, "solve with the factor, n right-hand sides", tSolve, tMult);
        row(out, "kernel + Cholesky", tKernel + tChol, tMult);
    }

    private static void row(PrintStream out, String name, double seconds, double ref) {
        out.printf(Locale.ROOT, "%-44s %12.2f %14.3f%n", name, 1e3 * seconds, seconds / ref);
    }
}
