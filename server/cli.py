"""The `tablesight` command: one entry point, a subcommand per job."""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.detector.profile import DiceProfile


def default_db() -> Path:
    """Per-user SQLite file: $XDG_DATA_HOME/tablesight/tablesight.sqlite."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tablesight" / "tablesight.sqlite"


def _dice_profile(command: str, path: Path | None) -> tuple[bool, DiceProfile | None]:
    """(True, the dice profile at `path`, or None when no path is given); (False, None) after
    saying why on stderr as "tablesight COMMAND: reason" (missing, unreadable, another model)."""
    if path is None:
        return True, None
    from server.dice_profile import load_for_this_model
    from vision.detector.profile import ProfileError

    try:
        return True, load_for_this_model(path)
    except ProfileError as exc:
        print(f"tablesight {command}: {exc}", file=sys.stderr)
        return False, None


def _db_arg(text: str) -> str | Path:
    """`--db`: a PostgreSQL URL stays text (it is no file name), anything else is a path."""
    return text if text.startswith(("postgresql://", "postgres://")) else Path(text)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.app import create_app
    from server.security import AccessPolicy
    from server.store import StoreError
    from vision.sources import FrameSource, parse_source

    try:
        policy = AccessPolicy.for_bind(args.host, args.allow_origin)
    except ValueError as exc:
        print(f"tablesight serve: {exc}", file=sys.stderr)
        return 2
    usable, profile = _dice_profile("serve", args.profile)
    if not usable:
        return 2
    if profile is not None:
        print(f"dice profile: {args.profile} ({profile.report.get('message') or 'no report'})", file=sys.stderr)
    source = None
    if args.source != "none":
        try:
            spec = parse_source(args.source)
        except ValueError as exc:
            print(f"tablesight serve: {exc}", file=sys.stderr)
            return 2
        source = FrameSource(spec)
        print(f"camera source: {spec.kind} {spec.target}", file=sys.stderr)
    try:
        app = create_app(args.db, source=source, detector=not args.no_detector, policy=policy, profile=profile)
    except StoreError as exc:
        print(f"tablesight serve: {exc.reason}", file=sys.stderr)
        return 2
    if policy.warning:
        print(f"WARNING: {policy.warning}", file=sys.stderr)
    print(f"TableSight on http://{args.host}:{args.port}/  (event log: {app.state.tables.store.path})", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


def _corners(text: str) -> list[tuple[float, float]]:
    """`--corners "x,y x,y x,y x,y"`: four points in the camera's pixels; ValueError in words."""
    try:
        points = [tuple(float(v) for v in pair.split(",")) for pair in text.split()]
    except ValueError:
        points = []
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise ValueError(f"{text!r} is not four corners like '12,40 610,38 620,470 8,465'")
    return points  # type: ignore[return-value]


def _camera(args: argparse.Namespace) -> int:
    import logging
    import threading

    from server.edge_worker import CameraWorker, LinkRefused, ServerLink, run
    from vision.games.readers import READERS
    from vision.sources import FrameSource, parse_source

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    token = args.token or os.environ.get("TABLESIGHT_CAMERA_TOKEN")
    if not token:
        print("tablesight camera: give the table's camera token (TABLESIGHT_CAMERA_TOKEN or --token; the table's "
              "page shows it to whoever created the table)", file=sys.stderr)
        return 2
    try:
        spec = parse_source(args.source)
    except ValueError as exc:
        print(f"tablesight camera: {exc}", file=sys.stderr)
        return 2
    detector = None
    if not args.no_detector:
        from vision.detector import NoModelError, load_detector

        try:
            detector = load_detector()
        except NoModelError as exc:
            print(f"tablesight camera: reading without the detector ({exc})", file=sys.stderr)
    calibration = None
    if args.corners is not None:
        from vision.calibration import from_clicks

        try:
            calibration = from_clicks(_corners(args.corners))
        except ValueError as exc:
            print(f"tablesight camera: --corners: {exc}", file=sys.stderr)
            return 2
    usable, profile = _dice_profile("camera", args.profile)
    if not usable:
        return 2
    worker = CameraWorker(ServerLink(args.server, args.table, token), READERS, detector,
                          source=f"{spec.kind}:{spec.target}", calibration=calibration, markers=args.markers,
                          profile=profile)
    source = FrameSource(spec).start()
    stop = threading.Event()
    # Ctrl-C and a service manager's TERM only ask the loops to end: a KeyboardInterrupt raised
    # at a random point could land between a lock's acquire and its release (seen once as a
    # worker that never exited under load).
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    print(f"camera worker: {spec.kind} {spec.target} -> {args.server} table {args.table}", file=sys.stderr)
    try:
        run(worker, source, stop)
    except LinkRefused as exc:
        print(f"tablesight camera: the server refused: {exc.reason}", file=sys.stderr)
        return 2
    finally:
        source.stop()
    return 0


DEMO_CLIPS = {"diceline": "diceline_round.mp4", "ubongo": "ubongo_area.mp4", "quarx": "quarx_rounds.mp4"}
FOOTAGE_SEEDS = {"diceline": 3, "ubongo": 2, "quarx": 1}  # seeds the camera reads best through the clip (see README)


def _footage(args: argparse.Namespace) -> int:
    game = args.game
    seed = FOOTAGE_SEEDS[game] if args.seed is None else args.seed
    out = args.out or Path("datasets/demo") / DEMO_CLIPS[game]
    out.parent.mkdir(parents=True, exist_ok=True)
    from server.evaluation.demo_footage import (
        diceline_clip,
        quarx_clip,
        rehearse,
        ubongo_clip,
        write_clip,
    )

    if game == "quarx":
        frames, car = quarx_clip(seed, rounds=args.rounds or 3)
    elif game == "diceline":
        frames, car = diceline_clip(seed)
    else:
        frames, car = ubongo_clip(seed, rounds=args.rounds or 3)
    from server.detection import detector_loader

    write_clip(frames, car, out)
    print(f"{out}: {car.frames} frames {car.size[0]}x{car.size[1]}, {out.stat().st_size / 1e6:.1f} MB; "
          f"{len(car.moves)} moves, {len(car.typed)} typed by the demo; sidecar {out.with_suffix('.json')}")
    r = rehearse(out, detector=detector_loader())  # the clip through the live path, as `serve` will play it
    print(f"rehearsed: camera {len(r.camera)} moves, typed by the demo {len(r.typed)}, "
          f"after a click {r.clicked}, missed by the camera {r.missed}, wrong {r.wrong}, "
          f"scoring camera moves {r.scores_by_camera}, exact {r.exact}")
    return 0 if r.exact and not r.missed else 1


def _markers(args: argparse.Namespace) -> int:
    import cv2

    from vision.calibration import marker_sheet

    if not cv2.imwrite(str(args.out), marker_sheet()):
        print(f"tablesight markers: cannot write {args.out}", file=sys.stderr)
        return 2
    print(f"{args.out}: print at 100% on A4")
    return 0


def _bench_frames(args: argparse.Namespace) -> int:
    from server.detection import detector_loader
    from server.evaluation.frame_bench import time_detector, time_diceline_die_reader, time_game

    # The readers as the server runs them: with the detector when one is installed (Diceline's
    # cells are then also read by the die reader).
    loader = detector_loader()
    rows = [time_game(game, n=args.frames, hold=args.hold, detector_loader=loader)
            for game in ("quarx", "ubongo", "diceline")]
    det = time_detector(args.frames)
    if det is not None:
        rows.append(det)
    print(f"CPU ms per frame; the reader runs until the table settles (share of frames read); "
          f"core share at {args.fps:g} frames/s; detector {'on' if loader else 'not installed'}")
    print(f"{'frame path':34} {'frame':>9} {'median':>7} {'p90':>7} {'mean':>7} {'read':>6} {'core':>6}")
    for r in rows:
        print(f"{r.game:34} {r.size[0]}x{r.size[1]:<5} {r.median_ms:7.1f} {r.p90_ms:7.1f} {r.mean_ms:7.1f} "
              f"{100 * r.read_share:5.0f}% {100 * r.core_share(args.fps):5.1f}%")
    dice = time_diceline_die_reader() if loader else None
    if dice is not None:
        cells, whole = dice
        print(f"one Diceline read with the die reader: {cells:.0f} ms at the die cells, {whole:.0f} ms with the "
              f"detector over the whole frame and its tiles (median CPU, same frames in turn): {whole / cells:.1f}x")
    return 0


def _bench_cafe(args: argparse.Namespace) -> int:
    from server.evaluation.cafe_bench import main as bench

    bench(args.pg, tables=args.tables)
    return 0


def _quarx_kind(move: str) -> str:
    return "reveals" if move.startswith("reveal") else "turn overs" if move.startswith("turn over") else "piles laid"


def _handsfree_eval(args: argparse.Namespace) -> int:
    from server.evaluation.handsfree_quarx import run_quarx

    totals = {"expected": 0, "recognised": 0, "wrong": 0, "clicks": 0, "typed": 0, "exact": 0}
    kinds: dict[str, list[int]] = {}  # kind of move -> [found by the camera, in the script]
    for seed in range(1, args.seeds + 1):
        r = run_quarx(seed, rounds=args.rounds, together_every=args.together_every, players=args.players)
        totals["expected"] += len(r.expected)
        totals["recognised"] += r.recognised
        totals["wrong"] += r.wrong
        totals["clicks"] += r.clicks
        totals["typed"] += r.typed
        totals["exact"] += r.exact
        print(f"seed {seed}: {r.recognised}/{len(r.expected)} moves recognised, {r.wrong} wrong, {r.clicks} clicks, {r.typed} typed, "
              f"scores {r.scores} (script {r.expected_scores})")
        for text in r.expected:
            kinds.setdefault(_quarx_kind(text), [0, 0])[1] += 1
        for text in r.camera_moves:
            if text in r.expected:
                kinds[_quarx_kind(text)][0] += 1
    print("by the camera, per kind of move: " + ", ".join(f"{k} {f}/{n}" for k, (f, n) in kinds.items()))
    print(f"total over {args.seeds} games: {totals['recognised']}/{totals['expected']} moves recognised, "
          f"{totals['wrong']} wrong moves applied, {totals['clicks']} needed a click, {totals['typed']} typed by hand, "
          f"{totals['exact']} games found entirely by the camera")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablesight",
        description="A camera companion for tabletop games: reads the table, checks the rules, keeps the score.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    serve = sub.add_parser(
        "serve",
        help="run the live server and page (camera picture, tables, legal moves, scores)",
        description="Run the live server: the page, the HTTP/WebSocket API and the camera picture. "
        "Every table's moves go to an SQLite event log, so a restart loses nothing.",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to bind (default 127.0.0.1: this machine only; 0.0.0.0 lets phones on your "
                       "Wi-Fi in, and anyone else on that network: there are no accounts)")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                       help="another origin whose pages may change tables, e.g. http://tablesight.lan:8000 "
                       "(its host name is also answered); repeatable")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--source",
        default="auto",
        help="camera: a webcam index (0), a video file, an image folder, 'demo' (bundled footage), "
        "'auto' (webcam 0 if one answers, else the demo; default) or 'none'",
    )
    serve.add_argument("--db", type=_db_arg, default=default_db(),
                       help=f"event log: an SQLite file (default {default_db()}) or a PostgreSQL URL "
                       "(postgresql://user@host/dbname) that several server processes share")
    serve.add_argument("--no-detector", action="store_true", help="show the camera picture without detections")
    serve.add_argument("--profile", type=Path, default=None, metavar="PROFILE",
                       help="read dice with this profile (made by `tablesight teach` or on the page); default: the "
                       "profile taught on the page for this camera, if any")
    serve.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    serve.set_defaults(func=_serve)

    cam = sub.add_parser(
        "camera",
        help="run a table's camera next to the webcam and send what it reads to the central server",
        description="An edge camera worker: reads the webcam here (hand check, detector, the game's reader, "
        "stabiliser) and sends the table's server its state, each stable view and its picture; the server "
        "plays the moves. Reconnects by itself; a view sent twice plays nothing twice.",
    )
    cam.add_argument("--server", required=True, help="the server's URL as the worker reaches it, e.g. http://cafe.lan:8000")
    cam.add_argument("--table", required=True, help="the table's id (on its page)")
    cam.add_argument("--source", default="0", help="webcam index (default 0), a video file or an image folder")
    cam.add_argument("--token", default=None,
                     help="the table's camera token (default: $TABLESIGHT_CAMERA_TOKEN, which keeps it out of the process list)")
    cam.add_argument("--no-detector", action="store_true", help="read classically, without the network")
    cam.add_argument("--corners", default=None, metavar="'X,Y X,Y X,Y X,Y'",
                     help="the board's four corners in the camera's pixels (boards seen at an angle: Diceline)")
    cam.add_argument("--markers", action="store_true",
                     help="calibrate from the printed corner markers (tablesight markers) once they are in view")
    cam.add_argument("--profile", type=Path, default=None, metavar="PROFILE",
                     help="read dice with the profile taught for this camera (`tablesight teach DIR --out PROFILE` "
                     "with photos from this webcam); default: the shipped die reader")
    cam.set_defaults(func=_camera)

    footage = sub.add_parser(
        "footage",
        help="render a scripted demo clip (Quarx rounds, a Diceline round or an Ubongo game, hands passing over)",
        description="Render a bundled demo clip from our own renderer: the footage `serve --source demo` plays. "
        "Each clip gets a JSON sidecar (players, setup, the moves a person types and when) and is then "
        "played through the live camera path to check that the camera reads every visible move.",
    )
    footage.add_argument("--game", choices=sorted(DEMO_CLIPS), default="quarx", help="which game (default quarx)")
    footage.add_argument("--out", type=Path, default=None,
                         help="video file to write (default datasets/demo/" + ", ".join(f"{g}: {f}" for g, f in DEMO_CLIPS.items()) + ")")
    footage.add_argument("--seed", type=int, default=None,
                         help="script seed (defaults " + ", ".join(f"{g} {s}" for g, s in FOOTAGE_SEEDS.items())
                         + ": every visible move read by the camera)")
    footage.add_argument("--rounds", type=int, default=None, help="Quarx rounds or Ubongo rolls (default 3)")
    footage.set_defaults(func=_footage)

    markers = sub.add_parser(
        "markers",
        help="write the printable ArUco marker sheet that calibrates a board automatically",
        description="Write a printable page (A4 at 150 dpi) with corner markers 0-3 around a 3x3 board area. "
        "Lay a board on it; the camera finds the markers and maps the board to a top-down grid.",
    )
    markers.add_argument("--out", type=Path, default=Path("tablesight-markers.png"), help="PNG to write")
    markers.set_defaults(func=_markers)

    hf = sub.add_parser(
        "handsfree-eval",
        help="measure hands-free play on scripted footage: moves recognised, wrong moves, clicks",
        description="Run scripted Quarx games (rendered frames with hands and noise: the reveal, number cards "
        "laid face down in finishing order, turned over) through the whole camera path and report how many "
        "moves the camera found, invented, or needed a click for.",
    )
    hf.add_argument("--seeds", type=int, default=10, help="number of scripted games (seeds 1..N)")
    hf.add_argument("--rounds", type=int, default=3, help="rounds per game")
    hf.add_argument("--players", type=int, default=2, choices=[2, 3, 4], help="players at the table (default 2)")
    hf.add_argument("--together-every", type=int, default=2,
                    help="every Nth round two players lay their number cards at once, so the camera must ask (0: never)")
    hf.set_defaults(func=_handsfree_eval)

    fb = sub.add_parser(
        "bench-frames",
        help="time the whole camera frame path per game (median ms per frame, frames per second)",
        description="Run each game's scripted footage through the live frame path (hand check, reader, "
        "stabiliser, reconcile, drawing) and report median and p90 milliseconds per frame.",
    )
    fb.add_argument("--frames", type=int, default=40, help="frames per game (default 40)")
    fb.add_argument("--hold", type=int, default=None,
                    help="frames each state of the table lies still (default: the scripts' own, 1-2 s)")
    fb.add_argument("--fps", type=float, default=8.0, help="camera frames per second for the core share (default 8)")
    fb.set_defaults(func=_bench_frames)

    bc = sub.add_parser(
        "bench-cafe",
        help="measure the café: moves/s and live latency with 1 and 2 server processes on PostgreSQL, "
        "start-up with 1,000 tables, CPU per camera worker",
        description="Start server processes on PostgreSQL and measure moves per second and live-update "
        "latency (one and two processes), start-up with many tables in the log (against SQLite), and the CPU "
        "a camera worker spends per frame on the bundled Quarx clip. Each part uses a database of its own, "
        "created and dropped through --pg.",
    )
    bc.add_argument("--pg", required=True, help="PostgreSQL URL of a role that may create databases, e.g. postgresql://postgres@localhost/postgres")
    bc.add_argument("--tables", type=int, default=1000, help="tables in the log for the start-up figure (default 1000)")
    bc.set_defaults(func=_bench_cafe)

    from vision.commands import add_commands

    add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `tablesight` command."""
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
