"""A view becomes 'observed' only when it is the same over several frames in a row."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


def _key(view: Any) -> str:
    return json.dumps(view, sort_keys=True)


@dataclass
class Stabilizer:
    """Feed one view per usable frame (None for a skipped frame); get a view back when it is stable."""

    required: int = 5
    _candidate: str | None = None
    _count: int = 0
    _emitted: str | None = None
    skipped: int = field(default=0)

    def feed(self, view: Any | None) -> Any | None:
        """The view, the first time it has been seen `required` times in a row; else None."""
        if view is None:
            # A hand over the table breaks the run: what is under the hand may be changing.
            self.skipped += 1
            self._candidate, self._count = None, 0
            return None
        key = _key(view)
        if key == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = key, 1
        if self._count >= self.required and key != self._emitted:
            self._emitted = key
            return view
        return None

    def reset(self) -> None:
        """Forget what was emitted (after an undo, the same view must count again)."""
        self._emitted, self._candidate, self._count = None, None, 0
