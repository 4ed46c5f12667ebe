"""The detector: ONNX YOLO via onnxruntime, plus the classical steps that read what it finds.

Public API (all thread-safe; frames are numpy BGR uint8 arrays, boxes are (x1, y1, x2, y2)
floats in the frame's own pixels):

    load_detector(path: str | Path | None = None, threads: int | None = None) -> Detector
        The shared model (loaded once per path). Raises NoModelError("no model installed:
        ...") when models/detector.onnx (or $TABLESIGHT_MODEL) is missing.
    Detector.detect(frame, conf=0.25, iou=0.5, classes=None) -> list[Detection]
        Detection(cls: str, box: tuple[float, float, float, float], score: float)
    read_dice(frame, detector=None, conf=0.25, value_source="reader", sliced=True,
              value_model=None, profile=None, second=True) -> list[DieReading]   (detect_dice: the same)
        the detector on the whole frame and its tiles (and a second detector's boxes where it
        boxed nothing, models/second_detector.onnx), the value from the crop classifier
        (models/die_values.onnx) checked by the pip counter, a taught profile if given;
        DieReading(value: int 1..6 or None = unsure, color: str or None = unsure, box, confidence: float,
        net_value, pip_value, crop_value, crop_prob);
        DieReading.to_json() -> {"value", "color", "box", "confidence"}
    QuarxCount(spheres: int, cards: list[QuarxCard(box, spheres)], number_cards: list[int],
        sphere_boxes, sure); .to_json() -> {"spheres", "cards": [[x1, y1, x2, y2, n], ...],
        "number_cards"} (null where unsure); .sentence() -> "23 = 16 + 4 + 2 + 1"
        (counted by vision.games.quarx.photo.count_quarx)
    number_cards_for(total: int) -> list[int]
    annotate(frame, detections | dice readings | QuarxCount) -> frame (a new array)
    decode_image_bytes(data: bytes) -> frame       raises BadImageError (a ValueError) with a reason
    read_image(path) -> frame                      same, for files
"""
from vision.detector.annotate import annotate
from vision.detector.classes import CLASSES
from vision.detector.dice import DieReading, read_dice
from vision.detector.errors import BadImageError, NoModelError
from vision.detector.image_io import decode_image_bytes, read_image
from vision.detector.model import Detection, Detector, load_detector
from vision.detector.quarx import QuarxCard, QuarxCount, number_cards_for

detect_dice = read_dice

__all__ = ["CLASSES", "BadImageError", "Detection", "Detector", "DieReading", "NoModelError",
           "QuarxCard", "QuarxCount", "annotate", "decode_image_bytes", "detect_dice",
           "load_detector", "number_cards_for", "read_dice", "read_image"]
