"""Quarx / Dots: count the spheres, lay number cards, fastest correct players score."""
