"""The vision subcommands of `tablesight`: dice, quarx, dataset, train, eval, bench.

Each subcommand imports what it needs when it runs, not at the top: `tablesight serve` and
`--help` should not wait for onnxruntime and OpenCV to load, and the training commands need the
optional `train` extra (torch, ultralytics), which a plain install does not have. No import here
hides a cycle: vision never imports server.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _err(cmd: str, msg: str) -> None:
    print(f"tablesight {cmd}: {msg}", file=sys.stderr)


def _detector(cmd: str, path: Path | None):
    from vision.detector import NoModelError, load_detector

    try:
        return load_detector(path)
    except NoModelError as e:
        _err(cmd, str(e))
        return None


def _profile(path: Path | None, detector_sha: str):
    """(value model, profile) for --profile, read for the detector in use, or an error message in words."""
    from vision.detector.die_values import load_value_model
    from vision.detector.profile import ProfileError, load_profile
    from vision.detector.second_detector import installed_second_digest

    model = load_value_model()
    if path is None:
        return model, None, None
    if model is None:
        return None, None, "a dice profile needs the die value model (models/die_values.onnx), which is missing"
    try:
        return model, load_profile(path, model.digest, detector_sha, installed_second_digest()), None
    except ProfileError as e:
        return None, None, str(e)


def _dice(args: argparse.Namespace) -> int:
    from vision.detector import BadImageError, annotate, read_dice, read_image

    det = _detector("dice", args.model)
    if det is None:
        return 3
    model, profile, problem = _profile(args.profile, det.digest)
    if problem:
        _err("dice", problem)
        return 2
    status = 0
    for path in args.images:
        try:
            frame = read_image(path)
        except BadImageError as e:
            _err("dice", str(e))
            status = 2
            continue
        dice = read_dice(frame, det, conf=args.conf, value_source=args.value_source, sliced=not args.no_slice,
                         value_model=model, profile=profile)
        if args.json:
            print(json.dumps({"image": path, "dice": [d.to_json() for d in dice]}), flush=True)
        else:
            total = sum(d.value or 0 for d in dice)
            unsure = sum(d.value is None for d in dice)
            body = ", ".join(f"{d.value or '?'} ({d.color or 'colour unsure'})" for d in dice) or "no dice"
            if unsure:
                body += f"; {unsure} unsure (not counted)"
            print(f"{path}: {len(dice)} dice, total {total}: {body}", flush=True)
        if args.annotate:
            _save_annotated(args.annotate, path, annotate(frame, dice))
    return status


def _save_annotated(folder: Path, path: str, img) -> None:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / (Path(path).stem + "_annotated.jpg")), img)


def _quarx(args: argparse.Namespace) -> int:
    from vision.detector import BadImageError, annotate, read_image
    from vision.games.quarx.photo import count_quarx

    try:
        frame = read_image(args.image)
    except BadImageError as e:
        _err("quarx", str(e))
        return 2
    det = _detector("quarx", args.model)
    if det is None:
        return 3
    res = count_quarx(frame, det, conf=args.conf, method=args.method)
    if args.json:
        print(json.dumps({"image": args.image, **res.to_json()}))
    else:
        per = ", ".join(f"card {i + 1}: {c.spheres if c.spheres >= 0 else '?'}" for i, c in enumerate(res.cards))
        print(f"{args.image}: {res.sentence()}" + (f"  ({per})" if per else ""))
    if args.annotate:
        _save_annotated(args.annotate, args.image, annotate(frame, res))
    return 0


def _progress_bar(fraction: float, message: str) -> None:
    done = int(round(fraction * 30))
    sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {fraction * 100:3.0f}% {message[:70]:<70}")
    if fraction >= 1:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _teach(args: argparse.Namespace) -> int:
    import json as _json

    from vision.detector.die_values import load_value_model
    from vision.detector.errors import BadImageError
    from vision.teach import TeachError, learned_words, read_folder, teach

    det = _detector("teach", args.model)
    if det is None:
        return 3
    model = load_value_model()
    if model is None:
        _err("teach", "teaching needs the die value model (models/die_values.onnx), which is missing")
        return 3
    try:
        photos = read_folder(args.folder)
        prof = teach(photos, det, model, progress=None if args.quiet else _progress_bar, seed=args.seed)
    except (TeachError, BadImageError) as e:
        _err("teach", str(e))
        return 2
    prof.save(args.out)
    if args.json:
        print(_json.dumps(prof.report))
    else:
        r = prof.report
        b, a = r["held_out_before"], r["held_out_after"]
        changed = learned_words(r)
        print(f"{r['message']}\nheld out photo by photo ({r['photos']} photos, {r['dice']} dice, {r['seconds']} s): "
              f"right {b['recall']:.1%} -> {a['recall']:.1%}, wrong {b['wrong']} -> {a['wrong']}"
              + (f", colour {b['colour_right']:.1%} -> {a['colour_right']:.1%}" if a["colour_right"] is not None else "")
              + (f"\nwhat changed: {changed}" if changed else "")
              + (f"\nnote: {r['layer_note']}" if r.get("layer_note") else "")
              + f"\nprofile written to {args.out}")
    return 0


def _dataset(args: argparse.Namespace) -> int:
    from vision.training.dataset import build
    from vision.training.real_dice import REAL_DICE_DIR

    real = None if args.no_real else (args.real_dir or REAL_DICE_DIR)
    if real is not None and not (real / "split.csv").exists():
        _err("dataset", f"real dice set not found at {real} (use --real-dir or --no-real)")
        return 2
    print(build(args.out, args.seed, args.count, args.val_count, real, args.real_repeat, args.workers,
                args.varied, args.table_dice))
    return 0


def _train(args: argparse.Namespace) -> int:
    try:
        import torch  # noqa: F401
        import ultralytics  # noqa: F401
    except ImportError:
        _err("train", "training needs the train extra (torch + ultralytics): pip install -e '.[train]'")
        return 3
    from vision.training.train import export, finetune, train

    if args.finetune:
        run = finetune(args.data, args.finetune, args.epochs, args.imgsz, args.batch, args.name, args.threads)
        print(export(run / "weights" / "last.pt", args.output, args.imgsz, args.threads))
        return 0
    if args.export_only:
        print(export(args.export_only, args.output, args.imgsz, args.threads))
        return 0
    if not args.resume and not args.data.exists():
        _err("train", f"{args.data} not found: run `tablesight dataset build` first")
        return 2
    run = train(args.data, args.epochs, args.imgsz, args.batch, args.name, args.resume, args.threads,
                close_mosaic=args.close_mosaic, hours=args.hours)
    best = run / "weights" / "best.pt"
    print(export(best if best.exists() else run / "weights" / "last.pt", args.output, args.imgsz, args.threads))
    return 0


def _eval(args: argparse.Namespace) -> int:
    from vision.training.evaluate import main_eval

    return main_eval(args)


def _bench(args: argparse.Namespace) -> int:
    from vision.training.bench import main_bench

    return main_bench(args)


def add_commands(sub) -> None:
    """Register dice, teach, quarx, dataset, train, eval and bench on an argparse subparsers object."""
    p = sub.add_parser("dice", help="read the dice (value and colour) in photos",
                       description="Find the pip dice in each image and read their top value and colour.")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    p.add_argument("--json", action="store_true",
                   help='one JSON object per line per image: {"image", "dice": [{"value", "color", "box", "confidence"}]}')
    p.add_argument("--conf", type=float, default=0.25, help="minimum detection confidence (default 0.25)")
    p.add_argument("--value-source", choices=["reader", "net", "pips", "auto"], default="reader",
                   help="who reads the value: the crop classifier checked by the pip counter, unsure "
                        "(null) when they disagree (default); the pip counter with the network as fallback; "
                        "the network alone; or the counter only where the network is unsure")
    p.add_argument("--no-slice", action="store_true",
                   help="run the detector on the whole frame only (faster; misses small dice)")
    p.add_argument("--profile", type=Path, help="read with a dice profile made by `tablesight teach`")
    p.add_argument("--model", type=Path, help="ONNX model (default models/detector.onnx)")
    p.add_argument("--annotate", type=Path, metavar="DIR", help="also write annotated copies into DIR")
    p.set_defaults(func=_dice)

    p = sub.add_parser("teach", help="teach the die reader your own dice from a few labelled photos",
                       description="Adapt the die reader to your dice and table from labelled photos: DIR holds "
                                   "images/ and labels/ (one .txt per image, one line per die: 'value cx cy w h "
                                   "[colour]', normalised as YOLO tools write them). Writes a small profile for "
                                   "`tablesight dice --profile` and `tablesight serve --profile`; the shipped "
                                   "model is never changed, and a profile that does not read the held-out photos "
                                   "better keeps the shipped reader.")
    p.add_argument("folder", type=Path, metavar="DIR")
    p.add_argument("--out", type=Path, required=True, metavar="PROFILE", help="profile file to write (JSON)")
    p.add_argument("--model", type=Path, help="detector ONNX (default models/detector.onnx)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_teach)

    p = sub.add_parser("quarx", help="count the spheres on Quarx cards in a photo",
                       description="Count the spheres on the Quarx cards in view (per card and in total) and "
                                   "name the number cards that make the total, e.g. 23 = 16 + 4 + 2 + 1.")
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--json", action="store_true",
                   help='print {"image", "spheres", "cards": [[x1, y1, x2, y2, n], ...], "number_cards"} '
                        '(null where unsure)')
    p.add_argument("--conf", type=float, default=0.4, help="minimum detection confidence (default 0.4)")
    p.add_argument("--method", choices=["auto", "net", "classical"], default="auto",
                   help="auto: cards found and each counted by the sphere classifier, unsure rather than a "
                        "guess (default); classical: the same, the network's count where it is unsure; "
                        "net: the network alone")
    p.add_argument("--model", type=Path, help="ONNX model (default models/detector.onnx)")
    p.add_argument("--annotate", type=Path, metavar="DIR", help="also write an annotated copy into DIR")
    p.set_defaults(func=_quarx)

    p = sub.add_parser("dataset", help="build the training dataset (synthetic renders + real photos)",
                       description="Build a YOLO dataset folder deterministically from a seed.")
    dsub = p.add_subparsers(dest="dataset_command", metavar="ACTION")
    dsub.required = True
    b = dsub.add_parser("build", help="render the synthetic images and add the real train split",
                        description="Render COUNT synthetic images from SEED (validation: SEED+1) and add the "
                                    "real-dice-webcam train split (never its valid split).")
    b.add_argument("--out", type=Path, default=ROOT / "datasets" / "generated", help="output folder (replaced)")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--count", type=int, default=2600, help="synthetic training images (default 2600)")
    b.add_argument("--val-count", type=int, default=200, help="synthetic validation images (default 200)")
    b.add_argument("--real-dir", type=Path, help="real-dice-webcam folder (default datasets/real-dice-webcam)")
    b.add_argument("--real-repeat", type=int, default=3, help="copies of each real train photo (default 3)")
    b.add_argument("--no-real", action="store_true", help="synthetic only")
    b.add_argument("--workers", type=int, default=2, help="render processes (default 2)")
    b.add_argument("--varied", type=float, default=0.0, metavar="SHARE",
                   help="share of images (in tenths) drawn with randomised looks: any die colours, engraved "
                        "pips, patterned cloths, coloured lamps, close-up dice (default 0: the first recipe)")
    b.add_argument("--table-dice", type=int, default=0, metavar="N",
                   help="also N ray-cast dice pictures (vision.synth.table_dice, a second look) in the train split")
    b.set_defaults(func=_dataset)

    p = sub.add_parser("train", help="train the detector offline and export it to models/ (train extra)",
                       description="Train yolo11n from its YAML (no pretrained weights, no downloads) on the built "
                                   "dataset, then export ONNX to models/detector.onnx.")
    p.add_argument("--data", type=Path, default=ROOT / "datasets" / "generated" / "data.yaml")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--imgsz", type=int, default=320)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    p.add_argument("--name", default="detector", help="run folder under runs/ (default detector)")
    p.add_argument("--resume", action="store_true", help="continue runs/NAME/weights/last.pt")
    p.add_argument("--hours", type=float, help="time budget: ultralytics re-plans the epochs (and the "
                                                "learning-rate decay) after each epoch to fit it")
    p.add_argument("--close-mosaic", type=int, default=4, help="epochs at the end without mosaic (default 4)")
    p.add_argument("--export-only", type=Path, metavar="CKPT", help="only export this checkpoint to ONNX")
    p.add_argument("--finetune", type=Path, metavar="CKPT",
                   help="continue from our own checkpoint with a low learning rate and no mosaic, "
                        "for --epochs epochs, into runs/NAME (use a new --name)")
    p.add_argument("--output", type=Path, default=ROOT / "models" / "detector.onnx")
    p.set_defaults(func=_train)

    p = sub.add_parser("eval", help="measure the detector on real and synthetic hold-out images",
                       description="Real valid split recall/precision (centre-in-box + value rule of its README) "
                                   "and synthetic hold-out per-class P/R, value, colour and Quarx counts.")
    p.add_argument("--model", type=Path, help="ONNX model (default models/detector.onnx)")
    p.add_argument("--real-dir", type=Path, help="real-dice-webcam folder")
    p.add_argument("--split", default="valid", help="real split to score (default valid)")
    p.add_argument("--synthetic-seed", type=int, default=999, help="hold-out seed, never trained on (default 999)")
    p.add_argument("--synthetic-count", type=int, default=300)
    p.add_argument("--quarx-count", type=int, default=200, help="Quarx close-up/table images to count")
    p.add_argument("--conf", type=float, default=0.25)
    p.add_argument("--imgsz", type=int, help="network input size (default: the model's)")
    p.add_argument("--out", type=Path, help="write the figures as JSON here")
    p.set_defaults(func=_eval)

    p = sub.add_parser("bench", help="time our onnxruntime path against ultralytics' predict",
                       description="Median ms per 640x480 frame: our onnxruntime path vs ultralytics predict on the "
                                   "same frames and model (or vs OpenCV dnn when ultralytics is not installed).")
    p.add_argument("--model", type=Path, help="ONNX model (default models/detector.onnx)")
    p.add_argument("--pt", type=Path, help="the matching .pt checkpoint for ultralytics (default models/detector.pt: the shipped weights, rebuilt from the ONNX by vision.training.warm_start)")
    p.add_argument("--frames", type=int, default=30, help="frames to time (default 30)")
    p.add_argument("--rounds", type=int, default=5, help="rounds, each timing every path on every frame (default 5)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", type=Path, help="write the figures as JSON here")
    p.set_defaults(func=_bench)


def main(argv: list[str] | None = None) -> int:
    """Run the vision subcommands alone (the real entry point is `tablesight`)."""
    ap = argparse.ArgumentParser(prog="tablesight")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    add_commands(sub)
    args = ap.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
