"""The run-time vision code never needs torch, ultralytics or the server."""
import subprocess
import sys

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "detector.onnx"
SAMPLES = ROOT / "datasets" / "samples"


def test_detector_and_commands_import_without_training_stack():
    code = ("import sys, vision.detector, vision.commands, vision.live, vision.synth; "
            "bad = [m for m in ('torch', 'ultralytics', 'server') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
