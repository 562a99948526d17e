#!/usr/bin/env bash
# fsil's PPCA fit (one thread) against the authors' per-class fits in numpy (one BLAS thread) on identical data,
# taking turns, several rounds, CPU time per class. Build first:
#   mvn -B -q -pl benchmarks -am package -DskipTests
# Usage: benchmarks/numpy/ppca-fit-vs-numpy.sh [rounds=12] [classes=50] [numpy dtype=float32] [fsil solver=auto]
#        [numpy algos=svd,datasvd]
# The defaults compare fsil's default fit with both of the authors' paths (ppca_fit_numpy.py: svd = the HPPCA
# notebook's SVD of the covariance, datasvd = the PPCA notebook's SVD of the centred data); "5 10 float64 full eigh"
# compares fsil's full d x d decomposition with LAPACK's eigh of the same matrix.
# Every round runs fsil and each numpy algorithm once, in an order that rotates from round to round (so that a
# change of the machine's load hits every contender alike); the end prints, per algorithm, the ratio numpy / fsil of
# every round and its median and range over the rounds.
# Needs Debian's numpy (apt-get install -y python3-numpy); PYTHON overrides /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-12}
classes=${2:-50}
dtype=${3:-float32}
solver=${4:-auto}
algos=${5:-svd,datasvd}
jar=benchmarks/target/benchmarks.jar
# A fixed, pre-touched heap: otherwise the first fits of each JVM pay for faulting in the pages of a growing heap
# (kernel time, charged to the fitting thread), which made fsil's timed fit 1.5-6x slower than its steady state on an
# idle machine (34-76 ms against 11 ms per class). numpy's process allocates little and pays almost none of it.
java_opts=${FSIL_BENCH_JAVA_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch}
py=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
IFS=, read -r -a contenders <<< "fsil,$algos"
n=${#contenders[@]}
java -cp "$jar" fsil.bench.ppca.PpcaFitCpuTiming export "$dir" classes="$classes" per_class=600 dim=640
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
  for i in $(seq 0 $((n - 1))); do
    who=${contenders[$(((r - 1 + i) % n))]}
    if [ "$who" = fsil ]; then
      # shellcheck disable=SC2086 # options split on spaces
      java $java_opts -cp "$jar" fsil.bench.ppca.PpcaFitCpuTiming time "$dir" q=20 covariance=biased solver="$solver"
    else
      OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "$py" benchmarks/numpy/ppca_fit_numpy.py "$dir" \
        q=20 dtype="$dtype" algo="$who"
    fi
  done | sed "s/^/round $r: /"
  echo "# load average after round $r: $(cut -d' ' -f1-3 /proc/loadavg)"
done | tee "$dir/log"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# per round: the ratio numpy / fsil of each algorithm; then the median and range of each ratio over the rounds
awk '/ fsil /{split($5,a,"="); f[$2]=a[2]}
     / numpy /{split($6,a,"="); t[$2 " " $5]=a[2]; algo[$5]=1}
     END {
       for (r in f) for (g in algo) if ((r " " g) in t)
         printf "round %s numpy %s / fsil CPU per class: %.1f / %.2f ms = %.2fx\n", r, g, t[r " " g], f[r], t[r " " g]/f[r]
     }' "$dir/log" | sort -k2,2n -k4,4 | tee "$dir/ratios"
for g in ${algos//,/ }; do
  awk -v g="$g" '$4 == g {sub(/x$/, "", $NF); print $NF}' "$dir/ratios" | sort -g | awk -v g="$g" '
    {v[NR] = $1}
    END {
      if (NR == 0) exit
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "numpy %s / fsil: median %.2fx over %d rounds, range %.2f-%.2fx\n", g, m, NR, v[1], v[NR]
    }'
done
