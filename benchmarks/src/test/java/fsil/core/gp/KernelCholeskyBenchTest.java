package fsil.core.gp;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark bodies run at a small size (outside JMH) and compute what they claim to. */
class KernelCholeskyBenchTest {

    @Test
    void bodiesRunAtSmallSize() {
        KernelCholeskyBench bench = new KernelCholeskyBench();
        bench.n = 30;
        bench.d = 4;
        bench.setup();
        assertEquals(30, bench.ejmlMultReference().numRows);
        assertEquals(8.0, bench.rbfKernelMatrix().get(3, 3), 1e-12); // the outputscale on the diagonal
        assertEquals(4, bench.rbfBackward().dx().numCols);
        assertEquals(bench.cholesky().logDet(), bench.kernelPlusCholesky().logDet(), 1e-9);
        // the solve is with the factor of K + jitter I (the default policy's jitter for this ill-conditioned K)
        DMatrixRMaj x = bench.solveNRightHandSides();
        DMatrixRMaj kj = bench.k.copy();
        for (int i = 0; i < 30; i++) {
            kj.add(i, i, bench.cholesky().jitter());
        }
        DMatrixRMaj back = new DMatrixRMaj(30, 30);
        CommonOps_DDRM.mult(kj, x, back);
        CommonOps_DDRM.subtractEquals(back, bench.b);
        double relative = NormOps_DDRM.normF(back) / NormOps_DDRM.normF(bench.b);
        assertTrue(relative < 1e-8, "(K + jitter I) X = B up to " + relative);
    }
}
