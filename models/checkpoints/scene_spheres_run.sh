#!/usr/bin/env bash
# Session 2026-12-04: a sphere detector for photos with no card (vision.games.quarx.scene_spheres),
# from the card sphere detector candidate (one class, sphere), on table scenes of the training
# renderer (vision.synth.table_scenes, seed 11; validation seed 1011). 2 threads, 384 px.
set -e
cd /work/main
date
[ -f datasets/generated/sphere_scenes/data.yaml ] || OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.sphere_scenes --count 1100 --val-count 150 --workers 2
date
OMP_NUM_THREADS=2 .venv/bin/python -c "
from pathlib import Path
from vision.training.train import train
train(Path('datasets/generated/sphere_scenes/data.yaml'), epochs=40, imgsz=384, batch=32, name='scene_spheres', threads=2,
      start=Path('models/checkpoints/sphere_detector_candidate.pt'), hours=${HOURS:-1.0}, close_mosaic=3)
"
date
