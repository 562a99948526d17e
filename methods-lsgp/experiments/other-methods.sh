#!/usr/bin/env bash
# Other methods on exactly the episodes of claims.sh (glyphs, pretrained-mlp, 5-way 1- and 5-shot, 15 queries per
# class, balanced, 300 episodes per order seed 1..5): NCM, PPCA and GP-Tree on the same episodes, plus the
# transductive soft k-means and BAVARDAGE with their validated glyphs settings (methods-bavardage README). Default
# parameters for ppca and gptree (gptree fits Gibbs nodes on the support set: inference=auto -> gibbs on episodes).
# ncm is run again as the check that the episodes coincide with the claims runs (per-episode results identical).
# Usage: other-methods.sh FSIL OUT_ROOT   (FSIL = bin/fsil or a pinned copy of the built jars)
set -u
FSIL=${1:-bin/fsil}
OUT=${2:-runs/lsgp-other-methods}
mkdir -p "$OUT"
M='ncm,ppca,gptree,soft-kmeans:soft-kmeans[temperature=20],bavardage:bavardage[preset=glyphs-balanced]'
for shot in 1 5; do
  for seed in 1 2 3 4 5; do
    nice -n 10 "$FSIL" run --methods "$M" --datasets glyphs --backbone pretrained-mlp --protocol fewshot \
      --shots $shot --episodes 300 --order-seed $seed --threads 2 \
      --out "$OUT/shot$shot-seed$seed" > "$OUT/shot$shot-seed$seed.log" 2>&1
    echo "shot $shot seed $seed done $(date)" >> "$OUT/progress.txt"
  done
done
