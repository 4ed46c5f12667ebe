#!/usr/bin/env bash
# 2026-12-07 (stop 46): classifier v12's twins and their choosing beds (rule: die_values_v12_choice.md).
set -e
cd "$(dirname "$0")/../.."
P=.venv/bin/python
D=runs/die_crops
E=runs/eval
mkdir -p $E
date
# the ray-cast crops, cut with the readability mark, were started by hand at 05:04, one process each:
#   $P -m vision.training.die_crops --table-dice --seed 23 --images 2000 --out $D/tablev12_s23.npz
#   $P -m vision.training.die_crops --table-dice --seed 25 --images 3000 --out $D/tablev12_s25.npz
while [ ! -f $D/tablev12_s23.npz ] || [ ! -f $D/tablev12_s25.npz ]; do sleep 20; done
FIRST="$D/synth_s11.npz $D/varied_s12.npz $D/varied_s13.npz $D/varied_s14.npz"
TABLE="$D/tablev12_s23.npz $D/tablev12_s25.npz"
T4=models/checkpoints/die_values_synth_only.pt
$P -m vision.training.die_classifier --data $FIRST $TABLE --epochs 3 --lr 7e-4 --init $T4 --name die_values_twin12 &
$P -m vision.training.die_classifier --data $FIRST $TABLE --drop-unreadable --epochs 3 --lr 7e-4 --init $T4 --name die_values_twin12a &
wait
$P -m vision.training.die_classifier --data $FIRST --epochs 3 --lr 7e-4 --init $T4 --name die_values_twin12ctl &
$P -m vision.training.reader_eval --value-model models/die_values_synth_only.onnx --splits train --holdout-count 0 \
   --renders 300 --table-dice 150 --out $E/v4_twin_choosing12.json > $E/v4_twin_choosing12.log 2>&1
wait
date
for t in twin12 twin12a twin12ctl; do
  $P -m vision.training.reader_eval --value-model runs/die_values_$t/die_values.onnx --splits train --holdout-count 0 \
     --renders 300 --table-dice 150 --out $E/${t}_choosing.json > $E/${t}_choosing.log 2>&1 &
  [ $t = twin12a ] && wait
done
wait
date
