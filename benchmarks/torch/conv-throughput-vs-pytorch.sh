#!/usr/bin/env bash
# fsil's DJL backbones (libtorch 2.7.1 through DJL 0.36) against the same network in PyTorch from Python, on
# random images: images/s of the training step (forward, loss, backward, optimiser step) and of feature extraction
# (inference mode), alternating between the two, several rounds. Build first (offline; the class path of the test
# sources, where fsil.backbones.djl.ConvThroughput lives to reach the package-private networks):
#   mvn -o -q -B -pl backbones-djl -am test-compile dependency:build-classpath -DskipTests \
#       -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
# Usage: benchmarks/torch/conv-throughput-vs-pytorch.sh [rounds=5] [arch=conv4] [batch=64] [threads=1] [width=1]
#        [steps=20] [size=28] [warmup=5]
# warmup: untimed iterations before the timed ones, on both sides (the JVM compiles DJL's Java layer over the first
# few hundred batches; a long extraction runs at that compiled speed).
# Needs Debian's PyTorch (apt-get install -y python3-torch) for /usr/bin/python3; PYTHON overrides it. DJL runs
# offline; libtorch is extracted once into backbones-djl/target/djl-cache (as for the module's tests).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
arch=${2:-conv4}
batch=${3:-64}
threads=${4:-1}
width=${5:-1}
steps=${6:-20}
size=${7:-28}
warmup=${8:-5}
py=${PYTHON:-/usr/bin/python3}
cpfile=backbones-djl/target/test-classpath.txt
[ -f "$cpfile" ] || { echo "build first: see the head of $0" >&2; exit 2; }
cp="backbones-djl/target/test-classes:backbones-djl/target/classes:$(cat "$cpfile")"
args=(arch="$arch" batch="$batch" threads="$threads" width="$width" steps="$steps" warmup="$warmup" size="$size")
export TORCH_CPP_LOG_LEVEL=ERROR OMP_NUM_THREADS="$threads" MKL_NUM_THREADS="$threads"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc --all) CPUs)"
echo "# $("$py" -c 'import torch; print("PyTorch", torch.__version__)') (Python) vs libtorch 2.7.1 (DJL 0.36)"
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order="fsil torch"; else order="torch fsil"; fi
  for who in $order; do
    if [ "$who" = fsil ]; then
      # a failed run (e.g. a NaN loss, see README, Known problem) is reported and its round left out of the ratios
      java -Dai.djl.offline=true -cp "$cp" fsil.backbones.djl.ConvThroughput "${args[@]}" >"$dir/out" 2>"$dir/err" \
        || true
      grep '^fsil ' "$dir/out" || echo "failed: $(grep -m1 -E 'Exception|Error' "$dir/err" || tail -1 "$dir/err")"
    else
      "$py" benchmarks/torch/conv_throughput_torch.py "${args[@]}"
    fi
  done | sed "s/^/round $r: /"
done | tee "$dir/log"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{split($9,t,"="); split($11,e,"="); tr[$2,$3]=t[2]; ex[$2,$3]=e[2]; rs[$2]=1}
     END {for (r in rs) if (tr[r,"fsil"] > 0 && tr[r,"torch"] > 0)
            printf "%s %.6f %.6f\n", r, tr[r,"fsil"]/tr[r,"torch"], ex[r,"fsil"]/ex[r,"torch"]}' \
  "$dir/log" | sort -n > "$dir/ratios"
while read -r r t e; do
  printf "round %s fsil/PyTorch images/s: training %.2f, extraction %.2f\n" "${r%:}" "$t" "$e"
done < "$dir/ratios"
for col in 2 3; do
  name=$([ $col = 2 ] && echo training || echo extraction)
  cut -d' ' -f$col "$dir/ratios" | sort -g | awk -v n="$name" '{v[NR]=$1} END {
    m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2
    printf "%s fsil/PyTorch: median %.2f, range %.2f-%.2f, %d rounds\n", n, m, v[1], v[NR], NR}'
done
