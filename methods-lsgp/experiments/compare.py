#!/usr/bin/env python3
"""Compares lsgp with other methods on the same episodes (issue 9), for the README.

usage: compare.py CLAIMS_ROOT OTHER_ROOT
CLAIMS_ROOT holds the claims.sh run directories shot{1,5}-seed{1..5}/, OTHER_ROOT those of other-methods.sh.
Checks first that the two runs saw the same episodes: ncm is in both, and its per-episode accuracy and its pooled
reliability bins must be identical. Then per shot: accuracy over all episodes (± 1.96 std/sqrt(n), population std),
std of the five per-seed means, ECE/MCE from the 15 bins of reliability.csv pooled over the seeds, mean fit and
predict milliseconds per episode; and paired differences (per episode, same order seed and unit index) with
± 1.96 std/sqrt(n) of the differences and the number of episodes won / lost.
"""
import csv
import math
import os
import sys
from collections import defaultdict

claims_root, other_root = sys.argv[1], sys.argv[2]
CLAIMS = {"ml-t0.2": "lsgp (default: ML meta-trained, τ = 0.2, a = −5)",
          "fixed-t0.2": "lsgp[meta_train=false] (fixed cosine kernel, τ = 0.2, a = −5)",
          "ncm": "ncm (claims run)"}
OTHER = {"ncm": "ncm (this run)", "ppca": "ppca (defaults)", "gptree": "gptree (defaults: Gibbs on the support)",
         "soft-kmeans": "soft-kmeans[temperature=20] (transductive)",
         "bavardage": "bavardage[preset=glyphs-balanced] (transductive)"}


def load(root, keep, tag):
    acc, times, bins = {}, defaultdict(lambda: [0.0, 0.0, 0]), defaultdict(lambda: defaultdict(lambda: [0, 0.0, 0.0]))
    for d in sorted(os.listdir(root)):
        path = os.path.join(root, d)
        if not (d.startswith("shot") and os.path.exists(os.path.join(path, "summary.csv"))):
            continue
        shot, seed = int(d[4:d.index("-")]), int(d[d.index("seed") + 4:])
        with open(os.path.join(path, "units.csv")) as f:
            for r in csv.DictReader(f):
                if r["method"] not in keep:
                    continue
                if r["status"] != "ok":
                    raise SystemExit(f"{path}: {r['method']} unit {r['unit']} failed: {r['error']}")
                key = (shot, tag + r["method"])
                acc.setdefault(key, {})[(seed, int(r["unit"]))] = float(r["accuracy"])
                t = times[key]
                t[0] += float(r["fit_s"]); t[1] += float(r["predict_s"]); t[2] += 1
        with open(os.path.join(path, "reliability.csv")) as f:
            for r in csv.DictReader(f):
                n = int(r["count"])
                if r["method"] in keep and n:
                    b = bins[(shot, tag + r["method"])][int(r["bin"])]
                    b[0] += n; b[1] += n * float(r["confidence"]); b[2] += n * float(r["accuracy"])
    return acc, times, bins


acc, times, bins = load(claims_root, CLAIMS, "c:")
a2, t2, b2 = load(other_root, OTHER, "o:")
acc.update(a2); times.update(t2); bins.update(b2)
labels = {**{"c:" + k: v for k, v in CLAIMS.items()}, **{"o:" + k: v for k, v in OTHER.items()}}


def ece_mce(key):
    total = sum(b[0] for b in bins[key].values())
    gaps = [(b[0], abs(b[2] / b[0] - b[1] / b[0])) for b in bins[key].values()]
    return sum(n / total * g for n, g in gaps), max(g for _, g in gaps)


lines = []
shots = sorted({k[0] for k in acc})
for shot in shots:
    c, o = acc[(shot, "c:ncm")], acc[(shot, "o:ncm")]
    same_acc = c.keys() == o.keys() and all(c[u] == o[u] for u in c)
    cb, ob = bins[(shot, "c:ncm")], bins[(shot, "o:ncm")]
    same_bins = cb.keys() == ob.keys() and all(cb[i][0] == ob[i][0] and abs(cb[i][1] - ob[i][1]) < 1e-9 for i in cb)
    lines.append(f"episode check, {shot}-shot: ncm in both runs on {len(o)} episodes; per-episode accuracies "
                 f"{'identical' if same_acc else 'DIFFERENT'}, reliability bins {'identical' if same_bins else 'DIFFERENT'}")
    if not (same_acc and same_bins):
        raise SystemExit("\n".join(lines) + "\nthe runs did not see the same episodes")

for shot in shots:
    lines.append(f"\n5-way {shot}-shot, Q = 75 (15 per class), 5 order seeds x 300 episodes\n")
    lines.append("| method | episodes | accuracy % ± 95% CI | std of seed means | ECE | MCE | fit ms | predict ms |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for key in sorted((k for k in acc if k[0] == shot), key=lambda k: -sum(acc[k].values()) / len(acc[k])):
        a = acc[key]
        n = len(a)
        mean = sum(a.values()) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in a.values()) / n)
        per_seed = defaultdict(list)
        for (seed, _), x in a.items():
            per_seed[seed].append(x)
        sm = [sum(v) / len(v) for v in per_seed.values()]
        ssd = math.sqrt(sum((x - sum(sm) / len(sm)) ** 2 for x in sm) / len(sm))
        ece, mce = ece_mce(key)
        t = times[key]
        lines.append(f"| {labels[key[1]]} | {n} | {100 * mean:.2f} ± {100 * 1.96 * sd / math.sqrt(n):.2f} | "
                     f"{100 * ssd:.2f} | {ece:.3f} | {mce:.3f} | {1e3 * t[0] / t[2]:.2f} | {1e3 * t[1] / t[2]:.2f} |")

PAIRS = [("c:ml-t0.2", "o:ncm"), ("c:ml-t0.2", "o:ppca"), ("c:ml-t0.2", "o:gptree"),
         ("c:fixed-t0.2", "o:ncm"), ("c:fixed-t0.2", "o:ppca"), ("c:fixed-t0.2", "o:gptree"),
         ("o:ppca", "o:ncm"), ("o:gptree", "o:ncm"), ("o:gptree", "o:ppca"),
         ("o:soft-kmeans", "c:fixed-t0.2"), ("o:bavardage", "c:fixed-t0.2"), ("o:bavardage", "o:soft-kmeans")]
short = {"c:ml-t0.2": "lsgp", "c:fixed-t0.2": "lsgp[meta_train=false]", "o:ncm": "ncm", "o:ppca": "ppca",
         "o:gptree": "gptree", "o:soft-kmeans": "soft-kmeans", "o:bavardage": "bavardage"}
lines.append("\nPaired differences (accuracy points, per episode, same episodes; ± 1.96 std/sqrt(n) of the differences)\n")
lines.append("| difference | " + " | ".join(f"{s}-shot | won / lost" for s in shots) + " |")
lines.append("|---" * (1 + 2 * len(shots)) + "|")
for x, y in PAIRS:
    cells = []
    for shot in shots:
        ax, ay = acc[(shot, x)], acc[(shot, y)]
        d = [ax[u] - ay[u] for u in ax]
        n = len(d)
        m = sum(d) / n
        sd = math.sqrt(sum((v - m) ** 2 for v in d) / n)
        cells.append(f"{100 * m:+.2f} ± {100 * 1.96 * sd / math.sqrt(n):.2f}")
        cells.append(f"{sum(v > 1e-12 for v in d)} / {sum(v < -1e-12 for v in d)}")
    lines.append(f"| {short[x]} − {short[y]} | " + " | ".join(cells) + " |")

print("\n".join(lines))
