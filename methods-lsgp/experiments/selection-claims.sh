#!/usr/bin/env bash
# The default select=best on exactly the claims episodes (claims.sh layout: glyphs, pretrained-mlp, 5-way, 15 queries
# per class, balanced, order seeds 1..5 x 300 episodes per shot; train_shots = the test shot). The model of a shot is
# trained once (seed 1 of selection.sh trains it) and read from the disk cache by every order seed.
# Usage: selection-claims.sh FSIL OUT_ROOT
set -u
FSIL=${1:-bin/fsil}
OUT=${2:-runs/lsgp-selection-claims}
mkdir -p "$OUT"
for shot in 1 5; do
  for seed in 1 2 3 4 5; do
    nice -n 10 "$FSIL" run --methods "ml-t0.2-best:lsgp[train_shots=$shot]" --datasets glyphs --backbone pretrained-mlp \
      --protocol fewshot --shots $shot --episodes 300 --order-seed $seed --threads 2 \
      --out "$OUT/shot$shot-seed$seed" > "$OUT/shot$shot-seed$seed.log" 2>&1
    echo "shot $shot seed $seed done $(date)" >> "$OUT/progress.txt"
  done
done
