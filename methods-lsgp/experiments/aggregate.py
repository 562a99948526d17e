#!/usr/bin/env python3
"""Pools the claim runs (one run directory per shot and order seed) into the README tables.

usage: aggregate.py OUT_MD RUN_ROOT [RUN_ROOT ...]
Each RUN_ROOT holds shot{1,5}-seed{1..5}/ run directories written by `fsil run`. Per (shot, variant): accuracy mean
over all episodes with the 95% CI 1.96 std/sqrt(n), the std of the five per-seed means, ECE/MCE from the 15 bins of
reliability.csv (raw probabilities) pooled over the seeds, mean fit/predict seconds per episode. Also writes
reliability diagrams (SVG).

Reads the run store as `fsil run` writes it: units.csv rows hold blocks of episodes, with the measured values as
named metrics in the JSON column `metrics` (episode_acc: correct and queries per episode; fit_s / predict_s: n, sum;
learner diagnostics: one value per episode).
"""
import json
import csv
import math
import os
import sys
from collections import defaultdict

out_md, roots = sys.argv[1], sys.argv[2:]
acc = defaultdict(list)            # (shot, method) -> [(seed, accuracy)]
times = defaultdict(lambda: [0.0, 0.0, 0])
bins = defaultdict(lambda: defaultdict(lambda: [0, 0.0, 0.0]))  # (shot, method) -> bin -> [count, conf*count, acc*count]
extra = defaultdict(dict)
for root in roots:
    for d in sorted(os.listdir(root)):
        path = os.path.join(root, d)
        if not (d.startswith("shot") and os.path.isdir(path) and os.path.exists(os.path.join(path, "summary.csv"))):
            continue
        shot = int(d[4:d.index("-")])
        seed = int(d[d.index("seed") + 4:])
        with open(os.path.join(path, "units.csv")) as f:
            for r in csv.DictReader(f):
                if r["status"] != "ok":
                    continue
                key = (shot, r["method"])
                metrics = json.loads(r["metrics"])
                ep = metrics["episode_acc"]
                acc[key].extend((seed, c / q) for c, q in zip(ep["correct"], ep["queries"]))
                t = times[key]
                t[0] += metrics["fit_s"]["sum"]; t[1] += metrics["predict_s"]["sum"]; t[2] += metrics["fit_s"]["n"]
                for k in ("val_acc", "val_nll", "calibration_temperature", "outputscale", "train_loss_first",
                          "train_loss_last", "meta_train_s"):
                    v = metrics.get(k)
                    if isinstance(v, list) and v:
                        extra[key][k] = float(v[0])  # a property of the learner: the same for every episode
        with open(os.path.join(path, "reliability.csv")) as f:
            for r in csv.DictReader(f):
                n = int(r["count"])
                if n == 0 or r.get("probabilities", "raw") != "raw":
                    continue
                b = bins[(shot, r["method"])][int(r["bin"])]
                b[0] += n; b[1] += n * float(r["confidence"]); b[2] += n * float(r["accuracy"])


def ece_mce(key):
    total = sum(b[0] for b in bins[key].values())
    ece, mce = 0.0, 0.0
    for b in bins[key].values():
        gap = abs(b[2] / b[0] - b[1] / b[0])
        ece += b[0] / total * gap
        mce = max(mce, gap)
    return ece, mce


lines = []
for shot in sorted({k[0] for k in acc}):
    lines.append(f"\n5-way {shot}-shot, Q = 75 (15 per class)\n")
    lines.append("| variant | episodes | accuracy % ± 95% CI | std of seed means | ECE | MCE | fit ms | predict ms |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for (s, m) in sorted(k for k in acc if k[0] == shot):
        a = [x for _, x in acc[(s, m)]]
        n = len(a)
        mean = sum(a) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in a) / n)
        per_seed = defaultdict(list)
        for seed, x in acc[(s, m)]:
            per_seed[seed].append(x)
        seed_means = [sum(v) / len(v) for v in per_seed.values()]
        sm = sum(seed_means) / len(seed_means)
        ssd = math.sqrt(sum((x - sm) ** 2 for x in seed_means) / len(seed_means))
        ece, mce = ece_mce((s, m))
        t = times[(s, m)]
        lines.append(f"| {m} | {n} | {100 * mean:.2f} ± {100 * 1.96 * sd / math.sqrt(n):.2f} | {100 * ssd:.2f} | "
                     f"{ece:.3f} | {mce:.3f} | {1e3 * t[0] / t[2]:.2f} | {1e3 * t[1] / t[2]:.2f} |")
    ex = [(m, extra[(shot, m)]) for (s, m) in sorted(extra)
          if s == shot and ("val_acc" in extra[(s, m)] or "train_loss_last" in extra[(s, m)])]
    if ex:
        lines.append("\nlearner diagnostics (meta-validation on held-out base classes; training loss per point/query):\n")
        lines.append("| variant | " + " | ".join(sorted({k for _, e in ex for k in e})) + " |")
        keys = sorted({k for _, e in ex for k in e})
        lines.append("|---" * (len(keys) + 1) + "|")
        for m, e in ex:
            lines.append(f"| {m} | " + " | ".join(f"{e[k]:.4g}" if k in e else "" for k in keys) + " |")

with open(out_md, "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))

# reliability diagrams (SVG): accuracy per confidence bin vs the diagonal
svg_dir = os.path.dirname(os.path.abspath(out_md))
for (shot, m), bs in bins.items():
    if not any(x in m for x in ("ml-t0.2", "pl-t0.2", "fixed-t0.2")) or "gibbs" in m or "mean0" in m:
        continue
    w, h, pad = 260, 260, 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2 * pad}" height="{h + 2 * pad + 20}" '
             f'font-family="sans-serif" font-size="11">',
             f'<text x="{pad}" y="14">{m}, {shot}-shot (ECE {ece_mce((shot, m))[0]:.3f})</text>',
             f'<rect x="{pad}" y="{pad}" width="{w}" height="{h}" fill="none" stroke="#888"/>',
             f'<line x1="{pad}" y1="{pad + h}" x2="{pad + w}" y2="{pad}" stroke="#c00" stroke-dasharray="4"/>']
    for i in range(15):
        b = bs.get(i)
        if not b:
            continue
        accb = b[2] / b[0]
        x = pad + i * w / 15
        parts.append(f'<rect x="{x:.1f}" y="{pad + h * (1 - accb):.1f}" width="{w / 15 - 1:.1f}" '
                     f'height="{h * accb:.1f}" fill="#4a7ab5"><title>{b[0]} queries</title></rect>')
    parts.append(f'<text x="{pad}" y="{pad + h + 14}">confidence 0 .. 1 (15 bins); bar = accuracy</text></svg>')
    with open(os.path.join(svg_dir, f"reliability-{m}-{shot}shot.svg"), "w") as f:
        f.write("\n".join(parts))
