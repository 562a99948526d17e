#!/usr/bin/env bash
# fsil's BAVARDAGE against the authors' batched float32 algorithm (authors_reference.py, torch on the CPU) on the
# SAME episodes, one thread each, as whole processes (JVM or interpreter start included), alternating which runs
# first, R repeats; prints wall and CPU (user + sys) times, their medians and ratios, and the prediction agreement.
# Usage (repository root, after `mvn -o -q -B package -Dmaven.test.skip=true`):
#   methods-bavardage/bench/compare.sh DATASET BACKBONE SHOTS EPISODES REPEATS [OUT_DIR]
# e.g. methods-bavardage/bench/compare.sh glyphs pretrained-mlp 5 1000 5
# Needs python3 with torch and numpy (Debian: apt-get install python3-torch python3-numpy).
set -euo pipefail
DATASET=$1; BACKBONE=$2; SHOTS=$3; EPISODES=$4; R=$5
OUT=${6:-/tmp/bavardage-bench}
PY=${PYTHON:-/usr/bin/python3}
mkdir -p "$OUT/classes"
CP="app/target/app-0.1.0-SNAPSHOT.jar:app/target/lib/*"
javac -d "$OUT/classes" -cp "$CP" methods-bavardage/bench/*.java
JCP="$OUT/classes:$CP"
DATA="$OUT/$DATASET-${SHOTS}shot"
[ -f "$DATA/episodes.npy" ] || java -cp "$JCP" ExportEpisodes "$DATASET" "$BACKBONE" 5 "$SHOTS" 75 "$EPISODES" "$DATA"
# the authors' defaults (T_km 10, T_vb 4, s_max 5, 5 + 5 rounds, unbalanced) and their epsilon softmax
FSIL=(java -XX:ActiveProcessorCount=1 -cp "$JCP" FsilEpisodes "$DATA" "$DATA/pred-fsil.npy" 5 "$SHOTS" preset=official eps_softmax=true)
AUTH=(env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "$PY" methods-bavardage/bench/authors_reference.py "$DATA" "$DATA/pred-authors.npy" 5 "$SHOTS")
: > "$OUT/times.txt"; : > "$OUT/fsil.all"; : > "$OUT/authors.all"
run() { # label command...
  local label=$1; shift
  /usr/bin/time -f "$label %e %U %S" -o "$OUT/t.txt" "$@" > "$OUT/$label.log" 2>&1
  cat "$OUT/t.txt" >> "$OUT/times.txt"
  tail -1 "$OUT/$label.log" | tee -a "$OUT/$label.all"
}
for i in $(seq 1 "$R"); do
  if [ $((i % 2)) = 1 ]; then run fsil "${FSIL[@]}"; run authors "${AUTH[@]}"; else run authors "${AUTH[@]}"; run fsil "${FSIL[@]}"; fi
done
"$PY" - "$OUT/times.txt" "$DATA" <<'PY'
import sys, statistics as st, numpy as np
rows = [l.split() for l in open(sys.argv[1])]
t = {}
for lab, wall, usr, sy in rows:
    t.setdefault(lab, []).append((float(wall), float(usr) + float(sy)))
print("| program | runs | wall [s] median (min-max) | CPU user+sys [s] median (min-max) |")
print("|---|---|---|---|")
for lab in ("fsil", "authors"):
    w = [a for a, _ in t[lab]]; c = [b for _, b in t[lab]]
    print("| %s | %d | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) |" % (lab, len(w), st.median(w), min(w), max(w), st.median(c), min(c), max(c)))
fw = st.median([a for a, _ in t["fsil"]]); aw = st.median([a for a, _ in t["authors"]])
fc = st.median([b for _, b in t["fsil"]]); ac = st.median([b for _, b in t["authors"]])
pairs = [a[0] / f[0] for f, a in zip(t["fsil"], t["authors"])]
print("authors / fsil: wall %.2fx (per alternating pair: %s), CPU %.2fx" % (aw / fw, ", ".join("%.2f" % p for p in pairs), ac / fc))
import re, glob, os
def method_cpu(label):
    vals = []
    for line in open(os.path.join(os.path.dirname(sys.argv[1]), label + ".all")):
        m = re.search(r"method cpu \([^)]*\) ([0-9.]+) s", line)
        if m:
            vals.append(float(m.group(1)))
    return vals
mf, ma = method_cpu("fsil"), method_cpu("authors")
print("in-process method CPU (fsil: learner + episodes; authors: preprocessing + soft k-means + VB): fsil median "
      "%.2f s, authors median %.2f s, authors / fsil %.2fx" % (st.median(mf), st.median(ma), st.median(ma) / st.median(mf)))
d = sys.argv[2]
a = np.load(d + "/pred-fsil.npy"); b = np.load(d + "/pred-authors.npy")
print("predictions differing: %d of %d queries" % ((a != b).sum(), a.size))
PY
