#!/usr/bin/env bash
# Session 2026-12-02b, last hour: detector v5 from v4 on fresh varied renders (seed 7), short budget.
set -e
cd /work/main
date
.venv/bin/tablesight dataset build --seed 7 --count 2400 --val-count 200 --varied 0.7 --workers 2
date
.venv/bin/python -m vision.training.train --start models/detector.pt --name detector_v5 \
   --hours 0.5 --lr0 0.0003 --close-mosaic 1 --threads 2 --epochs 6
date
