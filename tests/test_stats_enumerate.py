"""Exact enumeration: the hand generators against brute force and published counts."""
import itertools
from functools import lru_cache
from math import comb

import numpy as np
import pytest

import mjfast
from mjfast.stats import enumerate as E


# -- a naive decomposition, independent of the lookup tables --------------------

@lru_cache(maxsize=None)
def _sets_only(v, chows):
    """True if the counts v split into sets (pungs, and chows if ``chows``)."""
    i = next((j for j, c in enumerate(v) if c), None)
    if i is None:
        return True
    w = list(v)
    if w[i] >= 3:
        w[i] -= 3
        if _sets_only(tuple(w), chows):
            return True
        w[i] += 3
    if chows and i + 2 < len(v) and w[i + 1] and w[i + 2]:
        w[i] -= 1
        w[i + 1] -= 1
        w[i + 2] -= 1
        if _sets_only(tuple(w), chows):
            return True
    return False


def _naive(v, pair, chows):
    if not pair:
        return _sets_only(tuple(v), chows)
    for i, c in enumerate(v):
        if c >= 2:
            w = list(v)
            w[i] -= 2
            if _sets_only(tuple(w), chows):
                return True
    return False


def _all_vectors(n, total):
    """Every vector of n counts 0-4 summing to total."""
    grid = np.array(list(itertools.product(range(5), repeat=n)), np.uint8) if n <= 7 else None
    if grid is None:
        low = np.array(list(itertools.product(range(5), repeat=5)), np.uint8)
        high = np.array(list(itertools.product(range(5), repeat=n - 5)), np.uint8)
        sl, sh = low.sum(1, dtype=np.int64), high.sum(1, dtype=np.int64)
        out = []
        for j, hrow in enumerate(high):
            sel = low[sl == total - sh[j]]
            if len(sel):
                out.append(np.hstack([np.repeat(hrow[None], len(sel), 0), sel]))
        return np.vstack(out)
    return grid[grid.sum(1) == total]


@pytest.mark.parametrize("k", range(5))
@pytest.mark.parametrize("pair", [False, True])
def test_suit_tables_match_brute_force(k, pair):
    vecs = _all_vectors(9, 3 * k + 2 * pair)
    brute = [tuple(v) for v in vecs if _naive(tuple(int(x) for x in v), pair, True)]
    table = [tuple(v) for v in E.suit_table(k, pair)]
    assert sorted(brute) == table


@pytest.mark.parametrize("k", range(5))
@pytest.mark.parametrize("pair", [False, True])
def test_honor_tables_match_brute_force(k, pair):
    vecs = _all_vectors(7, 3 * k + 2 * pair)
    brute = [tuple(v) for v in vecs if _naive(tuple(int(x) for x in v), pair, False)]
    assert sorted(brute) == [tuple(v) for v in E.suit_table(k, pair, honors=True)]


def test_published_counts():
    # one suit, 4 sets + a pair: 13,259; three suits without honors: 5,237,550
    # (the values given in Project Euler problem 696 for w(9,1,4) and w(9,3,4))
    assert len(E.suit_table(4, True)) == 13259
    three = sum(int(np.prod([len(t) for t in E._part_tables(ks, p)[:3]]))
                for ks, p in E._assignments() if ks[3] == 0 and p != 3)
    assert three == 5237550
    # all 34 tiles: the 11,498,658 distinct regular count vectors known from riichi
    # mahjong (the regular form does not depend on the rule set)
    assert E.count_hands("regular") == 11498658
    # seven pairs of distinct tiles: C(34, 7); with four of a kind as two pairs, more
    assert comb(34, 7) == 5379616
    assert E.count_hands("seven_pairs") == 16417104


@pytest.mark.slow
def test_seven_pairs_listing_matches_formula():
    n = distinct = 0
    for h in E.hands("seven_pairs", 1 << 20):
        assert (h.sum(1) == 14).all() and ((h % 2) == 0).all() and h.max() <= 4
        n += len(h)
        distinct += int((h.max(1) == 2).sum())
    assert n == E.count_hands("seven_pairs")
    assert distinct == comb(34, 7)


def test_product_chunks_are_distinct_wins():
    # a spread of the sets that fills all four parts: every row distinct and a win
    tables = E._part_tables((1, 1, 1, 1), 0)
    rows = np.concatenate(list(E._product_chunks(tables, 50000)))
    assert len(rows) == np.prod([len(t) for t in tables])
    assert len(set(map(bytes, rows))) == len(rows)
    assert (rows.sum(1) == 14).all()
    assert (mjfast.shanten_batch(rows, form="regular") == -1).all()


def test_regular_chunks_sample():
    g = E.hands("regular", 1 << 14)
    for _, h in zip(range(8), g):
        assert (h.sum(1) == 14).all() and h.max() <= 4
        assert (mjfast.shanten_batch(h, form="regular") == -1).all()
        assert len(set(map(bytes, h))) == len(h)


def test_seven_pairs_groups():
    # the first groups of the listing: distinct, even counts, complete, in the form
    seen = set()
    for _, h in zip(range(10), E.hands("seven_pairs", 1 << 14)):
        assert (h.sum(1) == 14).all() and ((h % 2) == 0).all() and h.max() <= 4
        assert (mjfast.shanten_batch(h, form="seven_pairs") == -1).all()
        seen.update(map(bytes, h))
    assert len(seen) == 10 * (1 << 14)


def test_knitted_straight_against_a_superset():
    # every hand of 9 knitted tiles of one suit order + any 5 more tiles, kept
    # when the library's form check says it completes as a knitted straight
    listed = np.concatenate(list(E.hands("knitted_straight")))
    extra = np.array(list(itertools.combinations_with_replacement(range(34), 5)))
    found = set()
    for kn in E._knitted_orders():
        h = np.zeros((len(extra), 34), np.uint8)
        h[:, kn] = 1
        np.add.at(h, (np.repeat(np.arange(len(extra)), 5), extra.ravel()), 1)
        h = h[h.max(1) <= 4]
        ok = mjfast.shanten_batch(h, form="knitted_straight") == -1
        found.update(map(bytes, h[ok]))
    assert found == set(map(bytes, listed))
    assert len(listed) == E.count_hands("knitted_straight")


def test_special_forms_complete():
    for form, n in (("thirteen_orphans", 13), ("honors_knitted", 720)):
        h = np.concatenate(list(E.hands(form)))
        assert len(h) == n == E.count_hands(form)
        assert len(np.unique(h, axis=0)) == n
        assert (mjfast.shanten_batch(h, form=form) == -1).all()
    # honors-and-knitted: no 14 distinct tiles outside the listing complete the form
    hk = set(map(bytes, np.concatenate(list(E.hands("honors_knitted")))))
    rng = np.random.default_rng(0)
    for _ in range(20):
        pick = rng.choice(34, size=(5000, 14), replace=True)
        h = np.zeros((5000, 34), np.uint8)
        h[np.arange(5000)[:, None], pick] = 1
        h = h[h.sum(1) == 14]
        ok = mjfast.shanten_batch(h, form="honors_knitted") == -1
        assert {bytes(x) for x in h[ok]} <= hk


def test_enumerate_small_forms_invariants():
    r = E.enumerate_stats(["thirteen_orphans", "honors_knitted", "knitted_straight"])
    assert r.union is None
    for form, fr in r.forms.items():
        hands = np.concatenate(list(E.hands(form)))
        assert fr.hands == len(hands)
        assert fr.rows == int((hands > 0).sum())
        assert fr.physical == int(E.physical_weights(hands).sum())
        # each hand's rows carry c_t * prod C(4, c): together 14 x its physical count
        assert fr.weighted.wins == 14 * fr.physical
        assert fr.stats.wins == fr.rows
        assert fr.stats.self_drawn == fr.rows          # every row is self-drawn
        assert fr.stats.forms[E.FORM_NAMES.index(form)] == fr.rows
    to = r.forms["thirteen_orphans"]
    j = mjfast.MCR.index("thirteen_orphans")
    assert to.stats.fan_wins[j] == to.rows == 13 * 13
    assert to.physical == 13 * 6 * 4 ** 12


def test_physical_weights():
    h = np.zeros((2, 34), np.uint8)
    h[0, :14] = 1
    h[1, [0, 1, 2, 3, 4]] = [4, 3, 2, 3, 2]
    assert E.physical_weights(h).tolist() == [4 ** 14, 1 * 4 * 6 * 4 * 6]


@pytest.mark.slow
def test_regular_listing_distinct_and_complete():
    n = even = 0
    keys = []
    for h in E.hands("regular", 1 << 20):
        n += len(h)
        even += int(((h & 1) == 0).all(1).sum())
        p = np.power(5, np.arange(17), dtype=np.int64)
        keys.append(np.stack([h[:, :17].astype(np.int64) @ p, h[:, 17:].astype(np.int64) @ p], 1))
        assert (mjfast.shanten_batch(h, form="regular") == -1).all()
    allk = np.concatenate(keys)
    assert n == 11498658 == len(np.unique(allk, axis=0))
    # regular hands that are also seven pairs (all counts even), found from the
    # regular side: the overlap the union of the forms removes
    assert even == 7938
    r = E.enumerate_stats()   # all forms: the union counts each hand once
    assert r.union.hands == 11498658 + 16417104 - 7938 + 13 + 720 + 11016
