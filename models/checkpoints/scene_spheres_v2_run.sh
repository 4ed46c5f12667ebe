#!/usr/bin/env bash
# Session 2026-12-05: scene sphere detector v2, from v1 (models/checkpoints/scene_spheres.pt), on
# v1's 1,100 scenes (seed 11) plus 1,100 of the renderer's second look (seed 12: metal that
# mirrors the cloth and its neighbours, eggs from 1.12 long, eggs and discs twice as often).
# Validation: seed 1012 of the second look. 2 threads, 384 px, a time budget.
set -e
cd /work/main
date
[ -f datasets/generated/sphere_scenes/data.yaml ] || OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.sphere_scenes --count 1100 --val-count 150 --workers 2
[ -f datasets/generated/sphere_scenes_v2/data.yaml ] || OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.sphere_scenes --out datasets/generated/sphere_scenes_v2 --seed 12 --count 1100 --val-count 150 --workers 2
cat > datasets/generated/sphere_scenes_both.yaml <<YAML
path: /work/main/datasets/generated
train: [sphere_scenes/images/train, sphere_scenes_v2/images/train]
val: sphere_scenes_v2/images/val
names:
  0: sphere
YAML
date
OMP_NUM_THREADS=2 .venv/bin/python -c "
from pathlib import Path
from vision.training.train import train
train(Path('datasets/generated/sphere_scenes_both.yaml'), epochs=40, imgsz=384, batch=32, name='scene_spheres_v2', threads=2,
      start=Path('models/checkpoints/scene_spheres.pt'), hours=${HOURS:-1.25}, close_mosaic=3)
"
date
