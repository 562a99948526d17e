#!/usr/bin/python3
"""Reference fixtures for fsil.core.stats, computed with scipy.

Rerun from the repository root with Debian's python3 (numpy 1.24, scipy 1.10):

    /usr/bin/python3 core/src/test/python/stats_fixtures.py

It overwrites the JSON files in core/src/test/resources/fsil/core/stats/. Inputs are hard-coded or drawn from
fixed seeds, and every input is written next to its expected values, so the Java tests never depend on numpy's
random streams. NaN/infinity are written as null. Holm is computed here by its definition (as statsmodels'
multipletests(method='holm') does it) because statsmodels is not installed. Iman-Davenport has no scipy
function: it is the formula on scipy's Friedman statistic with scipy's F survival function.

One deliberate difference from scipy 1.10 is encoded here: Wilcoxon 'auto' with n <= 50, no zero difference but
tied |d| uses the normal approximation in fsil (scipy 1.10 uses its untied exact table at int(W+), a value that
changes when x and y are swapped); those cases are computed with method='approx' and keep scipy's own 'auto'
p-value in "scipy_auto_pvalue" for the record.
"""
import json
import math
import os
import warnings

import numpy as np
import scipy
from scipy import stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "fsil", "core", "stats")


def num(v):
    v = float(v)
    return None if (math.isnan(v) or math.isinf(v)) else v


def floats(a):
    return [num(v) for v in np.asarray(a, dtype=float).ravel()]


def write(name, payload):
    payload = {"generator": "core/src/test/python/stats_fixtures.py",
               "scipy": scipy.__version__, "numpy": np.__version__, **payload}
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(payload, f, indent=1, allow_nan=False)
        f.write("\n")
    print("wrote", os.path.normpath(path))


def quiet_wilcoxon(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stats.wilcoxon(*args, **kwargs)


# ---------------------------------------------------------------- Wilcoxon
def wilcoxon_case(name, x, y, zero_method="wilcox", correction=False, method="auto"):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    d = x - y
    abs_d = np.abs(d[d != 0])
    _, counts = np.unique(abs_d, return_counts=True)
    has_ties = bool(np.any(counts > 1))
    has_zeros = bool(np.any(d == 0))
    # fsil's 'auto': exact when len(d) <= 50 with no zero and no tied |d|. scipy 1.10's 'auto' ignores ties and
    # evaluates the untied exact distribution at int(W+); only for that case is scipy asked for 'approx' here.
    call = method
    differs = method == "auto" and len(d) <= 50 and has_ties and not has_zeros
    if differs:
        call = "approx"
    res = quiet_wilcoxon(x, y, zero_method=zero_method, correction=correction, method=call)
    used = call if call != "auto" else ("exact" if len(d) <= 50 else "approx")
    if used == "exact" and has_zeros:
        used = "approx"
    z = None
    if used == "approx":
        z = num(quiet_wilcoxon(x, y, zero_method=zero_method, correction=correction, method="approx").zstatistic)
    # With a one-sided alternative scipy returns the rank sum of the positive differences, W+.
    w_plus = quiet_wilcoxon(x, y, zero_method=zero_method, correction=correction, method=call,
                            alternative="greater").statistic
    case = {"name": name, "x": floats(x), "y": floats(y), "zero_method": zero_method, "correction": correction,
            "method": method, "method_used": used, "statistic": num(res.statistic), "pvalue": num(res.pvalue),
            "w_plus": num(w_plus), "z": z, "n_zero": int(np.sum(d == 0)), "has_ties": has_ties}
    if differs:
        case["scipy_auto_pvalue"] = num(quiet_wilcoxon(x, y, zero_method=zero_method, correction=correction).pvalue)
    return case


def wilcoxon_cases():
    rng = np.random.default_rng(20240601)
    cases = []
    # Wilcoxon's (1945) corn example from scipy's docstring: exact, p = 0.041259765625.
    corn = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75]
    cases.append(wilcoxon_case("corn_exact", corn, np.zeros(15)))
    cases.append(wilcoxon_case("corn_approx", corn, np.zeros(15), method="approx"))
    cases.append(wilcoxon_case("corn_approx_cc", corn, np.zeros(15), method="approx", correction=True))
    # Small n, continuous values (no ties, no zeros) -> exact.
    for n in (1, 2, 5, 8, 12, 20, 33, 50):
        x = rng.normal(0.70, 0.05, n)
        y = x - rng.normal(0.01, 0.02, n)
        cases.append(wilcoxon_case("exact_n%d" % n, x, y))
    # W+ exactly at the centre of the null distribution (n = 4, total 10): p = 1.
    cases.append(wilcoxon_case("exact_centre", [1, -2, -3, 4], [0, 0, 0, 0]))
    # Every difference positive: smallest possible exact p.
    cases.append(wilcoxon_case("exact_all_positive", np.arange(1, 11) * 0.1 + 0.5, np.full(10, 0.5)))
    # Accuracies on 75 query images per episode: ties and zeros -> approx in 'auto' mode.
    for zm in ("wilcox", "pratt", "zsplit"):
        for cc in (False, True):
            xa = rng.integers(40, 70, 40) / 75.0
            ya = np.clip(xa + rng.integers(-3, 3, 40) / 75.0, 0, 1)
            cases.append(wilcoxon_case("acc75_%s_cc%d" % (zm, cc), xa, ya, zero_method=zm, correction=cc))
    # Hand-made ties and zeros, every zero_method, both corrections.
    # Eighths are exact in binary, so the intended ties of |x - y| are exact ties in double arithmetic too.
    xt = np.array([4, 5, 6, 6, 7, 8, 3, 2, 5, 6, 7, 8, 1, 4]) / 8.0
    yt = np.array([4, 4, 5, 7, 7, 6, 5, 2, 4, 5, 7, 6, 4, 4]) / 8.0
    for zm in ("wilcox", "pratt", "zsplit"):
        for cc in (False, True):
            cases.append(wilcoxon_case("handties_%s_cc%d" % (zm, cc), xt, yt, zero_method=zm, correction=cc))
            cases.append(wilcoxon_case("handties_%s_cc%d_exactreq" % (zm, cc), xt, yt, zero_method=zm,
                                       correction=cc, method="exact"))
    # Ties but no zeros, n <= 50: fsil's 'auto' takes the approximation (scipy 1.10's would not, see above);
    # 'exact' on request reproduces scipy 1.10's truncated-W+ value, which changes when x and y are swapped.
    xh = np.array([3, 5, 2, 8, 7, 6, 1, 9, 4, 10, 12, 11], dtype=float)
    yh = np.array([1, 2, 4, 3, 5, 1, 3, 2, 6, 5, 5, 4], dtype=float)
    cases.append(wilcoxon_case("ties_nozero_auto", xh, yh))
    cases.append(wilcoxon_case("ties_nozero_approx", xh, yh, method="approx"))
    cases.append(wilcoxon_case("ties_nozero_exactreq", xh, yh, method="exact"))
    half = np.array([1, -1, 2, 3, 4, 5, 6, 7], dtype=float)
    cases.append(wilcoxon_case("half_rank_auto", half, np.zeros(8)))
    cases.append(wilcoxon_case("half_rank_exactreq", half, np.zeros(8), method="exact"))
    cases.append(wilcoxon_case("half_rank_exactreq_swapped", np.zeros(8), half, method="exact"))
    # n = 60, continuous -> approx in 'auto'; with and without continuity correction; exact on request.
    x60 = rng.normal(0.6, 0.1, 60)
    y60 = x60 - rng.normal(0.005, 0.03, 60)
    for cc in (False, True):
        cases.append(wilcoxon_case("n60_auto_cc%d" % cc, x60, y60, correction=cc))
        for zm in ("pratt", "zsplit"):
            cases.append(wilcoxon_case("n60_%s_cc%d" % (zm, cc), x60, y60, zero_method=zm, correction=cc))
    cases.append(wilcoxon_case("n60_exact", x60, y60, method="exact"))
    x51 = rng.normal(0.6, 0.1, 51)
    cases.append(wilcoxon_case("n51_auto", x51, x51 - rng.normal(0.0, 0.03, 51)))
    # Explicit approx on small n; all-but-one zero with zsplit.
    n12 = next(c for c in cases if c["name"] == "exact_n12")
    cases.append(wilcoxon_case("exact_n12_as_approx", n12["x"], n12["y"], method="approx"))
    cases.append(wilcoxon_case("zsplit_mostly_zero", [1, 1, 1, 1, 2], [1, 1, 1, 1, 1], zero_method="zsplit"))
    cases.append(wilcoxon_case("zsplit_all_zero", [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], zero_method="zsplit"))
    return cases


def wilcoxon_null():
    # The exact null distribution of W+ for a few n (scipy's own dynamic programme).
    from scipy.stats._hypotests import _get_wilcoxon_distr
    return [{"n": n, "pmf": floats(_get_wilcoxon_distr(n))} for n in (1, 2, 3, 4, 10, 25)]


# ---------------------------------------------------------------- paired summary
def t_upper_quantile(tail, df):
    """t with P(T > t) = tail. scipy 1.10's t.isf/t.ppf is good to ~5e-10 relative only (df = 59: its own t.sf at
    the returned point is 0.0250000000576), so the result is polished by Newton steps on the accurate t.sf."""
    q = stats.t.isf(tail, df)
    for _ in range(4):
        q += (stats.t.sf(q, df) - tail) / stats.t.pdf(q, df)
    return q


def paired_case(name, x, y, tol=0.0):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    d = x - y
    n = len(d)
    mean = d.mean()
    sd = d.std(ddof=1) if n > 1 else float("nan")
    se = sd / math.sqrt(n)
    t = t_upper_quantile(0.025, n - 1) if n > 1 else float("nan")
    z = stats.norm.ppf(0.975)
    return {"name": name, "x": floats(x), "y": floats(y), "tolerance": tol, "n": n, "mean": num(mean),
            "std": num(sd), "t_low": num(mean - t * se), "t_high": num(mean + t * se),
            "normal_low": num(mean - z * se), "normal_high": num(mean + z * se),
            "wins": int(np.sum(d > tol)), "ties": int(np.sum(np.abs(d) <= tol)), "losses": int(np.sum(d < -tol))}


def paired_cases():
    rng = np.random.default_rng(7)
    cases = []
    for n in (2, 3, 10, 60, 600):
        x = rng.integers(30, 75, n) / 75.0
        y = np.clip(x + rng.integers(-4, 4, n) / 75.0, 0, 1)
        cases.append(paired_case("acc75_n%d" % n, x, y))
        cases.append(paired_case("acc75_n%d_tol" % n, x, y, tol=1.5 / 75.0))
    cases.append(paired_case("single", [0.9], [0.8]))
    return cases


# ---------------------------------------------------------------- Holm
def holm(p):
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    m = len(p)
    adj = np.maximum.accumulate(p[order] * np.arange(m, 0, -1))
    adj = np.minimum(adj, 1.0)
    out = np.empty(m)
    out[order] = adj
    return out


def holm_cases():
    rng = np.random.default_rng(11)
    vectors = [[0.01], [0.01, 0.04, 0.03, 0.005], [0.2, 0.2, 0.2], [0.0, 1.0, 0.5, 0.02],
               [0.001, 0.012, 0.014, 0.04, 0.07, 0.3, 0.9], list(rng.uniform(0, 0.2, 25))]
    return [{"p": floats(v), "adjusted": floats(holm(v))} for v in vectors]


# ---------------------------------------------------------------- Friedman / Iman-Davenport
def friedman_case(name, scores, lower_is_better=False):
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    chi2, p = stats.friedmanchisquare(*scores.T)
    ranks = np.vstack([stats.rankdata(row if lower_is_better else -row) for row in scores])
    den = n * (k - 1) - chi2
    f = (n - 1) * chi2 / den if den > 0 else float("inf")
    pf = stats.f.sf(f, k - 1, (k - 1) * (n - 1)) if den > 0 else 0.0
    return {"name": name, "scores": [floats(r) for r in scores], "lower_is_better": lower_is_better,
            "ranks": [floats(r) for r in ranks], "average_ranks": floats(ranks.mean(axis=0)),
            "chi2": num(chi2), "chi2_p": num(p), "iman_davenport_f": num(f), "iman_davenport_p": num(pf)}


def friedman_cases():
    rng = np.random.default_rng(2006)
    cases = []
    for k, n in ((3, 5), (4, 14), (5, 10), (6, 20), (7, 30), (3, 30), (7, 5)):
        effect = np.linspace(0.0, 0.04, k)
        cont = 0.7 + effect + rng.normal(0, 0.03, (n, k))
        cases.append(friedman_case("cont_k%d_n%d" % (k, n), cont))
        tied = rng.integers(50, 58, (n, k)) / 75.0 + np.round(effect * 75) / 75.0
        cases.append(friedman_case("ties_k%d_n%d" % (k, n), tied))
        cases.append(friedman_case("ties_k%d_n%d_lower" % (k, n), tied, lower_is_better=True))
    # One block where every method ties (contributes the tie-correction maximum), k = 4, N = 14.
    tied_row = np.round(rng.uniform(0.55, 0.95, (14, 4)), 3)
    tied_row[9, :] = 1.0
    cases.append(friedman_case("one_tied_block_k4_n14", tied_row))
    # Perfect agreement: chi2 = N(k-1), Iman-Davenport infinite.
    cases.append(friedman_case("perfect_k4_n6", [[4, 3, 2, 1]] * 6))
    return cases


# ---------------------------------------------------------------- studentized range (df = infinity)
def studentized_cases():
    out = []
    for alpha in (0.05, 0.10):
        for k in range(2, 51):
            q = stats.studentized_range.ppf(1 - alpha, k, np.inf)
            out.append({"alpha": alpha, "k": k, "q": num(q), "q_over_sqrt2": num(q / math.sqrt(2))})
    cdf = []
    for k in (2, 3, 5, 10, 20, 50):
        for q in (0.5, 1.0, 2.0, 3.5, 5.0, 7.0):
            cdf.append({"k": k, "q": q, "cdf": num(stats.studentized_range.cdf(q, k, np.inf))})
    return out, cdf


def main():
    os.makedirs(OUT, exist_ok=True)
    write("wilcoxon.json", {"cases": wilcoxon_cases(), "null_distributions": wilcoxon_null()})
    write("paired.json", {"cases": paired_cases()})
    write("holm.json", {"cases": holm_cases()})
    write("friedman.json", {"cases": friedman_cases()})
    quantiles, cdf = studentized_cases()
    write("studentized_range.json", {"quantiles": quantiles, "cdf": cdf})


if __name__ == "__main__":
    main()
