#!/usr/bin/env python3
"""Per-episode accuracies from a run directory's units.csv (metrics JSON, blocks of episodes per unit): accuracy
tables and paired differences, in points, 95% interval 1.96 std / sqrt(n) (population std, as the toolkit).

Usage: python3 methods-bavardage/experiments/episodes.py RUN_DIR A:B [A:B ...]
Prints one accuracy table (every method x setting) and one table of paired differences A - B per setting; the
episodes of a setting do not depend on the method, so A and B are paired episode by episode. "identical" counts
the episodes where both have the same number of correct queries.
"""
import csv
import json
import math
import sys
from collections import defaultdict


def load(run_dir):
    acc = defaultdict(dict)  # (setting, method) -> episode -> (correct, queries)
    with open(run_dir + "/units.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok":
                continue
            ea = json.loads(row["metrics"])["episode_acc"]
            first = int(row["first_task"])
            for i, (c, q) in enumerate(zip(ea["correct"], ea["queries"])):
                acc[(row["setting"], row["method"])][first + i] = (c, q)
    return acc


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / n)
    return m, 1.96 * sd / math.sqrt(n)


def main(run_dir, pairs):
    acc = load(run_dir)
    settings = sorted({s for s, _ in acc})
    methods = sorted({m for _, m in acc})
    print("| method | " + " | ".join(settings) + " |")
    print("|---|" + "---|" * len(settings))
    for m in methods:
        cells = []
        for s in settings:
            e = acc.get((s, m))
            if not e:
                cells.append("—")
                continue
            mu, ci = mean_ci([100.0 * c / q for c, q in e.values()])
            cells.append("%.2f ± %.2f" % (mu, ci))
        print("| %s | %s |" % (m, " | ".join(cells)))
    print()
    print("| setting | difference | mean ± 95% CI [points] | episodes | identical |")
    print("|---|---|---|---|---|")
    for s in settings:
        for p in pairs:
            a, b = p.split(":")
            ea, eb = acc.get((s, a)), acc.get((s, b))
            if not ea or not eb:
                continue
            common = sorted(set(ea) & set(eb))
            d = [100.0 * (ea[i][0] - eb[i][0]) / ea[i][1] for i in common]
            same = sum(1 for i in common if ea[i][0] == eb[i][0])
            mu, ci = mean_ci(d)
            print("| %s | %s − %s | %+.2f ± %.2f | %d | %d |" % (s, a, b, mu, ci, len(common), same))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
