"""Train the die value classifier (7 classes: 0 = no die, 1..6 = top value) and export ONNX.

A small CNN on 32 px crops (`vision.detector.die_crop`), trained in minutes on a laptop CPU.
Augmentation is what makes it read dice it never saw: the colour channels are shuffled and
sometimes inverted (a black die with white pips is a white die with black pips, inverted),
crops are turned and mirrored (every pip layout is symmetric under those), and brightness,
contrast, blur and noise vary. Needs the `train` extra (torch).
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from vision.detector.die_crop import CROP_SIZE
from vision.training.train import RUNS

CLASSES = 7


def build_model(classes: int = CLASSES, channels: int = 3, width: int = 1):
    """The small CNN on 32 px crops; `classes` outputs (the Quarx sphere classifier has 3);
    `channels`: 3 (RGB), or 4 with a mask of what the crop is of (the sphere classifier, v8 on);
    `width` multiplies every layer's channels (the cost grows with its square)."""
    import torch.nn as nn

    def conv(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    a, b, c = 16 * width, 32 * width, 64 * width
    # About 8 M multiply-adds per crop at width 1: a frame's dozen dice cost well under a millisecond.
    return nn.Sequential(*conv(channels, a), nn.MaxPool2d(2), *conv(a, b), *conv(b, b), nn.MaxPool2d(2),
                         *conv(b, c), *conv(c, c), nn.MaxPool2d(2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(c, classes))


def augment(x, gen):
    """x: N x C x S x S float in 0..1 (a torch tensor; channels past the third are masks: turned
    and mirrored with the colours, nothing else); returns an augmented copy."""
    import torch

    x, extra = x[:, :3], x[:, 3:]
    n = x.shape[0]
    perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    inv = torch.rand(n, generator=gen) < 0.2
    x[inv] = 1 - x[inv]
    k = int(torch.randint(0, 4, (1,), generator=gen))
    x, extra = torch.rot90(x, k, (2, 3)), torch.rot90(extra, k, (2, 3))
    if torch.rand(1, generator=gen) < 0.5:
        x, extra = torch.flip(x, (3,)), torch.flip(extra, (3,))
    grey = torch.rand(n, generator=gen) < 0.15
    x[grey] = x[grey].mean(1, keepdim=True).expand(-1, 3, -1, -1)
    c = torch.empty(n, 1, 1, 1).uniform_(0.6, 1.4, generator=gen)
    b = torch.empty(n, 1, 1, 1).uniform_(-0.2, 0.2, generator=gen)
    m = x.mean((1, 2, 3), keepdim=True)
    x = (x - m) * c + m + b
    x = x + torch.randn(x.shape, generator=gen) * torch.empty(n, 1, 1, 1).uniform_(0, 0.06, generator=gen)
    return torch.cat([x.clamp(0, 1), extra], 1)


def _tensor(x: np.ndarray):
    """uint8 N x S x S x C crops, BGR then any masks -> float N x C x S x S, RGB then the masks."""
    import torch

    x = np.concatenate([x[:, :, :, 2::-1], x[:, :, :, 3:]], axis=3)
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).float() / 255.0


def soft_targets(y, classes: int, smoothing: float):
    """Target distributions for classes `y` (a torch tensor): the class itself with label
    smoothing; a negative class (`die_crops.UNREADABLE`, a die whose value the crop does not
    show) as an even share over every class but 0 ("no die"), so that such a die is unsure."""
    import torch

    t = torch.full((len(y), classes), smoothing / classes)
    known = y >= 0
    t[known, y[known]] += 1 - smoothing
    t[~known, 1:] += (1 - smoothing) / (classes - 1)
    return t


def train(x: np.ndarray, y: np.ndarray, epochs: int = 12, batch: int = 128, lr: float = 3e-3,
          seed: int = 0, threads: int = 1, log=print, init=None, smoothing: float = 0.05, width: int = 1):
    """Train on uint8 BGR crops x (N x S x S x 3) and classes y (negative: a die of unreadable
    value, `soft_targets`; train accuracy counts the others); returns the torch model: `init`,
    or a new build_model of `width` drawn from `seed`. `smoothing`: label smoothing; the right
    class's target is 1 - smoothing + smoothing / classes, and the surest answers end near it
    (0.967 for three classes at 0.05)."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = build_model(width=width) if init is None else init
    xt, yt = _tensor(x), torch.from_numpy(y)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    for ep in range(epochs):
        model.train()
        order = torch.randperm(len(y), generator=gen)
        t0, total, right, seen = time.time(), 0.0, 0, 0  # seen: crops of a known class
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            xb, yb = augment(xt[idx].clone(), gen), yt[idx]
            out = model(xb)
            loss = F.cross_entropy(out, soft_targets(yb, out.shape[1], smoothing))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((out.argmax(1) == yb).sum())
            seen += int((yb >= 0).sum())
        log(f"epoch {ep + 1}/{epochs}: loss {total / len(y):.4f}, train acc {right / max(seen, 1):.4f}, "
            f"{time.time() - t0:.0f} s")
    return model.eval()


def predict(model, x: np.ndarray, batch: int = 512) -> np.ndarray:
    """Softmax probabilities (N x 7) of a torch model on uint8 BGR crops."""
    import torch

    out = []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            out.append(torch.softmax(model(_tensor(x[i:i + batch])), 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, CLASSES), np.float32)


def export(model, out: Path, size: int = CROP_SIZE) -> Path:
    """ONNX with a dynamic batch: N x C x size x size (RGB 0..1, then any mask) in; N x classes
    logits and the features under them (N x 64 at width 1) out (a user's profile retrains only
    the last layer on the features)."""
    import torch
    import torch.nn as nn

    class WithFeatures(nn.Module):
        def __init__(self, seq):
            super().__init__()
            self.body, self.head = seq[:-2], seq[-1]  # seq[-2] is dropout: identity at run time

        def forward(self, x):
            f = self.body(x)
            return self.head(f), f

    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, model[0].in_channels, size, size)
    torch.onnx.export(WithFeatures(model.eval()).eval(), dummy, str(out), input_names=["crops"],
                      output_names=["logits", "features"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}, "features": {0: "n"}},
                      opset_version=17, dynamo=False)
    return out


@contextmanager
def run_log(run: Path) -> Iterator[Callable[[str], None]]:
    """A log function for a training run: each line printed and appended to the run's train.log."""
    with open(run / "train.log", "a") as logf:
        def log(msg: str) -> None:
            print(msg, flush=True)
            logf.write(msg + "\n")
            logf.flush()
        yield log


def load_crops(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """The crops (x) and classes (y) of .npz files, end to end."""
    parts = [np.load(p) for p in paths]
    return np.concatenate([p["x"] for p in parts]), np.concatenate([p["y"] for p in parts])


def main() -> None:
    import argparse

    import torch

    ap = argparse.ArgumentParser(description="train the die value classifier "
                                             "(python -m vision.training.die_classifier)")
    ap.add_argument("--data", type=Path, nargs="+", required=True, help=".npz crop files (x, y)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", default="die_values", help="run folder under runs/")
    ap.add_argument("--output", type=Path, help="also export ONNX here (e.g. models/die_values.onnx)")
    ap.add_argument("--init", type=Path, help="start from these weights (a run's weights.pt)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=1, help="every layer this many times as wide (cost: its square)")
    ap.add_argument("--drop-unreadable", action="store_true",
                    help="leave out the crops of dice whose value the picture does not show (class < 0)")
    a = ap.parse_args()
    x, y = load_crops(a.data)
    if a.drop_unreadable:
        x, y = x[y >= 0], y[y >= 0]
    run = RUNS / a.name
    run.mkdir(parents=True, exist_ok=True)
    with run_log(run) as log:
        log(f"{len(y)} crops from {[str(p) for p in a.data]}; per class {np.bincount(y[y >= 0], minlength=7).tolist()}, "
            f"unreadable dice {int((y < 0).sum())}")
        init = None
        if a.init:
            init = build_model(width=a.width)
            init.load_state_dict(torch.load(a.init))
            log(f"starting from {a.init}")
        model = train(x, y, a.epochs, lr=a.lr, seed=a.seed, threads=a.threads, log=log, init=init, width=a.width)
    print(save_run(model, run, {"data": [str(p) for p in a.data], "epochs": a.epochs, "seed": a.seed,
                                "crops": int(len(y)), "lr": a.lr, "init": str(a.init) if a.init else None,
                                "width": a.width, "drop_unreadable": a.drop_unreadable},
                   "die_values.onnx", a.output))


def save_run(model, run: Path, recipe: dict, onnx_name: str, output: Path | None, size: int = CROP_SIZE,
             metadata: dict[str, str] | None = None) -> Path:
    """A finished run kept: its weights (to resume from), its recipe, its ONNX export (with
    `metadata` in the file's metadata, where given; also copied to `output` when given); returns
    the export's path in the run folder."""
    import torch

    torch.save(model.state_dict(), run / "weights.pt")
    (run / "recipe.json").write_text(json.dumps(recipe, indent=1))
    onnx_path = export(model, run / onnx_name, size)
    if metadata:
        import onnx

        m = onnx.load(str(onnx_path))
        for key, value in metadata.items():
            m.metadata_props.add(key=key, value=value)
        onnx.save(m, str(onnx_path))
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_bytes(onnx_path.read_bytes())
    return onnx_path


if __name__ == "__main__":
    main()
