#!/usr/bin/env bash
# select=last: these runs were made before checkpoint selection existed (the last iterate); select=last keeps them reproducible.
# Gibbs with long chains (300 burn-in + 100 kept sweeps, blocked lambda step) at prior mean 0, same episodes.
# Usage: methods-lsgp/experiments/supplementary-long-gibbs.sh FSIL OUT_ROOT   (from the repository root; FSIL = bin/fsil or a pinned
# copy of the built jars, as the recorded runs used; see docs/lsgp-results.md)
set -u
FSIL=${1:-bin/fsil}
OUT=${2:-runs/lsgp-supplong}
mkdir -p "$OUT"
for shot in 1 5; do
  M="fixed-t0.2-mean0-gibbs-long:lsgp[meta_train=false,val_episodes=0,mean=0,inference=gibbs,gibbs_burnin=300,gibbs_samples=100]"
  M="$M,ml-t0.2-mean0-gibbs-long:lsgp[train_shots=$shot,val_episodes=0,mean=0,inference=gibbs,gibbs_burnin=300,gibbs_samples=100,select=last]"
  for seed in 1 2 3 4 5; do
    nice -n 10 "$FSIL" run --methods "$M" --datasets glyphs --backbone pretrained-mlp --protocol fewshot \
      --shots $shot --episodes 300 --order-seed $seed --threads 1 \
      --out "$OUT/shot$shot-seed$seed" > "$OUT/shot$shot-seed$seed.log" 2>&1
    echo "shot $shot seed $seed done $(date)" >> "$OUT/progress.txt"
  done
done
