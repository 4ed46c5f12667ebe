"""The detector's class list: the one place that defines class ids and names."""
from __future__ import annotations

# Order is the YOLO class id; changing it invalidates the shipped model.
CLASSES: tuple[str, ...] = (
    "die_1",
    "die_2",
    "die_3",
    "die_4",
    "die_5",
    "die_6",
    "sphere",
    "quarx_card",
    "number_card",
    "ubongo_die",
    "bonus_tile",
)
CLASS_ID: dict[str, int] = {name: i for i, name in enumerate(CLASSES)}
DIE_CLASSES: tuple[str, ...] = CLASSES[:6]


def die_value(name: str) -> int | None:
    """Pip value of a die class name, None for other classes."""
    if name.startswith("die_"):
        return int(name[4:])
    return None
