"""score() on a notation string with fourth_tile / kong takes the compiled
path (the bits the rules drop come back from it); it must answer as the
Hand path (hand_args + dropped_flags) does: total, fans, ignored flags, and
under strict=True the same error."""
import random

import pytest

import mjfast
from mjfast.hand import parse_hand

import handgen


def _same(a, b):
    assert a.total == b.total
    assert [(f.name, f.count) for f in a.fans] == [(f.name, f.count) for f in b.fans]
    assert a.ignored_flags == b.ignored_flags


def test_string_path_equals_hand_path_with_dropped_flags():
    rng = random.Random(7)
    recs = handgen.random_winning_records(1500, seed=11)
    n_dropped = 0
    for r in recs:
        kw = dict(self_drawn=rng.random() < 0.5, fourth_tile=rng.random() < 0.5, kong=rng.random() < 0.5,
                  last_tile=rng.random() < 0.2, seat_wind=rng.choice("ESWN"), round_wind=rng.choice("ESWN"))
        try:
            want = mjfast.score(parse_hand(r["hand"]), **kw)
        except mjfast.NotWinning:
            with pytest.raises(mjfast.NotWinning):
                mjfast.score(r["hand"], **kw)
            continue
        got = mjfast.score(r["hand"], **kw)
        _same(got, want)
        n_dropped += bool(got.ignored_flags)
        if got.ignored_flags:
            with pytest.raises(mjfast.InvalidHand) as e1:
                mjfast.score(r["hand"], strict=True, **kw)
            with pytest.raises(mjfast.InvalidHand) as e2:
                mjfast.score(parse_hand(r["hand"]), strict=True, **kw)
            assert str(e1.value) == str(e2.value)
    assert n_dropped > 100                      # the dropped-flag cases are exercised


def test_worked_example():
    # 5m held twice before the win: fourth_tile cannot hold; a discard win on
    # a tile held already cannot be robbing the kong
    s = mjfast.score("123m456m789p55mEE5m", fourth_tile=True, kong=True)
    assert set(s.ignored_flags) == {"fourth_tile", "kong"}
    assert "Last Tile" not in [f.name for f in s.fans] and "Robbing the Kong" not in [f.name for f in s.fans]


def test_score_str_dropped_out_checked():
    import numpy as np
    from mjfast import _fans
    buf = np.zeros(100, np.int16)
    with pytest.raises(ValueError):
        _fans.score_str("123m456m789p55mEE5m", 2, 0, 0, 0, buf, 0, np.zeros(0, np.uint8))
    with pytest.raises((TypeError, ValueError)):
        _fans.score_str("123m456m789p55mEE5m", 2, 0, 0, 0, buf, 0, np.zeros(1, np.int64))
    d = np.zeros(1, np.uint8)
    assert _fans.score_str("123m456m789p55mEE5m", 2, 0, 0, 0, buf, 0, d) > 0 and d[0] == 2
