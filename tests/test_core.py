"""Tests of the core queries: is_win, waits, shanten, useful_tiles and their batch forms.

* hand-picked known answers (each checked against the reference as well);
* every hand size 1, 4, 7, 10, 13 (ready) and 2, 5, 8, 11, 14 (complete);
* batch == single, errors="mask" / "raise", odd array layouts, workers=1 vs 2;
* differential tests against the reference calculator (tests/oracle.py):
  a CI sample (~30 s) and a ``slow`` run of >= 200,000 hands.

Run:  cd /work/main && PYTHONPATH=. python -m pytest tests/test_core.py -p no:cacheprovider
      (add ``-m slow`` for the long differential run)
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import mjfast
from mjfast import InvalidArgument, InvalidHand

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


import handgen  # noqa: E402
from oracle import (  # noqa: E402
    oracle_is_win,
    oracle_shanten,
    oracle_shanten_form,
    oracle_waits,
    parse_hand as oracle_parse_hand,
)

BIASES = handgen.BIASES
READY_SIZES = (1, 4, 7, 10, 13)
WIN_SIZES = (2, 5, 8, 11, 14)
FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")


# ---------------------------------------------------------------------------
# helpers (independent of mjfast's parser)
# ---------------------------------------------------------------------------

_SUIT = {"m": 0, "p": 9, "s": 18}
_HON = {"E": 27, "S": 28, "W": 29, "N": 30, "C": 31, "F": 32, "P": 33}


def T(name: str) -> int:
    """Tile index of '5m', 'E', ..."""
    if name in _HON:
        return _HON[name]
    return _SUIT[name[1]] + int(name[0]) - 1


def TS(*names: str) -> list:
    return sorted(T(n) for n in names)


def C(s: str) -> np.ndarray:
    """34-count array of a compact tile string without melds (via the oracle's parser)."""
    melds, tiles = oracle_parse_hand(s)
    assert not melds
    c = np.zeros(34, dtype=np.uint8)
    for t in tiles:
        c[t] += 1
    return c


def show(c) -> str:
    return mjfast.counts_to_str(np.asarray(c, dtype=np.uint8))


def first_mismatches(rows, ours, theirs, k=5) -> str:
    return "\n".join(f"  {show(r)}: mjfast={a!r} oracle={b!r}" for r, a, b in list(zip(rows, ours, theirs))[:k])


def waits_list(row_bool) -> list:
    return [int(t) for t in np.flatnonzero(row_bool)]


# ---------------------------------------------------------------------------
# known answers
# ---------------------------------------------------------------------------

ALL_M = list(range(0, 9))
ORPHANS = TS("1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P")

#: (concealed tiles, expected waits); melds implied by the size.
KNOWN_WAITS = [
    ("1112345678999m", ALL_M),                               # Nine Gates: all nine
    ("1112345678999p", list(range(9, 18))),
    ("19m19p19sESWNCFP", ORPHANS),                           # 13-sided orphans
    ("119m19p19sESWNCF", TS("P")),                           # orphans with the pair: one wait
    ("1111m", []),                                           # 4 held: no fifth copy
    ("5m", TS("5m")),
    ("E", TS("E")),
    ("5566m", TS("5m", "6m")),
    ("1234567m", TS("1m", "4m", "7m")),
    ("1111234m", TS("4m")),                                  # 1m would be a fifth copy
    ("123m456p789sE", TS("E")),
    ("1111m22p44p66p77s9s", TS("9s")),                       # seven pairs with 1111m as two pairs
    ("2222m4455s66778p", TS("8p")),
    ("147m258s369p1234m", TS("1m", "4m")),                   # knitted straight + 123m/234m
    ("147m258s369pEE11m", TS("1m", "E")),                    # knitted straight, pung-or-pair
    ("14m258s369p123pEE", TS("7m")),                         # knitted straight missing 7m
    ("147m258s36pESWNC", TS("9p", "F", "P")),                # lesser honors and knitted
    ("147m258s369pESWN", TS("C", "F", "P")),
    ("147m258s36pEESWN", []),                                # a pair kills honors-knitted
    ("1122m", TS("1m", "2m")),
    ("2223m", TS("1m", "3m", "4m")),
    ("12mEE", TS("3m")),                                     # edge wait
    ("46mEE", TS("5m")),                                     # closed wait
]


@pytest.mark.oracle
@pytest.mark.parametrize("tiles,expected", KNOWN_WAITS, ids=[k for k, _ in KNOWN_WAITS])
def test_known_waits(tiles, expected):
    c = C(tiles)
    assert mjfast.waits(c) == expected
    assert oracle_waits(c) == expected  # the reference agrees with the hand-worked answer
    assert waits_list(mjfast.waits_batch(c[None, :])[0]) == expected
    s = mjfast.shanten(c)
    assert s == oracle_shanten(c)
    if expected:
        assert s == 0
        for t in expected:
            c2 = c.copy()
            c2[t] += 1
            assert mjfast.is_win(c2)
            assert mjfast.shanten(c2) == -1


def test_nine_gates_every_tile_wins():
    c = C("1112345678999m")
    assert mjfast.shanten(c) == 0
    for t in range(34):
        c2 = c.copy()
        c2[t] += 1
        assert mjfast.is_win(c2) == (t < 9)


@pytest.mark.oracle
def test_four_held_shape_is_ready_but_waits_nothing():
    c = C("1111m")
    assert mjfast.shanten(c) == 0 == oracle_shanten(c)
    assert mjfast.shanten(c, form="regular") == 0
    assert mjfast.waits(c) == []
    assert mjfast.useful_tiles(c) == []
    # same with the melds written out
    assert mjfast.shanten("[EEE][SSS][WWW]1111m") == 0
    assert mjfast.waits("[EEE][SSS][WWW]1111m") == []
    # 13 tiles: 1111m 234567p 789s is ready by shape, yet no real tile completes it
    c13 = C("1111m234567p789s")
    assert mjfast.shanten(c13) == 0 == oracle_shanten(c13)
    assert mjfast.waits(c13) == [] == oracle_waits(c13)
    assert not mjfast.waits_batch(c13[None, :]).any()


def test_four_held_tile_hidden_by_a_meld():
    # the concealed part holds 1m once, a pung of 1m is melded: 1m is not a wait
    h = "[111m]234p567p789s1m"
    assert mjfast.waits(h) == []
    assert mjfast.useful_tiles(h) == []
    # without the kong in the melds, the bare counts do wait on 1m
    assert mjfast.waits(C("234p567p789s1m")) == TS("1m")


@pytest.mark.parametrize("tiles", [
    "1111m22p44p66p77s99s",      # seven pairs with four identical tiles
    "2222m4455s66778p8p",
    "11112222333344m",           # 123m x4 + 44m
    "1111m234p567p789s1p",       # not a win: 1111m cannot be split beside three chows
    "11113333m5555p7s7s",
    "EEEE SSSS WWWW NN",
])
@pytest.mark.oracle
def test_four_of_a_kind_shapes(tiles):
    c = C(tiles)
    assert mjfast.is_win(c) == oracle_is_win(c)
    assert mjfast.shanten(c) == oracle_shanten(c)


@pytest.mark.oracle
def test_four_of_a_kind_known():
    assert mjfast.is_win(C("1111m22p44p66p77s99s"))           # seven pairs, 1111m = two pairs
    assert mjfast.shanten(C("1111m22p44p66p77s99s"), form="seven_pairs") == -1
    assert mjfast.is_win(C("11112222333344m"))
    assert not mjfast.is_win(C("1111m234p567p789s1p"))
    # three honor quads + a pair: not regular (EEEE can't be a set), but seven pairs
    assert mjfast.is_win(C("EEEESSSSWWWWNN"))
    assert mjfast.shanten(C("EEEESSSSWWWWNN"), form="seven_pairs") == -1
    assert mjfast.shanten(C("EEEESSSSWWWWNN"), form="regular") >= 0
    assert mjfast.shanten(C("EEEESSSSWWWWN")) == oracle_shanten(C("EEEESSSSWWWWN"))


@pytest.mark.oracle
def test_honors_and_knitted_shanten():
    c = C("147m258s36pESWNC")
    assert mjfast.shanten(c) == 0
    assert mjfast.shanten(c, form="honors_knitted") == 0
    assert mjfast.shanten(c + C("9p"), form="honors_knitted") == -1
    assert mjfast.is_win(c + C("9p"))
    assert mjfast.is_win(c + C("P"))
    # 7 useful distinct tiles (1m 2s 3p E S W N) -> 13 - 7 = 6; seven pairs: 6 pairs -> 0
    c2 = C("11m22s33pEESSWWN")
    assert mjfast.shanten(c2, form="honors_knitted") == 6 == oracle_shanten_form(c2, "honors_knitted")
    assert mjfast.shanten(c2, form="seven_pairs") == 0
    assert mjfast.shanten(c2, form="thirteen_orphans") == 7 == oracle_shanten_form(c2, "thirteen_orphans")
    # tiles of two different knitted arrangements do not combine
    c3 = C("147m147s36pESWNCF")  # 147m and 147s cannot both be 1-4-7
    assert mjfast.shanten(c3, form="honors_knitted") == oracle_shanten_form(c3, "honors_knitted")
    assert mjfast.shanten(c3, form="honors_knitted") > 0


@pytest.mark.oracle
def test_special_forms_known():
    orph = C("19m19p19sESWNCFP")
    assert mjfast.shanten(orph, form="thirteen_orphans") == 0
    assert mjfast.shanten(orph, form="seven_pairs") == 6
    assert mjfast.shanten(orph + C("C"), form="thirteen_orphans") == -1
    ks = C("147m258s369p1234m")
    assert mjfast.shanten(ks, form="knitted_straight") == 0
    assert mjfast.shanten(ks + C("4m"), form="knitted_straight") == -1
    # knitted straight beside one meld (10 concealed tiles)
    assert mjfast.shanten("[567s]147m258s369pE", form="knitted_straight") == 0
    assert mjfast.waits("[567s]147m258s369pE") == TS("E")
    assert mjfast.is_win("[567s]147m258s369pEE")
    ssp = C("2233445566778m")
    assert mjfast.shanten(ssp, form="seven_pairs") == 0
    for form in FORMS:
        assert mjfast.shanten(ssp, form=form) == oracle_shanten_form(ssp, form), form


# ---------------------------------------------------------------------------
# every size
# ---------------------------------------------------------------------------

SIZE_CASES = {
    1: ("5m", TS("5m")),
    4: ("123m5p", TS("5p")),
    7: ("1234567m", TS("1m", "4m", "7m")),
    10: ("123m456p789sE", TS("E")),
    13: ("1112345678999m", ALL_M),
}


@pytest.mark.parametrize("size", READY_SIZES)
def test_each_ready_size(size):
    tiles, expected = SIZE_CASES[size]
    c = C(tiles)
    assert int(c.sum()) == size
    assert mjfast.waits(c) == expected
    assert mjfast.shanten(c) == 0
    assert mjfast.useful_tiles(c) == expected
    assert mjfast.shanten_batch(c[None, :]).tolist() == [0]
    # the same hand with its melds spelled out
    k = (13 - size) // 3
    melds = "".join(["[EEE]", "[SSS]", "[WWW]", "[NNN]"][:k])
    if size < 13:
        # use honor melds only when they don't clash with the concealed tiles
        if any(c[t] for t in TS("E", "S", "W", "N")):
            melds = "".join(["[111s]", "[999s]", "[111p]", "[999p]"][:k])
        h = melds + tiles
        assert mjfast.waits(h) == expected
        assert mjfast.shanten(h) == 0
        # melds= contradicting the bracketed melds is the hand's error; 5 melds no hand has
        with pytest.raises(InvalidHand if k + 1 <= 4 else InvalidArgument):
            mjfast.waits(h, melds=k + 1)
    # one more tile of a wait completes it
    c2 = c.copy()
    c2[expected[0]] += 1
    assert mjfast.is_win(c2)
    assert mjfast.shanten(c2) == -1
    assert mjfast.is_win_batch(c2[None, :]).tolist() == [True]


@pytest.mark.parametrize("size", WIN_SIZES)
def test_each_complete_size(size):
    hands = {2: "55m", 5: "123m55p", 8: "123m456p55s", 11: "123m456p789s55m", 14: "123m456p789s111m55m"}
    c = C(hands[size])
    assert int(c.sum()) == size
    assert mjfast.is_win(c)
    assert mjfast.shanten(c) == -1
    c_bad = c.copy()
    c_bad[T("5m") if c[T("5m")] else T("5p")] -= 1
    c_bad[T("E")] += 1
    assert not mjfast.is_win(c_bad)
    assert mjfast.shanten(c_bad) >= 0


def test_size_one_and_two_all_tiles():
    for t in range(34):
        c = np.zeros(34, np.uint8)
        c[t] = 1
        assert mjfast.waits(c) == [t]
        assert mjfast.shanten(c) == 0
        c[t] = 2
        assert mjfast.is_win(c)
        assert mjfast.shanten(c) == -1
        c[t] = 1
        c[(t + 1) % 34] = 1
        assert not mjfast.is_win(c)
        assert mjfast.shanten(c) == 0


# ---------------------------------------------------------------------------
# input forms and errors
# ---------------------------------------------------------------------------

def test_input_forms_agree():
    s = "1112345678999m"
    c = C(s)
    h = mjfast.parse_hand(s)
    for x in (s, h, c, c.tolist(), c.astype(np.int64), tuple(int(v) for v in c)):
        assert mjfast.waits(x) == ALL_M
        assert mjfast.shanten(x) == 0
    assert mjfast.is_win(s + "5m") and mjfast.is_win(mjfast.parse_hand(s + "5m"))


def test_invalid_hand_is_value_error():
    assert issubclass(InvalidHand, ValueError)
    assert issubclass(mjfast.NotWinning, InvalidHand)


@pytest.mark.parametrize("call,arg,match", [
    (mjfast.is_win, "11111m234p567p789s", r"(?i)fifth copy of 1m"),
    (mjfast.waits, "11111m234p567p78s", r"(?i)fifth copy of 1m"),
    (mjfast.shanten, "1x", r"(?i)unknown tile 'x'"),
    (mjfast.is_win, "123m456p789s11p23s", r"14 tiles"),         # 13 tiles given to is_win
    (mjfast.waits, "123m456p789s11p234s", r"13 tiles"),         # 14 tiles given to waits
    (mjfast.shanten, "123m456p789s11p2s", r"13 or 14"),         # 12 tiles
    (mjfast.shanten, "[123m]456p789s11p", r"13 or 14"),         # 8 tiles + 1 meld (11 alone imply a meld)
    (mjfast.useful_tiles, "123m456p789s11p234s", r"13 tiles"),
])
def test_invalid_hand_messages(call, arg, match):
    with pytest.raises(InvalidHand, match=match):
        call(arg)


def test_invalid_counts_and_melds():
    c = C("1112345678999m")
    c5 = c.copy()
    c5[0] = 5
    with pytest.raises(InvalidHand):
        mjfast.waits(c5)
    with pytest.raises(InvalidHand):
        mjfast.shanten(np.zeros(34, np.uint8))          # empty hand
    with pytest.raises(InvalidHand):
        mjfast.waits(c, melds=1)                         # 13 + 3 = 16
    with pytest.raises(InvalidArgument):
        mjfast.waits(C("5m"), melds=5)
    with pytest.raises(InvalidHand):
        mjfast.waits(np.zeros(33, np.uint8))            # wrong length
    with pytest.raises(ValueError, match="unknown form"):
        mjfast.shanten(c, form="nine_gates")
    with pytest.raises(ValueError):
        mjfast.shanten("[123m]456m789s11p23p", form="seven_pairs")
    with pytest.raises(ValueError):
        mjfast.shanten("[123m][456p]789s11p2p", form="knitted_straight")
    with pytest.raises(InvalidHand, match="contradicts"):
        mjfast.shanten("[123m]456m789s11p23p", melds=2)


# ---------------------------------------------------------------------------
# batch functions
# ---------------------------------------------------------------------------

def _mixed(n, size, seed):
    """n hands of one size, a share of each bias."""
    parts = [handgen.random_hands(n // len(BIASES) + 1, size, seed=seed + i, bias=b)
             for i, b in enumerate(BIASES)]
    return np.concatenate(parts)[:n]


@pytest.mark.parametrize("size", READY_SIZES)
def test_batch_equals_single_ready(size):
    H = _mixed(600, size, seed=100 + size)
    sb = mjfast.shanten_batch(H)
    wb = mjfast.waits_batch(H)
    assert sb.dtype == np.int8 and sb.shape == (len(H),)
    assert wb.dtype == np.bool_ and wb.shape == (len(H), 34)
    for i, h in enumerate(H):
        assert sb[i] == mjfast.shanten(h), show(h)
        assert waits_list(wb[i]) == mjfast.waits(h), show(h)
    forms = FORMS if size == 13 else (("regular", "knitted_straight") if size == 10 else ("regular",))
    for form in forms:
        fb = mjfast.shanten_batch(H, form=form)
        assert fb.tolist() == [mjfast.shanten(h, form=form) for h in H], form


@pytest.mark.parametrize("size", WIN_SIZES)
def test_batch_equals_single_complete(size):
    H = _mixed(600, size, seed=200 + size)
    wb = mjfast.is_win_batch(H)
    sb = mjfast.shanten_batch(H)
    assert wb.dtype == np.bool_
    assert wb.tolist() == [mjfast.is_win(h) for h in H]
    assert sb.tolist() == [mjfast.shanten(h) for h in H]
    assert ((sb == -1) == wb).all()
    forms = FORMS if size == 14 else (("regular", "knitted_straight") if size == 11 else ("regular",))
    for form in forms:
        assert mjfast.shanten_batch(H, form=form).tolist() == [mjfast.shanten(h, form=form) for h in H]


def test_batch_mixed_sizes_and_explicit_melds():
    H = np.concatenate([_mixed(50, s, seed=s) for s in READY_SIZES + WIN_SIZES])
    sb = mjfast.shanten_batch(H)
    assert sb.tolist() == [mjfast.shanten(h) for h in H]
    H13 = _mixed(60, 13, seed=5)
    assert mjfast.shanten_batch(H13, melds=0).tolist() == mjfast.shanten_batch(H13).tolist()
    H7 = _mixed(60, 7, seed=6)
    m = np.full(len(H7), 2)
    assert mjfast.waits_batch(H7, melds=m).tolist() == mjfast.waits_batch(H7).tolist()
    with pytest.raises(InvalidHand, match="row 0"):
        mjfast.waits_batch(H7, melds=1)


def test_batch_empty_and_bad_shapes():
    z = np.zeros((0, 34), np.uint8)
    assert mjfast.shanten_batch(z).shape == (0,)
    assert mjfast.is_win_batch(z).shape == (0,)
    assert mjfast.waits_batch(z).shape == (0, 34)
    for bad in (np.zeros(34, np.uint8), np.zeros((3, 33), np.uint8)):
        with pytest.raises(InvalidHand):
            mjfast.shanten_batch(bad)
    with pytest.raises(mjfast.InvalidArgument, match="integer tile counts"):
        mjfast.shanten_batch(np.zeros((2, 34), np.float64))
    with pytest.raises(ValueError):
        mjfast.shanten_batch(_mixed(3, 13, 1), errors="ignore")


def _with_bad_rows(size, seed):
    H = _mixed(40, size, seed=seed).astype(np.uint8)
    H[3] = 0
    H[3, 0] = 5                     # five copies ...
    H[3, 1:size - 4] = 0
    H[3, 9:9 + (size - 5)] = 1      # ... and the right size
    assert H[3].sum() == size
    H[7] = H[6]
    for _ in range(size - 12):      # 12 tiles: a wrong size for every call
        H[7, np.flatnonzero(H[7])[0]] -= 1
    H[11, 33] = min(int(H[11, 33]) + 5, 9)  # too many copies and the wrong size
    return H, {3: 1, 7: 2, 11: 1}


@pytest.mark.parametrize("fn,size", [
    (mjfast.is_win_batch, 14),
    (mjfast.waits_batch, 13),
    (mjfast.shanten_batch, 13),
    (mjfast.shanten_batch, 14),
])
def test_errors_mask_and_raise(fn, size):
    H, bad = _with_bad_rows(size, seed=size * 7)
    with pytest.raises(InvalidHand, match=r"row 3\b"):
        fn(H)
    res, err = fn(H, errors="mask")
    assert err.shape == (len(H),)
    assert {int(i): int(err[i]) for i in np.flatnonzero(err)} == bad
    good = np.flatnonzero(err == 0)
    expected = fn(H[good])
    np.testing.assert_array_equal(res[good], expected)
    for i in bad:
        if fn is mjfast.shanten_batch:
            assert res[i] == -128
        elif fn is mjfast.waits_batch:
            assert not res[i].any()
        else:
            assert not res[i]
    # the input is never modified
    H2, _ = _with_bad_rows(size, seed=size * 7)
    np.testing.assert_array_equal(H, H2)


def test_errors_raise_names_first_bad_row():
    H = _mixed(20, 13, seed=3)
    H[12, 5] = 7
    with pytest.raises(InvalidHand, match=r"row 12: a tile count above 4"):
        mjfast.waits_batch(H)
    H = _mixed(20, 14, seed=3)
    H[15, np.flatnonzero(H[15])[0]] -= 1
    with pytest.raises(InvalidHand, match=r"row 15: wrong number of tiles"):
        mjfast.is_win_batch(H)
    neg = _mixed(5, 13, seed=4).astype(np.int64)
    neg[2, 0] = -1
    with pytest.raises(InvalidHand, match="row 2"):
        mjfast.shanten_batch(neg)


def test_read_only_and_non_contiguous_inputs():
    base = _mixed(500, 13, seed=42)
    want_s = mjfast.shanten_batch(base)
    want_w = mjfast.waits_batch(base)
    ro = base.copy()
    ro.setflags(write=False)
    wide = np.zeros((len(base), 40), np.uint8)
    wide[:, 3:37] = base
    inter = np.zeros((2 * len(base), 34), np.uint8)
    inter[::2] = base
    variants = {
        "read-only": ro,
        "fortran": np.asfortranarray(base),
        "column slice": wide[:, 3:37],
        "row stride": inter[::2],
        "int64": base.astype(np.int64),
        "int32 fortran": np.asfortranarray(base.astype(np.int32)),
        "list": base.tolist(),
    }
    for name, arr in variants.items():
        np.testing.assert_array_equal(mjfast.shanten_batch(arr), want_s, err_msg=name)
        np.testing.assert_array_equal(mjfast.waits_batch(arr), want_w, err_msg=name)
    # single-hand functions on read-only / strided rows
    for i in range(20):
        assert mjfast.waits(ro[i]) == waits_list(want_w[i])
        assert mjfast.shanten(wide[i, 3:37]) == want_s[i]
    # complete hands
    base14 = _mixed(300, 14, seed=43)
    want = mjfast.is_win_batch(base14)
    ro14 = base14.copy()
    ro14.setflags(write=False)
    np.testing.assert_array_equal(mjfast.is_win_batch(ro14), want)
    np.testing.assert_array_equal(mjfast.is_win_batch(base14.T.copy().T), want)
    np.testing.assert_array_equal(mjfast.is_win_batch(ro14[::-1])[::-1], want)


def test_workers_give_identical_results():
    H13 = _mixed(20000, 13, seed=11)
    H14 = _mixed(20000, 14, seed=12)
    Hmix = np.concatenate([H13[:3000], H14[:3000], _mixed(3000, 7, seed=13)])
    for w in (2, -1):
        np.testing.assert_array_equal(mjfast.shanten_batch(H13, workers=1), mjfast.shanten_batch(H13, workers=w))
        np.testing.assert_array_equal(mjfast.waits_batch(H13, workers=1), mjfast.waits_batch(H13, workers=w))
        np.testing.assert_array_equal(mjfast.is_win_batch(H14, workers=1), mjfast.is_win_batch(H14, workers=w))
        np.testing.assert_array_equal(mjfast.shanten_batch(Hmix, workers=1), mjfast.shanten_batch(Hmix, workers=w))
        for form in FORMS:
            np.testing.assert_array_equal(mjfast.shanten_batch(H13, form=form, workers=1),
                                          mjfast.shanten_batch(H13, form=form, workers=w))
    res1, err1 = mjfast.is_win_batch(np.concatenate([H14[:100], H13[:100]]), errors="mask", workers=1)
    res2, err2 = mjfast.is_win_batch(np.concatenate([H14[:100], H13[:100]]), errors="mask", workers=2)
    np.testing.assert_array_equal(res1, res2)
    np.testing.assert_array_equal(err1, err2)
    for bad in (0, -2):
        with pytest.raises(ValueError, match="workers"):
            mjfast.shanten_batch(H13[:5], workers=bad)
    for bad in (1.5, True, "2"):
        with pytest.raises(TypeError, match="workers"):
            mjfast.shanten_batch(H13[:5], workers=bad)


# ---------------------------------------------------------------------------
# differential tests against the reference
# ---------------------------------------------------------------------------

def _diff_ready(H):
    """Compare shanten and waits of ready-size hands; returns a list of failure strings."""
    fails = []
    sb = mjfast.shanten_batch(H)
    wb = mjfast.waits_batch(H)
    for i, h in enumerate(H):
        s_ref = oracle_shanten(h)
        if sb[i] != s_ref:
            fails.append(f"shanten {show(h)}: mjfast={int(sb[i])} oracle={s_ref}")
        w = waits_list(wb[i])
        w_ref = oracle_waits(h)
        if w != w_ref:
            fails.append(f"waits {show(h)}: mjfast={w} oracle={w_ref}")
    return fails


def _diff_complete(H, with_shanten=True):
    fails = []
    wb = mjfast.is_win_batch(H)
    sb = mjfast.shanten_batch(H) if with_shanten else None
    for i, h in enumerate(H):
        win_ref = oracle_is_win(h)
        if bool(wb[i]) != win_ref:
            fails.append(f"is_win {show(h)}: mjfast={bool(wb[i])} oracle={win_ref}")
        if with_shanten:
            s_ref = -1 if win_ref else oracle_shanten(h)
            if sb[i] != s_ref:
                fails.append(f"shanten {show(h)}: mjfast={int(sb[i])} oracle={s_ref}")
    return fails


def _forms_for(size):
    if size in (13, 14):
        return FORMS
    if size in (10, 11):
        return ("regular", "knitted_straight")
    return ("regular",)


def _diff_forms(H, size):
    fails = []
    for form in _forms_for(size):
        fb = mjfast.shanten_batch(H, form=form)
        for i, h in enumerate(H):
            ref = oracle_shanten_form(h, form)
            if fb[i] != ref:
                fails.append(f"shanten[{form}] {show(h)}: mjfast={int(fb[i])} oracle={ref}")
    return fails


def _report(fails, n):
    assert not fails, f"{len(fails)} mismatches in {n} hands; first few:\n  " + "\n  ".join(fails[:8])


# CI sample sizes: 3,000 hands per (size, bias) for the ready sizes (shanten + waits),
# the complete sizes (is_win + shanten) and the per-form shanten of 13-tile hands
# (~200,000 hands, ~25 s in all).
CI_N = 3000


@pytest.mark.oracle
@pytest.mark.parametrize("bias", BIASES, ids=[str(b) for b in BIASES])
@pytest.mark.parametrize("size", READY_SIZES)
def test_differential_ready_ci(size, bias):
    H = handgen.random_hands(CI_N, size, seed=1000 + size, bias=bias)
    _report(_diff_ready(H), len(H))


@pytest.mark.oracle
@pytest.mark.parametrize("bias", BIASES, ids=[str(b) for b in BIASES])
@pytest.mark.parametrize("size", WIN_SIZES)
def test_differential_complete_ci(size, bias):
    H = handgen.random_hands(CI_N, size, seed=2000 + size, bias=bias)
    _report(_diff_complete(H), len(H))


@pytest.mark.oracle
@pytest.mark.parametrize("bias", BIASES, ids=[str(b) for b in BIASES])
def test_differential_forms_13_ci(bias):
    H = handgen.random_hands(CI_N, 13, seed=3000, bias=bias)
    _report(_diff_forms(H, 13), len(H))


@pytest.mark.oracle
@pytest.mark.parametrize("size", (1, 4, 7, 10))
def test_differential_forms_small_ci(size):
    H = np.concatenate([handgen.random_hands(150, size, seed=3100 + size, bias=b) for b in BIASES])
    _report(_diff_forms(H, size), len(H))


@pytest.mark.oracle
def test_differential_forms_complete_ci():
    # 14-tile per-form shanten is slow in the oracle (~0.7 ms regular): a small sample
    H14 = np.concatenate([handgen.random_hands(40, 14, seed=3200, bias=b) for b in BIASES])
    H11 = np.concatenate([handgen.random_hands(40, 11, seed=3201, bias=b) for b in BIASES])
    _report(_diff_forms(H14, 14) + _diff_forms(H11, 11), len(H14) + len(H11))


def _record_counts(rec):
    melds, tiles = oracle_parse_hand(rec["hand"])
    c = np.zeros(34, np.uint8)
    for t in tiles:
        c[t] += 1
    return c, tiles[-1], len(melds)


def _diff_records(n, seed):
    """Winning hands from the generator: complete, and one tile less is ready with the same waits."""
    fails = []
    full, ready = [], []
    for rec in handgen.iter_winning_records(n, seed=seed):
        c, win, _ = _record_counts(rec)
        full.append(c)
        r = c.copy()
        r[win] -= 1
        ready.append(r)
    F = np.array(full)
    R = np.array(ready)
    wins = mjfast.is_win_batch(F)
    if not wins.all():
        i = int(np.flatnonzero(~wins)[0])
        fails.append(f"is_win {show(F[i])}: mjfast=False on a generated winning hand")
    assert (mjfast.shanten_batch(F) == -1).all()
    wb = mjfast.waits_batch(R)
    sb = mjfast.shanten_batch(R)
    for i, r in enumerate(R):
        w = waits_list(wb[i])
        w_ref = oracle_waits(r)
        if w != w_ref:
            fails.append(f"waits {show(r)}: mjfast={w} oracle={w_ref}")
        if sb[i] != 0:
            fails.append(f"shanten {show(r)}: mjfast={int(sb[i])}, expected 0 (one tile from a win)")
    return fails, len(R)


@pytest.mark.oracle
def test_differential_ready_from_winning_records_ci():
    fails, n = _diff_records(10000, seed=77)
    _report(fails, n)


@pytest.mark.oracle
@pytest.mark.slow
def test_differential_slow():
    """>= 200,000 hands (~330,000) across sizes 1-14 and every bias, exact agreement (~45 s)."""
    import time

    t0 = time.perf_counter()
    total = 0
    fails = []
    for bias in BIASES:
        for size in READY_SIZES:
            H = handgen.random_hands(5000, size, seed=50000 + size, bias=bias)
            fails += _diff_ready(H)
            total += len(H)
        for size in WIN_SIZES:
            n = 5000 if size == 14 else 2000
            H = handgen.random_hands(n, size, seed=60000 + size, bias=bias)
            fails += _diff_complete(H)
            total += len(H)
        H = handgen.random_hands(5000, 13, seed=70000, bias=bias)
        fails += _diff_forms(H, 13)
        total += len(H)
        H = handgen.random_hands(2000, 10, seed=70010, bias=bias)
        fails += _diff_forms(H, 10)
        total += len(H)
        H = handgen.random_hands(300, 14, seed=70014, bias=bias)
        fails += _diff_forms(H, 14)
        total += len(H)
    f2, n2 = _diff_records(60000, seed=2027)
    fails += f2
    total += n2
    print(f"\ncore differential: {total} hands, {len(fails)} mismatches, {time.perf_counter() - t0:.0f} s")
    assert total >= 200_000
    _report(fails, total)


@pytest.mark.oracle
@pytest.mark.slow
def test_differential_200k_per_size():
    """200,000 random hands of EACH size 1, 4, 7, 10, 13 (shanten + waits) and
    14 (win check + shanten), spread over every bias: exact agreement (~3 min)."""
    import time

    t0 = time.perf_counter()
    fails = []
    per_bias = -(-200_000 // len(BIASES))
    counts = {}
    for size in (1, 4, 7, 10, 13, 14):
        n = 0
        for b, bias in enumerate(BIASES):
            H = handgen.random_hands(per_bias, size, seed=90000 + 100 * size + b, bias=bias)
            fails += _diff_ready(H) if size != 14 else _diff_complete(H)
            n += len(H)
        counts[size] = n
    print(f"\n200k per size: {counts}, {len(fails)} mismatches, {time.perf_counter() - t0:.0f} s")
    assert all(n >= 200_000 for n in counts.values())
    _report(fails, sum(counts.values()))
