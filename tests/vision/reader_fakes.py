"""Stand-ins for the die reader's models in tests: a detector that finds the boxes it is given, a
classifier that reads 5, and a dark table of light faces showing 5."""
import cv2
import numpy as np

from vision.synth.cube import PIP_LAYOUT


class FindsBoxes:
    """A detector that finds the given boxes down to the threshold it is asked for (one pass: the
    frames here are no larger than 1.25 of its input size); `asked` counts its passes."""

    imgsz = 320

    def __init__(self, *dets):
        self.dets = list(dets)
        self.asked = 0

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        self.asked += 1
        return [d for d in self.dets if d.score >= conf]


class ReadsFive:
    """A classifier that reads 5 with a given certainty."""

    def __init__(self, p5: float):
        self.p5 = p5

    def probabilities(self, crops, profile=None):
        p = np.full((len(crops), 7), (1 - self.p5) / 6, np.float32)
        p[:, 5] = self.p5
        return p


def table_of_fives(faces: dict[str, int], blank: int, width: int = 400):
    """A 240 px high dark table with a light 60 px face showing 5 at each x of `faces` and a blank
    light patch at x `blank`; the frame and each one's box (the patch's as "blank")."""
    frame = np.full((240, width, 3), 40, np.uint8)
    boxes = {}
    for name, x in faces.items():
        frame[60:120, x:x + 60] = 235
        for a, b in PIP_LAYOUT[5]:
            cv2.circle(frame, (x + int(a * 60), 60 + int(b * 60)), 5, (20, 20, 20), -1, cv2.LINE_AA)
        boxes[name] = (float(x), 60.0, float(x + 60), 120.0)
    frame[60:120, blank:blank + 60] = 235
    boxes["blank"] = (float(blank), 60.0, float(blank + 60), 120.0)
    return frame, boxes
