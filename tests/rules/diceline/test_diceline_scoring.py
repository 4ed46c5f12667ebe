"""Scoring during the game and at the end, tie-breakers and the book's worked examples."""
from __future__ import annotations

from diceline_helpers import ENGINE, current, play, set_board, set_dice, turn_state

from rules.diceline import state as S
from rules.diceline.scoring import breakdown, end_bonus


def scored(board: str, markers: dict[str, int], n: int = 3):
    st = turn_state(n, 1)
    who = st.order[st.turn]
    set_board(st.players[who], board)
    for space, count in markers.items():
        st.red_vp[space] = [who] * count
    st.players[who].hand = max(0, 2 - sum(markers.values()))
    return st, who


def test_two_markers_on_red_1_2_with_four_lines_is_16():
    """"Example: You placed two player markers in red 1~2, and have four horizontal/vertical lines on your
    Player Board. 2 victory points x 4 lines x 2 player markers = 16 victory points.\""""
    st, who = scored("DDD/D.D/DDD", {"red 1~2": 2})  # rows 1, 3 and columns 1, 3
    assert end_bonus(st, who)["red 1~2"] == 16


def test_blue_players_additional_points():
    """"She scores 3 victory points for the three lines of bonus tiles on her Player Board. She scores 6
    victory points for the red 1 dice action. She scores 2 victory points for the red 1~2 dice action. She
    scores 3 victory points for the red 1~3 dice action.\"

    The book's text cannot give all four numbers at once: 2 points from red 1~2 mean one horizontal or
    vertical line, 3 from red 1~3 one diagonal, which is two lines, not three. The engine follows the rule
    text ("2 victory points for each horizontal and/or vertical line", "3 victory points for each diagonal
    line"); this board (six tiles, top row, left column and the rising diagonal) gives the 3 + 6 + 3 of
    the example, and its two horizontal/vertical lines give 4 for red 1~2 where the book prints 2."""
    st, who = scored("DDD/DD./D..", {"red 1": 1, "red 1~2": 1, "red 1~3": 1})
    end = end_bonus(st, who)
    assert (end["lines"], end["red 1"], end["red 1~3"]) == (3, 6, 3)
    assert end["red 1~2"] == 4
    # the 6 + 2 + 3 of the example exactly, on a board with one line of each kind
    st, who = scored("DDD/DD./..D", {"red 1": 1, "red 1~2": 1, "red 1~3": 1})  # top row, falling diagonal
    end = end_bonus(st, who)
    assert (end["red 1"], end["red 1~2"], end["red 1~3"], end["lines"]) == (6, 2, 3, 2)


def test_red_1_counts_tiles_red_1_4_layouts_red_1_5_markers():
    """"Red 1: Score 1 victory point for each bonus tile" / "Red 1~4: Score 2 victory points for each of
    your completed layout tiles." / "Red 1~5: Score 1 victory point for each of your player markers on the
    Red Action Board.\""""
    st, who = scored("D.v/.o./...", {"red 1": 1, "red 1~4": 1, "red 1~5": 2})
    st.players[who].completed = [3, 5, 7]
    end = end_bonus(st, who)
    assert end["red 1"] == 3 and end["red 1~4"] == 6 and end["red 1~5"] == 2 * 4


def test_one_point_per_line_of_every_direction():
    """"Score 1 victory point for each horizontal, vertical, and diagonal line of three bonus tiles on your
    Player Board.\""""
    st, who = scored("DDD/DDD/DDD", {})
    assert end_bonus(st, who)["lines"] == 8


def test_points_so_far_and_if_ended_now_with_breakdown():
    """Scores at every moment: "Victory Points Scored During the Game" plus "Additional Victory Points
    Scored at the End of the Game", each by source."""
    st = turn_state(3, 1)
    set_dice(current(st), red=1, grey1=5)
    set_board(current(st), "VVV/.D./...")
    who = st.order[st.turn]
    st = play(st, "use vp r1c1", "grey 5 -> grey 5~6")
    b = breakdown(st, who)
    assert b["during_game"] == {"layout tiles": 0, "grey 5~6": 2, "vp tiles": 1}
    assert b["so_far"] == 3 and b["at_end"]["lines"] == 1 and b["if_ended_now"] == 4
    assert ENGINE.scores(st)[st.players[who].name] == 3
    view = ENGINE.view(st)
    assert view["players"][who]["score"] == b
    assert view["scores"][st.players[who].name] == {"so_far": 3, "if_ended_now": 4}


def over(st: S.DicelineState) -> S.DicelineState:
    st.phase = S.OVER
    return st


def test_most_points_wins():
    """"The player with the most victory points is the winner.\""""
    st = turn_state(3, 1)
    st.players[1].points = {"vp tiles": 5}
    assert ENGINE.winners(over(st)) == [st.players[1].name]
    assert ENGINE.scores(st)[st.players[1].name] == 5 + 0


def test_tie_most_markers_at_hand_then_most_layouts_then_shared():
    """"In the case of a tie, whichever player has the most player markers next to their Player Board is
    the winner. If players also tie for player markers, whichever player completed the most layout tiles
    is the winner.\""""
    st = over(turn_state(3, 1))
    for p in st.players:
        p.points = {"vp tiles": 4}
        p.board = [""] * 9
    st.players[0].completed = [1]
    st.players[0].points = {"layout tiles": 4}
    st.players[1].hand, st.players[1].stock = 3, 3
    assert ENGINE.winners(st) == [st.players[1].name]
    st.players[1].hand, st.players[1].stock = 2, 4
    assert ENGINE.winners(st) == [st.players[0].name]
    st.players[2].completed = [2]
    st.players[2].points = {"layout tiles": 4}
    assert ENGINE.winners(st) == [st.players[0].name, st.players[2].name]
    assert ENGINE.winners(turn_state(3, 1)) == []
