#!/usr/bin/env bash
# Checks that the current build writes the same files as an earlier one, byte for byte.
#
#   reference-runs/same-output.sh BEFORE [NAME ...]
#
# BEFORE holds run directories made by the earlier build, each named after its run file here
# (bin/fsil run --run-file reference-runs/NAME.yaml --out BEFORE/NAME); without NAMEs, every directory in BEFORE.
# For each run:
#   1. 'fsil report' on a copy of BEFORE/NAME must rebuild summary.csv, a_matrix.csv, reliability.csv and
#      report.html byte for byte (the page holds no time stamp);
#   2. the run file run again must give the same a_matrix.csv and reliability.csv, and the same summary.csv once
#      the timing rows (fit_s, predict_s and other *_s / *_seconds metrics, as in ReferenceRunsTest) are left out.
# Prints one line per file compared; the exit status is 1 when any differs. FSIL_SAME_OUTPUT_RERUN=0 skips step 2.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: $0 BEFORE [NAME ...] (BEFORE: a directory of run directories)" >&2; exit 2; }
before="$(cd "$1" && pwd)"
shift
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for d in "$before"/*/; do names+=("$(basename "$d")"); done
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0

same() { # label, expected file, actual file
  if cmp -s "$2" "$3"; then echo "same     $1"; else echo "DIFFERS  $1"; status=1; fi
}

# summary.csv without its timing rows: the metric column is found by name (setting columns come before it)
untimed() {
  python3 - "$1" <<'EOF'
import csv, re, sys
timing = re.compile(r"(^|_)(fit_s|predict_s|s|seconds|cpu_seconds)$|_s_step\d+$")
with open(sys.argv[1], newline="") as f:
    lines = f.read().splitlines(keepends=True)
metric = next(csv.reader(lines[:1])).index("metric")
sys.stdout.write(lines[0])
for line in lines[1:]:
    if not timing.search(next(csv.reader([line]))[metric]):
        sys.stdout.write(line)
EOF
}

for n in "${names[@]}"; do
  [ -f "$before/$n/units.csv" ] || { echo "$before/$n is not a run directory (no units.csv)" >&2; exit 2; }
  mkdir -p "$work/report"
  cp -a "$before/$n" "$work/report/$n"
  "$root/bin/fsil" report "$work/report/$n" >/dev/null
  for f in summary.csv a_matrix.csv reliability.csv report.html; do
    same "$n/$f (fsil report)" "$before/$n/$f" "$work/report/$n/$f"
  done
  if [ "${FSIL_SAME_OUTPUT_RERUN:-1}" != 0 ]; then
    [ -f "$root/reference-runs/$n.yaml" ] || { echo "no run file reference-runs/$n.yaml" >&2; exit 2; }
    mkdir -p "$work/run"
    "$root/bin/fsil" run --run-file "$root/reference-runs/$n.yaml" --out "$work/run/$n" --quiet >/dev/null
    for f in a_matrix.csv reliability.csv; do
      same "$n/$f (run again)" "$before/$n/$f" "$work/run/$n/$f"
    done
    untimed "$before/$n/summary.csv" >"$work/expected.csv"
    untimed "$work/run/$n/summary.csv" >"$work/actual.csv"
    same "$n/summary.csv without timings (run again)" "$work/expected.csv" "$work/actual.csv"
  fi
done
exit $status
