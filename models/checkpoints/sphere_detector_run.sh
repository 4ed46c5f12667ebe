#!/usr/bin/env bash
# Session 2026-12-03 (4th): a sphere detector on warped Quarx cards, warm-started from detector v4's weights
# (its sphere class carried over). 2 threads, about 2.3 min an epoch; the time budget planned 29 epochs.
# sphere_detector_candidate.pt is epoch 19 (optimizer stripped), the one measured in models/MODEL_CARD.md;
# the run was stopped at epoch 21. To go on: train(..., start=models/checkpoints/sphere_detector_candidate.pt).
set -e
cd /work/main
date
[ -f datasets/generated/sphere_cards/data.yaml ] || OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.sphere_cards --out datasets/generated/sphere_cards --seed 7 --count 2000 --val-count 200
date
OMP_NUM_THREADS=2 .venv/bin/python -c "
from pathlib import Path
from vision.training.train import train
train(Path('datasets/generated/sphere_cards/data.yaml'), epochs=30, imgsz=320, batch=32, name='sphere_det', threads=2,
      start=Path('models/detector.pt'), hours=1.2, close_mosaic=2)
"
date
