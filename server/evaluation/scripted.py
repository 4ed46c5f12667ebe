"""A table's log held against a known script: what the scripted runs (the evaluations, the demo) share."""
from __future__ import annotations

from server.service import TableService


def off_script(log: list[str], script: list[str]) -> list[str]:
    """The log entries that differ from the script at their place (none while the log follows it)."""
    return [m for i, m in enumerate(log) if i >= len(script) or script[i] != m]


def click_true_candidate(svc: TableService, tid: str, script: list[str], done: int) -> list[str] | None:
    """One click on the camera's candidate that is what happened (`script` from move `done` on); None if none is."""
    for i, cand in enumerate(svc.candidates(tid)):
        if script[done:done + len(cand)] == cand:
            svc.choose(tid, i)
            return cand
    return None
