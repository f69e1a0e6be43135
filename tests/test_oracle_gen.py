"""Quick checks of the test oracle (tests/oracle.py) and the hand generator (tests/handgen.py).

These do not import mjfast.  Run:
    PYTHONPATH=/work/main python -m pytest tests/test_oracle_gen.py -q -p no:cacheprovider -o addopts=""
"""

import collections
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


import handgen  # noqa: E402
from oracle import (  # noqa: E402
    FAN_NAMES_EN, OracleError, oracle_is_win, oracle_score, oracle_shanten,
    oracle_shanten_form, oracle_waits, parse_hand,
)
from vectors_mcr import VECTORS, as_record  # noqa: E402


def counts_of(s: str) -> list:
    melds, tiles = parse_hand(s)
    assert not melds
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


# ---------------------------------------------------------------------------
# generator: validity, determinism, coverage
# ---------------------------------------------------------------------------

_FIELDS = {"hand", "self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind", "flowers"}


@pytest.mark.oracle
def test_generated_records_accepted():
    recs = handgen.random_winning_records(2000, seed=11)
    assert len(recs) == 2000
    for rec in recs:
        assert set(rec) == _FIELDS, rec
        melds, tiles = parse_hand(rec["hand"])
        assert len(melds) <= 4
        assert len(tiles) + 3 * len(melds) == 14
        c = [0] * 34
        for kind, t, _d in melds:
            if kind == "chow":
                c[t] += 1
                c[t + 1] += 1
                c[t + 2] += 1
            else:
                c[t] += 3 if kind == "pung" else 4
        for t in tiles:
            c[t] += 1
        assert max(c) <= 4, rec
        assert rec["seat_wind"] in "ESWN" and rec["round_wind"] in "ESWN"
        assert 0 <= rec["flowers"] <= 8
        total, fans = oracle_score(rec)  # raises OracleError if rejected
        assert total == sum(p * n for p, n in fans.values())
        assert fans


def test_generator_deterministic():
    a = handgen.random_winning_records(300, seed=5)
    b = list(handgen.iter_winning_records(300, seed=5))
    assert a == b
    assert a != handgen.random_winning_records(300, seed=6)


def test_generator_meld_and_flag_variety():
    recs = handgen.random_winning_records(5000, seed=2)
    n_melds = collections.Counter(len(parse_hand(r["hand"])[0]) for r in recs)
    assert all(n_melds[k] > 100 for k in range(5)), n_melds
    digits = collections.Counter()
    for r in recs:
        for kind, _t, d in parse_hand(r["hand"])[0]:
            digits[(kind, d)] += 1
    for key in [("chow", 1), ("chow", 2), ("chow", 3), ("pung", 1), ("pung", 2), ("pung", 3),
                ("kong", -1), ("kong", 1), ("kong", 2), ("kong", 3), ("kong", 5), ("kong", 6), ("kong", 7)]:
        assert digits[key] > 0, key
    for flag in ("self_drawn", "fourth_tile", "kong", "last_tile"):
        assert 0 < sum(r[flag] for r in recs) < len(recs)
    assert {r["seat_wind"] for r in recs} == set("ESWN")
    assert {r["round_wind"] for r in recs} == set("ESWN")
    assert {r["flowers"] for r in recs} == set(range(9))


@pytest.mark.oracle
def test_fan_coverage():
    counter = collections.Counter()
    for rec in handgen.iter_winning_records(50000, seed=0):
        counter.update(oracle_score(rec)[1].keys())
    rarest = sorted((counter[n], n) for n in FAN_NAMES_EN)[:10]
    print("\nrarest fans in 50,000 generated hands:")
    for c, n in rarest:
        print(f"  {c:6d}  {n}")
    missing = [n for n in FAN_NAMES_EN if counter[n] == 0]
    assert not missing, missing
    assert set(counter) <= set(FAN_NAMES_EN), set(counter) - set(FAN_NAMES_EN)


@pytest.mark.parametrize("bias", handgen.BIASES)
@pytest.mark.parametrize("size", [1, 4, 7, 10, 13, 14])
def test_random_hands(bias, size):
    h = handgen.random_hands(2000, size, seed=3, bias=bias)
    assert h.shape == (2000, 34) and h.dtype == np.uint8
    assert (h.sum(axis=1) == size).all()
    assert h.max() <= 4
    assert (handgen.random_hands(2000, size, seed=3, bias=bias) == h).all()


# ---------------------------------------------------------------------------
# oracle_score: spec vectors and input handling
# ---------------------------------------------------------------------------

@pytest.mark.oracle
@pytest.mark.parametrize("hand,kwargs,expected,total", VECTORS, ids=[v[0] for v in VECTORS])
def test_spec_vectors(hand, kwargs, expected, total):
    got_total, got = oracle_score(as_record(hand, kwargs))
    assert got == expected
    assert got_total == total


@pytest.mark.oracle
def test_spaced_and_botzone_notation():
    a = oracle_score({"hand": "234s 567s 234p 567p 5m 5m"})
    b = oracle_score({"hand": "234s567s234p567p5m5m"})
    c = oracle_score({"hand": "T2 T3 T4 T5 T6 T7 B2 B3 B4 B5 B6 B7 W5 W5"})
    assert a == b == c


@pytest.mark.oracle
def test_added_kong_is_a_melded_kong():
    base = {"hand": "[EEEE1]456m789s11p23p4p", "self_drawn": True, "kong": True}
    for d in "5", "6", "7":
        rec = dict(base, hand=f"[EEEE{d}]456m789s11p23p4p")
        assert oracle_score(rec) == oracle_score(base)
    concealed = oracle_score(dict(base, hand="[EEEE]456m789s11p23p4p"))[1]
    assert "Concealed Kong" in concealed and "Melded Kong" in oracle_score(base)[1]


@pytest.mark.parametrize("hand", [
    "[222m]1112m456p789p3m2m",      # 15 tiles
    "[2222m]1112m456p789p3m",       # fifth copy of 2m (the binding itself would accept it)
    "11112m456p789p123s1m",         # fifth copy of 1m in the concealed tiles
    "123m456p789s11p23p5p",          # not a win
    "[124m]456m789s11p23p4p",        # not a meld
    "123m456p789s11p23p4",           # digits without a suit
])
@pytest.mark.oracle
def test_oracle_rejects(hand):
    with pytest.raises(OracleError):
        oracle_score({"hand": hand})


@pytest.mark.oracle
def test_oracle_rejects_bad_fields():
    ok = {"hand": "123m456p789s11p23p4p"}
    oracle_score(ok)
    for bad in ({"flowers": 9}, {"seat_wind": "X"}, {"round_wind": 4}):
        with pytest.raises(OracleError):
            oracle_score(dict(ok, **bad))
    assert oracle_score(dict(ok, seat_wind=2, round_wind=1)) == oracle_score(dict(ok, seat_wind="W", round_wind="S"))


# ---------------------------------------------------------------------------
# win / waits / shanten
# ---------------------------------------------------------------------------

@pytest.mark.oracle
def test_waits_nine_gates():
    assert oracle_waits(counts_of("1112345678999m")) == list(range(9))
    assert oracle_waits(counts_of("1112345678999p")) == list(range(9, 18))


@pytest.mark.oracle
def test_waits_thirteen_orphans():
    w = oracle_waits(counts_of("19m19p19sESWNCFP"))
    assert len(w) == 13
    assert w == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    assert oracle_waits(counts_of("19m19p19sESWNCCF")) == [33]


@pytest.mark.oracle
def test_waits_exclude_fifth_copy():
    # 1111m 234567p 789s: the only structural wait is a fifth 1m
    c = counts_of("1111m234567p789s")
    assert oracle_waits(c) == []
    assert oracle_shanten(c) == 0          # the reference's shanten is structural


@pytest.mark.oracle
def test_waits_with_melds():
    assert oracle_waits(counts_of("E"), 4) == [27]
    assert oracle_waits(counts_of("E")) == [27]                 # n_melds inferred
    assert oracle_waits(counts_of("147m258s369pE"), 1) == [27]  # knitted straight + 1 meld
    assert oracle_waits(counts_of("2345m")) == [1, 4]            # 2m, 5m (3 melds)
    assert oracle_waits(counts_of("2345678m")) == [1, 4, 7]


@pytest.mark.oracle
def test_is_win():
    assert oracle_is_win(counts_of("1112345678999m5m"))
    assert oracle_is_win(counts_of("1111m22p44p66p77s99s"))     # 4 identical = two pairs
    assert not oracle_is_win(counts_of("1111m22p44p66p77s98s"))
    assert oracle_is_win(counts_of("147m258s369pEE"), 1)
    assert oracle_is_win(counts_of("EE"), 4)
    assert oracle_is_win(counts_of("147m258s36pESWNC9p"))
    with pytest.raises(ValueError):
        oracle_is_win(counts_of("11111m22p44p66p77s9s"))           # fifth copy
    with pytest.raises(ValueError):
        oracle_is_win(counts_of("123m456p789s11p23p"))            # 13 tiles
    with pytest.raises(ValueError):
        oracle_is_win(counts_of("123m456p789s11p23p4p"), 1)       # size vs melds


@pytest.mark.oracle
def test_shanten_sizes():
    assert oracle_shanten(counts_of("1112345678999m")) == 0
    assert oracle_shanten(counts_of("1112345678999m5m")) == -1
    assert oracle_shanten(counts_of("1112345678999m5p")) == 0
    assert oracle_shanten(counts_of("E")) == 0
    assert oracle_shanten(counts_of("EE")) == -1
    assert oracle_shanten(counts_of("EN")) == 0
    h = handgen.random_hands(30, 14, seed=9)
    for row in h:
        s14 = oracle_shanten(row)
        assert s14 >= -1
        if s14 >= 0:
            discards = []
            for t in range(34):
                if row[t]:
                    c = row.copy()
                    c[t] -= 1
                    discards.append(oracle_shanten(c))
            assert s14 == min(discards)


@pytest.mark.oracle
def test_shanten_forms():
    c = counts_of("1111m22p44p66p77s9s")
    assert oracle_shanten_form(c, "seven_pairs") == 0
    assert oracle_shanten_form(counts_of("1111m22p44p66p77s99s"), "seven_pairs") == -1
    assert oracle_shanten_form(counts_of("19m19p19sESWNCFP"), "thirteen_orphans") == 0
    assert oracle_shanten_form(counts_of("19m19p19sESWNCFPP"), "thirteen_orphans") == -1
    assert oracle_shanten_form(counts_of("147m25s36pESWNCF"), "honors_knitted") == 0
    assert oracle_shanten_form(counts_of("147m258s369p12pEN"), "knitted_straight") == 1
    assert oracle_shanten_form(counts_of("147m258s369p12p"), "knitted_straight") == 0    # 11 tiles
    assert oracle_shanten_form(counts_of("147m258s369pE"), "knitted_straight") == 0
    assert oracle_shanten_form(counts_of("1112345678999m"), "regular") == 0
    assert oracle_shanten_form(counts_of("1112345678999m9m"), "regular") == -1
    with pytest.raises(ValueError):
        oracle_shanten_form(counts_of("147m258s369pE"), "seven_pairs")   # 10 tiles
    with pytest.raises(ValueError):
        oracle_shanten_form(c, "chiitoitsu")


@pytest.mark.oracle
def test_waits_agree_with_win_on_random_hands():
    h = handgen.random_hands(40, 13, seed=4, bias="one_suit")
    for row in h:
        waits = oracle_waits(row)
        for t in range(34):
            if row[t] < 4:
                c = row.copy()
                c[t] += 1
                assert oracle_is_win(c) == (t in waits)
        if waits:
            assert oracle_shanten(row) == 0
