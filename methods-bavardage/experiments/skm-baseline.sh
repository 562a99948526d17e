#!/usr/bin/env bash
# BAVARDAGE against the soft k-means baseline with the paper's preprocessing (soft-kmeans default: centred on the
# base mean, then L2) and with the former L2-only preprocessing (skm-l2), every method on the same episodes
# (docs/bavardage-results.md, "Soft k-means baseline with the paper's preprocessing").
# Usage: methods-bavardage/experiments/skm-baseline.sh [OUT_ROOT] [EPISODES_TABLE3] [EPISODES_FIG4]   (repo root)
# Then: python3 methods-bavardage/experiments/paired.py OUT_ROOT/<run> bavardage:soft-kmeans bavardage:skm-l2 ...
set -euo pipefail
R=${1:-runs/bavardage-skm}
E3=${2:-10000}
E4=${3:-1000}
F="bin/fsil run --quiet --protocol fewshot --threads 2"
# digits (identity backbone), the auto preset as in "The auto preset"
$F --datasets digits --shots 1,5 --queries 75 --query-allocation balanced --episodes 1000 --out "$R/digits-bal" \
  --methods 'auto:bavardage[mixture=balanced],auto-unbal:bavardage,softkmeans-init:bavardage[variant=softkmeans],soft-kmeans,skm-l2:soft-kmeans[preprocessing=l2],ncm'
# Tables 2-3 (bavardage README "Table 3 and Table 2"): the validated hyperparameters
G="--datasets glyphs --backbone pretrained-mlp --shots 1,5 --episodes $E3"
M="--datasets fashion-mnist --backbone pretrained-mlp --shots 1,5 --episodes $E3"
$F $G --queries 75 --query-allocation balanced --out "$R/glyphs-bal" \
  --methods 'bavardage:bavardage[mixture=balanced,t_vb=300,s_max=5],softkmeans-init:bavardage[variant=softkmeans],soft-kmeans:soft-kmeans[temperature=20],skm-l2:soft-kmeans[temperature=20,preprocessing=l2]'
$F $G --queries 25 --query-allocation dirichlet --out "$R/glyphs-dir" \
  --methods 'bavardage:bavardage[mixture=unbalanced,t_vb=1000,s_max=10],softkmeans-init:bavardage[variant=softkmeans],soft-kmeans:soft-kmeans[temperature=20],skm-l2:soft-kmeans[temperature=20,preprocessing=l2]'
$F $M --queries 75 --query-allocation dirichlet --out "$R/fmnist-dir" \
  --methods 'bavardage:bavardage[mixture=unbalanced,t_vb=100000,s_max=0.3],softkmeans-init:bavardage[variant=softkmeans],soft-kmeans:soft-kmeans[temperature=100],skm-l2:soft-kmeans[temperature=100,preprocessing=l2]'
$F $M --queries 75 --query-allocation balanced --out "$R/fmnist-bal" \
  --methods 'bavardage:bavardage[mixture=balanced,t_vb=100000,s_max=0.3],softkmeans-init:bavardage[variant=softkmeans],soft-kmeans:soft-kmeans[temperature=5],skm-l2:soft-kmeans[temperature=5,preprocessing=l2]'
# Fig. 4 (accuracy vs L and Q)
$F --datasets fashion-mnist --backbone pretrained-mlp --shots 1,2,5,10,20 --queries 75 --query-allocation dirichlet --episodes $E4 --out "$R/fmnist-L" \
  --methods 'bavardage:bavardage[mixture=unbalanced,t_vb=100000,s_max=0.3],soft-kmeans:soft-kmeans[temperature=100],skm-l2:soft-kmeans[temperature=100,preprocessing=l2]'
$F --datasets fashion-mnist --backbone pretrained-mlp --shots 1 --queries 25,50,75,100,150 --query-allocation dirichlet --episodes $E4 --out "$R/fmnist-Q" \
  --methods 'bavardage:bavardage[mixture=unbalanced,t_vb=100000,s_max=0.3],soft-kmeans:soft-kmeans[temperature=100],skm-l2:soft-kmeans[temperature=100,preprocessing=l2]'
$F --datasets glyphs --backbone pretrained-mlp --shots 1,2,5,10,15 --queries 25 --query-allocation balanced --episodes $E4 --out "$R/glyphs-L" \
  --methods 'bavardage:bavardage[mixture=balanced,t_vb=300,s_max=5],soft-kmeans:soft-kmeans[temperature=20],skm-l2:soft-kmeans[temperature=20,preprocessing=l2]'
$F --datasets glyphs --backbone pretrained-mlp --shots 1 --queries 10,25,50,75,95 --query-allocation balanced --episodes $E4 --out "$R/glyphs-Q" \
  --methods 'bavardage:bavardage[mixture=balanced,t_vb=300,s_max=5],soft-kmeans:soft-kmeans[temperature=20],skm-l2:soft-kmeans[temperature=20,preprocessing=l2]'
