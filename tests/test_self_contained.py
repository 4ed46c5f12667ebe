"""Issue 12, item 14: the repository needs nothing beside it. No README line, docstring or test
sends anyone to a folder beside the clone, and every dataset folder says where it comes from and its licence."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = {".py", ".md", ".toml", ".js", ".html", ".txt", ".json", ".cfg", ".sh", ""}


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / n for n in names if Path(n).suffix in TEXT and (ROOT / n).is_file()]


def tracked_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "datasets"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    return [ROOT / n for n in names]


def test_nothing_points_outside_the_repository():
    outside = "../" + "shared"  # spelled in two parts so this file does not find itself
    offenders = [str(p.relative_to(ROOT)) for p in tracked_text_files()
                 if outside in p.read_text(encoding="utf-8", errors="replace")]
    assert offenders == []


def test_every_dataset_says_its_source_and_licence():
    shipped = {p.relative_to(ROOT / "datasets").parts[0] for p in tracked_files()
               if len(p.relative_to(ROOT / "datasets").parts) > 1}
    # Only folders the repository ships: datasets/generated is built locally and ignored by git.
    for folder in sorted(ROOT / "datasets" / name for name in shipped):
        readme = folder / "README.md"
        assert readme.exists(), f"{folder.name} has no README.md"
        text = readme.read_text(encoding="utf-8").lower()
        assert "licen" in text or (folder / "LICENSE").exists(), f"{folder.name}: no licence"
