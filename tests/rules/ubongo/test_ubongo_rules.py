"""Rule tests for Ubongo: Das Würfelspiel; each docstring quotes the rulebook line it checks."""
from __future__ import annotations

import pytest

from rules.core.errors import IllegalMove, MoveSyntaxError
from rules.core.match import Match
from ubongo_helpers import ENGINE, play_round, tiny_match


def test_dice_per_player_count():
    """"2 players: 2 black dice and 2 white dice - 3 players: 3 ... - 4 players: 4 black dice and 4 white dice"."""
    for n in (2, 3, 4):
        m = Match(ENGINE, [f"P{i}" for i in range(n)], {}, seed=0)
        roll = ENGINE.sample_chance(m.state, m.rng_for_next())
        assert len(roll.black) == len(roll.white) == n


def test_player_count_limits():
    """"You also need 2–4 pencils from your household, depending on the number of players.\""""
    for n in (1, 5):
        with pytest.raises(IllegalMove):
            Match(ENGINE, [f"P{i}" for i in range(n)], {})


def test_roll_names_all_dice_and_real_faces():
    """"The die-roller rolls all the dice at the same time in the middle of the table.\""""
    m = Match(ENGINE, ["Ann", "Bob"], {})
    with pytest.raises(IllegalMove, match="2 black faces"):
        m.play("roll black I4 white I1 I2")
    with pytest.raises(IllegalMove, match="cannot show"):
        m.play("roll black W5 W5 white I1 I2")  # W5 is only on black die 4, not in a 2-player game
    assert m.play("roll black p5 I4 white i2 I1") == "roll black I4 P5 white I1 I2"


def test_youngest_rolls_first_and_roller_rotates():
    """"The youngest player is the first die-roller." / "After each round, the next player clockwise becomes the new die-roller.\""""
    m = tiny_match(["Ann", "Bob", "Cid"])
    assert ENGINE.to_move(m.state) == ["Ann"]
    play_round(m, [])
    assert ENGINE.to_move(m.state) == ["Bob"]
    play_round(m, ["Ann"])
    assert ENGINE.to_move(m.state) == ["Cid"]
    play_round(m, [])
    assert ENGINE.to_move(m.state) == ["Ann"]


def test_grab_exactly_one_black_and_one_white():
    """"Now each player grabs 2 dice: exactly one black die and one white die.\""""
    m = Match(ENGINE, ["Ann", "Bob"], {})
    m.play("roll black I4 P5 white I1 I2")
    with pytest.raises(MoveSyntaxError):
        m.play("Ann takes black I4 black L5")
    with pytest.raises(IllegalMove, match="no free black die shows I1"):
        m.play("Ann takes black I1 white I2")
    m.play("Ann takes black I4 white I1")
    with pytest.raises(IllegalMove, match="already grabbed"):
        m.play("Ann takes black P5 white I2")
    with pytest.raises(IllegalMove, match="no free black die shows I4"):
        m.play("Bob takes black I4 white I2")  # no die twice
    m.play("Bob takes black P5 white I2")
    assert m.state.taken == {"Ann": ["I4", "I1"], "Bob": ["P5", "I2"]}


def test_enter_only_after_everyone_grabbed():
    """"Once every player has grabbed 2 dice, each player may enter the Ubongo shapes on their two dice into their own puzzle area.\""""
    m = Match(ENGINE, ["Ann", "Bob"], {})
    m.play("roll black I4 P5 white I1 I2")
    m.play("Ann takes black I4 white I1")
    with pytest.raises(IllegalMove, match="once every player has grabbed"):
        m.play("Ann enters I1 at r1c2")
    m.play("Bob takes black P5 white I2")
    m.play("Ann enters I1 at r1c2")
    with pytest.raises(IllegalMove, match="no grabbed die showing I2"):
        m.play("Ann enters I2 at r2c1 r2c2")


def test_enter_zero_one_or_two_shapes():
    """"A player may enter only one of the two shapes, or none at all, if they wish.\""""
    m = Match(ENGINE, ["Ann", "Bob"], {})
    m.play("roll black I4 P5 white I1 I2")
    m.play("Ann takes black I4 white I1")
    m.play("Bob takes black P5 white I2")
    m.play("Ann enters I4 at r2c1 r2c2 r2c3 r2c4")
    m.play("Ann done")
    m.play("Bob done")
    assert m.state.round == 2 and m.state.phase == "roll"
    assert [e["shape"] for e in m.state.filled["Ann"]] == ["I4"]
    assert m.state.filled["Bob"] == []


def test_shapes_may_be_mirrored_and_turned():
    """"The Ubongo shapes may be entered into the puzzle area mirrored.\""""
    m = Match(ENGINE, ["Ann", "Bob"], {})
    m.play("roll black L4 L4 white I1 I2")
    m.play("Ann takes black L4 white I1")
    m.play("Bob takes black L4 white I2")
    m.play("Ann enters L4 at r1c4 r2c4 r2c3 r2c2")   # the L drawn on the die, mirrored
    m.play("Bob enters L4 at r3c1 r3c2 r3c3 r2c1")   # the L turned upside down
    with pytest.raises(IllegalMove, match="do not form I2"):
        m.play("Bob enters I2 at r1c2 r2c1")


def test_entering_needs_empty_cells_inside_the_area():
    """"Each player then checks whether their puzzle area is completely filled" (shapes go into the area, one square per cell)."""
    m = Match(ENGINE, ["Ann", "Bob"], {})
    m.play("roll black I4 P5 white I1 I2")
    m.play("Ann takes black I4 white I2")
    m.play("Bob takes black P5 white I1")
    with pytest.raises(IllegalMove, match="r1c1 is not a cell of puzzle area 1"):
        m.play("Ann enters I2 at r1c1 r1c2")
    m.play("Ann enters I4 at r2c1 r2c2 r2c3 r2c4")
    with pytest.raises(IllegalMove, match="already filled"):
        m.play("Ann enters I2 at r2c1 r3c1")
    with pytest.raises(MoveSyntaxError):
        m.play("Ann enters I2 at r0c1 r1c1")


def test_two_players_first_scores_two_other_gets_consolation():
    """"2 points in a 2-player game" / "In a 2-player game this happens as soon as one of the two players has filled their puzzle area.\""""
    m = tiny_match(["Ann", "Bob"])
    play_round(m, ["Bob"])
    assert m.state.points == {"Ann": [1], "Bob": [2]}
    assert m.state.area == 1 and m.state.round == 1


def test_two_players_finishing_together_both_score_two():
    """"Did all remaining players fill the current puzzle area in the same round? These players receive no consolation point.\""""
    m = tiny_match(["Ann", "Bob"])
    play_round(m, ["Ann", "Bob"])
    assert m.state.points == {"Ann": [2], "Bob": [2]}


def test_three_players_scores_by_round():
    """"If this is the second round in which someone finished, the player gets 1 point less than the number of players.\""""
    m = tiny_match(["Ann", "Bob", "Cid"])
    play_round(m, [])
    play_round(m, ["Cid"])
    assert m.state.finished == {"Cid": 3}
    play_round(m, [])
    play_round(m, ["Ann"])
    # Ann is second (2 points); Bob is the last one left and gets the consolation point.
    assert m.state.points == {"Ann": [2], "Bob": [1], "Cid": [3]}


def test_four_players_scores_and_consolation():
    """"4 points in a 4-player game" ... "And so on." / "Then that player receives 1 consolation point (Trostpunkt).\""""
    m = tiny_match(["Ann", "Bob", "Cid", "Dee"])
    play_round(m, ["Bob"])
    play_round(m, ["Dee"])
    play_round(m, ["Ann"])
    assert m.state.points == {"Ann": [2], "Bob": [4], "Cid": [1], "Dee": [3]}


def test_same_round_finishers_score_alike():
    """"Important: all players who fill their puzzle area in the same round receive the same number of points.\""""
    m = tiny_match(["Ann", "Bob", "Cid", "Dee"])
    play_round(m, ["Ann", "Cid"])
    assert m.state.finished == {"Ann": 4, "Cid": 4}
    play_round(m, ["Bob"])
    assert m.state.points == {"Ann": [4], "Bob": [3], "Cid": [4], "Dee": [1]}


def test_all_remaining_finish_together_no_consolation():
    """"These players receive no consolation point. Instead they score the points for their placement as usual (first, second, and so on".""" 
    m = tiny_match(["Ann", "Bob", "Cid", "Dee"])
    play_round(m, ["Ann"])
    play_round(m, ["Bob", "Cid", "Dee"])
    assert m.state.points == {"Ann": [4], "Bob": [3], "Cid": [3], "Dee": [3]}


def test_finished_players_sit_out_but_all_dice_are_rolled():
    """"Until then they may no longer grab dice (and may enter no more shapes). All dice are still rolled, so the remaining players have more choice when grabbing.\""""
    m = tiny_match(["Ann", "Bob", "Cid"])
    play_round(m, ["Ann"])
    roll = ENGINE.sample_chance(m.state, m.rng_for_next())
    assert len(roll.black) == len(roll.white) == 3
    m.play(str(roll))
    assert ENGINE.to_move(m.state) == ["Bob", "Cid"]
    with pytest.raises(IllegalMove, match="waits until everyone has scored"):
        m.play("Ann takes black I2 white I1")
    assert all(str(mv).split()[0] != "Ann" for mv in ENGINE.legal_moves(m.state))
    m.play("Bob takes black I2 white I1")
    m.play("Cid takes black I2 white I1")
    assert ENGINE.free_dice(m.state) == (["I2"], ["I1"])  # the remaining players still grab only 2 each


def test_next_area_only_after_all_scored():
    """"Only when all players have received points for the current puzzle area does the next round begin with the next puzzle area.\""""
    m = tiny_match(["Ann", "Bob", "Cid"])
    play_round(m, ["Ann"])
    assert m.state.area == 0 and m.state.round == 2
    play_round(m, ["Bob"])
    assert m.state.area == 1 and m.state.round == 1 and m.state.filled == {"Ann": [], "Bob": [], "Cid": []}


def test_game_ends_after_six_areas_most_points_wins():
    """"The game ends when all 6 puzzle areas have been played through." / "The player with the largest sum wins.\""""
    m = tiny_match(["Ann", "Bob", "Cid"])
    for i in range(6):
        assert not ENGINE.is_over(m.state)
        play_round(m, ["Bob"] if i else ["Cid"])
        play_round(m, ["Ann"])
    assert ENGINE.is_over(m.state)
    assert ENGINE.scores(m.state) == {"Ann": 12, "Bob": 16, "Cid": 8}
    assert ENGINE.winners(m.state) == ["Bob"]
    with pytest.raises(IllegalMove, match="over"):
        m.play("random")


def test_ties_share_the_placement():
    """"In case of a tie, the tied players share the placement.\""""
    m = tiny_match(["Ann", "Bob", "Cid"])
    for _ in range(6):
        play_round(m, ["Ann", "Bob"])
    assert ENGINE.is_over(m.state)
    assert ENGINE.winners(m.state) == ["Ann", "Bob"]
    assert ENGINE.view(m.state)["ranks"] == {"Ann": 1, "Bob": 1, "Cid": 3}


def test_five_area_option_for_two_players():
    """"To reduce the frequency of ties in a 2-player game, the game may optionally be played with only 5 puzzle areas.\""""
    m = tiny_match(["Ann", "Bob"], areas=5)
    for _ in range(5):
        play_round(m, ["Ann"])
    assert ENGINE.is_over(m.state) and m.state.points["Ann"] == [2] * 5
    with pytest.raises(IllegalMove, match="two-player"):
        tiny_match(["Ann", "Bob", "Cid"], areas=5)
    with pytest.raises(IllegalMove):
        tiny_match(["Ann", "Bob"], areas=4)


def test_all_players_start_with_area_one():
    """"All players start with puzzle area 1.\""""
    view = ENGINE.view(Match(ENGINE, ["Ann", "Bob"], {}).state)
    assert view["area_number"] == 1 and len(view["area_cells"]) == 14


def test_player_done_automatically_when_nothing_fits():
    """"This can even be necessary when there is not enough room left in the puzzle area for the shapes they grabbed.\""""
    m = tiny_match(["Ann", "Bob"])
    m.play("roll black I2 I2 white I1 I1")
    m.play("Ann takes black I2 white I1")
    m.play("Bob takes black I2 white I1")
    m.play("Ann enters I1 at r1c1")   # full: Ann needs no 'done'
    assert ENGINE.to_move(m.state) == ["Bob"]
    assert [str(x) for x in ENGINE.legal_moves(m.state)] == ["Bob enters I1 at r1c1", "Bob done"]


def test_illegal_moves_give_readable_reasons():
    """"Each player receives one sheet from the pad and a pencil" (only players at the table move)."""
    m = Match(ENGINE, ["Ann", "Bob"], {})
    with pytest.raises(IllegalMove, match="not rolled yet"):
        m.play("Ann takes black I4 white I1")
    with pytest.raises(MoveSyntaxError, match="roll"):
        m.play("Zed takes black I4 white I1")
    with pytest.raises(MoveSyntaxError, match="takes dice"):
        m.play("Ann jumps")
