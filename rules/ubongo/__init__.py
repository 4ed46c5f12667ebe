"""Ubongo: Das Würfelspiel (Kosmos 2013): shapes, an exact polyomino solver, hints and the rules engine."""
