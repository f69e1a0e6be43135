import random

import numpy as np
import pytest

from mjfast.errors import InvalidHand
from mjfast.hand import counts_to_str, to_counts
from mjfast.tiles import (
    BOTZONE_CODES,
    TILE_NAMES,
    ZH_NAMES,
    parse_tiles,
    tile_index,
    tile_name,
)


# ---------------------------------------------------------------- tables


def test_tile_names_table():
    assert len(TILE_NAMES) == 34
    assert len(set(TILE_NAMES)) == 34
    assert TILE_NAMES[:9] == tuple(f"{r}m" for r in range(1, 10))
    assert TILE_NAMES[9:18] == tuple(f"{r}p" for r in range(1, 10))
    assert TILE_NAMES[18:27] == tuple(f"{r}s" for r in range(1, 10))
    assert TILE_NAMES[27:] == ("E", "S", "W", "N", "C", "F", "P")


def test_botzone_codes_table():
    assert len(BOTZONE_CODES) == 34
    assert len(set(BOTZONE_CODES)) == 34
    assert BOTZONE_CODES[0] == "W1" and BOTZONE_CODES[8] == "W9"
    assert BOTZONE_CODES[9] == "B1" and BOTZONE_CODES[17] == "B9"  # dots
    assert BOTZONE_CODES[18] == "T1" and BOTZONE_CODES[26] == "T9"  # bamboo
    assert BOTZONE_CODES[27:] == ("F1", "F2", "F3", "F4", "J1", "J2", "J3")
    assert not any(c.startswith("H") for c in BOTZONE_CODES)


def test_zh_names_table():
    assert len(ZH_NAMES) == 34
    assert len(set(ZH_NAMES)) == 34
    assert ZH_NAMES[0] == "一万"
    assert ZH_NAMES[5] == "六万"
    assert ZH_NAMES[9] == "一饼"
    assert ZH_NAMES[18] == "一条"
    assert ZH_NAMES[26] == "九条"
    assert ZH_NAMES[27:] == ("东", "南", "西", "北", "中", "发", "白")


def test_tile_name_and_index_round_trip():
    for i in range(34):
        assert tile_name(i) == TILE_NAMES[i]
        assert tile_index(TILE_NAMES[i]) == i
        assert tile_index(BOTZONE_CODES[i]) == i
        assert tile_index(ZH_NAMES[i]) == i
    assert tile_name(np.int64(5)) == "6m"


@pytest.mark.parametrize(
    "name, index",
    [
        ("6m", 5), ("1p", 9), ("9s", 26), ("E", 27), ("S", 28), ("W", 29),
        ("N", 30), ("C", 31), ("F", 32), ("P", 33),
        ("W6", 5), ("B1", 9), ("T9", 26), ("F1", 27), ("F3", 29),
        ("F4", 30), ("J1", 31), ("J2", 32), ("J3", 33),
        ("一筒", 9), ("九索", 26),
    ],
)
def test_tile_index_examples(name, index):
    assert tile_index(name) == index


@pytest.mark.parametrize("bad", [-1, 34, 100, 1.0, "1", None, True])
def test_tile_name_bad(bad):
    with pytest.raises(InvalidHand):
        tile_name(bad)


@pytest.mark.parametrize("bad", ["X", "0m", "10m", "F5", "J4", "W0", "e", "", "1z"])
def test_tile_index_bad_names_token(bad):
    with pytest.raises(InvalidHand) as ei:
        tile_index(bad)
    assert repr(bad) in str(ei.value)


def test_tile_index_flower():
    with pytest.raises(InvalidHand, match="flower"):
        tile_index("H1")


def test_tile_index_non_string():
    with pytest.raises(InvalidHand):
        tile_index(5)


# ---------------------------------------------------------------- parse_tiles


def test_parse_compact_basic():
    assert parse_tiles("123m456p789sEESWN") == [
        0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 29, 30,
    ]
    assert parse_tiles("11222m") == [0, 0, 1, 1, 1]
    assert parse_tiles("EEESSCC") == [27, 27, 27, 28, 28, 31, 31]
    assert parse_tiles("CFP") == [31, 32, 33]
    assert parse_tiles("") == []
    assert parse_tiles("   ") == []


def test_parse_compact_order_preserved():
    assert parse_tiles("9m1m") == [8, 0]
    assert parse_tiles("E1sW") == [27, 18, 29]
    assert parse_tiles("321p") == [11, 10, 9]


def test_parse_compact_whitespace_between_groups():
    assert parse_tiles(" 123m 456p\t789s  E E ") == parse_tiles("123m456p789sEE")


def test_parse_botzone():
    # B is dots, T is bamboo
    assert parse_tiles("W1 W2 W3 B5 T9 F1 F4 J1 J3") == [
        0, 1, 2, 13, 26, 27, 30, 31, 33,
    ]
    assert parse_tiles("B1") == [9]
    assert parse_tiles("T1") == [18]
    assert parse_tiles("  J2\tF2  ") == [32, 28]


def test_parse_botzone_vs_compact():
    # "W" alone is West; "W1" is 1m
    assert parse_tiles("W") == [29]
    assert parse_tiles("W1") == [0]
    assert parse_tiles("F F") == [32, 32]
    assert parse_tiles("F1 F1") == [27, 27]


def _err(fn, *args):
    with pytest.raises(InvalidHand) as ei:
        fn(*args)
    return str(ei.value)


def test_error_unknown_tile_names_it_and_position():
    msg = _err(parse_tiles, "123mX")
    assert "unknown tile 'X' at position 5 in '123mX'" in msg


def test_error_lowercase_honor():
    assert "'e'" in _err(parse_tiles, "123me")


def test_error_zero_digit():
    msg = _err(parse_tiles, "10m")
    assert "'0'" in msg and "position 2" in msg


def test_error_dangling_digits_at_end():
    msg = _err(parse_tiles, "123m45")
    assert "'45'" in msg and "position 5" in msg


def test_error_digits_before_honor():
    msg = _err(parse_tiles, "45E")
    assert "'45'" in msg and "position 1" in msg


def test_error_digits_split_by_space():
    msg = _err(parse_tiles, "12 3m")
    assert "'12'" in msg


def test_error_suit_without_digits():
    msg = _err(parse_tiles, "m12")
    assert "'m'" in msg and "position 1" in msg


def test_error_brackets_in_parse_tiles():
    msg = _err(parse_tiles, "[EEE]12m")
    assert "'['" in msg and "position 1" in msg


def test_error_flower_in_parse_tiles():
    msg = _err(parse_tiles, "W1 H1 W2")
    assert "'H1'" in msg and "flower" in msg


def test_error_bad_botzone_code():
    msg = _err(parse_tiles, "W1 F5 W2")
    assert "'F5'" in msg and "position 4" in msg
    assert "'J4'" in _err(parse_tiles, "J4")
    assert "'H9'" in _err(parse_tiles, "W1 H9")


def test_error_mixed_botzone_and_compact():
    msg = _err(parse_tiles, "W1 W2 123m")
    assert "Botzone" in msg


def test_parse_tiles_not_a_string():
    with pytest.raises(InvalidHand):
        parse_tiles([1, 2, 3])


# ---------------------------------------------------------------- counts


def test_to_counts_from_string():
    c = to_counts("123m456p789sEE")
    assert c.shape == (34,) and c.dtype == np.uint8
    assert c.sum() == 11 and c[27] == 2 and c[0] == 1 and c[13] == 1


def test_to_counts_from_string_with_melds_counts_concealed_only():
    c = to_counts("[567m2][EEE1]45m678pFF6m")
    assert c.sum() == 8
    assert c[27] == 0  # the pung of East is a meld
    assert c[5] == 1   # 6m: the winning tile only, not the chow's 6m
    assert counts_to_str(c) == "456m678pFF"


def test_to_counts_from_botzone_string_ignores_flowers():
    c = to_counts("H1 W1 W1 B2")
    assert c[0] == 2 and c[10] == 1 and c.sum() == 3


def test_to_counts_from_indices_and_counts():
    idx = [0, 0, 5, 33]
    c = to_counts(idx)
    assert c[0] == 2 and c[5] == 1 and c[33] == 1 and c.sum() == 4
    assert np.array_equal(to_counts(list(c)), c)
    assert np.array_equal(to_counts(c), c)
    assert np.array_equal(to_counts(tuple(int(v) for v in c)), c)
    assert np.array_equal(to_counts(np.array(idx)), c)
    assert to_counts([]).sum() == 0
    # a fresh array each time
    c2 = to_counts(c)
    c2[0] = 0
    assert c[0] == 2


def test_to_counts_fifth_copy_string():
    msg = _err(to_counts, "33333m")
    assert "fifth copy of 3m" in msg


def test_to_counts_fifth_copy_indices():
    assert "fifth copy of E" in _err(to_counts, [27] * 5)


def test_to_counts_count_above_four():
    c = [0] * 34
    c[2] = 5
    assert "fifth copy of 3m" in _err(to_counts, c)


def test_to_counts_negative():
    c = [0] * 34
    c[10] = -1
    msg = _err(to_counts, c)
    assert "negative" in msg and "2p" in msg


def test_to_counts_bad_index():
    msg = _err(to_counts, [0, 34])
    assert "34" in msg
    assert "-1" in _err(to_counts, [-1])


def test_to_counts_bad_length_uint8():
    msg = _err(to_counts, np.zeros(33, dtype=np.uint8))
    assert "33" in msg


def test_to_counts_non_integers():
    assert "0.5" in _err(to_counts, [0.5, 1])
    with pytest.raises(InvalidHand):
        to_counts(np.zeros(34, dtype=float))
    with pytest.raises(InvalidHand):
        to_counts(np.zeros((2, 34), dtype=np.uint8))
    with pytest.raises(InvalidHand):
        to_counts(12)


def test_counts_to_str():
    assert counts_to_str(to_counts("EE987s654p321m")) == "123m456p789sEE"
    assert counts_to_str([0] * 34) == ""
    c = [0] * 34
    c[27:34] = [1, 1, 1, 1, 1, 1, 1]
    assert counts_to_str(c) == "ESWNCFP"
    assert counts_to_str(to_counts("PFCNWSE")) == "ESWNCFP"
    assert counts_to_str(to_counts("11112222m9s")) == "11112222m9s"


def test_counts_to_str_round_trip_random():
    rng = random.Random(1234)
    for _ in range(500):
        c = [rng.choice([0, 0, 0, 1, 2, 3, 4]) for _ in range(34)]
        s = counts_to_str(c)
        assert list(to_counts(s)) == c
        assert parse_tiles(s) == sorted(parse_tiles(s))


def test_set_text_names_each_kind_of_set():
    from mjfast.tiles import set_text
    assert set_text("chow", 0) == "123m"
    assert set_text("chow", 24) == "789s"          # the lowest tile names a chow
    assert set_text("pung", 13) == "555p"
    assert set_text("kong", 27) == "EEEE"
    assert set_text("pair", 33) == "PP"
    assert set_text("single", 8) == "9m"
