"""Points: those scored during the game, those added at the end, and the tie-breakers."""
from __future__ import annotations

from rules.diceline.board import diagonal_lines, hv_lines, tile_count
from rules.diceline.components import RED_MARKER_SPACES, RED_SCORE_PER
from rules.diceline.state import DicelineState, Player

# Sources of points scored during the game (book: "Victory Points Scored During the Game").
LAYOUTS = "layout tiles"
GREY_56 = "grey 5~6"
VP_TILES = "vp tiles"
DURING_SOURCES = (LAYOUTS, GREY_56, VP_TILES)
LINES = "lines"
END_SOURCES = (LINES,) + RED_MARKER_SPACES


def add_points(player: Player, source: str, points: int) -> None:
    """Score points during the game."""
    player.points[source] = player.points.get(source, 0) + points


def during(player: Player) -> dict[str, int]:
    """Points scored so far, by source."""
    return {s: player.points.get(s, 0) for s in DURING_SOURCES}


def markers_on(state: DicelineState, who: int, space: str) -> int:
    """How many of `who`'s markers are on the extra-VP spaces of a red action."""
    return state.red_vp.get(space, []).count(who)


def end_bonus(state: DicelineState, who: int) -> dict[str, int]:
    """The additional points the end of the game would add now, by source."""
    p = state.players[who]
    hv, diag = hv_lines(p.board), diagonal_lines(p.board)
    on_board = sum(markers_on(state, who, s) for s in RED_MARKER_SPACES)
    per_marker = {
        "red 1": RED_SCORE_PER["red 1"] * tile_count(p.board),
        "red 1~2": RED_SCORE_PER["red 1~2"] * hv,
        "red 1~3": RED_SCORE_PER["red 1~3"] * diag,
        "red 1~4": RED_SCORE_PER["red 1~4"] * len(p.completed),
        "red 1~5": RED_SCORE_PER["red 1~5"] * on_board,
    }
    out = {LINES: hv + diag}
    for space in RED_MARKER_SPACES:
        out[space] = per_marker[space] * markers_on(state, who, space)
    return out


def breakdown(state: DicelineState, who: int) -> dict:
    """Points so far and points if the game ended now, each with its sources."""
    so_far = during(state.players[who])
    end = end_bonus(state, who)
    return {
        "so_far": sum(so_far.values()),
        "if_ended_now": sum(so_far.values()) + sum(end.values()),
        "during_game": so_far,
        "at_end": end,
    }


def final_total(state: DicelineState, who: int) -> int:
    """Points scored during the game plus the end-of-game points."""
    return sum(during(state.players[who]).values()) + sum(end_bonus(state, who).values())


def ranking_key(state: DicelineState, who: int) -> tuple[int, int, int]:
    """Most points, then most markers at hand, then most completed layout tiles."""
    p = state.players[who]
    return (final_total(state, who), p.hand, len(p.completed))
