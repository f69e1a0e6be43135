"""Fan targets: exact distances against brute force, and the points they promise.

For a hand of 13 concealed tiles, every sequence of up to two exchanges is
tried (draw any tile not held four times, discard any tile); each winning
hand reached is tested for each target's pattern by a predicate written
here from the definitions (over mjfast.decompose's readings, independent of
the compiled tables), and scored with mjfast.score: a target at distance d
(shanten d - 1) must be reached in exactly d exchanges when d <= 2 and not
before, and every win carrying the pattern must score at least the target's
points.  fan_shanten is checked to be an upper bound of the brute-force
distance to any win of 8 points.  Hands with exposed melds get the same
check over their concealed tiles (the melds stay melds of every reading, and
no draw passes four copies counting them).  CI runs a sample; the slow run
thousands (hundreds with melds).
"""
from __future__ import annotations

import os
import random
import sys

import numpy as np
import pytest

import mjfast
from mjfast import targets as T

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handgen  # noqa: E402

SUITS = (0, 9, 18)


def _show(c):
    return mjfast.counts_to_str(np.asarray(c, dtype=np.uint8))


# ---------------------------------------------------------------------------
# the patterns, from the definitions
# ---------------------------------------------------------------------------

def _readings(W):
    try:
        return mjfast.decompose(np.asarray(W, np.uint8), melds=0)
    except mjfast.InvalidHand:
        return []


def _regular_items(W):
    return [items for form, items in _readings(W) if form == "regular"]


def _contains_sets(W, melds, pair, R, p):
    """W holds the fixed melds and pair, and the rest is R melds + p pairs."""
    X = np.asarray(W, np.int64).copy()
    for kind, t in melds:
        if kind == "chow":
            X[t:t + 3] -= 1
        else:
            X[t] -= 3
    if pair is not None:
        X[pair] -= 2
    if (X < 0).any():
        return False
    return _is_sets(X, R, p)


def _is_sets(X, R, p):
    """X splits into exactly R melds and p pairs (brute force)."""
    X = np.asarray(X, np.int64)
    if X.sum() != 3 * R + 2 * p:
        return False
    if X.sum() == 0:
        return True
    t = int(np.flatnonzero(X)[0])
    Y = X.copy()
    if R and Y[t] >= 3:
        Y[t] -= 3
        if _is_sets(Y, R - 1, p):
            return True
        Y[t] += 3
    if R and t < 27 and t % 9 <= 6 and Y[t + 1] and Y[t + 2]:
        Y[t:t + 3] -= 1
        if _is_sets(Y, R - 1, p):
            return True
        Y[t:t + 3] += 1
    if p and Y[t] >= 2:
        Y[t] -= 2
        if _is_sets(Y, R, p - 1):
            return True
    return False


def _spec_ok(name, part, kind, t):
    if name is None:
        return False
    nrank, allowed, chow, pung, pair = T._RSPECS[name]
    r = t % 9 if t < 27 else t - 27
    bits = {"chow": chow, "pung": pung, "pair": pair}[kind]
    return bool((bits >> r) & 1)


def has_pattern(W, key):
    W = np.asarray(W, np.int64)
    for k, fm, pair, R, p in T._fixed_variants():
        if k == key and _contains_sets(W, fm, pair, R, p):
            return True
    for k, c in T._tiles_fixed():
        if k == key and (W == c).all():
            return True
    for k, spec in T._restricted_variants():
        if k != key:
            continue
        for items in _regular_items(W):
            ok = True
            for kind, t in items:
                part = 3 if t >= 27 else t // 9
                s = spec[part]
                if s == T._FULL:
                    continue
                if not _spec_ok(T._RNAMES[s] if s >= 0 else None, part, kind, t):
                    ok = False
                    break
            if ok:
                return True
    for k, allow in T._pung_variants():
        if k != key:
            continue
        for items in _regular_items(W):
            if all(kind != "chow" and allow[t] for kind, t in items):
                return True
    forms = {f for f, _ in _readings(W)}
    if key == "seven_pairs":
        return (W % 2 == 0).all() and W.sum() == 14
    if key == "thirteen_orphans":
        return "thirteen_orphans" in forms
    if key == "lesser_honors_and_knitted_tiles":
        return "honors_knitted" in forms
    if key == "greater_honors_and_knitted_tiles":
        return "honors_knitted" in forms and (W[27:] == 1).all()
    if key == "knitted_straight":
        return "knitted_straight" in forms
    return False


# ---------------------------------------------------------------------------
# brute force
# ---------------------------------------------------------------------------

def _plus(rows):
    out = []
    for r in rows:
        for t in np.flatnonzero(r < 4):
            x = r.copy()
            x[t] += 1
            out.append(x)
    return np.unique(np.array(out), axis=0)


def _minus(rows):
    out = []
    for r in rows:
        for t in np.flatnonzero(r):
            x = r.copy()
            x[t] -= 1
            out.append(x)
    return np.unique(np.array(out), axis=0)


def winners_by_depth(c, depth=2):
    """{k: winning 14-tile hands reachable in exactly k exchanges} for a
    13-tile hand (first reached at k)."""
    rows = np.asarray(c, np.uint8)[None, :]
    seen = set()
    out = {}
    for k in range(1, depth + 1):
        rows = _plus(rows)
        win = rows[mjfast.is_win_batch(rows)]
        out[k] = [w for w in win if w.tobytes() not in seen]
        seen.update(w.tobytes() for w in win)
        if k < depth:
            rows = _minus(rows)
    return out


def _total(W):
    """Points of W won on a discard (the best winning tile), no flowers."""
    best = 0
    for t in np.flatnonzero(W):
        X = W.copy()
        X[t] -= 1
        s = mjfast.counts_to_str(X) + mjfast.tile_name(int(t))
        try:
            best = max(best, mjfast.score(s).total)
        except mjfast.InvalidHand:
            pass
    return best


def check_hand(c, depth=2):
    """Problems found on one 13-tile hand (empty list = all good)."""
    bad = []
    wins = winners_by_depth(c, depth)
    targets = {f.key: f for f in mjfast.fan_targets(c, min_points=0)}
    totals = {}
    for key, f in targets.items():
        d = None if f.shanten is None else f.shanten + 1
        found = None
        for k in range(1, depth + 1):
            hits = [w for w in wins[k] if has_pattern(w, key)]
            if hits:
                found = k
                for w in hits[:3]:
                    b = w.tobytes()
                    if b not in totals:
                        totals[b] = _total(w)
                    if totals[b] < T.TARGETS[key]:
                        bad.append((_show(c), key, "scores", _show(w), totals[b]))
                break
        if (d if d is not None and d <= depth else None) != found:
            bad.append((_show(c), key, "distance", d, found))
    # fan_shanten: an upper bound of the distance to any 8-point win
    fs = mjfast.fan_shanten(c)
    if fs is not None and fs + 1 <= depth:
        reach = None
        for k in range(1, depth + 1):
            if any(_total(w) >= 8 for w in wins[k]):
                reach = k
                break
        if reach is None or reach > fs + 1:
            bad.append((_show(c), "fan_shanten", fs, reach))
    return bad


def near_target_hands(n, seed):
    """13-tile hands one or two exchanges from a generated winning hand."""
    rng = random.Random(seed)
    out = []
    for rec in handgen.iter_winning_records(20 * n, seed=seed):
        if "[" in rec["hand"]:
            continue
        W = mjfast.parse_hand(rec["hand"]).counts.astype(np.int64)
        k = rng.choice((1, 1, 2))
        for _ in range(k):
            t = rng.choice([int(x) for x in np.flatnonzero(W)])
            W[t] -= 1
        for _ in range(k - 1):
            t = rng.choice([int(x) for x in np.flatnonzero(W < 4)])
            W[t] += 1
        out.append(W.astype(np.uint8))
        if len(out) == n:
            break
    return out


# ---------------------------------------------------------------------------
# tests
# ---------------------------------------------------------------------------

def test_targets_worked_examples():
    f = {t.key: t for t in mjfast.fan_targets("123m456p789s11pEN5s")}
    assert f["mixed_straight"].shanten == 1               # 14 tiles: discard E/N, wait on the pair and 4s/6s
    f = {t.key: t for t in mjfast.fan_targets("147m258p369sESWNC")}
    assert f["lesser_honors_and_knitted_tiles"].shanten == -1
    f = {t.key: t for t in mjfast.fan_targets("123456789m11pEN5s"[:-2])}
    assert f["pure_straight"].shanten == 1 and sorted(f["pure_straight"].useful) == sorted(
        [mjfast.tile_index(x) for x in ("1p", "E", "N")])
    assert mjfast.fan_shanten("123m456p789s11pEN5s") == 1
    # a target worth 6 is only a target in a pair that reaches 8
    assert "all_pungs" not in {t.key for t in mjfast.fan_targets("123m456p789s11pEN5s", min_points=0)}
    assert T.TARGETS["all_pungs+half_flush"] == 12


def test_targets_with_melds():
    # an exposed 567m leaves Mixed Straight (123/456/789 in three suits) needing
    # it as the remainder meld; Pure Shifted Chows 456/567/678m uses it
    f = {t.key: t for t in mjfast.fan_targets("[567m2][EEE1]45m678pFF6m")}
    # 456m held; 678m needs 6m 7m 8m: 3 draws, shanten 2
    assert f["pure_shifted_chows"].shanten == 2
    assert f["seven_pairs"].shanten is None                # melds rule it out
    c = mjfast.parse_hand("[567m2][EEE1]45m678pFF6m").counts
    g = mjfast.fan_targets(c, melds=[("chow", 4), ("pung", 27)])
    assert g == mjfast.fan_targets("[567m2][EEE1]45m678pFF6m")


def test_targets_match_brute_force_sample():
    hands = near_target_hands(6, seed=1) + list(handgen.random_hands(2, 13, seed=2, bias="one_suit"))
    bad = []
    for c in hands:
        bad += check_hand(c)
    assert not bad, bad[:5]


@pytest.mark.slow
def test_targets_match_brute_force_thousands():
    hands = near_target_hands(800, seed=10) + list(handgen.random_hands(200, 13, seed=11, bias="one_suit"))
    bad = []
    for c in hands:
        bad += check_hand(c)
    assert not bad, bad[:5]


# ---------------------------------------------------------------------------
# with exposed melds: the exchanges change the concealed tiles only
# ---------------------------------------------------------------------------

def _shown_of(melds):
    s = np.zeros(34, np.int64)
    for kind, t in melds:
        if kind == "chow":
            s[t:t + 3] += 1
        else:
            s[t] += 3
    return s


def _readings_m(Wc, k):
    try:
        return mjfast.decompose(np.asarray(Wc, np.uint8), melds=k)
    except mjfast.InvalidHand:
        return []


def has_pattern_melds(Wc, melds, key):
    """Whether concealed tiles Wc (14-3k) beside the exposed ``melds``
    ((kind, lowest tile), kongs as pungs) make a win with the pattern: the
    exposed melds stay melds of every reading."""
    k = len(melds)
    for fk, fm, pair, R, p in T._fixed_variants():
        if fk != key:
            continue
        # each exposed meld is one of the fixed melds or a remainder meld
        for mask in range(1 << k):
            left = list(fm)
            r = R
            ok = True
            for i, m in enumerate(melds):
                if (mask >> i) & 1:
                    if m not in left:
                        ok = False
                        break
                    left.remove(m)
                else:
                    r -= 1
            if ok and r >= 0 and _contains_sets(Wc, left, pair, r, p):
                return True
    regular = [items for form, items in _readings_m(Wc, k) if form == "regular"]
    for rk, spec in T._restricted_variants():
        if rk != key:
            continue
        for items in regular:
            if all(spec[3 if t >= 27 else t // 9] == T._FULL
                   or _spec_ok(T._RNAMES[spec[3 if t >= 27 else t // 9]] if spec[3 if t >= 27 else t // 9] >= 0
                               else None, 3 if t >= 27 else t // 9, kind, t)
                   for kind, t in list(items) + list(melds)):
                return True
    for pk, allow in T._pung_variants():
        if pk == key:
            for items in regular:
                if all(kind != "chow" and allow[t] for kind, t in list(items) + list(melds)):
                    return True
    if key == "knitted_straight" and k == 1:
        return "knitted_straight" in {f for f, _ in _readings_m(Wc, k)}
    return False


def winners_by_depth_melds(c, shown, depth=2):
    """As winners_by_depth, for concealed counts beside melds (``shown``:
    the melds' tiles, which no draw can exceed four copies with)."""
    k = (14 - int(np.sum(c)) - 1) // 3
    rows = np.asarray(c, np.uint8)[None, :]
    seen = set()
    out = {}
    for d in range(1, depth + 1):
        rows = _plus(rows)
        rows = rows[((rows.astype(np.int64) + shown) <= 4).all(axis=1)]
        ok = np.array([bool(_readings_m(r, k)) for r in rows], dtype=bool) if len(rows) else np.zeros(0, bool)
        win = rows[ok]
        out[d] = [w for w in win if w.tobytes() not in seen]
        seen.update(w.tobytes() for w in win)
        if d < depth:
            rows = _minus(rows)
    return out


def _total_melds(Wc, meld_text):
    best = 0
    for t in np.flatnonzero(Wc):
        X = Wc.copy()
        X[t] -= 1
        try:
            best = max(best, mjfast.score(meld_text + mjfast.counts_to_str(X) + mjfast.tile_name(int(t))).total)
        except mjfast.InvalidHand:
            pass
    return best


def check_hand_melds(hand, depth=2):
    """check_hand for a hand with exposed melds (a Hand of 13 tiles)."""
    bad = []
    c = np.asarray(hand.counts, np.uint8)
    melds = [("chow" if m.kind == "chow" else "pung", int(m.tile)) for m in hand.melds]
    meld_text = "".join(m.notation() for m in hand.melds)
    shown = _shown_of(melds)
    wins = winners_by_depth_melds(c, shown, depth)
    for f in mjfast.fan_targets(hand, min_points=0):
        d = None if f.shanten is None else f.shanten + 1
        found = None
        for k in range(1, depth + 1):
            hits = [w for w in wins[k] if has_pattern_melds(w, melds, f.key)]
            if hits:
                found = k
                for w in hits[:2]:
                    tot = _total_melds(w, meld_text)
                    if tot < T.TARGETS[f.key]:
                        bad.append((meld_text + _show(c), f.key, "scores", _show(w), tot))
                break
        if (d if d is not None and d <= depth else None) != found:
            bad.append((meld_text + _show(c), f.key, "distance", d, found))
    return bad


def near_target_hands_with_melds(n, seed):
    """13-tile hands with exposed melds, one or two exchanges (of concealed
    tiles) from a generated winning hand."""
    rng = random.Random(seed)
    out = []
    for rec in handgen.iter_winning_records(40 * n, seed=seed):
        if "[" not in rec["hand"]:
            continue
        h = mjfast.parse_hand(rec["hand"])
        if any(m.concealed for m in h.melds):
            continue
        W = h.counts.astype(np.int64)
        shown = np.asarray(h.all_counts, np.int64) - W
        k = rng.choice((1, 1, 2))
        for _ in range(k):
            t = rng.choice([int(x) for x in np.flatnonzero(W)])
            W[t] -= 1
        for _ in range(k - 1):
            t = rng.choice([int(x) for x in np.flatnonzero(W + shown < 4)])
            W[t] += 1
        out.append(mjfast.Hand(h.melds, tuple(t for t in range(34) for _ in range(int(W[t])))))
        if len(out) == n:
            break
    return out


def test_targets_count_the_exposed_copies():
    # the fourth South is held beside an exposed pung of South: it can never
    # pair, so every target needs two exchanges (draw a partner for another
    # tile, discard the South), not one
    h = mjfast.parse_hand("[WWW1][999s3][SSS3][EEE3]S")
    f = {t.key: t for t in mjfast.fan_targets(h, min_points=0)}
    for key in ("all_terminals_and_honors", "all_pungs+half_flush", "half_flush+outside_hand", "big_three_winds"):
        assert f[key].shanten == 1, key
        assert mjfast.tile_index("S") not in f[key].useful
    assert not check_hand_melds(h)
    # a knitted straight beside an exposed pung of East cannot pair the last East
    h = mjfast.parse_hand("[EEE1]147m258p369sE")
    f = {t.key: t for t in mjfast.fan_targets(h, min_points=0)}
    assert f["knitted_straight"].shanten == 1
    assert not check_hand_melds(h)
    f = {t.key: t for t in mjfast.fan_targets("[EEE1]147m258p369sS", min_points=0)}
    assert f["knitted_straight"].shanten == 0 and f["knitted_straight"].useful == [mjfast.tile_index("S")]


def test_targets_with_melds_match_brute_force_sample():
    bad = []
    for h in near_target_hands_with_melds(6, seed=3):
        bad += check_hand_melds(h)
    assert not bad, bad[:5]


@pytest.mark.slow
def test_targets_with_melds_match_brute_force_hundreds():
    bad = []
    for h in near_target_hands_with_melds(500, seed=30):
        bad += check_hand_melds(h)
    assert not bad, bad[:5]


def test_meld_tables_kept_per_multiset_of_melds():
    # the melds' target arrays are built once per multiset of melds: the same
    # answers in any meld order, and after the cache is emptied
    c = mjfast.parse_hand("[567m2][EEE1]45m678pFF6m").counts
    a = mjfast.fan_targets(c, melds=[("chow", 4), ("pung", 27)])
    b = mjfast.fan_targets(c, melds=[("pung", 27), ("chow", 4)])
    T._get_tables().meld_cache.clear()
    assert a == b == mjfast.fan_targets(c, melds=[("kong", 27), ("chow", 4)])
    F = T._get_tables().meld_cache[(("chow", 4), ("pung", 27))][0]
    with pytest.raises(ValueError):
        F[0, 0] = 1                          # shared arrays are read-only
