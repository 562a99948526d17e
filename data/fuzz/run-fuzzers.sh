#!/usr/bin/env bash
# Fuzzes the file readers with Jazzer, one JVM per reader (Jazzer fuzzes one test per JVM), after the default
# build has compiled the modules. Usage (from the repository root):
#   data/fuzz/run-fuzzers.sh                 # every reader for FuzzBudget.PER_READER (6 s): the CI step
#   data/fuzz/run-fuzzers.sh 600             # every reader for 600 s
#   data/fuzz/run-fuzzers.sh 600 CsvFuzzTest # one reader (class names in data/src/test/java/fsil/data/fuzz and
#                                            # eval/src/test/java/fsil/eval/fuzz)
# Exits non-zero on a finding: any exception other than FsilException, or a message that is not one line naming
# the file. The crashing input is written to data/src/test/resources/fsil/data/fuzz/<Class>Inputs/<method>/,
# where mvn verify replays it from then on; commit it with the fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-}"
tests="${2:-*FuzzTest}"
args=()
if [ -n "$seconds" ]; then
  # Jazzer passes jazzer.internal.arg.N to libFuzzer after the annotation's budget, so the last -max_total_time wins
  args+=("-Djazzer.internal.arg.0=fuzz" "-Djazzer.internal.arg.1=-max_total_time=$seconds")
fi
# the file readers (data) and the run layer's readers: run files, spec.json, units.csv (eval)
JAZZER_FUZZ=1 mvn -B -pl data,eval -am test -Dtest="fsil.data.fuzz.$tests,fsil.eval.fuzz.$tests" \
  -Dsurefire.failIfNoSpecifiedTests=false -DreuseForks=false "${args[@]}"
