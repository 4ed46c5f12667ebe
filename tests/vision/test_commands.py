"""The dice/quarx commands: JSON formats, exit codes and one-line errors on bad input."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.detector.die_values import load_value_model
from vision.detector.profile import DiceProfile
from vision.detector.taught_boxes import FEATURES, SCALES, ScoreHead

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "detector.onnx"
SAMPLES = ROOT / "datasets" / "samples"


def run(*args):
    return subprocess.run([sys.executable, "-m", "vision.commands", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_help_lists_commands():
    out = run("--help").stdout
    for cmd in ("dice", "quarx", "dataset", "train", "eval", "bench"):
        assert cmd in out


@pytest.mark.parametrize("data", [b"", b"not an image", b"\x89PNG\r\n\x1a\n garbage"])
def test_bad_input_one_line_error(tmp_path, data, expected):
    if not MODEL.exists():
        pytest.skip("no model installed")
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(data)
    for cmd in (["dice", str(bad), "--json"], ["quarx", str(bad), "--json"]):
        r = run(*cmd)
        assert r.returncode != 0
        assert "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and str(bad) in r.stderr


def test_missing_file_and_model(tmp_path):
    r = run("dice", str(tmp_path / "nope.jpg"), "--model", str(tmp_path / "m.onnx"))
    assert r.returncode != 0 and "no model installed" in r.stderr and "Traceback" not in r.stderr


def test_dice_json_one_object_per_image(expected):
    if not MODEL.exists():
        pytest.skip("no model installed")
    names = list(expected["dice"])
    r = run("dice", *[str(SAMPLES / n) for n in names], "--json")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == len(names)
    for name, line in zip(names, lines):
        obj = json.loads(line)
        assert set(obj) == {"image", "dice"} and obj["image"].endswith(name)
        for d in obj["dice"]:
            assert set(d) == {"value", "color", "box", "confidence"}
            assert (d["value"] is None or 1 <= d["value"] <= 6) and (d["color"] is None or isinstance(d["color"], str))  # None: unsure
            assert len(d["box"]) == 4 and 0 <= d["confidence"] <= 1


def test_quarx_json(expected):
    if not MODEL.exists():
        pytest.skip("no model installed")
    name = next(iter(expected["quarx"]))
    r = run("quarx", str(SAMPLES / name), "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert set(obj) == {"image", "spheres", "cards", "number_cards"}
    if obj["spheres"] is None:  # unsure: a card's count is null, and no number cards are offered
        assert obj["number_cards"] == [] and any(c[4] is None for c in obj["cards"])
    else:
        assert sum(obj["number_cards"]) == min(obj["spheres"], 31) or obj["spheres"] > 31
    assert all(len(c) == 5 for c in obj["cards"])


def test_a_profile_taught_on_another_detector_is_refused_in_words(tmp_path):
    if not MODEL.exists() or not (ROOT / "models" / "die_values.onnx").exists():
        pytest.skip("no models installed")
    head = ScoreHead(np.zeros((SCALES, FEATURES), np.float32), np.zeros(SCALES, np.float32), "another-detector")
    path = DiceProfile(load_value_model().digest, score_head=head).save(tmp_path / "p.json")
    image = next(SAMPLES.glob("*.jpg"))
    r = run("dice", str(image), "--profile", str(path), "--json")
    assert r.returncode == 2 and "taught on detector another-detector" in r.stderr and "Traceback" not in r.stderr


def test_eval_scores_the_reader_as_shipped_on_a_real_split(tmp_path):
    """`tablesight eval` reads each photo with every value source of read_dice (tiles included);
    on three real valid photos the shipped reader answers each die right and nothing else."""
    if not MODEL.exists():
        pytest.skip("no model installed")
    real = ROOT / "datasets" / "real-dice-webcam"
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    rows = ["filename,split,n_dice,width,height"]
    for name in ("valid_1", "valid_2", "valid_3"):
        (tmp_path / "images" / f"{name}.jpg").write_bytes((real / "images" / f"{name}.jpg").read_bytes())
        (tmp_path / "labels" / f"{name}.txt").write_text((real / "labels" / f"{name}.txt").read_text())
        rows.append(f"{name}.jpg,valid,0,640,480")
    (tmp_path / "split.csv").write_text("\n".join(rows) + "\n")
    out = tmp_path / "metrics.json"
    r = run("eval", "--real-dir", str(tmp_path), "--synthetic-count", "1", "--quarx-count", "2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    got = json.loads(out.read_text())
    assert set(got["real_valid"]) == {"reader", "net", "pips", "auto"}
    assert got["real_valid"]["reader"] == {"labels": 4, "predictions": 4, "recall": 1.0, "precision": 1.0,
                                           "found_any_value": 1.0}
    for kind in ("quarx_close", "quarx"):
        auto = got["quarx"][kind]["auto"]
        assert auto["exact"] + auto["unsure"] + auto["wrong"] == 1.0
    assert 0 <= got["synthetic"]["value_accuracy_reader"] <= 1
