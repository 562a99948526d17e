#!/usr/bin/env bash
# The auto preset against the official preset and the validated presets (docs/bavardage-results.md, "The auto
# preset against the fixed presets"): 1000 episodes per setting on the test classes, every method on the same episodes.
# Usage: methods-bavardage/experiments/auto-vs-presets.sh [OUT_ROOT]   (from the repository root)
# Then, per run directory, the paired differences auto - official and auto - validated:
#   bin/fsil compare OUT_ROOT/glyphs-bal --baseline official --out OUT_ROOT/glyphs-bal/vs-official
#   bin/fsil compare OUT_ROOT/glyphs-bal --baseline validated --out OUT_ROOT/glyphs-bal/vs-validated
# and the values auto chose: the auto_t_vb and auto_s_max rows of OUT_ROOT/glyphs-bal/summary.csv.
set -euo pipefail
R=${1:-runs/bavardage-auto}
F="bin/fsil run --quiet --protocol fewshot --shots 1,5 --episodes 1000 --threads 2"
$F --datasets glyphs --backbone pretrained-mlp --queries 75 --query-allocation balanced --out "$R/glyphs-bal" \
  --methods 'auto:bavardage[mixture=balanced],official:bavardage[preset=official,mixture=balanced],validated:bavardage[preset=glyphs-balanced],skm:soft-kmeans[temperature=20],ncm'
$F --datasets glyphs --backbone pretrained-mlp --queries 25 --query-allocation dirichlet --out "$R/glyphs-dir" \
  --methods 'auto:bavardage,official:bavardage[preset=official],validated:bavardage[preset=glyphs-unbalanced],skm:soft-kmeans[temperature=20],ncm'
$F --datasets fashion-mnist --backbone pretrained-mlp --queries 75 --query-allocation balanced --out "$R/fmnist-bal" \
  --methods 'auto:bavardage[mixture=balanced],official:bavardage[preset=official,mixture=balanced],validated:bavardage[preset=fashion-mnist-balanced],skm:soft-kmeans[temperature=5],ncm'
$F --datasets fashion-mnist --backbone pretrained-mlp --queries 75 --query-allocation dirichlet --out "$R/fmnist-dir" \
  --methods 'auto:bavardage,official:bavardage[preset=official],validated:bavardage[preset=fashion-mnist-unbalanced],skm:soft-kmeans[temperature=100],ncm'
$F --datasets digits --queries 75 --query-allocation balanced --out "$R/digits-bal" \
  --methods 'auto:bavardage[mixture=balanced],official:bavardage[preset=official,mixture=balanced],auto-unbal:bavardage,official-unbal:bavardage[preset=official],skm:soft-kmeans,ncm'
