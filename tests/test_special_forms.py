"""The special forms (seven pairs, thirteen orphans, honors and knitted tiles,
knitted straight) against the reference calculator, on every hand of the
rarer shapes and on their near misses.

The fan kernel tests these forms with word-wide masks (src/fankernel/
mcr_score.pxd, _score_special): thirteen orphans is exactly the orphans'
tile mask, honors and knitted is 14 single tiles whose suited ones lie in one
knitted arrangement, and plain seven pairs takes the hand's tile-set fans
from the regular form's.  Every such hand is scored here and compared with
PyMahjongGB, and hands one tile away from the shape are checked to be no win
of that form.
"""
from __future__ import annotations

import itertools
import random

import pytest

import mjfast
from mjfast import NotWinning

from oracle import oracle_score

_HONORS = "ESWNCFP"
_SUITS = "mps"
# the six knitted arrangements: suit of the 1-4-7, 2-5-8 and 3-6-9 triples
_ARRANGEMENTS = list(itertools.permutations(range(3)))


def _name(t):
    return _HONORS[t - 27] if t >= 27 else f"{t % 9 + 1}{_SUITS[t // 9]}"


def _hand(tiles, win):
    """Concealed tiles (the winning one last), one tile name each."""
    rest = list(tiles)
    rest.remove(win)
    return "".join(_name(t) for t in rest + [win])


def _fans(s):
    return {f.name: (f.points, f.count) for f in s.fans}


def _same_as_reference(hand, **kw):
    s = mjfast.score(hand, **kw)
    total, fans = oracle_score(dict(hand=hand, **kw))
    assert (s.total, _fans(s)) == (total, fans), hand
    return s


def _knit_tiles(a):
    return [a[j] * 9 + j + 3 * r for j in range(3) for r in range(3)]


@pytest.mark.oracle
def test_every_honors_and_knitted_hand():
    rng = random.Random(11)
    forms = set()
    for a in _ARRANGEMENTS:
        pool = _knit_tiles(a) + list(range(27, 34))
        for drop in itertools.combinations(range(16), 2):
            tiles = [t for i, t in enumerate(pool) if i not in drop]
            win = rng.choice(tiles)
            s = _same_as_reference(_hand(tiles, win), self_drawn=rng.random() < 0.5)
            forms.add(s.form)
    assert forms == {"honors_knitted"}


@pytest.mark.oracle
def test_honors_and_knitted_near_misses_are_not_that_form():
    # one suited tile moved off the arrangement (to the same suit's other
    # triple), or a tile doubled: never honors and knitted
    rng = random.Random(12)
    n = 0
    for a in _ARRANGEMENTS:
        pool = _knit_tiles(a) + list(range(27, 34))
        for drop in itertools.combinations(range(16), 2):
            tiles = [t for i, t in enumerate(pool) if i not in drop]
            k = rng.randrange(len(tiles))
            t = tiles[k]
            if t < 27:
                tiles[k] = t + 1 if t % 9 < 8 else t - 1      # the suit's other triple: off the arrangement
            else:
                tiles[k] = rng.choice(tiles[:k] + tiles[k + 1:])
            if tiles.count(tiles[k]) > 4:
                continue
            hand = _hand(tiles, tiles[0])
            try:
                s = mjfast.score(hand)
            except NotWinning:
                with pytest.raises(Exception):
                    oracle_score(dict(hand=hand))
                n += 1
                continue
            assert s.form != "honors_knitted", hand
            _same_as_reference(hand)
            n += 1
    assert n > 500


@pytest.mark.oracle
def test_every_thirteen_orphans_hand_and_its_near_misses():
    orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
    for pair in orphans:
        for win in orphans:
            s = _same_as_reference(_hand(orphans + [pair], win), self_drawn=(pair + win) % 2 == 0)
            assert s.form == "thirteen_orphans"
    # an orphan replaced by its suit's 2 or 8: no thirteen orphans
    for k in range(6):
        t = orphans[k]
        bad = orphans[:k] + [t + 1 if t % 9 == 0 else t - 1] + orphans[k + 1:] + [orphans[(k + 1) % 13]]
        with pytest.raises(NotWinning):
            mjfast.score(_hand(bad, bad[-1]))


@pytest.mark.oracle
def test_seven_pairs_hands():
    # seven pairs of random kinds (a four as two pairs), shifted pairs, and
    # one-suit pairs that also read as sets (the regular form can score higher)
    rng = random.Random(13)
    forms = set()
    hands = []
    for _ in range(600):
        kinds = rng.sample(range(34), 7)
        if rng.random() < 0.2:
            kinds[1] = kinds[0]                      # a four of a kind
        hands.append([t for k in kinds for t in (k, k)])
    for s0 in range(3):
        for lo in range(3):
            hands.append([t for r in range(lo, lo + 7) for t in (s0 * 9 + r,) * 2])     # shifted pairs
    for _ in range(300):
        s0 = rng.randrange(3)
        kinds = sorted(rng.sample(range(9), 5) + rng.sample(range(9), 2))
        tiles = [t for k in kinds for t in (s0 * 9 + k,) * 2]
        if max(tiles.count(t) for t in tiles) <= 4:
            hands.append(tiles)
    for tiles in hands:
        win = rng.choice(tiles)
        s = _same_as_reference(_hand(tiles, win), self_drawn=rng.random() < 0.5,
                               seat_wind=rng.choice("ESWN"), round_wind=rng.choice("ESWN"))
        forms.add(s.form)
    assert {"seven_pairs", "regular"} <= forms
