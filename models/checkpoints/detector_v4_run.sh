#!/usr/bin/env bash
# Session 2026-12-02b: the detector on varied renders (70% with vision.synth.variety's looks, seed 5)
# + the real train split x3, warm start from the shipped weights; judged on the hold-out style.
set -e
cd /work/main
date
.venv/bin/tablesight dataset build --seed 5 --count 2400 --val-count 200 --varied 0.7 --workers 2
date
.venv/bin/python -m vision.training.train --start models/detector.pt --name detector_v4 \
   --hours 1.6 --lr0 0.0005 --close-mosaic 1 --threads 2 --epochs 8
date
