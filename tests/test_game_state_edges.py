"""GameState at its edges: walls given as numpy arrays, and the requests once
the game is over."""
import numpy as np

import mjfast._game as _game
from mjfast.game import CODES, GameState, random_walls


def _tsumogiri(s):
    """Play ``s`` to its end: every seat discards what it draws, nobody claims."""
    while s.phase != "over":
        t = s.draw()
        if t is None:
            break
        s.turn(f"PLAY {CODES[t]}")
        if s.phase == "claim":
            s.claim(["PASS"] * 4)
    return s


def test_numpy_walls_play_as_the_same_walls_in_lists():
    walls = _game.shuffled_walls(7)
    a = _tsumogiri(GameState(walls=walls))
    b = _tsumogiri(GameState(walls=[[int(t) for t in w] for w in walls]))
    assert a.scores == b.scores and a.log == b.log and len(a.log) > 50


def test_no_request_once_the_game_is_over():
    s = _tsumogiri(GameState(walls=random_walls(3)))
    assert s.phase == "over"
    assert [s.request(seat) for seat in range(4)] == [None] * 4
