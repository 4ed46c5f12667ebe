"""Shared fixtures for the vision tests: the shipped model and the committed samples."""
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "detector.onnx"
SAMPLES = ROOT / "datasets" / "samples"


@pytest.fixture(scope="session")
def detector():
    if not MODEL.exists():
        pytest.skip(f"no model installed at {MODEL}: train one with `tablesight train`")
    from vision.detector import load_detector

    return load_detector(MODEL)


@pytest.fixture(scope="session")
def expected() -> dict:
    return json.loads((SAMPLES / "expected.json").read_text())
