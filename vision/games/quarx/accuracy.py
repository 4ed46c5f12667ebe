"""How well the Quarx reader reads the scripted footage: the number cards and the reveal.

Per element, right / wrong / unsure (None), over the held frames of each shot; frames with an
arm over the table are tallied apart (the camera path skips them, but a sure reading there
must still not be a wrong one).

python -m vision.games.quarx.accuracy [seeds] [players]
"""
from __future__ import annotations

from dataclasses import dataclass, field

from vision.games.quarx.reader import read_quarx
from vision.synth.footage import QuarxScript, Shot, quarx_script, render_quarx_footage
from vision.tally import Tally, add_counts

ELEMENTS = ("laid", "colour", "side", "values", "face_up", "laid_under_arm")


@dataclass
class QuarxAccuracy:
    """Tallies per element, and what went wrong (for a person to look at)."""

    tallies: dict[str, Tally] = field(default_factory=lambda: {e: Tally() for e in ELEMENTS})
    wrongs: list[str] = field(default_factory=list)

    def add(self, other: QuarxAccuracy) -> None:
        add_counts(self, other)


def score_view(acc: QuarxAccuracy, shot: Shot, view: dict, where: str) -> None:
    """Tally one reading of a held shot against the shot's truth."""
    truth, laid = shot.laid, view.get("laid")
    acc.tallies["laid"].add(None if laid is None else laid == truth)
    read = {c: v for c, v in laid} if laid is not None else {}
    for colour, value in truth:
        if laid is None:
            for e in ("colour", "side") + (("values",) if value != "down" else ()):
                acc.tallies[e].add(None)
            continue
        acc.tallies["colour"].add(colour in read)
        if colour not in read:
            continue
        acc.tallies["side"].add((read[colour] == "down") == (value == "down"))
        if value != "down" and read[colour] != "down":
            acc.tallies["values"].add(read[colour] == value)
    for colour in set(read) - {c for c, _ in truth}:
        acc.tallies["colour"].add(False)  # a pile read where there is none
    seen = view.get("face_up")
    acc.tallies["face_up"].add(None if seen is None else seen == sorted(shot.face_up))
    if (laid is not None and laid != truth) or (seen is not None and seen != sorted(shot.face_up)):
        acc.wrongs.append(f"{where}: read {view}, truth {shot.view}")


def measure(seed: int, players: int = 2, rounds: int = 3, every: int = 3, together_every: int = 0) -> QuarxAccuracy:
    """Read every `every`-th frame of one seed's number-card footage (all its arm frames too)."""
    script: QuarxScript = quarx_script(seed, players=players, rounds=rounds, number_cards=True,
                                       together_every=together_every)
    frames = render_quarx_footage(script, seed)
    acc = QuarxAccuracy()
    i = 0
    for k, shot in enumerate(script.shots):
        for j in range(shot.frames):
            if shot.hand:
                laid = read_quarx(frames[i + j]).view["laid"]
                acc.tallies["laid_under_arm"].add(None if laid is None else laid == shot.laid)
                if laid is not None and laid != shot.laid:
                    acc.wrongs.append(f"seed {seed} shot {k} frame {j} (arm): read {laid}, truth {shot.laid}")
            elif j % every == 1:  # skip the first frame after a change: the camera never reads it alone
                score_view(acc, shot, read_quarx(frames[i + j]).view, f"seed {seed} shot {k} frame {j}")
        i += shot.frames
    return acc


def measure_many(seeds: range, players: int = 2, **kw) -> QuarxAccuracy:
    """Tallies summed over seeds."""
    total = QuarxAccuracy()
    for seed in seeds:
        total.add(measure(seed, players, **kw))
    return total


def main(seeds: int = 20, players: int = 2) -> None:
    acc = measure_many(range(1, seeds + 1), players)
    print(f"Quarx footage, {seeds} seeds, {players} players (held frames; arm frames apart):")
    for e, t in acc.tallies.items():
        print(f"  {e:15} {t}")
    for w in acc.wrongs:
        print(" ", w)


if __name__ == "__main__":
    import sys

    main(*(int(a) for a in sys.argv[1:3]))
