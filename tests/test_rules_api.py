"""``rules=`` on the hand functions beyond scoring: useful_tiles, decompose
and the fan targets (a rule set's tiles and winning forms are honoured; a
tile outside them raises InvalidHand naming the rule set)."""
import numpy as np
import pytest

import mjfast
from mjfast import rules as R

import handgen
from mjfast.core import ERR_RULES, ERROR_MESSAGES

TP = R.get("two_player")
TP_TILES = sorted(TP.tiles)


def _brute_useful(counts, rules, form=None):
    """The definition, by brute force: a tile of the rule set, not held four
    times, whose draw lowers the rule set's shanten."""
    base = mjfast.shanten(counts, form=form, rules=rules)
    out = []
    for t in sorted(R.get(rules).tiles):
        if counts[t] >= 4:
            continue
        c = counts.copy()
        c[t] += 1
        if mjfast.shanten(c, form=form, rules=rules) < base:
            out.append(t)
    return out


def _two_player_hands(n, seed):
    """13-tile concealed hands drawn from the two-player wall (4 of each of
    the 16 kinds), some biased towards pairs so seven pairs matters."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.array(TP_TILES), 4)
    out = []
    for i in range(n):
        if i % 3 == 0:
            kinds = rng.choice(TP_TILES, size=7, replace=False)
            tiles = list(np.repeat(kinds[:6], 2)) + [kinds[6]]
        else:
            tiles = rng.choice(wall, size=13, replace=False)
        c = np.zeros(34, np.uint8)
        np.add.at(c, np.asarray(tiles, int), 1)
        out.append(c)
    return out


def test_useful_tiles_two_player_is_its_definition():
    # two_player has two forms (regular, seven pairs) and 16 tile kinds: the
    # least shanten is over those two only, and no dots or bamboo are useful
    for c in _two_player_hands(600, seed=3):
        got = mjfast.useful_tiles(c, rules="two_player")
        assert got == _brute_useful(c, "two_player"), c.tolist()
        assert set(got) <= TP.tiles
        for form in ("regular", "seven_pairs"):
            assert mjfast.useful_tiles(c, rules="two_player", form=form) == _brute_useful(c, "two_player", form)


def test_useful_tiles_two_player_worked_example():
    # 111m 2m 3m 9m E S W N C F P.  MCR: thirteen orphans holds 9 of its 13
    # kinds and a pair (1m), so shanten 13 - 9 - 1 = 3, and only the four
    # missing orphans 1p 9p 1s 9s help.
    h = "119mESWNCFP123m"
    assert mjfast.shanten(h) == 3 and mjfast.useful_tiles(h) == [9, 17, 18, 26]
    # two_player has neither dots, bamboo nor thirteen orphans.  Seven pairs:
    # one pair (1m) among 11 kinds, 6 - 1 = 5.  Regular: 111m + 23m (one set,
    # one partial, no pair), 8 - 2 - 1 = 5; or 11m + 123m, 8 - 2 - 1 = 5.
    # Useful at 5: any single (2m 3m 9m and the 7 honors) makes a second pair; 1m (111m + 123m) and 4m (111m + 234m) make a second
    # set; 7m and 8m join 9m as a second partial (89m / 79m).  5m and 6m
    # lower neither form (23m already is the partial 5m could join).
    assert mjfast.shanten(h, rules="two_player") == 5
    assert mjfast.useful_tiles(h, rules="two_player") == [0, 1, 2, 3, 6, 7, 8, 27, 28, 29, 30, 31, 32, 33]


def test_useful_tiles_mcr_rule_sets_equal_the_default():
    hands = handgen.random_hands(400, 13, seed=11) + 0
    hands = np.vstack([hands, handgen.random_hands(200, 13, seed=12, bias="knitted"),
                       handgen.random_hands(200, 13, seed=13, bias="pairs")])
    for c in hands:
        plain = mjfast.useful_tiles(c)
        for rs in ("mcr", "dazhong", R.get("mcr", knitted_straight_wait="not_scored")):
            assert mjfast.useful_tiles(c, rules=rs) == plain
    for c in hands[:150]:
        assert mjfast.useful_tiles(c, rules="mcr") == _brute_useful(c, "mcr")


def test_useful_tiles_rules_refuses_tiles_and_forms():
    with pytest.raises(mjfast.InvalidHand, match="two_player"):
        mjfast.useful_tiles("119pESWNCFP123m", rules="two_player")
    with pytest.raises(mjfast.InvalidHand, match="two_player"):
        mjfast.useful_tiles("[123s1]19mESWNCFP1m", rules="two_player")   # a meld counts
    with pytest.raises(ValueError, match="not a winning form of rule set 'two_player'"):
        mjfast.useful_tiles("119mESWNCFP123m", rules="two_player", form="thirteen_orphans")
    with pytest.raises(mjfast.InvalidArgument, match="unknown rule set"):
        mjfast.useful_tiles("119mESWNCFP123m", rules="nope")


def test_useful_tiles_rules_with_melds_and_wildcards():
    # one meld: seven pairs is out, so two_player's shanten is the regular one
    h = "[123m1]4569mEESSCF"
    assert mjfast.useful_tiles(h, rules="two_player") == _brute_useful_hand(h)
    # wildcards beside a rule set with every MCR form: the rule set's tiles are checked
    assert mjfast.useful_tiles("123m456p789sEE1m", wildcards=1, rules="mcr") == \
        mjfast.useful_tiles("123m456p789sEE1m", wildcards=1)
    with pytest.raises(ValueError, match="two_player"):
        mjfast.useful_tiles("123m456m789mEE1m", wildcards=1, rules="two_player")


def _brute_useful_hand(h):
    from mjfast.analysis.inputs import concealed as _concealed
    counts, melds, full = _concealed(h, None, "ready")
    base = mjfast.shanten(counts, melds=melds, rules="two_player")
    out = []
    for t in TP_TILES:
        if full[t] >= 4:
            continue
        c = counts.copy()
        c[t] += 1
        if mjfast.shanten(c, melds=melds, rules="two_player") < base:
            out.append(t)
    return out


def test_decompose_rules():
    # 11 22 33 44 55 66 77m: seven pairs and three regular readings under
    # MCR; two_player allows both forms; a rule set's missing tile raises
    h = "1122334455667m7m"
    every = mjfast.decompose(h)
    assert [f for f, _ in every].count("seven_pairs") == 1
    assert mjfast.decompose(h, rules="two_player") == every
    assert mjfast.decompose(h, rules="dazhong") == every
    # thirteen orphans needs dots and bamboo, which two_player does not
    # play: the tile is named before any form is tried
    to = "19m19p19sESWNCFP1m"
    assert mjfast.decompose(to)[0][0] == "thirteen_orphans"
    with pytest.raises(mjfast.InvalidHand, match="tile 1p is not played in rule set 'two_player'"):
        mjfast.decompose(to, rules="two_player")


def test_fan_targets_rules():
    h = "123m456m789m12p5sE"
    plain = mjfast.fan_targets(h)
    assert mjfast.fan_targets(h, rules="mcr") == plain
    assert mjfast.fan_shanten(h, rules="mcr") == mjfast.fan_shanten(h)
    # dazhong has no minimum: its default is 0, and every target (the
    # smallest is worth 8) is in, as with min_points=0
    dz = mjfast.fan_targets(h, rules="dazhong")
    assert dz == mjfast.fan_targets(h, min_points=0) == plain
    # an explicit min_points wins over the rule set's
    high = mjfast.fan_targets(h, rules="dazhong", min_points=16)
    assert high and min(t.points for t in high) >= 16 and len(high) < len(dz)
    assert mjfast.fan_shanten(h, rules="dazhong", min_points=16) >= mjfast.fan_shanten(h, rules="dazhong")
    with pytest.raises(ValueError, match="rule set 'two_player' has its own fan table"):
        mjfast.fan_targets("123m456m789mEESSW", rules="two_player")
    with pytest.raises(ValueError, match="two_player"):
        mjfast.fan_shanten("123m456m789mEESSW", rules="two_player")



# -- rules= on the batch functions ---------------------------------------------------

def _tp_rows(n, size, seed):
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.array(TP_TILES), 4)
    out = np.zeros((n, 34), np.uint8)
    for i in range(n):
        if i % 3 == 0:       # pair-heavy rows, so that seven pairs matters
            kinds = rng.choice(TP_TILES, size=7, replace=False)
            tiles = list(np.repeat(kinds[:6], 2)) + [kinds[6]] * (size - 12)
        else:
            tiles = rng.choice(wall, size=size, replace=False)
        np.add.at(out[i], np.asarray(tiles, int), 1)
    return out


def test_batch_functions_two_player_agree_with_the_single_hand_ones():
    h13 = _tp_rows(300, 13, seed=5)
    h14 = np.vstack([_tp_rows(300, 14, seed=6),
                     # complete hands of both forms
                     [mjfast.to_counts("1122334455667m7m"), mjfast.to_counts("123m456m789mEEE5m5m")]])
    sh = mjfast.shanten_batch(h13, rules="two_player")
    assert sh.tolist() == [mjfast.shanten(c, rules="two_player") for c in h13]
    assert mjfast.shanten_batch(h14, rules="two_player").tolist() == \
        [mjfast.shanten(c, rules="two_player") for c in h14]
    w = mjfast.waits_batch(h13, rules="two_player")
    for c, row in zip(h13, w):
        assert np.flatnonzero(row).tolist() == mjfast.waits(c, rules="two_player")
    win = mjfast.is_win_batch(h14, rules="two_player")
    assert win.tolist() == [mjfast.is_win(c, rules="two_player") for c in h14]
    assert win[-2:].all()
    for form in ("regular", "seven_pairs"):
        assert mjfast.shanten_batch(h13, rules="two_player", form=form).tolist() == \
            [mjfast.shanten(c, rules="two_player", form=form) for c in h13]
    with pytest.raises(ValueError, match="not a winning form of rule set 'two_player'"):
        mjfast.shanten_batch(h13, rules="two_player", form="thirteen_orphans")


def test_batch_functions_mcr_rule_sets_equal_the_default():
    h13 = handgen.random_hands(500, 13, seed=21)
    h14 = handgen.random_hands(500, 14, seed=22, bias="pairs")
    for rs in ("mcr", "dazhong"):
        assert np.array_equal(mjfast.shanten_batch(h13, rules=rs), mjfast.shanten_batch(h13))
        assert np.array_equal(mjfast.waits_batch(h13, rules=rs), mjfast.waits_batch(h13))
        assert np.array_equal(mjfast.is_win_batch(h14, rules=rs), mjfast.is_win_batch(h14))


def test_batch_functions_flag_tiles_outside_the_rule_set():
    rows = np.vstack([mjfast.to_counts("123m456m789mEEE5m"), mjfast.to_counts("123p456m789mEEE5m")])
    with pytest.raises(mjfast.InvalidHand, match="row 1: tile 1p is not played in rule set 'two_player'"):
        mjfast.waits_batch(rows, rules="two_player")
    w, err = mjfast.waits_batch(rows, rules="two_player", errors="mask")
    assert err.tolist() == [0, ERR_RULES] and not w[1].any() and w[0].any()
    s, err = mjfast.shanten_batch(rows, rules="two_player", errors="mask")
    assert err.tolist() == [0, ERR_RULES] and s[1] == -128 and s[0] == 0
    full = np.vstack([mjfast.to_counts("123m456m789mEEE5m5m"), mjfast.to_counts("123p456m789mEEE5m5m")])
    win, err = mjfast.is_win_batch(full, rules="two_player", errors="mask")
    assert win.tolist() == [True, False] and err.tolist() == [0, ERR_RULES]
    assert ERROR_MESSAGES[ERR_RULES]
    # the MCR checks come first and keep their codes
    bad = np.vstack([rows[0], rows[0] * 0])
    _, err = mjfast.shanten_batch(bad, rules="two_player", errors="mask")
    assert err[1] not in (0, ERR_RULES)
    with pytest.raises(ValueError, match="wildcards"):
        mjfast.is_win_batch(full, rules="two_player", wildcards=1)


def test_batch_functions_follow_a_rule_sets_forms():
    # two_player's tiles leave thirteen orphans and the knitted forms out of
    # reach anyway; a rule set of MCR with the regular form only shows the
    # batch functions dropping forms (an unregistered RuleSet, for the test)
    only = R.RuleSet(**{**R.MCR_RULES.__dict__, "name": "regular_only", "forms": ("regular",),
                        "options": {}})
    h13 = np.vstack([handgen.random_hands(300, 13, seed=31, bias="pairs"),
                     handgen.random_hands(200, 13, seed=32, bias="knitted")])
    h14 = np.vstack([handgen.random_hands(300, 14, seed=33, bias="pairs"),
                     [mjfast.to_counts("1122334455667m7m"), mjfast.to_counts("19m19p19sESWNCFP1m")]])
    sh = mjfast.shanten_batch(h13, rules=only)
    assert sh.tolist() == [mjfast.shanten(c, form="regular") for c in h13]
    assert (sh != mjfast.shanten_batch(h13)).sum() > 50
    w = mjfast.waits_batch(h13, rules=only)
    differ = 0
    for c, row, plain in zip(h13, w, mjfast.waits_batch(h13)):
        # by brute force: the waits whose completed hand has a regular reading
        want = [t for t in np.flatnonzero(plain)
                if any(f == "regular" for f, _ in mjfast.decompose(c + np.eye(34, dtype=np.uint8)[t]))]
        assert np.flatnonzero(row).tolist() == want
        differ += len(want) != int(plain.sum())
    assert differ > 5
    win = mjfast.is_win_batch(h14, rules=only)
    assert win.tolist() == [any(f == "regular" for f, _ in mjfast.decompose(c)) for c in h14]
    assert win[-2] and not win[-1]          # 11223344556677m is also 123 123 456 456 77; orphans are not
