"""shanten(..., exact=True): the exact replacement number - 1.

* brute force: every exchange sequence up to depth 2 (draw any tile the hand
  does not hold four times, discard any tile), each resulting hand checked
  with is_win, on random hands of every size, biased towards four of a kind;
* the ``xiangting`` package (riichi forms: regular, seven distinct pairs,
  thirteen orphans) on the regular form plus those two written out here;
* exact >= shape shanten, equal on hands without a tile held four times
  in the regular form... (not in general: see the worked examples).
"""
from __future__ import annotations

import itertools
import os
import sys

import numpy as np
import pytest

import mjfast
from mjfast import _core

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handgen  # noqa: E402

BIASES = (None, "pairs", "one_suit", "honors", "terminals", "knitted")


def _show(c):
    return mjfast.counts_to_str(np.asarray(c, dtype=np.uint8))


def _plus(rows, cap_check=True):
    """Every row plus one more tile (a copy the row does not hold four times)."""
    out = []
    for r in rows:
        for t in np.flatnonzero(r < 4):
            x = r.copy()
            x[t] += 1
            out.append(x)
    return np.unique(np.array(out), axis=0) if out else np.zeros((0, 34), np.uint8)


def _minus(rows):
    out = []
    for r in rows:
        for t in np.flatnonzero(r):
            x = r.copy()
            x[t] -= 1
            out.append(x)
    return np.unique(np.array(out), axis=0) if out else np.zeros((0, 34), np.uint8)


def brute_replacements(c, depth):
    """Fewest exchanges to a winning hand, by trying every sequence; depth+1
    when more than `depth` are needed.  13-3k tiles: each exchange is a draw
    then (but for the last) a discard; 14-3k tiles: a discard then a draw."""
    c = np.asarray(c, dtype=np.uint8)
    n = int(c.sum())
    rows = c[None, :]
    if n % 3 == 2:
        if mjfast.is_win_batch(rows).any():
            return 0
        rows = _minus(rows)
    for k in range(1, depth + 1):
        rows = _plus(rows)
        if mjfast.is_win_batch(rows).any():
            return k
        if k < depth:
            rows = _minus(rows)
    return depth + 1


def _hands(n, size, seed):
    parts = [handgen.random_hands(n // len(BIASES) + 1, size, seed=seed * 17 + k, bias=b)
             for k, b in enumerate(BIASES)]
    return np.concatenate(parts)[:n]


def _with_quads(n, size, seed):
    """Hands of `size` tiles holding one or two tiles four times."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        c = np.zeros(34, np.int64)
        q = rng.choice(34, size=min(rng.integers(1, 3), size // 4), replace=False)
        c[q] = 4
        rest = size - int(c.sum())
        pool = np.repeat(np.arange(34), 4 - c)
        # near tiles make small distances: draw mostly from one suit around the quads
        if rest:
            pick = rng.choice(pool, size=rest, replace=False)
            np.add.at(c, pick, 1)
        out.append(c.astype(np.uint8))
    return np.array(out)


def check_brute(hands, depth=2):
    bad = []
    for c in hands:
        n = int(c.sum())
        ex = mjfast.shanten(c, exact=True) + 1
        want = brute_replacements(c, depth)
        if min(ex, depth + 1) != want:
            bad.append((_show(c), ex, want))
    return bad


# ---------------------------------------------------------------------------
# worked examples
# ---------------------------------------------------------------------------

def test_worked_examples():
    # 1111m as a pung and a pair needs a fifth copy: exchange one 1m for a
    # tile to pair (2 exchanges), where the shape count says ready
    assert mjfast.shanten([4] + [0] * 33) == 0
    assert mjfast.shanten([4] + [0] * 33, exact=True) == 1
    # 1111m 2m (three melds elsewhere): 111m + 2m waiting on a pair, no fifth copy needed
    c = np.zeros(34, np.uint8)
    c[0] = 4; c[1] = 1
    assert mjfast.shanten(c, exact=True) == mjfast.shanten(c) == -1 + 1
    # xiangting's own example: 1111m 111122233z -> replacement number 2
    c = np.zeros(34, np.uint8)
    c[0] = 4; c[27] = 4; c[28] = 3; c[29] = 2
    assert mjfast.shanten(c, form="regular", exact=True) + 1 == 2
    # exact never below the shape count
    for c in _hands(300, 13, seed=1):
        assert mjfast.shanten(c, exact=True) >= mjfast.shanten(c)


def test_exact_every_form_and_input_kind():
    for c in _with_quads(50, 13, seed=3):
        want = _core.shanten_exact_one(c, 0, -1)
        for k in (c, c.tolist(), tuple(c.tolist()), c.astype(np.int64), _show(c)):
            assert mjfast.shanten(k, exact=True) == want
        for form in mjfast.FORMS:
            assert mjfast.shanten(c, form=form, exact=True) >= mjfast.shanten(c, form=form)
    h = mjfast.shanten_batch(_with_quads(40, 13, seed=4), exact=True)
    assert [int(x) for x in h] == [mjfast.shanten(c, exact=True) for c in _with_quads(40, 13, seed=4)]


# ---------------------------------------------------------------------------
# brute force, CI sample
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
def test_exact_matches_brute_force_small_depths(size):
    hands = np.concatenate([_with_quads(16, size, seed=size), _hands(8, size, seed=size)])        # the brute force grows with the size
    bad = check_brute(hands)
    assert not bad, bad[:5]


def test_exact_matches_brute_force_where_it_differs():
    """Hands where exact and shape shanten differ, found among many."""
    found = []
    for size in (4, 7, 10, 13):
        for c in _with_quads(4000, size, seed=50 + size):
            if mjfast.shanten(c, exact=True) != mjfast.shanten(c) and mjfast.shanten(c, exact=True) <= 1:
                found.append(c)
            if len(found) >= 3 * (size // 3 + 1):
                break
    assert len(found) >= 10
    bad = check_brute(found)
    assert not bad, bad[:5]


# ---------------------------------------------------------------------------
# xiangting
# ---------------------------------------------------------------------------

def _riichi_dist(c):
    """Our exact distance over xiangting's forms: the regular form, seven
    distinct pairs and thirteen orphans (the last two at 13/14 tiles)."""
    n = int(c.sum())
    best = mjfast.shanten(c, form="regular", exact=True) + 1
    if n >= 13:
        pairs = int((c >= 2).sum())
        kinds = int((c >= 1).sum())
        best = min(best, 7 - pairs + max(0, 7 - kinds))
        best = min(best, mjfast.shanten(c, form="thirteen_orphans") + 1)
    return best


def check_xiangting(hands):
    xt = pytest.importorskip("xiangting")
    four = xt.PlayerCount.FOUR
    bad = []
    for c in hands:
        want = xt.calculate_replacement_number(c.tolist(), four)
        if _riichi_dist(c) != want:
            bad.append((_show(c), _riichi_dist(c), want))
    return bad


def test_exact_matches_xiangting_sample():
    hands = np.concatenate([_hands(600, s, seed=70 + s) for s in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)]
                           + [_with_quads(600, s, seed=80 + s) for s in (4, 7, 10, 13, 14)])
    bad = check_xiangting(hands)
    assert not bad, bad[:5]


@pytest.mark.slow
def test_exact_matches_xiangting_200k():
    hands = np.concatenate([_hands(20000, s, seed=170 + s) for s in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)]
                           + [_with_quads(20000, s, seed=180 + s) for s in (4, 7, 10, 13, 14)])
    bad = check_xiangting(hands)
    assert not bad, bad[:5]


@pytest.mark.slow
def test_exact_matches_brute_force_thousands():
    hands = np.concatenate([_with_quads(400, s, seed=300 + s) for s in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)]
                           + [_hands(200, s, seed=400 + s) for s in (4, 7, 10, 13)])
    bad = check_brute(hands)
    assert not bad, bad[:5]
