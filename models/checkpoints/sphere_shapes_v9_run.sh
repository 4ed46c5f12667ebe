#!/bin/bash
# Sphere classifier v9 (rule: sphere_shapes_v9_choice.md): twice as wide, from scratch, v6's data.
cd "$(dirname "$0")/../.."
OMP_NUM_THREADS=1 .venv/bin/python -m vision.training.sphere_classifier --cards 8000 --seed 4 \
  --labels count --width 2 --epochs 6 --lr 3e-3 --threads 1 --name sphere_shapes_v9
