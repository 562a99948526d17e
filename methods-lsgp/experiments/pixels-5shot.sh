#!/usr/bin/env bash
# select=last: these runs were made before checkpoint selection existed (the last iterate); select=last keeps them reproducible.
# Raw pixels (identity backbone): the setting where the features are not already fit to the base classes.
# Usage: methods-lsgp/experiments/pixels-5shot.sh FSIL OUT_ROOT   (from the repository root; FSIL = bin/fsil or a pinned
# copy of the built jars, as the recorded runs used; see docs/lsgp-results.md)
set -u
FSIL=${1:-bin/fsil}
OUT=${2:-runs/lsgp-pixels}
mkdir -p "$OUT"
M="fixed-t0.2:lsgp[meta_train=false],ml-t0.2:lsgp[train_shots=5,select=last],ml-t0.2-mean0:lsgp[train_shots=5,mean=0,select=last]"
M="$M,ml-t1:lsgp[train_shots=5,tau=1,select=last],pl-t0.2:lsgp[train_shots=5,loss=pl,select=last],ncm"
for seed in 1 2 3; do
  nice -n 10 "$FSIL" run --methods "$M" --datasets glyphs --backbone identity --protocol fewshot --shots 5 \
    --episodes 300 --order-seed $seed --threads 2 --out "$OUT/shot5-seed$seed" \
    > "$OUT/shot5-seed$seed.log" 2>&1
  echo "shot 5 seed $seed done $(date)" >> "$OUT/progress.txt"
done
