"""Player names are checked once, in the engine contract, for every game (issue 12, item 1)."""
from __future__ import annotations

import pytest

from rules.core import IllegalMove
from rules.core.names import check_name
from rules.registry import ENGINES

BAD = ["\ud800x", "Ann\x00", "An\x07n", "\u202eAnn", "Ann\u200b", "A\u2028B", "", "  ", " Ann", "x" * 33]
GOOD = ["Ann", "Zoë", "李雷", "Anne-Marie O'Neil", "x" * 32, "Ann 2"]


@pytest.mark.parametrize("name", BAD)
def test_bad_names_are_refused_with_the_rule(name):
    with pytest.raises(IllegalMove) as info:
        check_name(name)
    assert info.value.rule == "player names"
    info.value.reason.encode("utf-8")  # the refusal itself is always sendable text


@pytest.mark.parametrize("name", GOOD)
def test_printable_names_pass(name):
    check_name(name)


@pytest.mark.parametrize("game", sorted(ENGINES))
@pytest.mark.parametrize("name", ["\ud800x", "Ann\x00", "\u202eBen"])
def test_every_game_refuses_a_bad_name(game, name):
    engine = ENGINES[game]
    players = [name] + ["Ben", "Cat", "Dan", "Eve", "Fay"][: max(engine.min_players, 3) - 1]
    with pytest.raises(IllegalMove) as info:
        engine.initial_state(players, {})
    assert info.value.rule == "player names"
