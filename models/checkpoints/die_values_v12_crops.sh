#!/usr/bin/env bash
# 2026-12-07 (stop 46): the first-look crops for classifier v12 (both looks learned together; rule:
# die_values_v12_choice.md): v4's four sets rebuilt as its log says, in two lanes on the two cores.
# (Started at 04:47 with a last step cutting ray-cast crops too; that step was stopped before it ran,
# when the ray-cast dice were found too blurred to read: the ray-cast crops are cut by die_values_v12_run.sh.)
set -e
cd "$(dirname "$0")/../.."
P=.venv/bin/python
D=runs/die_crops
mkdir -p $D
date
( [ -f $D/synth_s11.npz ] || $P -m vision.training.die_crops --seed 11 --images 5000 --out $D/synth_s11.npz
  [ -f $D/varied_s12.npz ] || $P -m vision.training.die_crops --seed 12 --images 3000 --varied 1.0 --out $D/varied_s12.npz
  date ) &
( [ -f $D/varied_s13.npz ] || $P -m vision.training.die_crops --seed 13 --images 3000 --varied 1.0 --out $D/varied_s13.npz
  [ -f $D/varied_s14.npz ] || $P -m vision.training.die_crops --seed 14 --images 3000 --varied 1.0 --out $D/varied_s14.npz
  date ) &
wait
