#!/usr/bin/env bash
# Session 2026-12-03: detector v6 from the v5 candidate on fresh varied renders (seed 9), 1 thread beside other work.
set -e
cd /work/main
date
.venv/bin/tablesight dataset build --seed 9 --count 2400 --val-count 200 --varied 0.7 --workers 2
date
.venv/bin/python -m vision.training.train --start models/checkpoints/detector_v5_candidate.pt --name detector_v6 \
   --hours 1.7 --lr0 0.0002 --close-mosaic 1 --threads 1 --epochs 8
date
