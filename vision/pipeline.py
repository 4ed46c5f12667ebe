"""What a reader returns."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reading:
    """A TableView with a confidence per element, and what to draw on the picture."""

    view: dict[str, Any]
    confidence: dict[str, float] = field(default_factory=dict)
    drawables: Any = None  # detections or a result that vision.detector.annotate can draw
