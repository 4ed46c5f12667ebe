#!/usr/bin/env bash
# 2026-12-06: scene sphere detector v6 candidate: v5's data (the third look's 1,100 scenes, seed 13,
# and the fourth look's 1,100, seed 14; `scene_spheres_v5_run.sh` builds them) from the shipped v3
# with a learning rate ten times lower than v5 had (AdamW 2e-4), so that it may learn the fourth
# look's painted and ringed solids without losing v3's sureness on plain spheres (v5 read the
# ray-marched test look 34 exact against v3's 62). 480 px, 2 threads, a time budget. Chosen on the
# three beds of `python -m vision.training.scene_judge validate --mesh --detector ...`.
set -e
cd "$(dirname "$0")/../.."
cat > datasets/generated/sphere_scenes_v5_both.yaml <<YAML
path: $(pwd)/datasets/generated
train: [sphere_scenes_v3/images/train, sphere_scenes_v4/images/train]
val: sphere_scenes_v4/images/val
names:
  0: sphere
YAML
date
OMP_NUM_THREADS=2 .venv/bin/python -c "
from pathlib import Path
from vision.training.train import train
train(Path('datasets/generated/sphere_scenes_v5_both.yaml'), epochs=6, imgsz=480, batch=32, name='scene_spheres_v6', threads=2,
      start=Path('models/checkpoints/scene_spheres_v3.pt'), hours=${HOURS:-0.9}, close_mosaic=2, lr0=2e-4)
"
date
