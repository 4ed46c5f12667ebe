"""Quarx / Dots rules, each test quoting the line of the Dots rulebook it checks."""
from __future__ import annotations

import pytest

from rules.core import IllegalMove, Match, MoveSyntaxError
from rules.registry import engine_for
from rules.quarx.scoring import cards_for

QUARX = engine_for("quarx")
NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]


def match(n: int, **options) -> Match:
    return Match(QUARX, NAMES[:n], options, seed=1)


def reveal(m: Match, total: int) -> None:
    """Turn the round's cards over so that they show `total` spheres."""
    n = QUARX.cards_to_turn(m.state)
    counts = [total // n] * n
    counts[0] += total - sum(counts)
    m.play("reveal " + " ".join(map(str, counts)))


def right(player: str, total: int) -> str:
    return f"{player} " + "+".join(map(str, cards_for(total)))


@pytest.mark.parametrize("n,each,out", [(2, 15, 0), (3, 10, 0), (4, 7, 2), (5, 6, 0), (6, 5, 0)])
def test_deal_equally_extras_out_of_play(n, each, out):
    """'Shuffle the Quarx cards and deal them equally to each player (place any extra cards out of play).'"""
    st = match(n).state
    assert set(st.piles.values()) == {each}
    assert st.out_of_play == out


@pytest.mark.parametrize("n,turned", [(2, 4), (3, 6), (4, 4), (5, 5), (6, 6)])
def test_cards_turned_per_round(n, turned):
    """'In a 2 or 3 player game, each player turns over the top 2 cards.' (others: the top card)"""
    m = match(n)
    assert QUARX.cards_to_turn(m.state) == turned
    with pytest.raises(IllegalMove, match=f"turns over {turned} cards"):
        m.play("reveal " + " ".join(["1"] * (turned + 1)))


def test_player_count_limits():
    """The game is for 2 to 6 players (six colours of number cards)."""
    with pytest.raises(IllegalMove, match="2 to 6 players"):
        match(1)
    with pytest.raises(IllegalMove, match="2 to 6 players"):
        Match(QUARX, NAMES + ["Gus"])


@pytest.mark.parametrize("total,cards", [(23, (16, 4, 2, 1)), (1, (1,)), (31, (16, 8, 4, 2, 1)), (12, (8, 4)), (40, (16, 8, 4, 2, 1))])
def test_number_card_combinations(total, cards):
    """'let's say the sum of the spheres is 23. The card combination that should be played is 1+2+4+16 = 23.'
    'If the total number of spheres exceeds 31, lay all of the number cards face down.'"""
    assert cards_for(total) == cards


def test_every_total_from_1_to_31_has_one_combination():
    """'It is possible to represent every number between 1 and 31 using the number cards.'"""
    assert sorted(sum(cards_for(t)) for t in range(1, 32)) == list(range(1, 32))


def test_number_cards_are_one_set_each():
    """'Each player chooses a set of five number cards' (1, 2, 4, 8, 16): no card twice, no other value."""
    m = match(2)
    reveal(m, 10)
    with pytest.raises(MoveSyntaxError, match="only one card of each"):
        m.play("Ann 8+8")
    with pytest.raises(MoveSyntaxError, match="no number card 3"):
        m.play("Ann 3")


def test_two_players_fastest_correct_gets_2():
    """'In a two-player game, the fastest to lay down the correct total receives 2 points.'"""
    m = match(2)
    reveal(m, 23)
    m.play("Ann 16+4+2+1")
    m.play("Ben 16+4+2+1")
    assert m.state.scores == {"Ann": 2, "Ben": 0}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_three_to_five_players_2_then_1(n):
    """'In a three to five-player game, the fastest correct player gets 2 points, the second gets 1 point.'"""
    m = match(n)
    reveal(m, 9)
    for p in NAMES[:n]:
        m.play(right(p, 9))
    assert [m.state.scores[p] for p in NAMES[:n]] == [2, 1] + [0] * (n - 2)


def test_six_players_3_2_1():
    """'In a six player game, the fastest correct player gets 3 points, the second gets 2 points and the third gets 1 point.'"""
    m = match(6)
    reveal(m, 20)
    for p in NAMES:
        m.play(right(p, 20))
    assert [m.state.scores[p] for p in NAMES] == [3, 2, 1, 0, 0, 0]


def test_wrong_total_passes_points_to_next_fastest():
    """'If the fastest player either puts down the wrong total or the wrong number combination,
    points are awarded to the next fastest player and so on.'"""
    m = match(3)
    reveal(m, 13)
    m.play("Ann 8+4")  # 12: wrong total
    m.play("Ben 8+4+1")
    m.play("Cid 8+4+1")
    assert m.state.scores == {"Ann": 0, "Ben": 2, "Cid": 1}
    assert m.state.rounds[-1]["verdicts"][0]["reason"] == "cards make 12, the total is 13"


def test_right_total_wrong_combination_is_wrong():
    """'Players should confirm both the correct total of spheres as well as check each other's number card combinations'"""
    m = match(3)
    reveal(m, 13)
    m.play("Ann 13 = 8+4")  # announced right, cards wrong
    m.play("Ben 12 = 8+4+1")  # cards right, announced wrong
    m.play("Cid 13 = 8+4+1")
    assert m.state.scores == {"Ann": 0, "Ben": 0, "Cid": 2}
    reasons = [v["reason"] for v in m.state.rounds[-1]["verdicts"]]
    assert reasons[0].startswith("right total, wrong cards") and reasons[1] == "announced 12, the total is 13"


def test_over_31_all_five_cards():
    """'If the total number of spheres exceeds 31, lay all of the number cards face down.'"""
    m = match(6)
    reveal(m, 37)
    m.play("Ann 16+8+4+2")  # 30
    m.play("Ben 37 = 16+8+4+2+1")
    m.play("Cid 16+8+4+2+1")
    for p in NAMES[3:]:
        m.play(f"{p} passes")
    assert m.state.scores["Ben"] == 3 and m.state.scores["Cid"] == 2 and m.state.scores["Ann"] == 0


def test_tie_gives_each_tied_player_one_point():
    """'In case of a tie, all tied players receive one point.'"""
    m = match(2)
    reveal(m, 6)
    m.play("Ann 4+2")
    m.play("Ben ties 4+2")
    assert m.state.scores == {"Ann": 1, "Ben": 1}


def test_tie_for_second_in_a_four_player_game():
    """'In case of a tie, all tied players receive one point.' (the fastest still gets 2)"""
    m = match(4)
    reveal(m, 6)
    m.play("Ann 4+2")
    m.play("Ben 4+2")
    m.play("Cid ties 4+2")
    m.play("Dee 4+2")
    assert m.state.scores == {"Ann": 2, "Ben": 1, "Cid": 1, "Dee": 0}


def test_cannot_tie_with_nobody():
    """A tie is with the answer laid just before (finishing order, 'First!' or 'Second!')."""
    m = match(2)
    reveal(m, 6)
    with pytest.raises(IllegalMove, match="nobody has finished"):
        m.play("Ann ties 4+2")


def test_no_correct_player_scores_nothing():
    """'If no player has the correct total, place all face up Quarx cards out of play and start a new round.'"""
    m = match(3)
    reveal(m, 7)
    m.play("Ann 4+2")
    m.play("Ben passes")
    m.play("Cid 8")
    assert m.state.scores == {"Ann": 0, "Ben": 0, "Cid": 0}
    assert m.state.round == 2 and m.state.phase == "reveal"


def test_cards_cannot_be_changed():
    """'Once you place your cards down, you may not change them!'"""
    m = match(3)
    reveal(m, 7)
    m.play("Ann 4+2")
    with pytest.raises(IllegalMove, match="may not change them"):
        m.play("Ann 4+2+1")


def test_answers_come_after_the_reveal_and_the_reveal_once():
    """'In each round, all players simultaneously turn over the top card ... Once the cards have been revealed, all players ... race to count'"""
    m = match(3)
    with pytest.raises(IllegalMove, match="turn the cards over first"):
        m.play("Ann 4")
    reveal(m, 4)
    with pytest.raises(IllegalMove, match="already turned over"):
        reveal(m, 4)


def play_round(m: Match, total: int, winner: str | None) -> None:
    reveal(m, total)
    for p in m.players:
        m.play(right(p, total) if p == winner else f"{p} passes")


def test_game_ends_when_the_piles_are_used_up_most_points_wins():
    """'At the end of the last round, players count up their Quarx cards. Whoever has the most wins.'"""
    m = match(3)
    for r in range(5):  # 10 cards each, 2 per round
        assert not QUARX.is_over(m.state)
        play_round(m, 5, "Ann" if r < 3 else "Ben")
    assert QUARX.is_over(m.state)
    assert m.state.scores == {"Ann": 6, "Ben": 4, "Cid": 0}
    assert QUARX.winners(m.state) == ["Ann"]
    with pytest.raises(IllegalMove, match="game is over"):
        m.play("random")


def test_two_players_last_round_turns_the_odd_card():
    """15 cards each and 2 per round: the eighth round turns the last card of each pile (the book is silent)."""
    m = match(2)
    for _ in range(7):
        play_round(m, 3, "Ann")
    assert QUARX.cards_to_turn(m.state) == 2
    play_round(m, 3, "Ben")
    assert QUARX.is_over(m.state) and m.state.scores == {"Ann": 14, "Ben": 2}


def test_tied_game_has_several_winners():
    """'Whoever has the most wins.' The book names no tie-breaker, so equal leaders share the win."""
    m = match(2)
    for r in range(8):
        play_round(m, 3, "Ann" if r % 2 else "Ben")
    assert QUARX.winners(m.state) == ["Ann", "Ben"]


def test_30_point_variant_reshuffles_and_ends_at_30():
    """'For a longer game, re-shuffle the Quarx cards and play until one player scores 30 points.'"""
    m = match(3, target=30)
    for _ in range(5):
        play_round(m, 5, "Ann")
    assert not QUARX.is_over(m.state) and m.state.deal == 2 and m.state.piles["Ann"] == 10
    for _ in range(9):
        play_round(m, 5, "Ann")
    assert m.state.scores["Ann"] == 28 and not QUARX.is_over(m.state)
    play_round(m, 5, "Ann")
    assert QUARX.is_over(m.state) and QUARX.winners(m.state) == ["Ann"]


def test_bad_options_are_refused():
    """The only option is the 30-point variant's target."""
    with pytest.raises(IllegalMove, match="unknown Quarx option"):
        Match(QUARX, ["Ann", "Ben"], {"speed": 2})
    with pytest.raises(IllegalMove, match="whole number"):
        Match(QUARX, ["Ann", "Ben"], {"target": "lots"})


def test_counts_and_laid_cards_stay_hidden_until_everyone_has_laid():
    """'lay them face down ... When all players have placed number cards face down, everyone reveals them'"""
    m = match(2)
    reveal(m, 9)
    m.play("Ann 8+1")
    view = QUARX.view(m.state)
    assert view["total"] is None and view["answers"] == [{"player": "Ann", "group": 1}]
    hist = QUARX.history_view(m.state, m.moves)
    assert hist == ["reveal (counts hidden until everyone has laid)", "Ann laid cards (place 1)"]
    m.play("Ben passes")
    assert QUARX.history_view(m.state, m.moves) == m.moves


def test_total_only_reveal():
    """A person who counted only the total can enter it; the round scores the same."""
    m = match(2)
    m.play("reveal total 23")
    m.play("Ann 16+4+2+1")
    m.play("Ben passes")
    assert m.state.scores["Ann"] == 2
