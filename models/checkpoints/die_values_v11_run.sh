#!/usr/bin/env bash
# 2026-12-07 (stop 45): crops and twins for classifier v11 (rule: die_values_v11_choice.md beside this file).
set -e
cd "$(dirname "$0")/../.."
P=.venv/bin/python
mkdir -p runs/die_crops
while [ ! -f datasets/generated/recipe.json ]; do sleep 20; done  # detector v7's pictures first
date
[ -f runs/die_crops/varied_s15.npz ] || $P -m vision.training.die_crops --seed 15 --images 1500 --varied 1.0 --out runs/die_crops/varied_s15.npz
[ -f runs/die_crops/table_s23.npz ] || $P -m vision.training.die_crops --table-dice --seed 23 --images 2000 --out runs/die_crops/table_s23.npz
[ -f runs/die_crops/varied_s24.npz ] || $P -m vision.training.die_crops --seed 24 --images 2000 --varied 1.0 --out runs/die_crops/varied_s24.npz
date
$P -m vision.training.die_classifier --data runs/die_crops/varied_s15.npz runs/die_crops/table_s23.npz \
   --epochs 1 --lr 3e-4 --init models/checkpoints/die_values_synth_only.pt --name die_values_twin11
$P -m vision.training.die_classifier --data runs/die_crops/varied_s15.npz runs/die_crops/varied_s24.npz \
   --epochs 1 --lr 3e-4 --init models/checkpoints/die_values_synth_only.pt --name die_values_twin11ctl
date
