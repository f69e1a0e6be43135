"""Per-call decisions: the compiled shanten / useful_tiles / best_discards.

* every input kind (list, tuple, numpy of each integer dtype, strided) gives
  the same answer as the uint8 array, and bad input raises, never crashes;
* differential: the table-driven useful tiles (tight entries of the
  min-plus combination) == the reference implementation kept in the core
  (one shanten per candidate tile, ``useful_one``) on random hands of every
  size and bias, per form; best_discards == the discard-by-discard loop
  over shanten_one / useful_one; useful tiles per form == PyMahjongGB's
  (where the reference has that form);
* a CI sample here, >= 100,000 hands per size in the ``slow`` run.
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import mjfast
from mjfast import InvalidHand, _core, _decide

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handgen  # noqa: E402

READY_SIZES = (1, 4, 7, 10, 13)
WIN_SIZES = (2, 5, 8, 11, 14)
BIASES = (None,) + tuple(b for b in handgen.BIASES if b is not None)
FORM_CODES = (-1, 0, 1, 2, 3, 4)


def _form_ok(code, melds):
    return not ((code in (1, 2, 3) and melds > 0) or (code == 4 and melds > 1))


def _show(c):
    return mjfast.counts_to_str(np.asarray(c, dtype=np.uint8))


# ---------------------------------------------------------------------------
# the references: today's definitions, one kernel call per candidate
# ---------------------------------------------------------------------------

def ref_useful(c, melds, code, held=None):
    held = c if held is None else held
    return [t for t in _core.useful_one(c, melds, code) if held[t] < 4]


def ref_best_discards(c, melds, held=None, seen=None):
    held = np.array(c if held is None else held, dtype=np.int64)
    seen = held.copy() if seen is None else np.asarray(seen, dtype=np.int64)
    out = []
    for t in np.flatnonzero(c):
        d = c.copy()
        d[t] -= 1
        held[t] -= 1
        sh = _core.shanten_one(d, melds, -1)
        useful = [u for u in _core.useful_one(d, melds, -1) if held[u] < 4]
        held[t] += 1
        left = sum(max(0, 4 - int(seen[u])) for u in useful)
        out.append((int(t), int(sh), len(useful), int(left)))
    out.sort(key=lambda d: (d[1], -d[3], -d[2], d[0]))
    return out


def _hands(n, size, seed):
    """n hands of `size` tiles, spread over the generator's biases."""
    parts = []
    for k, bias in enumerate(BIASES):
        parts.append(handgen.random_hands(n // len(BIASES) + 1, size, seed=seed * 31 + k, bias=bias))
    return np.concatenate(parts)[:n]


def check_useful(n, seed):
    bad = []
    for size in READY_SIZES:
        melds = (13 - size) // 3
        for c in _hands(n, size, seed + size):
            for code in FORM_CODES:
                if not _form_ok(code, melds):
                    continue
                sh, mask = _decide.useful_mask(c, melds, code, c)
                got = [t for t in range(34) if (mask >> t) & 1]
                if got != ref_useful(c, melds, code) or sh != _core.shanten_one(c, melds, code):
                    bad.append((_show(c), code, got, ref_useful(c, melds, code)))
    return bad


def check_discards(n, seed):
    bad = []
    for size in WIN_SIZES:
        melds = (14 - size) // 3
        for c in _hands(n, size, seed + size):
            got = [tuple(d) for d in mjfast.best_discards(c)]
            ref = ref_best_discards(c, melds)
            if got != ref:
                bad.append((_show(c), got[:3], ref[:3]))
    return bad


# ---------------------------------------------------------------------------
# CI sample
# ---------------------------------------------------------------------------

def test_useful_tiles_match_reference_every_size_and_form():
    bad = check_useful(1500, seed=1)
    assert not bad, bad[:5]


def test_best_discards_match_reference_every_size():
    bad = check_discards(800, seed=2)
    assert not bad, bad[:5]


def test_best_discards_with_melds_and_visible_match_reference():
    rng = np.random.default_rng(5)
    for text in ("[567m2][EEE1]45m678pFF6m", "[111p][999s]1234m556mN", "[EEEE]123m456p789s1s2s",
                 "[123m][123m][123m]1m2mNNP", "[2222p]11p123mEEE5s9sC"):
        h = mjfast.parse_hand(text)
        c = np.ascontiguousarray(h.counts, dtype=np.uint8)
        held = np.asarray(h.all_counts, dtype=np.int64)
        for _ in range(20):
            vis = np.minimum(rng.integers(0, 3, 34), 4 - held)
            got = [tuple(d) for d in mjfast.best_discards(text, visible=vis)]
            assert got == ref_best_discards(c, len(h.melds), held, held + vis), text


def test_best_discards_batch_matches_single():
    hands = _hands(600, 14, seed=9)
    sh, kinds, left = mjfast.best_discards_batch(hands)
    sh2, kinds2, left2 = mjfast.best_discards_batch(hands, workers=2)
    assert (sh == sh2).all() and (kinds == kinds2).all() and (left == left2).all()
    for r in range(0, 600, 7):
        for d in mjfast.best_discards(hands[r]):
            assert (sh[r, d.tile], kinds[r, d.tile], left[r, d.tile]) == (d.shanten, d.useful_kinds, d.useful_left)
        assert (sh[r][hands[r] == 0] == 127).all()


def test_discard_is_a_tuple_with_named_fields():
    d = mjfast.best_discards("123m456p789s11pEN5s")[0]
    assert isinstance(d, tuple) and len(d) == 4
    tile, sh, kinds, left = d
    assert (d.tile, d.shanten, d.useful_kinds, d.useful_left) == (tile, sh, kinds, left)
    assert d.below_8 is None and d.fan_shanten is None
    assert mjfast.bots.Discard((1, 2, 3, 4)).useful_left == 4
    import pickle
    assert pickle.loads(pickle.dumps(d)) == d


# ---------------------------------------------------------------------------
# every input kind, and bad input
# ---------------------------------------------------------------------------

DTYPES = (np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.intc, np.longlong, np.ulonglong)


def test_every_input_kind_answers_the_same():
    hands = _hands(120, 13, seed=4)
    for c in hands:
        want_sh = _core.shanten_one(c, 0, -1)
        want_u = ref_useful(c, 0, -1)
        kinds = [c.tolist(), tuple(c.tolist()), mjfast.counts_to_str(c)]
        kinds += [c.astype(dt) for dt in DTYPES]
        big = np.zeros(68, dtype=np.int64)
        big[::2] = c
        kinds.append(big[::2])                      # strided view
        kinds.append(c.astype(">i4"))               # non-native byte order
        kinds.append([np.int64(x) for x in c])      # numpy scalars in a list
        for k in kinds:
            assert mjfast.shanten(k) == want_sh, (type(k), k)
            assert mjfast.useful_tiles(k) == want_u, (type(k), k)
    for c in _hands(60, 14, seed=6):
        want = [tuple(d) for d in mjfast.best_discards(c)]
        for k in (c.tolist(), tuple(c.tolist()), c.astype(np.int64), mjfast.counts_to_str(c)):
            assert [tuple(d) for d in mjfast.best_discards(k)] == want


def test_melds_and_form_keywords_on_the_fast_path():
    c = np.zeros(34, np.uint8)
    c[[0, 1, 2, 9, 10, 11, 27, 27]] = 1
    c[27] = 2                                       # 123m 123p EE: 8 tiles
    assert mjfast.shanten(c) == mjfast.shanten(c, melds=2) == -1
    assert mjfast.shanten(c.tolist(), melds=2, form="regular") == -1
    with pytest.raises(ValueError):
        mjfast.shanten(c, form="seven_pairs")      # melds implied: 2
    with pytest.raises(InvalidHand):
        mjfast.shanten(c, melds=1)                  # 8 + 3 = 11 tiles
    with pytest.raises(ValueError):
        mjfast.shanten(c, form="pairs")


@pytest.mark.parametrize("bad", [
    [0] * 33 + [5],                    # fifth copy
    [0] * 33 + [-1],                   # negative
    [0.0] * 34,                        # floats
    [True] * 13 + [False] * 21,        # bools
    np.full(34, 5, np.uint8),
    np.full(34, -1, np.int64),
    np.full(34, 2 ** 64 - 1, np.uint64),
    np.zeros(34, bool),
    np.zeros(34, float),
    np.zeros((2, 34), np.uint8),
    np.zeros(34, object),
    [None] * 34,
    "xyz",
    12,
    None,
    object(),
])
def test_bad_input_raises_never_crashes(bad):
    for fn in (mjfast.shanten, mjfast.useful_tiles, mjfast.best_discards):
        with pytest.raises((InvalidHand, TypeError, ValueError)):
            fn(bad)


def test_bad_visible_raises():
    c = _hands(1, 14, seed=3)[0]
    for vis in ([5] * 34, [0] * 33, "x", np.full(34, -1), 4 - c + 1):
        with pytest.raises((InvalidHand, TypeError, ValueError)):
            mjfast.best_discards(c, visible=vis)


def test_bad_options_raise():
    with pytest.raises(TypeError):
        mjfast.best_discards("123m456p789s11pEN5s", nonsense=True)
    with pytest.raises(TypeError):
        mjfast.shanten("123m456p789s11pEN5", exact="yes")


# ---------------------------------------------------------------------------
# the oracle: useful tiles per form
# ---------------------------------------------------------------------------

def test_useful_tiles_per_form_match_the_reference():
    pytest.importorskip("MahjongGB")
    from oracle import oracle_useful_form
    names = {0: "regular", 1: "seven_pairs", 2: "thirteen_orphans", 3: "honors_knitted", 4: "knitted_straight"}
    for c in _hands(1200, 13, seed=12):
        for code, name in names.items():
            s, useful = oracle_useful_form(c, name)
            got = mjfast.useful_tiles(c, form=name)
            # the reference's list is structural: it may name a tile held four times
            assert got == [t for t in useful if c[t] < 4], (_show(c), name)
            assert mjfast.shanten(c, form=name) == s


# ---------------------------------------------------------------------------
# the long run
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_useful_tiles_match_reference_100k_per_size():
    bad = check_useful(100_000, seed=100)
    assert not bad, bad[:5]


@pytest.mark.slow
def test_best_discards_match_reference_100k_per_size():
    bad = check_discards(100_000, seed=200)
    assert not bad, bad[:5]


def test_best_discards_options():
    out = mjfast.best_discards("[567m2][EEE1]45m678pFF6m", check_points=True, seat_wind="E")
    plain = mjfast.best_discards("[567m2][EEE1]45m678pFF6m")
    assert [tuple(d) for d in out] == [tuple(d) for d in plain]
    for d in out:
        if d.shanten == 0:
            left = mjfast.parse_hand("[567m2][EEE1]45m678pFF6m")
            tiles = list(left.tiles)
            tiles.remove(d.tile)
            w = mjfast.winning_tiles(mjfast.Hand(left.melds, tuple(tiles)), seat_wind="E")
            assert d.below_8 == (not any(x.discard_legal or x.self_drawn_legal for x in w))
        else:
            assert d.below_8 is None
    # a hand whose ready discards keep an 8-point wait: 123m456p789s + 11p + 4s6s (Mixed Straight)
    out = mjfast.best_discards("123m456p789s11p46sN", check_points=True)
    assert any(d.shanten == 0 and d.below_8 is False for d in out)
    ranked = mjfast.best_discards("123m456p789s11pEN5s", rank="fan")
    keys = [(d.fan_shanten, d.shanten, -d.useful_left, -d.useful_kinds, d.tile) for d in ranked]
    assert keys == sorted(keys)
    for d in ranked:
        c = mjfast.to_counts("123m456p789s11pEN5s")
        c[d.tile] -= 1
        assert d.fan_shanten == mjfast.fan_shanten(c)
    with pytest.raises(ValueError):
        mjfast.best_discards("123m456p789s11pEN5s", rank="points")
    with pytest.raises(TypeError):
        mjfast.best_discards("123m456p789s11pEN5s", seat_wind="E")     # context without check_points


def test_public_per_call_functions_are_the_compiled_ones():
    # a Python wrapper in front of them (for new keywords) costs about a third
    # of a per-call shanten: new keywords go into the compiled entry points,
    # which hand anything unusual to the Python front ends
    assert mjfast.shanten is _decide.shanten
    assert mjfast.useful_tiles is _decide.useful_tiles
    assert mjfast.best_discards is _decide.best_discards
    # the wildcard keywords still reach the wildcard front end
    assert mjfast.shanten("123m456p789sEE3m", wildcards=2) == -1
    assert mjfast.shanten("123m456p789sEE3m", wildcards=1) == 0
    assert 34 in mjfast.useful_tiles("123m456p789sE3m", wildcards=2)
