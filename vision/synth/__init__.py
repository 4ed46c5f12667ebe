"""Deterministic synthetic renderer of YOLO-labelled table scenes (OpenCV + numpy only)."""
from vision.synth.scene import RenderedImage, render_image

__all__ = ["RenderedImage", "render_image"]
