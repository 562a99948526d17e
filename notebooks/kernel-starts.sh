#!/usr/bin/env bash
# Starts fsil's Java kernel N times in a row, headless, and counts the starts that hang or fail (each start:
# launch from the kernelspec, wait for kernel_info, run one tiny cell, shut down; notebooks/kernel_starts.py).
#
#   notebooks/kernel-starts.sh 50                 the kernel as installed (kernelspec fsil-java)
#   notebooks/kernel-starts.sh 50 --unguarded     the same JVM and jars, started by the kernel's own main, without
#                                                 fsil's launcher fixes (-Dfsil.kernel.guard=false): the baseline
#   notebooks/kernel-starts.sh 50 --timeout 60    seconds to wait for kernel_info and for the cell (default 30)
#
# Installs the kernel into notebooks/target/jupyter like run-notebooks.sh (FSIL_SKIP_BUILD=1: reuse the jars
# already built by 'mvn -Pkernels package'); logs and, for a hung start, a jstack thread dump go to
# notebooks/target/kernel-starts/<time>. Exit status 0 when every start succeeded. Needs Jupyter from Debian
# (apt-get install jupyter-client; /usr/bin/python3).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nbdir="$root/notebooks"
work="$nbdir/target/jupyter"
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
n="$1"
shift
kernel=fsil-java
args=()
for a in "$@"; do
  case "$a" in
    --unguarded) kernel=fsil-java-unguarded ;;
    *) args+=("$a") ;;
  esac
done
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import jupyter_client' 2>/dev/null \
  || { echo "kernel-starts: needs Debian's jupyter_client: apt-get install jupyter-client" >&2; exit 2; }

"$nbdir/install-kernel.sh" "$work"
if [ "$kernel" = fsil-java-unguarded ]; then
  mkdir -p "$work/kernels/$kernel"
  /usr/bin/python3 - "$work/kernels/fsil-java/kernel.json" "$work/kernels/$kernel/kernel.json" <<'EOF'
import json, sys
spec = json.load(open(sys.argv[1]))
spec["argv"].insert(1, "-Dfsil.kernel.guard=false")
spec["display_name"] += " (unguarded)"
json.dump(spec, open(sys.argv[2], "w"), indent=2)
EOF
fi

export JUPYTER_PATH="$work" JUPYTER_DATA_DIR="$work/data" JUPYTER_RUNTIME_DIR="$work/runtime" \
       JUPYTER_CONFIG_DIR="$work/config" IPYTHONDIR="$work/ipython" PYDEVD_DISABLE_FILE_VALIDATION=1
logs="$nbdir/target/kernel-starts/$(date +%Y%m%d-%H%M%S)-$kernel"
exec /usr/bin/python3 "$nbdir/kernel_starts.py" "$n" --kernel "$kernel" --logs "$logs" ${args[@]+"${args[@]}"}
