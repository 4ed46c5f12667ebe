#!/usr/bin/env bash
# 2026-12-06 (stop 42): scene sphere detector v7b candidate: more epochs of v7's recipe (the third
# and fifth looks, AdamW 2e-4, 480 px; `scene_spheres_v7_run.sh` builds the data) from the v7
# candidate (models/checkpoints/scene_spheres_v7.pt). v7 at its own cuts, chosen on the three
# beds, tied v3 on exact pictures (83) with fewer wrong (5 against 9).
# The rule, written at 06:31 before its results: v7b replaces v3 if, at cuts chosen for it on the
# three beds by the three-bed rule (no more wrong pictures than v3's detector alone, 0 / 7 / 2, on
# any bed; then the most exact; then the fewest wrong), it reads more exact pictures than v3 with
# the judge at its cuts (83) and no more wrong in all (9); then, once, the ray-marched test look
# must read no fewer exact and no more wrong than now (63 / 0), and the Quarx close-ups, tables
# and card hold-out no more wrong than now.
set -e
cd "$(dirname "$0")/../.."
date
OMP_NUM_THREADS=2 .venv/bin/python -c "
from pathlib import Path
from vision.training.train import train
train(Path('datasets/generated/sphere_scenes_v7_both.yaml'), epochs=6, imgsz=480, batch=32, name='scene_spheres_v7b', threads=2,
      start=Path('models/checkpoints/scene_spheres_v7.pt'), hours=${HOURS:-0.9}, close_mosaic=2, lr0=2e-4)
"
date
