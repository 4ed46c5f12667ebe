"""The rasterized choosing bed (vision.synth.mesh_scenes): one right count per picture, drawn
the same every time, and a renderer of its own."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from vision.synth import mesh_scenes
from vision.synth.mesh_scenes import KINDS, VISIBLE, MeshSceneShot, render_scene

SMALL = (160, 112)


@pytest.fixture(scope="module")
def shots() -> list[MeshSceneShot]:
    return [render_scene(3, i, SMALL) for i in range(20)]


def test_the_same_seed_and_index_draw_the_same_picture_and_another_index_another():
    a, b = render_scene(8, 2, SMALL), render_scene(8, 2, SMALL)
    assert a.image.shape == (SMALL[1], SMALL[0], 3) and a.image.dtype == np.uint8
    assert np.array_equal(a.image, b.image)
    assert a.things == b.things and a.boxes == b.boxes
    assert not np.array_equal(a.image, render_scene(8, 3, SMALL).image)
    assert not np.array_equal(a.image, render_scene(9, 2, SMALL).image)


def test_the_full_size_picture_is_480_by_320():
    shot = render_scene(1, 0)
    assert shot.image.shape == (320, 480, 3)
    assert shot.ids.shape == (320, 480)


def test_the_count_is_the_spheres_drawn_and_every_thing_has_a_box(shots):
    for shot in shots:
        assert shot.spheres == sum(t.kind == "sphere" for t in shot.things)
        assert len(shot.boxes) == len(shot.things) == len(shot.full_px)
        drawn = set(np.unique(shot.ids[shot.ids >= 0]).tolist())
        assert drawn == set(range(len(shot.things)))  # nothing left out is still in the picture


def test_every_sphere_is_at_least_seventy_percent_in_sight_and_wholly_in_the_picture(shots):
    h, w = SMALL[1], SMALL[0]
    hidden = 0
    for shot in shots:
        for i, thing in enumerate(shot.things):
            visible = int(np.count_nonzero(shot.ids == i))
            hidden += visible < 0.95 * shot.full_px[i]
            if thing.kind != "sphere":
                continue
            assert visible >= VISIBLE * shot.full_px[i] > 0
            x1, y1, x2, y2 = shot.boxes[i]
            assert 0 < x1 and 0 < y1 and x2 < w and y2 < h  # not cut by the picture's edge
    assert hidden >= 5  # things do hide each other: the rule has work to do


def test_every_decoy_shows_enough_pixels(shots):
    least = mesh_scenes.DECOY_MIN_PX * SMALL[0] * SMALL[1] / (480 * 320)
    for shot in shots:
        for i, thing in enumerate(shot.things):
            if thing.kind != "sphere":
                assert np.count_nonzero(shot.ids == i) >= least


def test_boxes_lie_inside_the_picture_and_hold_their_things_pixels(shots):
    h, w = SMALL[1], SMALL[0]
    for shot in shots:
        for i, (x1, y1, x2, y2) in enumerate(shot.boxes):
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            ys, xs = np.nonzero(shot.ids == i)
            assert (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1) == (x1, y1, x2, y2)


def test_a_sphere_stands_out_from_the_table_around_it(shots):
    """Where a sphere's box is, the picture is not the table: its pixels differ from the table
    just around the box, or are shaded across (a sphere the table's colour still has a lit and
    a dark side)."""
    checked = 0
    for shot in shots:
        grey = shot.image.astype(float).mean(2)
        colour = shot.image.astype(float)
        for i, thing in enumerate(shot.things):
            if thing.kind != "sphere":
                continue
            x1, y1, x2, y2 = (int(v) for v in shot.boxes[i])
            mine = shot.ids == i
            ring = np.zeros_like(mine)
            ring[max(y1 - 4, 0):y2 + 4, max(x1 - 4, 0):x2 + 4] = True
            ring &= (shot.ids == -1) & ~mine
            ring[y1:y2, x1:x2] = False
            inner = grey[mine]
            spread = np.percentile(inner, 95) - np.percentile(inner, 5)
            if ring.sum() >= 10:
                apart = np.abs(colour[mine].mean(0) - np.median(colour[ring], 0)).max()
            else:
                apart = 0.0
            assert apart > 12 or spread > 25, (thing, apart, spread)
            checked += 1
    assert checked >= 20


def test_over_twenty_pictures_spheres_and_many_decoys_appear_and_counts_vary(shots):
    kinds = {t.kind for shot in shots for t in shot.things}
    assert "sphere" in kinds
    assert len(kinds - {"sphere"}) >= 6
    assert kinds <= set(KINDS)
    counts = [shot.spheres for shot in shots]
    assert len(set(counts)) >= 3
    materials = {t.material for shot in shots for t in shot.things}
    assert {"matte", "metal", "painted"} <= materials


def test_things_stand_apart_on_the_table(shots):
    for shot in shots:
        for thing in shot.things:
            if thing.kind == "sphere":  # resting on the table: its centre one radius up (less
                # the facets' sag, at most 1 - cos 15 degrees with 12 segments)
                assert 0.96 * thing.size <= thing.centre[2] <= 1.001 * thing.size
        for i, a in enumerate(shot.things):
            for b in shot.things[i + 1:]:
                if a.kind == b.kind == "sphere":
                    gap = np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
                    assert gap > a.size + b.size


def test_a_triangle_covers_the_pixels_of_its_area():
    # a right triangle, half of a 40 x 40 square: its pixel centres number about 800
    sx, sy, q = np.array([10.0, 50.0, 10.0]), np.array([10.0, 10.0, 50.0]), np.ones(3)
    pix, *_ = mesh_scenes._fragments(sx, sy, q, np.array([[0, 1, 2]]), 64, 64, 0)
    assert abs(len(pix) - 800) <= 40
    assert len(np.unique(pix)) == len(pix)


def test_it_imports_nothing_from_the_other_renderers():
    tree = ast.parse(Path(mesh_scenes.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [n for n in names if n.startswith("vision")]
