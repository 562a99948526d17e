#!/usr/bin/env bash
# fsil's PPCA fit (one thread) against the authors' per-class fit in numpy (one BLAS thread) on identical data,
# alternating between the two, several rounds, CPU time per class. Build first:
#   mvn -B -q -pl benchmarks -am package -DskipTests
# Usage: benchmarks/numpy/ppca-fit-vs-numpy.sh [rounds=5] [classes=50] [numpy dtype=float32] [fsil solver=auto]
#        [numpy algo=svd]
# The defaults compare fsil's default fit with the authors' algorithm (ppca_fit_numpy.py); "5 10 float64 full eigh"
# compares fsil's full d x d decomposition with LAPACK's eigh of the same matrix.
# Needs Debian's numpy (apt-get install -y python3-numpy); PYTHON overrides /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
classes=${2:-50}
dtype=${3:-float32}
solver=${4:-auto}
algo=${5:-svd}
jar=benchmarks/target/benchmarks.jar
py=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
java -cp "$jar" fsil.bench.ppca.PpcaFitCpuTiming export "$dir" classes="$classes" per_class=600 dim=640
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order="fsil numpy"; else order="numpy fsil"; fi
  for who in $order; do
    if [ "$who" = fsil ]; then
      java -cp "$jar" fsil.bench.ppca.PpcaFitCpuTiming time "$dir" q=20 covariance=biased solver="$solver"
    else
      OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "$py" benchmarks/numpy/ppca_fit_numpy.py "$dir" \
        q=20 dtype="$dtype" algo="$algo"
    fi
  done | sed "s/^/round $r: /"
done | tee "$dir/log"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '/ fsil /{split($5,a,"="); f[$2]=a[2]} / numpy /{split($6,a,"="); n[$2]=a[2]}
     END {for (r in f) {printf "round %s numpy/fsil CPU per class: %.1f / %.2f ms = %.1fx\n", r, n[r], f[r], n[r]/f[r]}}' \
  "$dir/log" | sort -n -k2
