#!/usr/bin/env python3
"""Per-session FSCIL table and paired differences over runs, from one or more `fsil run` directories of the same
fscil setting (the same sessions: checked through a method present in several directories, e.g. ncm).

usage: fscil_compare.py RUN_DIR [RUN_DIR ...] [--pair A B ...]   (A, B: method labels)
Methods are keyed by their label; a label present in several directories must give identical per-run accuracy
matrices there (that is the check that the runs saw the same sessions), and is then shown once.
Columns: acc_seen per session (mean over runs), final accuracy and average incremental accuracy with
± 1.96 s/sqrt(n) (s = sample std over runs, as in this README's tables), forgetting_max (from summary.csv), and the
base / novel accuracy at the last session (novel = mean over the novel sessions' classes; every novel session has
the same number of test samples). Pairs: per-run differences of final and average incremental accuracy and of the
novel-class accuracy at the last session, ± 1.96 s/sqrt(n).
"""
import csv
import math
import sys

args, pairs = [], []
it = iter(sys.argv[1:])
for a in it:
    if a == "--pair":
        pairs.append((next(it), next(it)))
    else:
        args.append(a)

runs, forgetting, order = {}, {}, []
for d in args:
    with open(f"{d}/units.csv") as f:
        rows = [r for r in csv.DictReader(f)]
    for r in rows:
        if r["status"] != "ok":
            raise SystemExit(f"{d}: {r['method']} unit {r['unit']} failed: {r['error']}")
        m = r["method"]
        matrix = [[float(x) for x in row.split(";")] for row in r["a_matrix"].split("/")]
        seen = [float(x) for x in r["acc_seen"].split(";")]
        unit = (int(r["unit"]), r["train_seed"])
        rec = runs.setdefault(m, {})
        if unit in rec and (rec[unit][0] != matrix or rec[unit][1] != seen):
            raise SystemExit(f"{m} unit {unit} differs between run directories: not the same sessions")
        rec[unit] = (matrix, seen)
        if m not in order:
            order.append(m)
    with open(f"{d}/summary.csv") as f:
        for r in csv.DictReader(f):
            if r["metric"] == "forgetting_max":
                forgetting[r["method"]] = float(r["value"])


def ci(values):
    n = len(values)
    mean = sum(values) / n
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * s / math.sqrt(n)


def per_run(m):
    out = {}
    for unit, (matrix, seen) in runs[m].items():
        last = matrix[-1]
        out[unit] = {"final": seen[-1], "avg": sum(seen) / len(seen), "base": last[0],
                     "novel": sum(last[1:]) / len(last[1:])}
    return out


steps = len(next(iter(runs[order[0]].values()))[1])
head = "| method | " + " | ".join(f"s{t}" for t in range(steps - 1)) + f" | s{steps - 1} (final) | avg inc. | " \
       "forgetting_max | last: base / novel | runs |"
print(head)
print("|---" * (head.count("|") - 1) + "|")
for m in order:
    pr = per_run(m)
    units = sorted(pr)
    seen_mean = [sum(runs[m][u][1][t] for u in units) / len(units) for t in range(steps)]
    fm, fc = ci([pr[u]["final"] for u in units])
    am, ac = ci([pr[u]["avg"] for u in units])
    base = sum(pr[u]["base"] for u in units) / len(units)
    novel = sum(pr[u]["novel"] for u in units) / len(units)
    print(f"| {m} | " + " | ".join(f"{100 * v:.1f}" for v in seen_mean[:-1])
          + f" | {100 * fm:.2f} ± {100 * fc:.2f} | {100 * am:.2f} ± {100 * ac:.2f} | {100 * forgetting[m]:.2f} | "
          f"{100 * base:.1f} / {100 * novel:.1f} | {len(units)} |")

if pairs:
    print("\n| difference (paired over runs) | final | avg inc. | novel classes at the last session |")
    print("|---|---|---|---|")
    for a, b in pairs:
        pa, pb = per_run(a), per_run(b)
        if pa.keys() != pb.keys():
            raise SystemExit(f"{a} and {b} were not run on the same units")
        cells = []
        for k in ("final", "avg", "novel"):
            mean, c = ci([pa[u][k] - pb[u][k] for u in sorted(pa)])
            cells.append(f"{100 * mean:+.2f} ± {100 * c:.2f}")
        print(f"| {a} − {b} | " + " | ".join(cells) + " |")
