"""A view becomes 'observed' only when it is the same over several frames in a row.

A reader says None for what it is unsure of (a card it cannot count this frame). Such a
reading that agrees with the view being counted, and is only less sure, neither counts nor
breaks the run: sensor noise makes a different card unsure on each frame, and "unsure" is
no evidence that the table changed. Any sure disagreement, or a hand, starts the count again.
"""
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
    # Count each top-level field of a dict view on its own (see `_feed_fields`): for readers
    # whose fields are read independently (Quarx: the middle cards and the players' piles).
    per_field: bool = False
    _candidate: str | None = None
    _candidate_view: Any = None
    _count: int = 0
    _emitted: str | None = None
    _fields: dict[str, tuple[str, Any, int]] = field(default_factory=dict)  # field -> (key, value, sure count)
    skipped: int = field(default=0)

    def feed(self, view: Any | None) -> Any | None:
        """The view, the first time it has been seen `required` times in a row; else None."""
        if view is None:
            # A hand over the table breaks the run: what is under the hand may be changing.
            self.skipped += 1
            self._candidate, self._candidate_view, self._count, self._fields = None, None, 0, {}
            return None
        if self.per_field and isinstance(view, dict):
            return self._feed_fields(view)
        key = _key(view)
        if key == self._candidate:
            self._count += 1
        elif self._candidate is not None and less_sure(view, self._candidate_view):
            return None
        else:
            self._candidate, self._candidate_view, self._count = key, view, 1
        if self._count >= self.required and key != self._emitted:
            self._emitted = key
            return view
        return None

    def _feed_fields(self, view: dict) -> dict | None:
        """Each field is stable after `required` sure, equal readings since the last change seen.

        A sure reading that disagrees with any field starts every field again (the table
        changed; what else changed with it may not be read yet). The view handed on has the
        stable fields, and None (unknown) for those not stable yet."""
        if any(v is not None and f in self._fields and not less_sure(v, self._fields[f][1])
               for f, v in view.items()):
            self._fields = {}
        for f, v in view.items():
            if v is None:
                continue
            k = _key(v)
            if f not in self._fields:
                self._fields[f] = (k, v, 1)
            elif self._fields[f][0] == k:
                self._fields[f] = (k, v, self._fields[f][2] + 1)
        stable = {f: (self._fields[f][1] if f in self._fields and self._fields[f][2] >= self.required else None)
                  for f in view}
        key = _key(stable)
        if all(v is None for v in stable.values()) or key == self._emitted:
            return None
        self._emitted = key
        return stable

    def holds(self, view: Any) -> bool:
        """True when `view` is what this stabiliser has already handed on: feeding it again
        could change nothing (unknown fields aside) until the table changes."""
        if view is None or self._emitted is None:
            return False
        if self.per_field and isinstance(view, dict):
            return _key(view) == self._emitted
        return _key(view) == self._emitted == self._candidate

    def reset(self) -> None:
        """Forget what was emitted (after an undo, the same view must count again)."""
        self._emitted, self._candidate, self._candidate_view, self._count, self._fields = None, None, None, 0, {}


def has_unknown(view: Any) -> bool:
    """True when some field (at any depth) of `view` is None."""
    if view is None:
        return True
    if isinstance(view, dict):
        return any(has_unknown(v) for v in view.values())
    if isinstance(view, (list, tuple)):
        return any(has_unknown(v) for v in view)
    return False


def less_sure(view: Any, than: Any) -> bool:
    """True when `view` says nothing against `than`: equal, or unknown (None) where `than` is known."""
    if view is None:
        return True
    if isinstance(view, dict):
        return isinstance(than, dict) and view.keys() == than.keys() and all(less_sure(view[k], than[k]) for k in view)
    if isinstance(view, (list, tuple)):
        return isinstance(than, (list, tuple)) and len(view) == len(than) and all(less_sure(a, b) for a, b in zip(view, than))
    return view == than
