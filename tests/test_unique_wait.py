"""The fan kernel's unique-wait test (Edge / Closed / Single Wait need the
hand to have waited on one tile) against the full computation it replaced.

The kernel works the waits out from the winning hand's own split: only the
winning tile's part, and the pair's part, can hold a wait
(src/fankernel/readings.pxd, _unique_wait).  The reference answer is the
regular-form waits of all 13 standing tiles, a fifth copy counted by search
(as PyMahjongGB does), plus seven pairs when nothing is melded.
``_fans.unique_wait_check`` runs both on each row.
"""
import itertools
import random

import numpy as np
import pytest

import mjfast
from mjfast import _fans

from handgen import random_winning_records


def _both(counts, n_melds, win):
    counts = np.ascontiguousarray(counts, np.uint8)
    out = np.zeros((len(counts), 2), np.int8)
    _fans.unique_wait_check(counts, np.ascontiguousarray(n_melds, np.uint8),
                            np.ascontiguousarray(win, np.uint8), out)
    return out


def _agree(counts, n_melds, win):
    """Both answers on every row that is a regular win; returns them."""
    out = _both(counts, n_melds, win)
    ok = out[:, 0] >= 0
    bad = np.flatnonzero(ok & (out[:, 0] != out[:, 1]))
    assert bad.size == 0, [(mjfast.to_str(np.asarray(counts[i], np.uint8)), int(win[i]), int(n_melds[i]),
                            out[i].tolist()) for i in bad[:5]]
    return out[ok]


def _one(hand, win, melds=0):
    c = mjfast.to_counts(hand).astype(np.uint8)
    return _both(c[None, :], [melds], [mjfast.tile_index(win)])[0].tolist()


def test_hand_worked_examples():
    assert _one("123m456p789s123sCC", "C") == [1, 1]      # single wait on the Red Dragon
    assert _one("123m456p789s123sCC", "2m") == [1, 1]     # 13m: closed wait on 2m alone
    assert _one("234m456p789s123sCC", "4m") == [0, 0]     # 23m: 1m or 4m
    assert _one("123m456p789s11mCCC", "1m") == [0, 0]     # 11m + CC: either pair's tile (shanpon)
    assert _one("123m456p789s11mCCC", "C") == [0, 0]
    assert _one("123m456p789s1m222sE", "1m") == [-1, -1]  # not a regular win: refused
    # a fifth copy counts, as the reference: 1111234m beside two melds waits
    # on 4m (111 123 44) and on a fifth 1m (111 11 234), so 4m is no single wait
    assert _one("11112344m", "4m", melds=2) == [0, 0]
    assert _one("11123444m", "4m", melds=2) == [0, 0]     # 111 234 44 / 11 123 444 ...
    # seven pairs' wait joins the regular ones when nothing is melded:
    # 11112778899s + FF waits on 3s as sets (111 123 789 789 FF) and on 2s
    # as seven pairs (11 11 77 88 99 FF + 2s)
    assert _one("111123778899sFF", "3s") == [0, 0]


def test_generator_mix():
    recs = random_winning_records(40000, seed=77)
    b = mjfast.HandBatch.from_records(recs)
    out = _agree(b.counts, b.n_melds, b.win_tile)
    assert len(out) > 25000
    assert 0.1 < out[:, 0].mean() < 0.9            # both answers met often


def _one_suit_patterns(size):
    """Every count vector of one suit (9 counts 0..4) holding `size` tiles."""
    g = np.indices((5,) * 9).reshape(9, -1).T
    return g[g.sum(1) == size].astype(np.uint8)


@pytest.mark.parametrize("melds", [0, 1, 2, 3, 4])
def test_every_one_suit_winning_hand(melds):
    # each pattern in one suit, won on each tile it holds; the suits share
    # their tables, so characters stand for all three (bamboo checked on a sample)
    pats = _one_suit_patterns(14 - 3 * melds)
    rows, wins = [], []
    for r in range(9):
        sel = pats[pats[:, r] > 0]
        rows.append(sel)
        wins.append(np.full(len(sel), r, np.uint8))
    p = np.concatenate(rows)
    w = np.concatenate(wins)
    c = np.zeros((len(p), 34), np.uint8)
    c[:, :9] = p
    out = _agree(c, np.full(len(p), melds, np.uint8), w)
    if melds == 4:
        assert len(out) == 9 and out[:, 0].all()   # a lone pair: its tile was the only wait
    else:
        assert out[:, 0].any() and not out[:, 0].all()
    if melds == 0:
        assert len(out) > 40000                    # every regular one-suit 14-tile win, by winning tile
    k = np.arange(0, len(p), 7)
    cb = np.zeros((len(k), 34), np.uint8)
    cb[:, 18:27] = p[k]
    _agree(cb, np.full(len(k), melds, np.uint8), w[k] + 18)


def _random_hands_with_fours(n, seed):
    """Winning hands built from sets crowded onto a few tiles, so that many
    hold four of a tile; the pair in any part, honors included."""
    rng = random.Random(seed)
    out, wins, melds = [], [], []
    while len(out) < n:
        m = rng.randrange(0, 3)
        c = [0] * 34
        suit = rng.randrange(3)
        lo = suit * 9 + rng.randrange(0, 5)
        for _ in range(4 - m):
            if rng.random() < 0.8:
                t = lo + rng.randrange(0, 3)
            else:
                t = rng.choice([rng.randrange(27), 27 + rng.randrange(7)])
            if t < 27 and t % 9 <= 6 and rng.random() < 0.6:
                for x in (t, t + 1, t + 2):
                    c[x] += 1
            else:
                c[t] += 3
        p = rng.choice([lo + rng.randrange(0, 4), rng.randrange(34)])
        c[p] += 2
        if max(c) > 4:
            continue
        held = [t for t in range(34) if c[t]]
        out.append(c)
        wins.append(rng.choice(held))
        melds.append(m)
    return np.array(out, np.uint8), np.array(melds, np.uint8), np.array(wins, np.uint8)


def test_hands_holding_fours():
    c, m, w = _random_hands_with_fours(30000, seed=5)
    out = _agree(c, m, w)
    standing = c.copy()
    standing[np.arange(len(c)), w] -= 1
    fours = (standing == 4).any(1)[_both(c, m, w)[:, 0] >= 0]
    assert fours.sum() > 5000
    assert out[fours, 0].any() and not out[fours, 0].all()


@pytest.mark.slow
def test_generator_mix_million():
    recs = random_winning_records(1_000_000, seed=2026)
    b = mjfast.HandBatch.from_records(recs)
    _agree(b.counts, b.n_melds, b.win_tile)


def test_bad_rows_are_refused_not_trusted():
    c = np.zeros((3, 34), np.uint8)
    c[0, 0] = 5                                       # a count past four
    c[1, :14] = 1                                     # 14 tiles, no regular win
    c[2, 0] = 2                                       # too few tiles
    out = _both(c, [0, 0, 0], [0, 0, 0])
    assert (out == -1).all()
    with pytest.raises(ValueError):
        _fans.unique_wait_check(np.zeros((2, 33), np.uint8), np.zeros(2, np.uint8), np.zeros(2, np.uint8),
                                np.zeros((2, 2), np.int8))
    with pytest.raises(ValueError):
        _fans.unique_wait_check(np.zeros((2, 34), np.uint8), np.zeros(1, np.uint8), np.zeros(2, np.uint8),
                                np.zeros((2, 2), np.int8))
    assert _both(np.zeros((1, 34), np.uint8), [0], [40]).tolist() == [[-1, -1]]
