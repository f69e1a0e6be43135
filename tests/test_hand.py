import random

import numpy as np
import pytest

from mjfast.errors import InvalidHand
from mjfast.hand import Hand, Meld, check_size, format_hand, parse_hand
from mjfast.tiles import TILE_NAMES, parse_tiles, tile_index

T = tile_index


def _err(fn, *args, **kw):
    with pytest.raises(InvalidHand) as ei:
        fn(*args, **kw)
    return str(ei.value)


# ---------------------------------------------------------------- Meld


def test_meld_tiles():
    assert Meld("chow", T("5m")).tiles() == (4, 5, 6)
    assert Meld("pung", T("E")).tiles() == (27, 27, 27)
    assert Meld("kong", T("9s"), concealed=True).tiles() == (26,) * 4


def test_meld_notation():
    assert str(Meld("chow", T("5m"), claimed=2)) == "[567m2]"
    assert str(Meld("chow", T("1p"))) == "[123p]"
    assert str(Meld("pung", T("E"), claimed=1)) == "[EEE1]"
    assert str(Meld("pung", T("5s"))) == "[555s]"
    assert str(Meld("kong", T("C"), claimed=3)) == "[CCCC3]"
    assert str(Meld("kong", T("C"), claimed=3, added=True)) == "[CCCC7]"
    assert str(Meld("kong", T("5m"), concealed=True)) == "[5555m]"


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(kind="set", tile=0),
        dict(kind="chow", tile=27),            # honors
        dict(kind="chow", tile=T("8m")),       # crosses 9
        dict(kind="chow", tile=0, claimed=4),
        dict(kind="pung", tile=0, concealed=True),
        dict(kind="pung", tile=0, added=True),
        dict(kind="kong", tile=0, concealed=True, claimed=1),
        dict(kind="kong", tile=0, added=True),  # added needs claimed
        dict(kind="pung", tile=34),
        dict(kind="pung", tile=-1),
    ],
)
def test_meld_invalid(kwargs):
    with pytest.raises(InvalidHand):
        Meld(**kwargs)


# ---------------------------------------------------------------- examples


def test_spec_example_win():
    h = parse_hand("[567m2][EEE1]45m678pFF6m")
    assert h.melds == (
        Meld("chow", T("5m"), claimed=2),
        Meld("pung", T("E"), claimed=1),
    )
    assert h.tiles == tuple(parse_tiles("45m678pFF6m"))
    assert h.win_tile == T("6m")
    assert h.n_tiles == 14
    assert h.flowers == 0
    expect = np.zeros(34, np.uint8)
    for t in parse_tiles("4m5m6p7p8pFF6m"):
        expect[t] += 1
    assert np.array_equal(h.counts, expect)
    assert h.counts.dtype == np.uint8 and h.counts.shape == (34,)
    allc = h.all_counts
    assert allc.sum() == 14 and allc[27] == 3 and allc[5] == 2  # 6m twice
    assert format_hand(h) == "[567m2][EEE1]45m678pFF6m"


def test_spec_example_compact_tiles():
    h = parse_hand("123m456p789s11222m")
    assert h.melds == ()
    assert h.tiles == tuple(parse_tiles("123m456p789s11222m"))
    h = parse_hand("EEESSCC")
    assert h.tiles == (27, 27, 27, 28, 28, 31, 31)


@pytest.mark.parametrize(
    "text, meld",
    [
        ("[567m]", Meld("chow", T("5m"))),
        ("[567m2]", Meld("chow", T("5m"), claimed=2)),
        ("[EEE]", Meld("pung", T("E"))),
        ("[EEE1]", Meld("pung", T("E"), claimed=1)),
        ("[EEEE1]", Meld("kong", T("E"), claimed=1)),
        ("[EEEE3]", Meld("kong", T("E"), claimed=3)),
        ("[EEEE5]", Meld("kong", T("E"), claimed=1, added=True)),
        ("[EEEE7]", Meld("kong", T("E"), claimed=3, added=True)),
        ("[EEEE]", Meld("kong", T("E"), concealed=True)),
        ("[555m2]", Meld("pung", T("5m"), claimed=2)),
        ("[5555m]", Meld("kong", T("5m"), concealed=True)),
        ("[5555m6]", Meld("kong", T("5m"), claimed=2, added=True)),
        ("[789s3]", Meld("chow", T("7s"), claimed=3)),
        ("[123p1]", Meld("chow", T("1p"), claimed=1)),
        ("[PPP]", Meld("pung", T("P"))),
    ],
)
def test_spec_meld_forms(text, meld):
    h = parse_hand(text + "11m")
    assert h.melds == (meld,)
    assert h.tiles == (0, 0)
    assert format_hand(h) == text + "1m1m"


def test_botzone_parsing():
    h = parse_hand("W1 W2 W3 B5 B5 B5 T7 T8 T9 F1 F1 J3 J3 B1")
    assert h.tiles[:3] == (0, 1, 2)
    assert h.tiles[3:6] == (T("5p"),) * 3    # B = dots
    assert h.tiles[6:9] == (T("7s"), T("8s"), T("9s"))  # T = bamboo
    assert h.win_tile == T("1p")
    assert h.n_tiles == 14
    assert h == parse_hand("123m555p789sEEPP1p")


def test_botzone_flowers():
    h = parse_hand("H1 H5 W1 W2 W3 H8 B5")
    assert h.flowers == 3
    assert h.tiles == (0, 1, 2, T("5p"))
    assert format_hand(h, "botzone") == "H1 H2 H3 W1 W2 W3 B5"
    assert parse_hand(format_hand(h, "botzone")) == h
    # compact notation cannot hold flowers
    assert format_hand(h) == "123m5p"


def test_whitespace_between_groups_and_melds():
    assert parse_hand(" [567m2] [EEE1] 45m 678p FF 6m ") == parse_hand(
        "[567m2][EEE1]45m678pFF6m"
    )


def test_no_size_requirement_by_default():
    assert parse_hand("").n_tiles == 0
    assert parse_hand("1m").n_tiles == 1
    h = parse_hand("[EEE][SSS][WWW][NNN]")
    assert h.n_tiles == 12 and h.tiles == ()
    with pytest.raises(InvalidHand):
        h.win_tile


def test_kong_counts_three():
    h = parse_hand("[EEEE][SSSS1][WWWW5][NNNN]CC")
    assert h.n_tiles == 14
    assert h.all_counts.sum() == 18


def test_expect_win_and_ready():
    win = "123m456p789s11m22m2m"
    assert parse_hand(win, expect="win").n_tiles == 14
    assert parse_hand("[567m2][EEE1]45m678pFF", expect="ready").n_tiles == 13
    msg = _err(parse_hand, "123m456p789s11m22m", expect="win")
    assert msg == "a winning hand has 14 tiles counting 3 per meld; got 13"
    msg = _err(parse_hand, win, expect="ready")
    assert msg == "a ready hand has 13 tiles counting 3 per meld; got 14"


def test_check_size():
    h = parse_hand("[567m2][EEE1]45m678pFF6m")
    assert check_size(h, "win") is h
    assert check_size(h, 14) is h
    assert check_size(h, (13, 14)) is h
    with pytest.raises(InvalidHand, match="got 14"):
        check_size(h, "ready")
    with pytest.raises(InvalidHand, match="expected 11 or 13"):
        check_size(h, [13, 11])
    with pytest.raises(ValueError):
        check_size(h, "nonsense")


# ---------------------------------------------------------------- equality


def test_equality_meld_order_and_concealed_order():
    a = parse_hand("[567m2][EEE1]45m678pFF6m")
    b = parse_hand("[EEE1][567m2]FF876p54m6m")
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1


def test_inequality():
    base = parse_hand("[567m2][EEE1]45m678pFF6m")
    assert base != parse_hand("[567m1][EEE1]45m678pFF6m")   # claimed digit
    assert base != parse_hand("[567m2][EEE2]45m678pFF6m")
    assert base != parse_hand("[567m2][EEE1]46m678pFF5m")   # win tile
    assert base != parse_hand("[567m2][EEE1]45m678pFFF")
    assert parse_hand("W1 W1 H1") != parse_hand("W1 W1")    # flowers
    assert parse_hand("[EEEE1]1m") != parse_hand("[EEEE5]1m")
    assert parse_hand("[EEEE]1m") != parse_hand("[EEEE1]1m")
    assert base != "[567m2][EEE1]45m678pFF6m"


def test_hand_constructor_validates():
    h = Hand((Meld("pung", 27, claimed=1),), (0, 1, 2))
    assert h == parse_hand("[EEE1]123m")
    h = Hand([Meld("pung", 27)], [np.int64(0)])
    assert h.melds == (Meld("pung", 27),) and h.tiles == (0,)
    with pytest.raises(InvalidHand, match="fifth copy of E"):
        Hand((Meld("kong", 27, concealed=True),), (27,))
    with pytest.raises(InvalidHand, match="too many tiles: 15"):
        Hand((), tuple(range(15)))
    with pytest.raises(InvalidHand):
        Hand((), (34,))
    with pytest.raises(InvalidHand):
        Hand(("[EEE]",), ())
    with pytest.raises(InvalidHand):
        Hand((), (), flowers=9)


def test_counts_read_only_and_repr():
    h = parse_hand("[567m2][EEE1]45m678pFF6m")
    with pytest.raises(ValueError):
        h.counts[0] = 1
    assert "45m678pFF6m" in repr(h)
    assert str(h) == "[567m2][EEE1]45m678pFF6m"
    assert Hand.parse(str(h)) == h and h.format() == str(h)


# ---------------------------------------------------------------- format


def test_format_canonical_order():
    assert format_hand(parse_hand("PE9s1p5mC3m")) == "5m1p9sECP3m"
    assert format_hand(parse_hand("PE9s1p5mC3mE")) == "35m1p9sECPE"
    assert format_hand(parse_hand("FF9s1p5mEE")) == "5m1p9sEFFE"
    assert format_hand(parse_hand("")) == ""
    assert format_hand(parse_hand("[EEE1]")) == "[EEE1]"


def test_format_botzone():
    h = parse_hand("123m456p789sEE11sE")
    assert format_hand(h, "botzone") == (
        "W1 W2 W3 B4 B5 B6 T1 T1 T7 T8 T9 F1 F1 F1"
    )
    assert parse_hand(format_hand(h, "botzone")) == h
    with pytest.raises(InvalidHand, match="melds"):
        format_hand(parse_hand("[EEE1]123m"), "botzone")
    with pytest.raises(ValueError):
        format_hand(h, "tenhou")


# ---------------------------------------------------------------- round trip


def _random_hand(rng):
    left = [4] * 34
    melds = []
    for _ in range(rng.randint(0, 4)):
        while True:
            kind = rng.choice(["chow", "chow", "pung", "kong"])
            if kind == "chow":
                suit = rng.randrange(3)
                t = suit * 9 + rng.randrange(7)
                need = [t, t + 1, t + 2]
            else:
                t = rng.randrange(34)
                need = [t] * (3 if kind == "pung" else 4)
            if all(left[x] >= need.count(x) for x in set(need)):
                break
        for x in need:
            left[x] -= 1
        if kind == "kong":
            form = rng.choice(["concealed", "melded", "added", "bare"])
            if form == "concealed":
                m = Meld("kong", t, concealed=True)
            elif form == "added":
                m = Meld("kong", t, claimed=rng.randint(1, 3), added=True)
            else:
                m = Meld("kong", t, claimed=rng.randint(1, 3))
        else:
            m = Meld(kind, t, claimed=rng.randint(0, 3))
        melds.append(m)
    room = 14 - 3 * len(melds)
    n = rng.choice([room, room, room - 1, rng.randint(0, room)])
    pool = [t for t in range(34) for _ in range(left[t])]
    tiles = rng.sample(pool, n)
    return Hand(tuple(melds), tuple(tiles))


def test_round_trip_random_hands():
    rng = random.Random(20240601)
    for _ in range(3000):
        h = _random_hand(rng)
        s = format_hand(h)
        h2 = parse_hand(s)
        assert h2 == h, s
        assert hash(h2) == hash(h)
        assert format_hand(h2) == s
        assert h2.melds == h.melds  # stored order is kept
        assert h2.n_tiles == h.n_tiles
        assert np.array_equal(h2.counts, h.counts)
        assert np.array_equal(h2.all_counts, h.all_counts)
        if h.tiles:
            assert h2.win_tile == h.win_tile


def test_round_trip_random_botzone():
    rng = random.Random(7)
    for _ in range(1000):
        n = rng.randint(0, 14)
        pool = [t for t in range(34) for _ in range(4)]
        h = Hand((), tuple(rng.sample(pool, n)), flowers=rng.randint(0, 8))
        s = format_hand(h, "botzone")
        assert parse_hand(s) == h, s
        # shuffled token order (flowers anywhere) keeps the hand if the
        # winning tile stays last
        toks = s.split()
        if h.tiles:
            body, last = toks[:-1], toks[-1]
            rng.shuffle(body)
            assert parse_hand(" ".join(body + [last])) == h


# ---------------------------------------------------------------- errors


def test_error_unknown_tile():
    msg = _err(parse_hand, "[567m2]45mX6m")
    assert "'X'" in msg and "position 11" in msg


def test_error_unknown_tile_in_meld():
    msg = _err(parse_hand, "[5X7m]12m")
    assert "'X'" in msg and "position 3" in msg


@pytest.mark.parametrize(
    "text, token",
    [
        ("[568m]11m", "[568m]"),
        ("[55m]11m", "[55m]"),
        ("[EEES]11m", "[EEES]"),
        ("[ESW]11m", "[ESW]"),
        ("[89m1]11m", "[89m1]"),
        ("[891m]11m", "[891m]"),
        ("[89m1p]11m", "[89m1p]"),
        ("[576m]11m", "[576m]"),
        ("[5555m]11m[]", "[]"),
        ("[5m6p7s]", "[5m6p7s]"),
        ("[E E E]", "[E E E]"),
    ],
)
def test_error_malformed_meld(text, token):
    msg = _err(parse_hand, text)
    assert token in msg and "position" in msg


def test_error_meld_crossing_nine_says_so():
    assert "past 9" in _err(parse_hand, "[891m]")


def test_error_honor_chow_says_so():
    assert "honors" in _err(parse_hand, "[ESW]")


@pytest.mark.parametrize(
    "text, token",
    [("[567m4]", "[567m4]"), ("[567m0]", "[567m0]"), ("[EEE5]", "[EEE5]"),
     ("[EEEE4]", "[EEEE4]"), ("[EEEE8]", "[EEEE8]"), ("[555m9]", "[555m9]")],
)
def test_error_bad_meld_digit(text, token):
    msg = _err(parse_hand, text)
    assert token in msg and "bad digit" in msg


def test_error_more_than_four_melds():
    msg = _err(parse_hand, "[111m][222m][333m][444m][555m]")
    assert "more than 4 melds" in msg and "[555m]" in msg and "position 25" in msg


def test_error_fifth_copy():
    assert "fifth copy of 5m" in _err(parse_hand, "[555m1][567m]5m")
    assert "fifth copy of 5m" in _err(parse_hand, "[5555m]5m")
    assert "fifth copy of E" in _err(parse_hand, "EEEEE")
    assert "fifth copy of 1p" in _err(parse_hand, "B1 B1 B1 B1 B1")


def test_error_too_many_tiles():
    msg = _err(parse_hand, "123m456p789s123p456s")
    assert "too many tiles: 15" in msg
    assert "too many tiles: 15" in _err(parse_hand, "[EEE][SSS][WWW][NNN]123m")


def test_error_bracket_after_concealed_tiles():
    msg = _err(parse_hand, "[567m]123m[EEE]")
    assert "position 11" in msg and "first" in msg


def test_error_unclosed_and_unmatched_brackets():
    assert "unclosed '[' at position 1" in _err(parse_hand, "[567m")
    assert "unclosed '[' at position 1" in _err(parse_hand, "[567m[EEE]")
    assert "unmatched ']' at position 5" in _err(parse_hand, "123m]")


def test_error_dangling_digit_and_zero():
    msg = _err(parse_hand, "[EEE]123m4")
    assert "'4'" in msg and "position 10" in msg
    msg = _err(parse_hand, "102m")
    assert "'0'" in msg and "position 2" in msg


def test_error_bad_botzone():
    msg = _err(parse_hand, "W1 W2 X3")
    assert "X3" in msg or "'X'" in msg
    msg = _err(parse_hand, "W1 W2 F9")
    assert "'F9'" in msg
    assert "'H2' appears twice" in _err(parse_hand, "H2 W1 H2")


def test_error_not_a_string():
    with pytest.raises(InvalidHand):
        parse_hand(None)
    with pytest.raises(InvalidHand):
        parse_hand(["1m"])


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        parse_hand("[568m]")


def test_all_tile_names_in_melds_round_trip():
    for t in range(34):
        for text in (f"[{TILE_NAMES[t][0] * 3}{TILE_NAMES[t][1:]}]",):
            h = parse_hand(text)
            assert h.melds == (Meld("pung", t),)


def test_pickle_and_copy():
    import copy
    import pickle

    h = parse_hand("[567m2][EEEE6]45m678pFF6m")
    h.counts
    for h2 in (pickle.loads(pickle.dumps(h)), copy.deepcopy(h), copy.copy(h)):
        assert h2 == h and h2.melds == h.melds
        assert not h2.counts.flags.writeable
