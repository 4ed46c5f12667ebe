"""Sphere classifier v11 (rule: sphere_shapes_v11_choice.md beside this file): v10's weights taught
3 more epochs at the cuts (18, 30, 45, 65). Run from the repository root: python models/checkpoints/sphere_shapes_v11_run.py
(the crops of two seeds are cut in two processes; the export is then named with its cuts)."""
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
import numpy as np
CUTS = (18, 30, 45, 65)

def part(seed):
    from vision.training.sphere_classifier import crops
    return crops(4000, seed, labels="count", cuts=CUTS)

if __name__ == "__main__":
    import torch
    from vision.training import die_classifier
    from vision.training.sphere_classifier import cuts_metadata
    run = Path("runs/sphere_shapes_v11"); run.mkdir(parents=True, exist_ok=True)
    data = run / "crops.npz"
    if data.is_file():
        d = np.load(data); x, y = d["x"], d["y"]
    else:
        with ProcessPoolExecutor(2) as ex:
            parts = list(ex.map(part, (7, 8)))
        x = np.concatenate([p[0] for p in parts]); y = np.concatenate([p[1] for p in parts])
        np.savez(data, x=x, y=y)
    with die_classifier.run_log(run) as log:
        log(f"{len(y)} crops from 8000 cards (seeds 7, 8) at cuts {CUTS}; per class {np.bincount(y, minlength=3).tolist()}")
        init = die_classifier.build_model(3, 3, 2)
        init.load_state_dict(torch.load("models/checkpoints/sphere_shapes_v10.pt"))
        log("starting from models/checkpoints/sphere_shapes_v10.pt")
        model = die_classifier.train(x, y, 3, lr=1e-3, seed=0, threads=2, log=log, init=init)
    print(die_classifier.save_run(model, run, {"cards": 8000, "seeds": [7, 8], "epochs": 3, "crops": int(len(y)),
                                               "cuts": CUTS, "lr": 1e-3, "labels": "count", "width": 2,
                                               "init": "models/checkpoints/sphere_shapes_v10.pt"}, "sphere_shapes.onnx", None,
                                  metadata=cuts_metadata(CUTS)))
