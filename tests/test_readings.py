"""The regular-form readings (mjfast.decompose, and the ones the fan kernel
scores) against an independent brute force: every distinct split of the
concealed tiles into sets and one pair, in the order the reference meets them.

The kernel takes a hand's readings from per-suit split tables (src/fankernel/readings.pxd);
the brute force here knows nothing of suits: it picks the pair, then every
multiset of sets (pungs and chows as candidates in one fixed order) that uses
up the rest exactly.
"""
import itertools

import numpy as np
import pytest

import mjfast

from handgen import random_winning_records

# the reference's tile order: characters, bamboo, dots, honors (ours: m, p, s, honors)
_REF = [0x11 + i for i in range(9)] + [0x31 + i for i in range(9)] + [0x21 + i for i in range(9)] \
    + [0x41 + i for i in range(7)]
_CANDIDATES = [("pung", t) for t in range(34)] + [("chow", s * 9 + r) for s in range(3) for r in range(7)]


def _tiles(kind, t):
    return (t, t, t) if kind == "pung" else (t, t + 1, t + 2)


def brute_readings(counts, melds=0):
    """Every distinct split of 14 - 3 * melds concealed tiles into 4 - melds
    sets and a pair: (sets sorted by (tile, pung before chow)) + (pair,), the
    list sorted by the sets' keys in the reference's order."""
    need = 4 - melds
    out = set()
    c0 = list(counts)
    for p in range(34):
        if c0[p] < 2:
            continue
        c = c0[:]
        c[p] -= 2
        cands = [x for x in _CANDIDATES if all(c[t] >= _tiles(*x).count(t) for t in set(_tiles(*x)))]
        for combo in itertools.combinations_with_replacement(cands, need):
            left = c[:]
            ok = True
            for kind, t in combo:
                for u in _tiles(kind, t):
                    left[u] -= 1
                    ok &= left[u] >= 0
            if ok and not any(left):
                sets = tuple(sorted(combo, key=lambda x: (x[1], x[0] == "chow")))
                out.add(sets + (("pair", p),))

    def ref_key(r):
        return sorted(_REF[t] * 2 + (kind == "chow") for kind, t in r[:-1])
    return sorted(out, key=ref_key)


def kernel_readings(counts, melds=0):
    return [items for form, items in mjfast.decompose(np.asarray(counts, np.uint8), melds=melds)
            if form == "regular"]


def _row(text):
    return [int(x) for x in mjfast.to_counts(text)]


def test_hand_worked_examples():
    # 111222333m: three pungs or three identical chows; pungs come first
    # (the reference meets a pung before a chow on the same first tile)
    assert kernel_readings(_row("111222333m789p55s")) == [
        (("pung", 0), ("pung", 1), ("pung", 2), ("chow", 15), ("pair", 22)),
        (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 15), ("pair", 22))]
    # 1112345678999m + 2m: 111 + 22 + 345 + 678 + 999 only (11 + 123 + 234 would need two 3s)
    assert kernel_readings(_row("11122345678999m")) == [
        (("pung", 0), ("chow", 2), ("chow", 5), ("pung", 8), ("pair", 1))]
    # 1112345678999m + 1m: 111 + 123 + 456 + 789 + 99 only (the pair 11 would leave
    # two 1s for one 2)
    assert kernel_readings(_row("11112345678999m")) == [
        (("pung", 0), ("chow", 0), ("chow", 3), ("chow", 6), ("pair", 8))]
    # no reading
    assert kernel_readings(_row("123m456p789s1234s5m")) == []
    # honors: a pung or the pair, nothing else
    assert kernel_readings(_row("123m456p789sEEECC")) == [
        (("chow", 0), ("chow", 12), ("chow", 24), ("pung", 27), ("pair", 31))]
    assert kernel_readings(_row("123m456p789sEEEEC")) == []


def test_nine_gates_shapes_against_brute_force():
    for s in range(3):
        for x in range(9):
            r = [0] * 34
            for k, v in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
                r[9 * s + k] = v
            r[9 * s + x] += 1
            got = kernel_readings(r)
            assert got and got == brute_readings(r), (s, x)


def test_pure_suit_hands_against_brute_force():
    # seeded samples of the one-suit 14-tile patterns in each suit: winning ones
    # (is_win_batch, the flag tables), and any
    rng = np.random.default_rng(13)
    pats = np.array([c for c in itertools.product(range(5), repeat=9) if sum(c) == 14], np.uint8)
    rows = np.zeros((len(pats), 34), np.uint8)
    rows[:, :9] = pats
    win = mjfast.is_win_batch(rows)
    many = 0
    for i in list(rng.choice(np.flatnonzero(win), 300, replace=False)) + list(rng.choice(len(pats), 100)):
        for s in range(3):
            r = [0] * 34
            r[9 * s: 9 * s + 9] = pats[i].tolist()
            got = kernel_readings(r)
            assert got == brute_readings(r), (pats[i], s)
            many += len(got) >= 2
    assert many >= 30                  # the sample holds hands with several readings


def test_generator_hands_against_brute_force():
    recs = random_winning_records(600, seed=77)
    b = mjfast.HandBatch.from_records(recs)
    for i in range(len(b)):
        r = b.counts[i].tolist()
        k = int(b.n_melds[i])
        assert kernel_readings(r, k) == brute_readings(r, k), recs[i]["hand"]


def test_several_readings_in_one_suit_beside_others():
    # 111222333m reads as three pungs or three chows, beside a chow and an honor pair
    r = _row("111222333m123sNN")
    got = kernel_readings(r)
    assert got == brute_readings(r) and len(got) == 2
    # 222333444p the same, the pair in another suit
    r = _row("123m222333444p11s")
    got = kernel_readings(r)
    assert got == brute_readings(r) and len(got) == 2
    # one meld implied (11 concealed tiles)
    r = _row("111222333pEE")
    got = kernel_readings(r, 1)
    assert got == brute_readings(r, 1) and len(got) == 2
    # a pure suit with three readings and more
    r = _row("11122233344455m")
    got = kernel_readings(r)
    assert got == brute_readings(r) and len(got) >= 3


@pytest.mark.parametrize("melds", [0, 1, 2, 3, 4])
def test_sizes_with_melds(melds):
    rng = np.random.default_rng(melds)
    n = 14 - 3 * melds
    checked = 0
    for _ in range(300):
        suits = rng.choice(3, size=2, replace=False)
        pool = [s * 9 + r for s in suits for r in range(5)] + [27, 31]
        r = [0] * 34
        for t in rng.choice(pool, n):
            r[t] += 1
        if max(r) > 4:
            continue
        assert kernel_readings(r, melds) == brute_readings(r, melds), (r, melds)
        checked += 1
    assert checked > 100
