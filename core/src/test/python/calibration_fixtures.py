#!/usr/bin/python3
"""Reference values for fsil.core.calibration (read by CalibrationFixturesTest).

Writes core/src/test/resources/fsil/core/calibration/calibration_fixtures.tsv: a few seeded prediction sets (the
inputs themselves, so the Java test reads exactly the same doubles) and, for each, numpy references for

  ece          adaptive (equal-mass) ECE for several bin counts: np.argsort(conf, kind="stable") cut by
               np.array_split into B parts (Nixon et al. 2019), empty parts skipped;
  nll, brier   mean -log(max(p_y, 1e-300)) and mean sum_k (p_k - 1[k=y])^2;
  temperature  beta = 1/T minimising the mean NLL of softmax(beta log max(p, 1e-300)): scipy's bounded Brent search
               over log beta in [log(1/50), log 50], polished by Newton steps on beta with the closed-form first and
               second derivatives (an independent optimiser from the Java golden-section search).

Regenerate (from the repository root):  /usr/bin/python3 core/src/test/python/calibration_fixtures.py
Tested with Debian's numpy 1.24 and scipy 1.10. Output is deterministic (seeded numpy Generators, repr() floats,
which round-trip exactly through Java's Double.parseDouble).

File format, one record per line, tab-separated, '#' starts a comment:
  set          <name> <n> <C>
  row          <label> <p_0> ... <p_{C-1}>          (n lines following their set line)
  ece          <name> <B> <value>
  nll          <name> <value>
  brier        <name> <value>
  temperature  <name> <beta> <nll at beta> <interior: 1, or 0 when the minimum is at a bound>
"""
import os

import numpy as np
from scipy.optimize import minimize_scalar

FLOOR = 1e-300
BINS = (1, 3, 10, 15, 100)
BETA_MIN, BETA_MAX = 1.0 / 50, 50.0
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "fsil", "core", "calibration",
                   "calibration_fixtures.tsv")


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def sample_labels(rng, q):
    u = rng.random(q.shape[0])
    cdf = np.cumsum(q, axis=1)
    return np.minimum((u[:, None] > cdf).sum(axis=1), q.shape[1] - 1)


def adaptive_ece(p, y, bins):
    conf = p.max(axis=1)
    correct = p.argmax(axis=1) == y
    order = np.argsort(conf, kind="stable")
    n = len(y)
    ece = 0.0
    for part in np.array_split(order, bins):
        if len(part):
            ece += len(part) / n * abs(correct[part].mean() - conf[part].mean())
    return ece


def nll(p, y):
    return float(np.mean(-np.log(np.maximum(p[np.arange(len(y)), y], FLOOR))))


def brier(p, y):
    onehot = np.zeros_like(p)
    onehot[np.arange(len(y)), y] = 1.0
    return float(np.mean(((p - onehot) ** 2).sum(axis=1)))


def scaled_nll(logs, y, beta):
    a = beta * logs
    m = a.max(axis=1)
    lse = m + np.log(np.exp(a - m[:, None]).sum(axis=1))
    return float(np.mean(lse - a[np.arange(len(y)), y]))


def scaled_nll_derivatives(logs, y, beta):
    a = beta * logs
    q = np.exp(a - a.max(axis=1, keepdims=True))
    q /= q.sum(axis=1, keepdims=True)
    mean = (q * logs).sum(axis=1)
    var = (q * (logs - mean[:, None]) ** 2).sum(axis=1)
    return float(np.mean(mean - logs[np.arange(len(y)), y])), float(np.mean(var))


def temperature(p, y):
    logs = np.log(np.maximum(p, FLOOR))
    res = minimize_scalar(lambda u: scaled_nll(logs, y, np.exp(u)), bounds=(np.log(BETA_MIN), np.log(BETA_MAX)),
                          method="bounded", options={"xatol": 1e-10})
    beta = float(np.exp(res.x))
    interior = BETA_MIN * 1.001 < beta < BETA_MAX / 1.001
    if interior:
        for _ in range(20):
            d1, d2 = scaled_nll_derivatives(logs, y, beta)
            step = d1 / d2
            beta -= step
            if abs(step) <= 1e-15 * beta:
                break
    return beta, scaled_nll(logs, y, beta), interior


def noisy_logits_set(rng):
    """10 classes, true logits t ~ N(0, 1.5^2), labels drawn from softmax(t); the model states softmax(0.8 (t + e))
    with e ~ N(0, 1): miscalibrated by different amounts and in both directions across confidence levels."""
    t = rng.normal(0.0, 1.5, size=(613, 10))
    z = t + rng.normal(0.0, 1.0, size=(613, 10))
    return softmax(0.8 * z), sample_labels(rng, softmax(t))


def binary_set(rng):
    """2 classes, p_1 ~ Beta(0.5, 0.5), labels drawn from p_1^1.3 (not the stated probability)."""
    p1 = rng.beta(0.5, 0.5, size=1207)
    y = (rng.random(1207) < p1 ** 1.3).astype(np.int64)
    return np.stack([1.0 - p1, p1], axis=1), y


def ties_set(rng):
    """4 classes, max probability from {0.25, 0.4, 0.55, 0.7, 1}, the rest shared equally: long runs of tied
    confidences that straddle bin boundaries with mixed correctness; the 0.25 rows are uniform (argmax column 0)."""
    n, c = 203, 4
    top = rng.choice(np.array([0.25, 0.4, 0.55, 0.7, 1.0]), size=n)
    col = rng.integers(0, c, size=n)
    p = np.repeat(((1.0 - top) / (c - 1))[:, None], c, axis=1)
    p[np.arange(n), col] = top
    y = np.where(rng.random(n) < top, col, rng.integers(0, c, size=n))
    return p, y


def tiny_set(rng):
    """7 rows of 3 classes: fewer rows than most bin counts, so bins are empty."""
    z = rng.normal(0.0, 1.5, size=(7, 3))
    return softmax(z), rng.integers(0, 3, size=7)


def main():
    sets = [("logits10", noisy_logits_set, 20240611), ("binary", binary_set, 20240612),
            ("ties", ties_set, 20240613), ("tiny", tiny_set, 20240614)]
    lines = ["# generated by core/src/test/python/calibration_fixtures.py; do not edit",
             "# numpy " + np.__version__]
    for name, make, seed in sets:
        p, y = make(np.random.default_rng(seed))
        n, c = p.shape
        lines.append("\t".join(["set", name, str(n), str(c)]))
        for i in range(n):
            lines.append("\t".join(["row", str(int(y[i]))] + [repr(float(v)) for v in p[i]]))
        for b in BINS:
            lines.append("\t".join(["ece", name, str(b), repr(float(adaptive_ece(p, y, b)))]))
        lines.append("\t".join(["nll", name, repr(nll(p, y))]))
        lines.append("\t".join(["brier", name, repr(brier(p, y))]))
        beta, value, interior = temperature(p, y)
        lines.append("\t".join(["temperature", name, repr(beta), repr(value), "1" if interior else "0"]))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
