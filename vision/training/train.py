"""Offline ultralytics training and ONNX export (needs the `train` extra: torch + ultralytics)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from vision.training.detector_features import add_feature_outputs

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "runs"
MODELS = ROOT / "models"


def offline_env(threads: int = 2) -> None:
    """Must run before ultralytics is imported: no downloads, no installs, our own config dirs."""
    cfg = RUNS / ".config"
    (cfg / "ultralytics").mkdir(parents=True, exist_ok=True)
    (cfg / "matplotlib").mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_CONFIG_DIR"] = str(cfg / "ultralytics")
    os.environ["MPLCONFIGDIR"] = str(cfg / "matplotlib")
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))


def _threads(threads: int) -> None:
    import torch
    import ultralytics.utils.torch_utils as tu

    # select_device() resets torch to NUM_THREADS (cpu_count-1 = 1 here); 2 halves epoch time.
    tu.NUM_THREADS = threads
    torch.set_num_threads(threads)


def train(data: Path, epochs: int = 16, imgsz: int = 320, batch: int = 32, name: str = "detector",
          resume: bool = False, threads: int = 2, model_yaml: str = "yolo11n.yaml",
          close_mosaic: int = 4, hours: float | None = None, start: Path | None = None,
          lr0: float | None = None) -> Path:
    """Train from scratch, or from our own checkpoint `start` with the full schedule (mosaic,
    warm-up, decay), or resume runs/<name>/weights/last.pt; returns the run folder.

    hours: a time budget; ultralytics then re-plans the epoch count (and the learning-rate
    decay and the final no-mosaic epochs) after every epoch, which suits a shared CPU.
    """
    offline_env(threads)
    from ultralytics import YOLO

    _threads(threads)
    run = RUNS / name
    last = run / "weights" / "last.pt"
    if resume:
        if not last.exists():
            raise FileNotFoundError(f"nothing to resume: {last} is missing")
        extra = {"time": hours} if hours else {}
        YOLO(str(last)).train(resume=True, device="cpu", workers=0, close_mosaic=close_mosaic, **extra)
        return run
    # Built from YAML (a bare .pt name would try to download weights) or from our own file.
    model = YOLO(str(start) if start else model_yaml)
    extra: dict = {"time": hours} if hours else {}
    if lr0 is not None:
        extra.update(optimizer="AdamW", lr0=lr0)
    # pretrained=False would make ultralytics drop the weights of a `start` checkpoint.
    model.train(data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, device="cpu", workers=0,
                pretrained=start is not None, amp=False, plots=False, project=str(RUNS), name=name,
                exist_ok=True, cache="ram", deterministic=False, seed=0, patience=1000,
                close_mosaic=close_mosaic, verbose=True, **extra)
    return run


def finetune(data: Path, weights: Path, epochs: int = 2, imgsz: int = 320, batch: int = 32,
             name: str = "detector_ft", threads: int = 2, lr0: float = 2e-4) -> Path:
    """Continue from our own checkpoint with a low learning rate and no mosaic (whole frames,
    as the camera sees them). Nothing is downloaded: the weights are ours."""
    offline_env(threads)
    from ultralytics import YOLO

    _threads(threads)
    YOLO(str(weights)).train(data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, device="cpu",
                             workers=0, amp=False, plots=False, project=str(RUNS), name=name, exist_ok=True,
                             cache="ram", deterministic=False, seed=0, optimizer="AdamW", lr0=lr0, lrf=0.3,
                             warmup_epochs=0, mosaic=0.0, close_mosaic=0, patience=1000)
    return RUNS / name


def export(weights: Path, out: Path = MODELS / "detector.onnx", imgsz: int = 320,
           threads: int = 2, dynamic: bool = False) -> Path:
    """Export a checkpoint to ONNX (1x3ximgszximgsz, opset 17) and copy it to `out`, with the
    features teaching reads as further outputs."""
    offline_env(threads)
    from ultralytics import YOLO

    _threads(threads)
    f = YOLO(str(weights)).export(format="onnx", imgsz=imgsz, opset=17, simplify=True,
                                  dynamic=dynamic, device="cpu")
    out.parent.mkdir(parents=True, exist_ok=True)
    if Path(f).resolve() != out.resolve():
        shutil.copyfile(f, out)
    return add_feature_outputs(out)


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="train / export (python -m vision.training.train)")
    ap.add_argument("--data", type=Path, default=ROOT / "datasets" / "generated" / "data.yaml")
    ap.add_argument("--epochs", type=int, default=16)
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--name", default="detector")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--hours", type=float, help="time budget (re-plans epochs as it goes)")
    ap.add_argument("--close-mosaic", type=int, default=4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--export", type=Path, help="export this checkpoint to ONNX")
    ap.add_argument("--finetune", type=Path, help="fine-tune from this checkpoint (low lr, no mosaic)")
    ap.add_argument("--start", type=Path, help="train from this checkpoint of ours (full schedule)")
    ap.add_argument("--lr0", type=float, help="initial learning rate (AdamW); default: ultralytics' choice")
    ap.add_argument("--output", type=Path, default=MODELS / "detector.onnx")
    ap.add_argument("--dynamic", action="store_true", help="dynamic input size")
    a = ap.parse_args()
    if a.finetune:
        print(finetune(a.data, a.finetune, a.epochs, a.imgsz, a.batch, a.name, a.threads))
    elif a.export:
        print(export(a.export, a.output, imgsz=a.imgsz, threads=a.threads, dynamic=a.dynamic))
    else:
        print(train(a.data, a.epochs, a.imgsz, a.batch, a.name, a.resume, a.threads,
                    close_mosaic=a.close_mosaic, hours=a.hours, start=a.start, lr0=a.lr0))


if __name__ == "__main__":
    main()
