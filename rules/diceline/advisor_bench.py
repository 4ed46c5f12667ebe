"""Strength benchmark of the Diceline advisor (a runnable module, not a test).

    python -m rules.diceline.advisor_bench --games 200 --iterations 60 --opponents random greedy \
        --out models/eval/advisor_bench.jsonl

With `--out`, every finished game is appended to a JSON-lines file and games already there are
skipped, so a long run stopped part-way (or moved to another machine) resumes where it stopped;
the summary is printed from the file. `--summary FILE` only prints it.

One seat is played by the advisor (the seat rotates with the game number), the other three by
random or greedy players (rules.diceline.policies). For comparison, the same games (same chance
seeds, same opponents) are played with a greedy and a random player in the advisor's seat, in the
same process. Prints, per seat player and opponent kind: win rate (a shared win counts as a win),
mean margin (the seat's final points minus the best opponent's), and for the advisor the mean and
largest wall time per advice and the mean CPU time (only decisions with more than one legal move
ask it). Single-threaded: the CPU time is one core's work even on a busy machine; the wall time
means "one core" only on an idle one.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rules.diceline.advisor import advise, margin
from rules.diceline.engine import DicelineEngine
from rules.diceline.policies import POLICIES, Policy, seat_to_move
from rules.diceline.state import DicelineState

NAMES = ("A", "B", "C", "D")


@dataclass
class Result:
    """What one seat player scored over a series of games."""

    label: str
    opponents: str
    wins: int = 0
    margins: list[int] = field(default_factory=list)
    advice_times: list[float] = field(default_factory=list)  # wall clock per advice
    advice_cpu: list[float] = field(default_factory=list)  # this process's CPU time per advice

    def line(self) -> str:
        n = len(self.margins)
        text = (f"{self.label:<22} vs 3 {self.opponents:<7} games {n:>4}  wins {self.wins:>4} ({100 * self.wins / n:5.1f}%)"
                f"  mean margin {statistics.fmean(self.margins):+6.2f}")
        if self.advice_times:
            text += (f"  advice: {len(self.advice_times)} calls, wall mean {statistics.fmean(self.advice_times):.3f} s"
                     f" max {max(self.advice_times):.3f} s, CPU mean {statistics.fmean(self.advice_cpu):.3f} s")
        return text


def play_game(engine: DicelineEngine, game: int, seed: int, seat_player: Policy | int, opponents: Policy,
              result: Result, players: int = 4) -> None:
    """One game: seat `game % players` is `seat_player` (a policy, or an advisor budget in rollouts)."""
    names = list(NAMES[:players])
    seat = game % players
    chance_rng = random.Random(f"bench:{seed}:{game}:chance")
    move_rng = random.Random(f"bench:{seed}:{game}:moves")
    state: DicelineState = engine.initial_state(names, {})
    decisions = 0
    while not engine.is_over(state):
        if engine.chance(state) is not None:
            state = engine.apply(state, engine.sample_chance(state, chance_rng))
            continue
        moves = engine.legal_moves(state)
        who = seat_to_move(engine, state)
        if who != seat:
            move = opponents(engine, state, moves, move_rng)
        elif isinstance(seat_player, int):
            if len(moves) == 1:
                move = moves[0]
            else:
                t0, c0 = time.perf_counter(), time.process_time()
                advice = advise(engine, state, iterations=seat_player, seed=seed * 1_000_003 + game * 1_000 + decisions)
                result.advice_times.append(time.perf_counter() - t0)
                result.advice_cpu.append(time.process_time() - c0)
                move = engine.parse_move(state, advice.moves[0].move)
                decisions += 1
        else:
            move = seat_player(engine, state, moves, move_rng)
        state = engine.apply(state, move)
    _, diff = margin(engine, state, seat)
    result.margins.append(diff)
    result.wins += NAMES[seat] in engine.winners(state)


def sample_positions(engine: DicelineEngine, count: int, seed: int) -> list[DicelineState]:
    """`count` decisions (more than one legal move) from seeded random four-player games, one per
    game at an evenly drawn move number, so every round and phase turns up."""
    out = []
    for g in range(count):
        rng = random.Random(f"positions:{seed}:{g}")
        state, stop_at, seen = engine.initial_state(list(NAMES), {}), rng.randrange(1, 220), 0
        while not engine.is_over(state):
            if engine.chance(state) is not None:
                state = engine.apply(state, engine.sample_chance(state, rng))
                continue
            moves = engine.legal_moves(state)
            if len(moves) > 1:
                seen += 1
                if seen >= stop_at:
                    out.append(state)
                    break
            state = engine.apply(state, rng.choice(moves))
    return out


def time_budgets(engine: DicelineEngine, budgets: list[int], count: int, seed: int) -> None:
    """Mean wall and CPU seconds per advice, and rollouts run, at each budget on the same positions."""
    positions = sample_positions(engine, count, seed)
    for b in budgets:
        wall, cpu, used = [], [], []
        for k, state in enumerate(positions):
            t0, c0 = time.perf_counter(), time.process_time()
            advice = advise(engine, state, iterations=b, seed=k)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            used.append(advice.iterations)
        print(f"budget {b:>5} rollouts: {len(positions)} positions, rollouts run mean {statistics.fmean(used):.0f}"
              f" (max {max(used)}), wall mean {statistics.fmean(wall):.3f} s, CPU mean {statistics.fmean(cpu):.3f} s"
              f" (max {max(cpu):.3f} s)", flush=True)


@dataclass(frozen=True)
class GameRecord:
    """One finished benchmark game, as a line of the `--out` file."""

    label: str
    opponents: str
    seed: int
    game: int
    win: bool
    margin: int
    advice_wall: list[float]
    advice_cpu: list[float]


def load_records(path: Path) -> list[GameRecord]:
    """The games already in `path` (none when it does not exist). A torn last line (the run was
    killed while writing it) is skipped, so that game is played again."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(GameRecord(**json.loads(line)))
        except (ValueError, TypeError):
            continue
    return out


def summarise(records: list[GameRecord]) -> list[str]:
    """One line per (seat player, opponents), in the order they first appear."""
    rows: dict[tuple[str, str], Result] = {}
    for r in records:
        res = rows.setdefault((r.label, r.opponents), Result(r.label, r.opponents))
        res.wins += r.win
        res.margins.append(r.margin)
        res.advice_times += r.advice_wall
        res.advice_cpu += r.advice_cpu
    return [res.line() for res in rows.values()]


def play_logged(engine: DicelineEngine, label: str, opponents: str, seat_player: Policy | int, games: int,
                seed: int, out: Path | None, done: set[tuple[str, str, int, int]], shard: tuple[int, int] = (0, 1)) -> Result:
    """Play games 0..games-1 not already in `done` (only those with game % n == i for shard
    (i, n)), appending each to `out` as it finishes."""
    res = Result(label, opponents)
    for g in range(games):
        if (label, opponents, seed, g) in done or g % shard[1] != shard[0]:
            continue
        one = Result(label, opponents)
        play_game(engine, g, seed, seat_player, POLICIES[opponents], one)
        if out is not None:
            rec = GameRecord(label, opponents, seed, g, bool(one.wins), one.margins[0],
                             [round(t, 4) for t in one.advice_times], [round(t, 4) for t in one.advice_cpu])
            with out.open("a") as f:
                f.write(json.dumps(asdict(rec)) + "\n")
        res.wins += one.wins
        res.margins += one.margins
        res.advice_times += one.advice_times
        res.advice_cpu += one.advice_cpu
    return res


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--iterations", type=int, nargs="+", default=[50], help="advisor budgets (rollouts per advice)")
    ap.add_argument("--opponents", nargs="+", default=["random", "greedy"], choices=["random", "greedy"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-baselines", action="store_true", help="skip the greedy/random seat baselines")
    ap.add_argument("--timing", type=int, default=0, metavar="N",
                    help="only time the advice at each budget on N sampled positions (no games)")
    ap.add_argument("--out", type=Path, help="append each finished game here (JSON lines) and resume from it")
    ap.add_argument("--summary", type=Path, metavar="FILE", help="only print the summary of a --out file")
    ap.add_argument("--shard", default="0/1", metavar="I/N",
                    help="play only games g with g %% N == I (run N processes on one --out file to use N cores)")
    args = ap.parse_args(argv)
    if args.summary:
        print("\n".join(summarise(load_records(args.summary))))
        return
    engine = DicelineEngine()
    if args.timing:
        time_budgets(engine, args.iterations, args.timing, args.seed)
        return
    i, n = (int(x) for x in args.shard.split("/"))
    if not 0 <= i < n:
        ap.error("--shard is I/N with 0 <= I < N")
    done = {(r.label, r.opponents, r.seed, r.game) for r in load_records(args.out)} if args.out else set()
    print(f"Diceline advisor benchmark: {args.games} four-player games per row, seed {args.seed}", flush=True)
    for opp in args.opponents:
        seats: list[tuple[str, Policy | int]] = [(f"advisor {b} rollouts", b) for b in args.iterations]
        if not args.no_baselines:
            seats += [("greedy (baseline)", POLICIES["greedy"]), ("random (baseline)", POLICIES["random"])]
        for label, seat_player in seats:
            res = play_logged(engine, label, opp, seat_player, args.games, args.seed, args.out, done, (i, n))
            if res.margins:
                print(res.line(), flush=True)
    if args.out:
        print("all games in", args.out)
        print("\n".join(summarise(load_records(args.out))))

if __name__ == "__main__":
    main()
