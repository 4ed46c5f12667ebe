"""Letterbox and NMS against hand-made cases."""
import numpy as np
import pytest

from vision.detector.geometry import PAD_VALUE, Letterbox, letterbox, nms, pixel_box


def test_letterbox_landscape_pads_top_and_bottom():
    img = np.full((480, 640, 3), 200, np.uint8)
    out, lb = letterbox(img, 320)
    assert out.shape == (320, 320, 3)
    assert lb == Letterbox(0.5, 0.0, 40.0)
    assert (out[:40] == PAD_VALUE).all() and (out[-40:] == PAD_VALUE).all()
    assert (out[40:280] == 200).all()


def test_letterbox_portrait_and_upscale():
    out, lb = letterbox(np.zeros((100, 50, 3), np.uint8), 320)
    assert out.shape == (320, 320, 3)
    assert lb.scale == pytest.approx(3.2) and lb.pad_x == 80 and lb.pad_y == 0


def test_letterbox_with_a_stride_pads_only_to_the_next_multiple():
    img = np.full((480, 640, 3), 200, np.uint8)
    out, lb = letterbox(img, 320, stride=32)
    assert out.shape == (256, 320, 3)  # 240 rows of picture, 8 of grey above and below
    assert lb == Letterbox(0.5, 0.0, 8.0)
    assert (out[:8] == PAD_VALUE).all() and (out[-8:] == PAD_VALUE).all()
    assert (out[8:248] == 200).all()
    square, _ = letterbox(np.zeros((320, 320, 3), np.uint8), 320, stride=32)
    assert square.shape == (320, 320, 3)


def test_boxes_map_back_to_original_pixels():
    lb = Letterbox(0.5, 0.0, 40.0)
    net = np.array([[10, 50, 110, 90], [-5, 0, 400, 400]], np.float32)
    orig = lb.to_original(net, 640, 480)
    assert orig[0].tolist() == [20, 20, 220, 100]
    assert orig[1].tolist() == [0, 0, 640, 480]  # clipped to the image


def test_nms_keeps_best_of_overlapping_and_separate_boxes():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 10, 9]], np.float32)
    scores = np.array([0.8, 0.9, 0.5, 0.7], np.float32)
    assert nms(boxes, scores, 0.5).tolist() == [1, 2]


def test_nms_threshold_edge_and_empty():
    boxes = np.array([[0, 0, 10, 10], [5, 0, 15, 10]], np.float32)  # IoU = 1/3
    scores = np.array([0.9, 0.8], np.float32)
    assert nms(boxes, scores, 0.34).tolist() == [0, 1]
    assert nms(boxes, scores, 0.33).tolist() == [0]
    assert nms(np.zeros((0, 4), np.float32), np.zeros(0, np.float32)).tolist() == []


def test_pixel_box_takes_the_far_edge_of_the_last_pixel_and_none_for_an_empty_mask():
    mask = np.zeros((10, 12), bool)
    assert pixel_box(mask) is None
    mask[3, 5] = True
    assert pixel_box(mask) == (5.0, 3.0, 6.0, 4.0)
    mask[7, 2] = True
    assert pixel_box(mask) == (2.0, 3.0, 6.0, 8.0)
