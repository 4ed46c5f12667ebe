#!/usr/bin/env bash
# 2026-12-07 (stop 46): classifier v12's test beds, run once and only for the twin that passed its
# choosing beds (rule: die_values_v12_choice.md). Usage: die_values_v12_test.sh twin12|twin12a
set -e
cd "$(dirname "$0")/../.."
P=.venv/bin/python
D=runs/die_crops
E=runs/eval
T=$1
DROP=""; [ "$T" = twin12a ] && DROP=--drop-unreadable
date
[ -f $D/real_train.npz ] || $P -m vision.training.die_crops --real train --out $D/real_train.npz
FIRST="$D/synth_s11.npz $D/varied_s12.npz $D/varied_s13.npz $D/varied_s14.npz"
TABLE="$D/tablev12_s23.npz $D/tablev12_s25.npz"
$P -m vision.training.die_classifier --data $FIRST $TABLE $D/real_train.npz $DROP --epochs 1 --lr 4e-4 \
   --init runs/die_values_$T/weights.pt --name die_values_v12_shipped
S=runs/die_values_v12_shipped/die_values.onnx
$P -m vision.training.reader_eval --value-model $S --splits valid --out $E/v12_shipped_test.json > $E/v12_shipped_test.log 2>&1 &
$P -m vision.training.reader_eval --splits valid --out $E/v4_shipped_test12.json > $E/v4_shipped_test12.log 2>&1
wait
$P -m vision.training.reader_eval --value-model runs/die_values_$T/die_values.onnx --splits valid --holdout-count 0 \
   --out $E/v12_twin_valid.json > $E/v12_twin_valid.log 2>&1 &
TABLESIGHT_VALUE_MODEL=$S $P -m vision.games.diceline.accuracy --ivory --seeds 0 4 > $E/v12_mats.log 2>&1
wait
$P -m vision.games.diceline.accuracy --ivory --seeds 0 4 > $E/v4_mats12.log 2>&1
date
