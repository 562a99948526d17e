#!/usr/bin/env bash
# Checkpoint selection (select=best, the default) against the last iterate (select=last), the fixed kernel and NCM.
# (a) digits (README demo setting), (b) glyphs pretrained-mlp on the claims episodes of order seed 1 (claims.sh),
# (c) glyphs raw pixels (identity backbone) on the pixels.sh episodes of order seed 1.
# Usage: selection.sh FSIL OUT_ROOT   (FSIL = bin/fsil or a pinned copy of the built jars)
set -u
FSIL=${1:-bin/fsil}
OUT=${2:-runs/lsgp-selection}
mkdir -p "$OUT"
# (a) digits: 5 base classes, so no meta-validation classes at the default val_fraction (best falls back to last);
# val_fraction=0.4 holds out 2 of them
nice -n 10 "$FSIL" run --protocol fewshot --datasets digits --shots 1,5 --episodes 300 --threads 2 \
  --methods 'lsgp,last:lsgp[select=last],fixed:lsgp[meta_train=false],ncm,val04:lsgp[val_fraction=0.4]' \
  --out "$OUT/digits" > "$OUT/digits.log" 2>&1
# (b) glyphs, pretrained-mlp, claims episodes of order seed 1; `last` is the claims' ml-t0.2 model (read from cache)
for shot in 1 5; do
  M="best:lsgp[train_shots=$shot],last:lsgp[train_shots=$shot,select=last],fixed:lsgp[meta_train=false],ncm"
  [ $shot = 5 ] && M="$M,lsgp"
  nice -n 10 "$FSIL" run --methods "$M" --datasets glyphs --backbone pretrained-mlp --protocol fewshot \
    --shots $shot --episodes 300 --order-seed 1 --threads 2 \
    --out "$OUT/glyphs-shot$shot-seed1" > "$OUT/glyphs-shot$shot-seed1.log" 2>&1
  echo "glyphs shot $shot done $(date)" >> "$OUT/progress.txt"
done
# (c) raw pixels, 1-shot, order seed 1 (pixels.sh): the meta-trained variants that gain over the fixed kernel
M="fixed:lsgp[meta_train=false],ml-t1:lsgp[train_shots=1,tau=1],ml-t1-last:lsgp[train_shots=1,tau=1,select=last]"
M="$M,pl:lsgp[train_shots=1,loss=pl],pl-last:lsgp[train_shots=1,loss=pl,select=last],ncm"
nice -n 10 "$FSIL" run --methods "$M" --datasets glyphs --backbone identity --protocol fewshot --shots 1 \
  --episodes 300 --order-seed 1 --threads 2 --out "$OUT/pixels-shot1-seed1" > "$OUT/pixels-shot1-seed1.log" 2>&1
echo "pixels done $(date)" >> "$OUT/progress.txt"
