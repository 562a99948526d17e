#!/usr/bin/env bash
# Executes fsil's notebooks headless with the Java kernel and checks them.
#
#   notebooks/run-notebooks.sh                 regenerate every notebook: execute, check, write the executed copy
#                                              (with its outputs) over notebooks/NAME.ipynb
#   notebooks/run-notebooks.sh 00-quickstart   only these (names or paths)
#   notebooks/run-notebooks.sh --check         execute and check into notebooks/target/executed, leave the
#                                              committed notebooks alone (what CI runs)
#
# Needs Jupyter from Debian (apt-get install jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client),
# a JDK 17+ and Maven. The kernel is installed into notebooks/target/jupyter (nothing is written under ~).
# Environment: FSIL_NB_TIMEOUT (seconds per cell, default 1800), FSIL_NB_TRIES (kernel start attempts, default 6),
# FSIL_SKIP_BUILD=1 (reuse the jars already built), FSIL_CACHE (datasets and features, default ~/.cache/fsil).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nbdir="$root/notebooks"
work="$nbdir/target/jupyter"
executed="$nbdir/target/executed"
check_only=0
names=()
for a in "$@"; do
  case "$a" in
    --check) check_only=1 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) names+=("$a") ;;
  esac
done
for tool in /usr/bin/jupyter /usr/bin/python3; do
  [ -x "$tool" ] || { echo "run-notebooks: $tool missing: apt-get install jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client" >&2; exit 2; }
done

notebooks=()
if [ ${#names[@]} -eq 0 ]; then
  for f in "$nbdir"/*.ipynb; do notebooks+=("$f"); done
else
  for n in "${names[@]}"; do
    f="$n"; [ -f "$f" ] || f="$nbdir/${n%.ipynb}.ipynb"
    [ -f "$f" ] || { echo "run-notebooks: no notebook '$n' (notebooks: $(cd "$nbdir" && ls *.ipynb | tr '\n' ' '))" >&2; exit 2; }
    notebooks+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
  done
fi

"$nbdir/install-kernel.sh" "$work"

# Jupyter's own folders inside target/, so nothing is written under ~.
export JUPYTER_PATH="$work" JUPYTER_DATA_DIR="$work/data" JUPYTER_RUNTIME_DIR="$work/runtime" \
       JUPYTER_CONFIG_DIR="$work/config" IPYTHONDIR="$work/ipython" PYDEVD_DISABLE_FILE_VALIDATION=1
mkdir -p "$executed" "$work/logs"
timeout="${FSIL_NB_TIMEOUT:-1800}"
tries="${FSIL_NB_TRIES:-6}"
failed=()
for nb in "${notebooks[@]}"; do
  name="$(basename "$nb" .ipynb)"
  log="$work/logs/$name.log"
  start=$SECONDS
  ok=0
  for ((try = 1; try <= tries; try++)); do
    # The kernel (rapaio-jupyter-kernel 3.0.1) sometimes never answers its first request, or exits right after
    # binding its sockets without a word: retry on those start-up failures only (no cell has run yet).
    if /usr/bin/jupyter nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=fsil-java \
        --ExecutePreprocessor.timeout="$timeout" --ExecutePreprocessor.startup_timeout=20 \
        --output-dir "$executed" --output "$name" "$nb" >"$log" 2>&1; then
      ok=1
      break
    fi
    if grep -q -e "Kernel didn't respond" -e "Kernel died before replying to kernel_info" "$log" \
        && [ "$try" -lt "$tries" ]; then
      echo "run-notebooks: $name: the kernel did not start (attempt $try of $tries), retrying" >&2
      continue
    fi
    break
  done
  if [ "$ok" != 1 ]; then
    echo "run-notebooks: $name FAILED to execute ($((SECONDS - start)) s); end of $log:" >&2
    tail -40 "$log" | sed 's/\x1b\[[0-9;]*m//g' >&2
    failed+=("$name")
    continue
  fi
  /usr/bin/python3 "$nbdir/nbtool.py" clean "$executed/$name.ipynb"
  if ! /usr/bin/python3 "$nbdir/nbtool.py" check "$executed/$name.ipynb"; then
    failed+=("$name")
    continue
  fi
  echo "run-notebooks: $name executed and checked in $((SECONDS - start)) s" >&2
  if [ "$check_only" = 0 ]; then
    cp "$executed/$name.ipynb" "$nb"
  fi
done

total=${#notebooks[@]}
echo "notebooks: $((total - ${#failed[@]})) passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-notebooks: failed: ${failed[*]}" >&2
  exit 1
fi
