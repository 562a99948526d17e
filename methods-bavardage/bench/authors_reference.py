#!/usr/bin/env python3
"""Reference for the speed and agreement comparison: the BAVARDAGE authors' batched float32 algorithm (official
code, https://github.com/yhu01/BAVARDAGE at commit 73fc716, `bavardage.py` and `vb_equi_iso.py`; the steps are
listed below and in methods-bavardage/README.md, *The method*),
re-implemented here with the same tensor operations and the same order, on the episodes ExportEpisodes wrote.

Steps, all on whole batches of tasks in float32 on the CPU:
  M  subtract the mean of all base rows from base and task rows;
  E  divide every row by its L2 norm;
  S  thin SVD of each task's X^T (torch.linalg.svd, full_matrices=False), X <- X U (N x min(N, D));
  V  S_w = mean_c(C_c / ||C_c||_F) * mean_c(||C_c||_F) + 1e-6 I with C_c the unnormalised scatter of base class c;
     A = (U^T S_w^-1 U)^-1 (torch.inverse, twice), eigh(A), eigenvalues sorted descending, rotated X V;
     gains s = e^-1/2 clamped at s_max;
  soft k-means (T_km, n_km rounds, support clamped one-hot) on X (span coordinates), then in batches of 1000 tasks
  n_vb rounds of [PLDA: y = s * x_rot, centroids sum r y / (N_k + 10), QR of the centroid differences, z = y Q;
  beta_k = 10 + N_k, m_k = sum r z / beta_k, alpha_k = alpha0 + N_k - shots (unbalanced);
  log rho = E[ln pi] - |z - m_k|^2 T_vb / 2 - (K-1)/2 ln 2pi - (K-1) / (2 beta_k); softmax with float32 epsilon;
  support clamped one-hot].
Left out: the NCM and soft k-means accuracies the authors' script prints before the batches (not part of the
BAVARDAGE prediction).

Usage: authors_reference.py DIR OUT.npy WAYS SHOTS [T_km T_vb s_max n_km n_vb balanced(0/1)]
Threads: torch.set_num_threads(1) (set OMP_NUM_THREADS=1 too).
"""
import math
import sys
import time

t_start = time.perf_counter()
import numpy as np
import torch

torch.set_num_threads(1)
EPS = torch.finfo(torch.float32).eps


def shared_scatter(base, labels):
    classes = np.unique(labels)
    covs = []
    for c in classes:
        rows = base[torch.from_numpy(labels == c)]
        res = rows - rows.mean(dim=0, keepdim=True)
        covs.append(res.t().matmul(res))
    covs = torch.stack(covs)
    norms = covs.norm(dim=(1, 2), keepdim=True)
    return (covs / norms).mean(0) * norms.mean(0)


def clamp_support(p, support_labels):
    ns = support_labels.shape[1]
    p[:, :ns] = 0
    p[:, :ns].scatter_(2, support_labels.unsqueeze(2), 1)
    return p


def soft_kmeans(x, support_labels, ways, shots, t_km, rounds):
    runs = x.shape[0]
    ns = ways * shots
    mus = x[:, :ns].reshape(runs, shots, ways, -1).mean(1)
    for _ in range(rounds):
        dist2 = (x.unsqueeze(2) - mus.unsqueeze(1)).norm(dim=3).pow(2)
        p = torch.softmax(-dist2 * t_km, dim=2)
        p = clamp_support(p, support_labels)
        mus = p.permute(0, 2, 1).matmul(x).div(p.sum(dim=1).unsqueeze(2))
    return p


def eps_softmax(x):
    e = torch.exp(x - x.max(dim=2, keepdim=True)[0])
    return (e + EPS) / (e.sum(dim=2, keepdim=True) + EPS)


def vb(x_rot, gains, r, support_labels, ways, shots, t_vb, n_vb, balanced, alpha0=2.0, beta0=10.0):
    q = ways - 1
    y = x_rot.mul(gains.unsqueeze(1))
    alpha = torch.full((x_rot.shape[0], ways), alpha0)
    for _ in range(n_vb):
        # M-step: mixture weights, then PLDA projection and the centroid posterior
        nk = r.sum(dim=1)
        if not balanced:
            alpha = nk + alpha0 - shots
        cent = r.permute(0, 2, 1).matmul(y).div(nk.unsqueeze(2) + beta0)
        diffs = cent - cent[:, :1, :]
        basis, _ = torch.linalg.qr(diffs[:, 1:].permute(0, 2, 1))
        z = y.matmul(basis)
        beta = beta0 + nk
        m = (1.0 / beta).unsqueeze(2) * (r.permute(0, 2, 1).matmul(z))
        # E-step
        dist2 = (z.unsqueeze(2) - m.unsqueeze(1)).norm(dim=3).pow(2)
        score = -dist2 * (t_vb / 2.0) - (q / 2.0) * math.log(2 * math.pi) - q / (2 * beta.unsqueeze(1))
        if not balanced:
            score = score + (alpha.digamma() - alpha.sum(dim=1, keepdim=True).digamma()).unsqueeze(1)
        r = clamp_support(eps_softmax(score), support_labels)
    return r


def main():
    d, out = sys.argv[1], sys.argv[2]
    ways, shots = int(sys.argv[3]), int(sys.argv[4])
    t_km, t_vb, s_max, n_km, n_vb, balanced = 10.0, 4.0, 5.0, 5, 5, False
    if len(sys.argv) > 5:
        t_km, t_vb, s_max = float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
        n_km, n_vb, balanced = int(sys.argv[8]), int(sys.argv[9]), sys.argv[10] == "1"
    base = torch.from_numpy(np.load(d + "/base.npy"))
    base_labels = np.load(d + "/base_labels.npy")
    data = torch.from_numpy(np.load(d + "/episodes.npy"))
    labels = torch.from_numpy(np.load(d + "/labels.npy"))
    t_loaded = time.perf_counter()
    c_loaded = time.process_time()
    ns = ways * shots
    # M, E
    mu = base.mean(dim=0, keepdim=True)
    data = data - mu
    base = base - mu
    data = data / data.norm(dim=2, keepdim=True)
    base = base / base.norm(dim=1, keepdim=True)
    # S
    u, _, _ = torch.linalg.svd(data.permute(0, 2, 1), full_matrices=False)
    data = torch.bmm(data, u)
    # V
    sw = shared_scatter(base, base_labels) + torch.eye(base.shape[1]) * 1e-6
    restricted = u.permute(0, 2, 1).matmul(sw.inverse()).matmul(u).inverse()
    e, v = torch.linalg.eigh(restricted)
    e, idx = e.sort(dim=1, descending=True)
    v = v.gather(dim=2, index=idx.unsqueeze(1).expand(-1, v.shape[1], -1))
    rotated = data.matmul(v)
    t_prep = time.perf_counter()
    c_prep = time.process_time()
    support_labels = labels[:, :ns]
    runs = data.shape[0]
    bs = min(1000, runs)
    probas = []
    for b in range(0, runs, bs):
        init = soft_kmeans(data[b:b + bs], support_labels[b:b + bs], ways, shots, t_km, n_km)
        gains = e[b:b + bs].pow(-0.5).clamp(max=s_max)
        probas.append(vb(rotated[b:b + bs], gains, init, support_labels[b:b + bs], ways, shots, t_vb, n_vb,
                         balanced))
    probas = torch.cat(probas)
    t_done = time.perf_counter()
    c_done = time.process_time()
    pred = probas[:, ns:].argmax(dim=2)
    nan_tasks = int(torch.isnan(probas[:, ns:]).any(dim=2).any(dim=1).sum())
    acc = float((pred == labels[:, ns:]).float().mean())
    np.save(out, pred.numpy().astype(np.int64))
    print("authors: import+load %.3f s, preprocessing %.3f s, %d episodes (soft k-means + VB) %.3f s, "
          "total in script %.3f s (cpu %.3f s), method cpu (preprocessing + episodes) %.3f s, accuracy %.4f, "
          "tasks with NaN responsibilities %d"
          % (t_loaded - t_start, t_prep - t_loaded, runs, t_done - t_prep, t_done - t_start, c_done,
             c_done - c_loaded, acc, nan_tasks))


if __name__ == "__main__":
    main()
