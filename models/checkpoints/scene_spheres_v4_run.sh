#!/usr/bin/env bash
# Session 2026-12-05 (stop 34): scene sphere detector v4, from v3 (models/checkpoints/scene_spheres_v3.pt),
# a longer run on the same data (v3's validation mAP50 was still rising when its budget ended):
# v2's 1,100 scenes of the second look (seed 12) plus 1,100 of the third look (seed 13: glass
# spheres, a clear coat on glossy ones that mirrors its neighbours, hard to soft shadows, a tinted
# fill light, a lamp's colour cast). Trained at 480 px (v2: 384): spheres of 20-40 px were small
# at 384. Same recipe as v3. Validation: seed 1013 of the third look. 2 threads, a time budget.
set -e
cd /work/main
date
[ -f datasets/generated/sphere_scenes_v2/data.yaml ] || OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.sphere_scenes --out datasets/generated/sphere_scenes_v2 --seed 12 --count 1100 --val-count 150 --workers 2
[ -f datasets/generated/sphere_scenes_v3/data.yaml ] || OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.sphere_scenes --out datasets/generated/sphere_scenes_v3 --seed 13 --count 1100 --val-count 150 --workers 2
cat > datasets/generated/sphere_scenes_v3_both.yaml <<YAML
path: /work/main/datasets/generated
train: [sphere_scenes_v2/images/train, sphere_scenes_v3/images/train]
val: sphere_scenes_v3/images/val
names:
  0: sphere
YAML
date
OMP_NUM_THREADS=2 .venv/bin/python -c "
from pathlib import Path
from vision.training.train import train
train(Path('datasets/generated/sphere_scenes_v3_both.yaml'), epochs=40, imgsz=480, batch=32, name='scene_spheres_v4', threads=2,
      start=Path('models/checkpoints/scene_spheres_v3.pt'), hours=${HOURS:-1.5}, close_mosaic=3)
"
date
