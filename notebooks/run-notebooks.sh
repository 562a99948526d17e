#!/usr/bin/env bash
# Executes fsil's notebooks headless with the Java kernel and checks them.
#
#   notebooks/run-notebooks.sh                 regenerate every notebook: execute, check, freeze (plots become
#                                              static images, see below) and write it over notebooks/NAME.ipynb
#   notebooks/run-notebooks.sh 00-quickstart   only these (names or paths)
#   notebooks/run-notebooks.sh --check         execute, check and freeze into notebooks/target/executed, leave the
#                                              committed notebooks alone (what CI runs)
#
# The executed copy (target/executed/NAME.ipynb) has live, interactive plots and carries plotly.js (4.5 MB);
# the committed copy (target/executed/committed/NAME.ipynb, copied over notebooks/NAME.ipynb when regenerating)
# has each plot as a PNG drawn by headless Chromium (nbtool.py freeze) and no plotly.js.
#
# Needs Jupyter from Debian (apt-get install jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client),
# Chromium (apt-get install chromium) to freeze, a JDK 17+ and Maven. The kernel is installed into
# notebooks/target/jupyter (nothing is written under ~).
# Environment: FSIL_NB_TIMEOUT (seconds per cell, default 1800), FSIL_SKIP_BUILD=1 (reuse the jars already built
# by 'mvn -Pkernels package' or verify), FSIL_CACHE (datasets and features, default ~/.cache/fsil), FSIL_RUNS (run
# directories of the experiments, default notebooks/target/runs here), FSIL_REQUIRE_BROWSER=1 (with --check: fail
# instead of skipping the freeze when Chromium is missing).
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
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
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
# The notebooks' experiments keep their run directories (notebooks/README.md); here they go under target/.
export FSIL_RUNS="${FSIL_RUNS:-$nbdir/target/runs}"
mkdir -p "$executed/committed" "$work/logs"
timeout="${FSIL_NB_TIMEOUT:-1800}"
freeze=1
if ! /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import nbtool; sys.exit(0 if nbtool.chromium() else 1)' "$nbdir"; then
  if [ "$check_only" = 0 ] || [ "${FSIL_REQUIRE_BROWSER:-0}" = "1" ]; then
    echo "run-notebooks: Chromium is needed to freeze the plots of the committed copies: apt-get install chromium" >&2
    exit 2
  fi
  echo "run-notebooks: no Chromium: the plots are not frozen (the committed copies are not checked)" >&2
  freeze=0
fi
failed=()
for nb in "${notebooks[@]}"; do
  name="$(basename "$nb" .ipynb)"
  log="$work/logs/$name.log"
  start=$SECONDS
  # One attempt: the kernel's start-up hangs are fixed by fsil's launcher (notebooks/README.md, "Kernel start-up";
  # notebooks/kernel-starts.sh measures them), so a kernel that does not start is a failure like any other.
  if ! /usr/bin/jupyter nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=fsil-java \
      --ExecutePreprocessor.timeout="$timeout" --ExecutePreprocessor.startup_timeout=60 \
      --output-dir "$executed" --output "$name" "$nb" >"$log" 2>&1; then
    echo "run-notebooks: $name FAILED to execute ($((SECONDS - start)) s); end of $log:" >&2
    tail -40 "$log" | sed 's/\x1b\[[0-9;]*m//g' >&2
    if grep -q -e "Kernel didn't respond" -e "Kernel died before replying to kernel_info" "$log"; then
      echo "run-notebooks: the kernel did not start: see its log above and notebooks/kernel-starts.sh" >&2
    fi
    failed+=("$name")
    continue
  fi
  /usr/bin/python3 "$nbdir/nbtool.py" clean "$executed/$name.ipynb"
  if ! /usr/bin/python3 "$nbdir/nbtool.py" check "$executed/$name.ipynb"; then
    failed+=("$name")
    continue
  fi
  if [ "$freeze" = 1 ]; then
    if ! /usr/bin/python3 "$nbdir/nbtool.py" freeze "$executed/$name.ipynb" "$executed/committed/$name.ipynb" \
        || ! /usr/bin/python3 "$nbdir/nbtool.py" check --committed "$executed/committed/$name.ipynb"; then
      failed+=("$name")
      continue
    fi
  fi
  echo "run-notebooks: $name executed and checked in $((SECONDS - start)) s" >&2
  if [ "$check_only" = 0 ]; then
    cp "$executed/committed/$name.ipynb" "$nb"
  fi
done

total=${#notebooks[@]}
echo "notebooks: $((total - ${#failed[@]})) passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-notebooks: failed: ${failed[*]}" >&2
  exit 1
fi
