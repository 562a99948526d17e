package fsil.core.gp;

import fsil.core.bench.MicroBenchmark;
import fsil.core.linalg.Cholesky;
import fsil.core.linalg.CholeskyFactor;
import fsil.core.linalg.JitterPolicy;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The GP building blocks at size n (default 1000) on d-dimensional inputs (default 64), one thread: the RBF kernel
 * matrix K(x, x), its backward pass, the jittered Cholesky factorisation, kernel + Cholesky together, and a solve
 * with n right-hand sides, against EJML's plain n x n by n x n matrix multiply (the reference) in the same run.
 * Scores are ms per operation.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class KernelCholeskyBench extends MicroBenchmark {
    @Param("1000")
    public int n;
    @Param("64")
    public int d;

    private DMatrixRMaj x;
    private DMatrixRMaj a;
    DMatrixRMaj b;
    private DMatrixRMaj g;
    private DMatrixRMaj prod;
    private RbfKernel kernel;
    DMatrixRMaj k;
    private CholeskyFactor factor;

    @Setup
    public void setup() {
        Random r = new Random(1);
        x = RandomMatrices_DDRM.rectangle(n, d, -1, 1, r);
        a = RandomMatrices_DDRM.rectangle(n, n, -1, 1, r);
        b = RandomMatrices_DDRM.rectangle(n, n, -1, 1, r);
        g = RandomMatrices_DDRM.rectangle(n, n, -1, 1, r);
        prod = new DMatrixRMaj(n, n);
        kernel = new RbfKernel(8.0, 1.0);
        k = kernel.matrix(x);
        for (int i = 0; i < n; i++) {
            k.add(i, i, 1e-3); // GP-Tree's Gibbs-node jitter, part of the model
        }
        factor = Cholesky.factor(k, JitterPolicy.DEFAULT);
    }

    /** Reference: EJML's n x n by n x n product. */
    @Benchmark
    public DMatrixRMaj ejmlMultReference() {
        CommonOps_DDRM.mult(a, b, prod);
        return prod;
    }

    @Benchmark
    public DMatrixRMaj rbfKernelMatrix() {
        return kernel.matrix(x);
    }

    /** dL/dx and dL/dhyper for a given dL/dK. */
    @Benchmark
    public SymmetricKernelGradients rbfBackward() {
        return kernel.backward(x, g);
    }

    /** Cholesky of the jittered kernel matrix with the default jitter policy. */
    @Benchmark
    public CholeskyFactor cholesky() {
        return Cholesky.factor(k, JitterPolicy.DEFAULT);
    }

    /** The kernel matrix of x and its Cholesky factor, one after the other (what a GP fit starts with). */
    @Benchmark
    public CholeskyFactor kernelPlusCholesky() {
        DMatrixRMaj m = kernel.matrix(x);
        for (int i = 0; i < n; i++) {
            m.add(i, i, 1e-3);
        }
        return Cholesky.factor(m, JitterPolicy.DEFAULT);
    }

    /** A solve with the factor for n right-hand sides. */
    @Benchmark
    public DMatrixRMaj solveNRightHandSides() {
        return factor.solve(b);
    }
}
