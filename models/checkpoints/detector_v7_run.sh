#!/usr/bin/env bash
# 2026-12-07 (stop 45): detector v7 from v4 (models/detector.pt) on fresh varied renders (seed 21) plus
# 1,200 ray-cast dice pictures (vision.synth.table_dice, a second look), 1 thread beside other work.
# Rule: detector_v7_choice.md beside this file, written before the run.
set -e
cd "$(dirname "$0")/../.."
date
.venv/bin/tablesight dataset build --seed 21 --count 2400 --val-count 200 --varied 0.7 --table-dice 1200 --workers 2
date
.venv/bin/python -m vision.training.train --start models/detector.pt --name detector_v7 \
   --hours 1.4 --lr0 0.0002 --close-mosaic 1 --threads 1 --epochs 8
date
