"""Time, with Debian's numpy/OpenBLAS on one thread, the dense kernels of one BAVARDAGE task: N = 100 rows,
D = 128, task span r = 100 as in the JMH BavardageStagesBench (glyphs tasks span 82-93): the r x r symmetric
eigendecomposition, the Gram product X X^T, the triangular solve L^-1 U and B^T B. A yardstick for what native
LAPACK would cost per episode; see docs/bavardage-results.md.
Usage: OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 methods-bavardage/bench/lapack_kernels.py"""
import time

import numpy as np
import scipy.linalg as sl

rng = np.random.default_rng(0)
n, d, r = 100, 128, 100
x = rng.standard_normal((n, d))
b = rng.standard_normal((d, r))
m = b.T @ b
l = np.linalg.cholesky(np.cov(rng.standard_normal((d, 4 * d))))


def micros(f, reps=2000):
    f()
    t0 = time.perf_counter()
    for _ in range(reps):
        f()
    return (time.perf_counter() - t0) / reps * 1e6


for name, f in [("eigh r x r (float64)", lambda: np.linalg.eigh(m)),
                ("Gram X X^T", lambda: x @ x.T),
                ("triangular solve L^-1 U", lambda: sl.solve_triangular(l, b, lower=True)),
                ("B^T B", lambda: b.T @ b)]:
    print("%-26s %6.0f us" % (name, micros(f)))
