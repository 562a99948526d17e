#!/usr/bin/env bash
# select=last: these runs were made before checkpoint selection existed (the last iterate); select=last keeps them reproducible.
# shot 1, order seed 2 (rerun: its first directory was left by an interrupted run)
# Usage: methods-lsgp/experiments/seed2fix.sh FSIL OUT_ROOT   (from the repository root; FSIL = bin/fsil or a pinned
# copy of the built jars, as the recorded runs used; see docs/lsgp-results.md)
set -u
FSIL=${1:-bin/fsil}
OUT=${2:-runs/lsgp-claims}
mkdir -p "$OUT"
  M="ml-t0.2:lsgp[train_shots=1,val_episodes=0,select=last]"
  M="$M,ml-t0.2-mean0:lsgp[train_shots=1,val_episodes=0,mean=0,select=last]"
  M="$M,ml-t0.2-gibbs:lsgp[train_shots=1,val_episodes=0,inference=gibbs,select=last]"
  M="$M,ml-t1:lsgp[train_shots=1,val_episodes=0,tau=1,select=last]"
  M="$M,pl-t0.2:lsgp[train_shots=1,val_episodes=0,loss=pl,select=last]"
  M="$M,ml-t0.2-cal:lsgp[train_shots=1,calibrate=true,select=last]"
  M="$M,pl-t0.2-cal:lsgp[train_shots=1,loss=pl,calibrate=true,select=last]"
  for t in 0.2 0.5 0.75 1 1.5; do
    M="$M,fixed-t$t:lsgp[meta_train=false,val_episodes=0,tau=$t]"
  done
  M="$M,fixed-t0.2-mean0:lsgp[meta_train=false,val_episodes=0,mean=0]"
  M="$M,fixed-t0.2-gibbs:lsgp[meta_train=false,val_episodes=0,inference=gibbs]"
  M="$M,ncm"
nice -n 10 "$FSIL" run --methods "$M" --datasets glyphs --backbone pretrained-mlp --protocol fewshot \
  --shots 1 --episodes 300 --order-seed 2 --threads 2 --out "$OUT/shot1-seed2" > "$OUT/shot1-seed2.log" 2>&1
echo "shot 1 seed 2 (rerun) done $(date)" >> "$OUT/progress.txt"
