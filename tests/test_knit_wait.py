"""The knitted straight's wait, computed on its four tiles.

Like the reference, the wait of a knitted straight without melds is judged on
the five tiles beside the straight (its set and pair) less the winning tile --
or, when the winning tile was one of the straight's, on the first four of the
five in the reference's order.  The fan kernel used to take the regular-form
waits of those four tiles from _core's wait tables (_shape_waits); it now
works them out from the four tiles (src/fankernel/readings.pxd, _knit_wait).
Both are run here on every case there is: every multiset of four tiles, and
every set, pair and winning tile; and knitted straight hands are scored
against PyMahjongGB.
"""
from __future__ import annotations

import itertools
import random

import pytest

import mjfast
from mjfast import _core, _fans

from oracle import oracle_score

_HONORS = "ESWNCFP"
_SUITS = "mps"
_SETS = [(0, t) for t in range(27) if t % 9 <= 6] + [(1, t) for t in range(34)]     # (0 chow / 1 pung, tile)


def test_four_tile_waits_on_every_multiset_of_four_tiles():
    n = waiting = 0
    for tiles in itertools.combinations_with_replacement(range(34), 4):
        new, old = _fans.four_tile_waits_check(*tiles)
        assert new == old, tiles
        n += 1
        waiting += new != 0
    assert n == 66045
    assert 0 < waiting < n


def test_four_tile_waits_worked_examples():
    # 1m2m + 5p5p: 3m; 2m4m + EE: 3m; 1m1m1m + 9s: 9s; 3p4p5p + 3p: 3p and 6p;
    # 1m1m + 2m2m (shanpon): 1m and 2m; 4 x 7s (fifth copy, shape only): 7s
    cases = [((0, 1, 13, 13), {2}), ((1, 3, 27, 27), {2}), ((0, 0, 0, 26), {26}), ((11, 12, 13, 11), {11, 14}),
             ((0, 0, 1, 1), {0, 1}), ((24, 24, 24, 24), {24}), ((0, 4, 13, 27), set())]
    for tiles, waits in cases:
        new, old = _fans.four_tile_waits_check(*tiles)
        assert new == old == sum(1 << t for t in waits), tiles


def test_knit_wait_on_every_set_pair_and_winning_tile():
    n = single = 0
    for kind, t in _SETS:
        for pair in range(34):
            for win in range(34):
                new, old = _fans.knit_wait_check(kind, t, pair, win)
                assert new == old, (kind, t, pair, win)
                n += 1
                single += new != 0 and new & (new - 1) == 0
    assert n == 55 * 34 * 34
    assert single > 0


def test_knit_wait_check_refuses_bad_arguments():
    for args in ((2, 0, 0, 0), (0, 7, 0, 0), (0, 27, 0, 0), (1, 34, 0, 0), (1, 0, -1, 0), (1, 0, 0, 34)):
        with pytest.raises(ValueError):
            _fans.knit_wait_check(*args)
    with pytest.raises(ValueError):
        _fans.four_tile_waits_check(0, 0, 0, 34)


def _name(t):
    return _HONORS[t - 27] if t >= 27 else f"{t % 9 + 1}{_SUITS[t // 9]}"


def _knitted_hands(arrangements):
    """Every knitted straight hand without melds over the given arrangements
    (suit of the 1-4-7, 2-5-8 and 3-6-9 triples): its 14 tiles and each
    distinct winning tile."""
    for a in arrangements:
        knit = [a[j] * 9 + j + 3 * r for j in range(3) for r in range(3)]
        for kind, t in _SETS:
            for pair in range(34):
                tiles = knit + ([t, t + 1, t + 2] if kind == 0 else [t] * 3) + [pair, pair]
                if max(tiles.count(x) for x in tiles) > 4:
                    continue
                for win in sorted(set(tiles)):
                    yield tiles, win


def _compare(arrangements, sample=None, seed=5):
    rng = random.Random(seed)
    n = knitted = 0
    for tiles, win in _knitted_hands(arrangements):
        if sample and rng.random() > sample:
            continue
        rest = list(tiles)
        rest.remove(win)
        hand = "".join(_name(t) for t in rest + [win])
        kw = dict(self_drawn=rng.random() < 0.5, seat_wind=rng.choice("ESWN"), round_wind=rng.choice("ESWN"))
        s = mjfast.score(hand, **kw)
        total, fans = oracle_score(dict(hand=hand, **kw))
        assert (s.total, {f.name: (f.points, f.count) for f in s.fans}) == (total, fans), (hand, kw)
        n += 1
        knitted += s.form == "knitted_straight"
    return n, knitted


@pytest.mark.oracle
def test_knitted_straight_hands_against_the_reference():
    n, knitted = _compare(list(itertools.permutations(range(3))), sample=0.08)
    assert n > 5000 and knitted > 0.9 * n


@pytest.mark.oracle
@pytest.mark.slow
def test_every_knitted_straight_hand_against_the_reference():
    n, knitted = _compare(list(itertools.permutations(range(3))))
    assert n > 100000 and knitted > 0.9 * n
