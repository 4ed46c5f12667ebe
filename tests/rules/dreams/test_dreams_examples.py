"""The rulebook's worked examples, reproduced move by move."""
from __future__ import annotations

from dreams_play import ENGINE, book_match, place_all_stars, play_round


def test_star_example_first_choices():
    """'Andrea first places her transparent star. Peter's first choice is his black star. George and
    Nina both decide to begin with their gray star.'"""
    m = book_match(seed=3)
    m.play("dreams 1 2 3 4")
    m.play("deal vision 3 mortal George")
    assert ENGINE.to_move(m.state) == ["Andrea"]
    m.play("Andrea places transparent at 0.2 0.3")
    m.play("Peter places black at 0.7 0.1")
    m.play("George places gray at 0.4 0.4")
    m.play("Nina places grey at 0.9 0.9")
    assert m.moves[-4:] == [
        "Andrea places clear at 0.200 0.300",
        "Peter places black at 0.700 0.100",
        "George places grey at 0.400 0.400",
        "Nina places grey at 0.900 0.900",
    ]
    # "on your second turn you can only choose between the two stars that you have not placed yet"
    assert m.state.stars_left("Andrea") == ["grey", "black"]
    assert ENGINE.to_move(m.state) == ["Andrea"]


def test_george_the_undetected_mortal():
    """'The mortal (George) guessed image 2. Wrong! Image 3 is the true vision. But all the Gods are
    wrong, too: None of them has set his clue on BLUE (George). Only YELLOW (Peter) and GREEN (Andrea)
    were suspected of being the mortal. George earns 3 Gods points for this (nobody guessed his
    color), but doesn't get any Gods points for the image number, since he guessed the wrong one.
    Nobody gets points for guessing the mortal, since no one guessed George. Nina earns one point for
    this: nobody suspected her.'"""
    m = book_match(seed=1)
    play_round(m, vision=3, mortal="George",
               guesses={"George": "2", "Andrea": "yellow", "Peter": "green", "Nina": "yellow"})
    assert ENGINE.scores(m.state) == {"Andrea": 0, "Peter": 0, "George": 3, "Nina": 1}
    result = ENGINE.view(m.state)["results"][-1]
    assert (result["vision"], result["mortal"]) == (3, "George")
    # "award the Gods points in turn, one after another, beginning with the mortal"
    assert [a["player"] for a in result["awards"]] == ["George", "Nina", "Andrea", "Peter"]
    assert result["awards"][0] == {"player": "George", "points": 3, "reasons": ["remained undetected as the mortal"]}
    assert result["awards"][1] == {"player": "Nina", "points": 1, "reasons": ["was not suspected"]}


def test_peter_16_nina_17_ends_the_game():
    """'Peter, the mortal, has deciphered the true vision. For this, he earns 2 points and thus
    reaches space 16 of the Gods track. Nina has Peter uncovered as the mortal, which gives her 2
    points. Consequently, Nina even scores 17 points and wins the game.'"""
    m = book_match(seed=2)
    m.state.scores.update({"Peter": 14, "Nina": 15, "Andrea": 9, "George": 11})  # the book's spaces before
    play_round(m, vision=4, mortal="Peter",
               guesses={"Peter": "4", "Nina": "yellow", "Andrea": "red", "George": "red"})
    assert ENGINE.scores(m.state) == {"Andrea": 10, "Peter": 16, "George": 12, "Nina": 17}  # unsuspected Gods +1
    assert ENGINE.is_over(m.state)
    assert ENGINE.winners(m.state) == ["Nina"]
    awards = {a["player"]: a for a in ENGINE.view(m.state)["results"][-1]["awards"]}
    assert awards["Peter"]["reasons"] == ["deciphered the true vision"]
    assert awards["Nina"]["reasons"] == ["uncovered the mortal"]


def test_game_goes_on_below_16():
    """'If nobody has reached 16 Gods points yet, play continues.'"""
    m = book_match(seed=2)
    m.state.scores.update({"Peter": 13})
    play_round(m, vision=1, mortal="Peter", guesses={"Peter": "1", "Nina": "yellow", "Andrea": "red", "George": "red"})
    assert ENGINE.scores(m.state)["Peter"] == 15
    assert not ENGINE.is_over(m.state) and ENGINE.winners(m.state) == []
    assert m.state.phase == "layout" and m.state.round == 2


def test_place_stars_all_three_each():
    """'Players continue playing, in turn, until all players have placed their 3 stars.'"""
    m = book_match(seed=4)
    m.play("random")
    m.play("random")
    place_all_stars(m)
    assert len(m.state.stars) == 12 and m.state.phase == "guess"
    assert all(sorted(s.kind for s in m.state.stars if s.player == p) == ["black", "clear", "grey"] for p in m.players)
