#!/usr/bin/env bash
# select=last: these runs were made before checkpoint selection existed (the last iterate); select=last keeps them reproducible.
# Supplementary variants on the same episodes (same order seeds and settings as claims/run.sh):
# Gibbs at prior mean 0 (blocked lambda step, and the [R2] order), and the fixed kernel with temperature scaling.
set -u
cd /work/wt-lsgp
D=/work/lsgp-runs/supp/dist
for shot in 1 5; do
  M="fixed-t0.2-mean0-gibbs:lsgp[meta_train=false,val_episodes=0,mean=0,inference=gibbs]"
  M="$M,fixed-t0.2-mean0-gibbs-r2:lsgp[meta_train=false,val_episodes=0,mean=0,inference=gibbs,gibbs_lambda=conditional]"
  M="$M,ml-t0.2-mean0-gibbs:lsgp[train_shots=$shot,val_episodes=0,mean=0,inference=gibbs,select=last]"
  M="$M,fixed-t0.2-cal:lsgp[meta_train=false,calibrate=true]"
  for seed in 1 2 3 4 5; do
    nice -n 10 $D/fsil run --methods "$M" --datasets glyphs --backbone pretrained-mlp --protocol fewshot \
      --shots $shot --episodes 300 --order-seed $seed --threads 1 \
      --out /work/lsgp-runs/supp/shot$shot-seed$seed > /work/lsgp-runs/supp/shot$shot-seed$seed.log 2>&1
    echo "shot $shot seed $seed done $(date)" >> /work/lsgp-runs/supp/progress.txt
  done
done
