#!/usr/bin/env python3
"""Paired differences and the auto preset's chosen values from a run directory's units.csv.

Usage: python3 methods-bavardage/experiments/paired.py RUN_DIR A:B [A:B ...]

For every setting and pair (A, B) of method labels it prints mean(acc_A - acc_B) over the episodes both ran
(the episodes of a setting do not depend on the method) with the toolkit's 95% interval 1.96 std / sqrt(n), in
points; then the auto_* diagnostics of every method (the same in every unit of a learner).
"""
import csv
import math
import sys
from collections import defaultdict


def main(run_dir, pairs):
    acc = defaultdict(dict)  # (setting, method) -> unit -> accuracy
    diag = {}
    with open(run_dir + "/units.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok":
                continue
            acc[(row["setting"], row["method"])][int(row["unit"])] = float(row["accuracy"])
            extra = dict(kv.split("=", 1) for kv in row["extra"].split(";") if "=" in kv)
            chosen = {k: v for k, v in extra.items() if k.startswith("auto_")}
            if chosen:
                diag[row["method"]] = chosen
    settings = sorted({s for s, _ in acc})
    print("| setting | difference | mean ± 95% CI [points] | episodes |")
    print("|---|---|---|---|")
    for s in settings:
        for pair in pairs:
            a, b = pair.split(":", 1)
            ua, ub = acc.get((s, a), {}), acc.get((s, b), {})
            units = sorted(set(ua) & set(ub))
            if not units:
                continue
            d = [100 * (ua[u] - ub[u]) for u in units]
            n = len(d)
            m = sum(d) / n
            sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
            print(f"| {s} | {a} − {b} | {m:+.2f} ± {1.96 * sd / math.sqrt(n):.2f} | {n} |")
    for method, chosen in sorted(diag.items()):
        print(method, " ".join(f"{k}={float(v):.6g}" for k, v in sorted(chosen.items())))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
