"""The authors' per-class PPCA fits, timed on the classes that PpcaFitCpuTiming exported.

The authors' notebooks (github.com/barbua/PPCA) fit a class in two ways, both in torch, in float32; each is
transcribed here step for step in numpy (torch.linalg.svd and numpy.linalg.svd both call LAPACK's gesdd, with full
matrices by default):

algo=svd, computeClassPPCAs in HPPCA.ipynb (the SVD of the covariance), for each class:

    mx = mean(x); xx = (x - mx)^T (x - mx) / n      (biased covariance, d x d)
    u, s, v = svd(xx)                                (full SVD of the d x d matrix)
    s[s < la] = la                                   (la = 0.01)
    Sigma = (u * s) @ u^T                            (the stored d x d model covariance)
    L = u[:, :q]^T, S = s[:q]

algo=datasvd, the "train PCAs / save model separately for each class" cell of PPCA.ipynb (the SVD of the data;
the fastest of the two), for each class:

    mx = mean(x)
    u, s, v = svd(x - mx)                            (full SVD of the centred n x d data)
    L = v[:q], S = s[:q]                             (S: singular values, variance = S^2 / n)

File I/O (loadmat, torch.save) is left out. With algo=eigh the d x d decomposition is LAPACK's symmetric solver
(numpy.linalg.eigh, top q kept, no Sigma): the reference for fsil's solver=full, which decomposes the same matrix.
Usage (one BLAS thread):

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 ppca_fit_numpy.py DIR [q=20] [dtype=float32] [algo=svd|datasvd|eigh]
        [warmup=2]

It prints one line "numpy <dtype> <algo> ms_cpu_per_class=... ms_wall_per_class=... classes=..." (CPU time of the
process, which has one thread doing the work), with the first class's three largest variances (eigenvalues of the
biased covariance; for datasvd S^2 / n, computed outside the timed fit), which fsil prints too.
"""
import sys
import time

import numpy as np


def fit(x, q, la):
    n = x.shape[0]
    mx = np.mean(x, axis=0)
    xc = x - mx
    xx = xc.T @ xc / n
    u, s, v = np.linalg.svd(xx)
    s[s < la] = la
    sigma = (u * s) @ u.T
    return mx, u[:, :q].T.copy(), s[:q].copy(), sigma


def fit_datasvd(x, q, la):
    mx = np.mean(x, axis=0)
    u, s, v = np.linalg.svd(x - mx)
    return mx, v[:q].copy(), s[:q].copy(), None


def variances(algo, model, n):
    """The model's leading variances, for the printed check (outside the timed fit)."""
    s = model[2]
    return s * s / n if algo == "datasvd" else s


def fit_eigh(x, q, la):
    n = x.shape[0]
    mx = np.mean(x, axis=0)
    xc = x - mx
    xx = xc.T @ xc / n
    w, v = np.linalg.eigh(xx)
    return mx, v[:, ::-1][:, :q].T.copy(), w[::-1][:q].copy(), None


def main():
    d = sys.argv[1]
    opts = dict(a.split("=", 1) for a in sys.argv[2:])
    q = int(opts.get("q", "20"))
    dtype = np.dtype(opts.get("dtype", "float32"))
    warmup = int(opts.get("warmup", "2"))
    algo = opts.get("algo", "svd")
    fitter = {"svd": fit, "datasvd": fit_datasvd, "eigh": fit_eigh}[algo]
    x = np.load(d + "/features.npy").astype(dtype)
    y = np.load(d + "/labels.npy")
    classes = [x[y == c] for c in np.unique(y)]
    for c in classes[:warmup]:
        fitter(c, q, 0.01)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    first = None
    for c in classes:
        model = fitter(c, q, 0.01)
        if first is None:
            first = model
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    top = variances(algo, first, classes[0].shape[0])[:3]
    k = len(classes)
    print("numpy %s %s ms_cpu_per_class=%.3f ms_wall_per_class=%.3f classes=%d first_class_top3=%s"
          % (dtype.name, algo, cpu / k * 1e3, wall / k * 1e3, k, np.array2string(top, precision=6)))


if __name__ == "__main__":
    main()
