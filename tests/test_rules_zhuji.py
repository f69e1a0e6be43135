"""Zhuji mahjong (rule set ``zhuji``): one hand per 台 item worked out by hand
from the rule set's table (docs/rules.md), the specials and their 3-台
condition, the minimum, the options, the seed page's worked example, the
财神 substitution search against a brute force, and the payout arithmetic.

Every expected 台 is reasoned in the comment next to it; the tests check both
the total and the exact item list (key -> count).
"""
from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import mjfast
from mjfast import Hand, Meld, NotWinning, InvalidHand, InvalidOption, score
from mjfast import rules as R
from mjfast.rules.zhuji import ZHUJI, ZHUJI_ITEMS, payout, score_zhuji
from mjfast.tiles import TILE_NAMES, tile_index

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def items(s):
    return {f.key: f.count for f in s.fans}


def zj(hand, **kw):
    kw.setdefault("self_drawn", True)
    return score(hand, rules="zhuji", **kw)


# -- the table --------------------------------------------------------------------

def test_the_table_is_the_spec_s_items_and_values():
    tai = {i.key: i.tai for i in ZHUJI_ITEMS}
    assert tai == {"dragon_pung": 1, "east_pung": 2, "all_chows": 1, "all_pungs": 1, "half_flush": 1,
                   "full_flush": 3, "three_wilds": 2, "kong_replacement": 1, "robbing_kong": 1,
                   "heavenly_hand": 8, "earthly_hand": 8, "all_honors": 8, "no_wild": 8}
    zh = {i.key: i.zh for i in ZHUJI_ITEMS}
    assert zh["all_chows"] == "平胡" and zh["all_pungs"] == "对对胡" and zh["no_wild"] == "无财"
    assert all(i.source and i.rule and i.en for i in ZHUJI_ITEMS)
    assert "zhuji" in R.available()
    assert R.get("zhuji").table["full_flush"].points == 3


# -- one hand per item (self-drawn unless said) --------------------------------------

CASES = {
    # CCC FFF + 123m 456p + 7s7s: two dragon pungs, 1 台 each; three suits (no
    # flush); two chows and two pungs: neither 平胡 nor 对对胡.  2 台.
    "dragon_pung": ("CCCFFF123m456p7s7s", {}, {"dragon_pung": 2}, 2),
    # EEE + 123m 456p 789s + 1s1s: East pung 2 (whatever the seat); three suits.  2.
    "east_pung": ("EEE123m456p789s1s1s", {}, {"east_pung": 1}, 2),
    # SSS in place of EEE: South scores nothing.  0.
    "south_pung_nothing": ("SSS123m456p789s1s1s", {}, {}, 0),
    # 123m 456m 789p 234s + EE: four chows and a pair (any tile): 平胡 1;
    # three suits + honors: no flush.  1.
    "all_chows": ("123m456m789p234sEE", {}, {"all_chows": 1}, 1),
    # 111m 555p 999s SSS + 2s2s: four pungs and a pair: 对对胡 1.  1.
    "all_pungs": ("111m555p999sSSS2s2s", {}, {"all_pungs": 1}, 1),
    # 123m 456m 789m SSS + 1m1m: characters and honors: 混一色 1 (South 0;
    # three chows and a pung: neither 平胡 nor 对对胡).  1.
    "half_flush": ("123m456m789mSSS1m1m", {}, {"half_flush": 1}, 1),
    # 111m 234m 567m 999m 5m5m: one suit, no honors: 清一色 3 (two pungs, two chows).  3.
    "full_flush": ("111m234m567m999m5m5m", {}, {"full_flush": 1}, 3),
    # 123m 456m 789m 234m 5m5m: 清一色 3 + 平胡 1 = 4 (the page: 平胡清一色 is 4).
    "full_flush_all_chows": ("123m456m789m234m5m5m", {}, {"full_flush": 1, "all_chows": 1}, 4),
    # 111m 333m 555m 777m 9m9m: 清一色 3 + 对对胡 1 = 4 (对对胡清一色 is 4).
    "full_flush_all_pungs": ("111m333m555m777m9m9m", {}, {"full_flush": 1, "all_pungs": 1}, 4),
    # [1111p] concealed kong, 234m 567m 789s + 5s5s, won on the replacement
    # tile (kong + self-drawn): 杠开 1; three suits; kong + three chows.  1.
    "kong_replacement": ("[1111p]234m567m789s5s5s", {"kong": True}, {"kong_replacement": 1}, 1),
}


@pytest.mark.parametrize("name", list(CASES))
def test_one_hand_per_item(name):
    hand, ctx, want, total = CASES[name]
    s = zj(hand, **ctx)
    assert items(s) == want, s
    assert s.total == total
    assert s.ordinary == total


def test_robbing_a_kong_adds_one_and_is_the_one_non_self_drawn_win():
    # The robbed tile is held nowhere else (the konger holds the other three),
    # so it completes a chow: CCC FFF 123m 56p 99s + 4p robbed from a kong.
    # Red 1 + Green 1 + 抢杠 1 = 3 (three suits, two chows): a legal win.
    s = score("CCCFFF123m56p9s9s4p", rules="zhuji", kong=True)
    assert items(s) == {"dragon_pung": 2, "robbing_kong": 1}
    assert s.total == 3 and s.legal and not s.self_drawn
    # the same hand on a plain discard: 2 台, and no win at all in Zhuji
    d = score("CCCFFF123m56p9s9s4p", rules="zhuji")
    assert d.total == 2 and not d.legal and "self-drawn" in d.why_not_legal
    # option rob_kong_win=False: self-drawn only, robbing included
    s2 = score("CCCFFF123m56p9s9s4p", rules=R.get("zhuji", rob_kong_win=False), kong=True)
    assert s2.total == 3 and not s2.legal
    # a robbed tile that the hand also holds cannot be robbed (the konger has the other three)
    s3 = score("CCCFFF123m56p4p4p4p", rules="zhuji", kong=True)
    assert "kong" in s3.ignored_flags and "robbing_kong" not in s3.items


def test_kong_replacement_needs_a_kong():
    s = zj("CCC123m456p789s5s5s", kong=True)
    assert "kong" in s.ignored_flags and s.total == 1          # Red only
    with pytest.raises(InvalidHand):
        zj("CCC123m456p789s5s5s", kong=True, strict=True)


def test_seed_worked_example():
    # The page: the dealer wins with a pung of East (2), a pung of Red (1),
    # the rest all characters (混一色 +1): 4 台.  If the characters are all
    # pungs too, 对对胡 adds 1: 5 台.  (No 财神 named: no 无财.)
    s = zj("EEECCC123m789m5m5m")
    assert items(s) == {"east_pung": 1, "dragon_pung": 1, "half_flush": 1} and s.total == 4
    s = zj("EEECCC111m999m5m5m")
    assert items(s) == {"east_pung": 1, "dragon_pung": 1, "half_flush": 1, "all_pungs": 1} and s.total == 5
    # the same with a 财神 (5p) in hand standing for the pair's 5m: still 4 and 5
    rs = R.get("zhuji", wildcards="5p")
    s = score("EEECCC123m789m5m5p", rules=rs, self_drawn=True)
    assert s.total == 4 and s.substitutions == (tile_index("5m"),)
    s = score("EEECCC111m999m5m5p", rules=rs, self_drawn=True)
    assert s.total == 5
    # the payouts: 4 台, each pays 2^2 = 4, the winner 12; 5 台: 8 and 24
    assert s.settlement() == (24, -8, -8, -8)


# -- the specials -----------------------------------------------------------------

def test_no_wild_needs_three_ordinary_tai():
    rs = R.get("zhuji", wildcards="5p")
    # seed hand, no 财神 held, in a game with 财神: ordinary 4 >= 3, so 无财
    # counts: max(8, 4) = 8.
    s = score("EEECCC123m789m5m5m", rules=rs, self_drawn=True)
    assert s.total == 8 and s.ordinary == 4 and s.specials == ("no_wild",)
    assert items(s) == {"no_wild": 1, "east_pung": 1, "dragon_pung": 1, "half_flush": 1}
    # EEE 123m 678p 789s 1s1s: ordinary 2 (East) < 3: 无财 does not count; 2 台 is
    # below the minimum
    s = score("EEE123m678p789s1s1s", rules=rs, self_drawn=True)
    assert s.total == 2 and "no_wild" in s.notes and not s.legal
    # special_mode add8: 4 + 8 = 12
    s = score("EEECCC123m789m5m5m", rules=rs.with_options(special_mode="add8"), self_drawn=True)
    assert s.total == 12
    # no_wild="plus_one" (包麻将): a plain 1 台 item, no condition: 2 + 1 = 3
    s = score("EEE123m678p789s1s1s", rules=rs.with_options(no_wild="plus_one"), self_drawn=True)
    assert items(s) == {"east_pung": 1, "no_wild": 1} and s.total == 3 and s.legal


def test_heavenly_and_earthly_hands():
    # 123m 456m 789m SSS 1m1m: 混一色 only, 1 台 < 3: 天胡 does not count
    s = zj("123m456m789mSSS1m1m", heavenly_hand=True)
    assert s.total == 1 and "heavenly_hand" in s.notes
    # 111m 333m 555m 777m 9m9m: 4 台 >= 3: 天胡 makes max(8, 4) = 8
    s = zj("111m333m555m777m9m9m", heavenly_hand=True)
    assert s.total == 8 and s.specials == ("heavenly_hand",)
    s = zj("111m333m555m777m9m9m", earthly_hand=True)
    assert s.total == 8 and s.specials == ("earthly_hand",)
    # a special on a discard cannot hold: dropped and reported
    s = score("111m333m555m777m9m9m", rules="zhuji", heavenly_hand=True)
    assert "heavenly_hand" in s.ignored_flags and s.total == 4
    # specials do not stack (max8): 天胡 + 无财 is still 8
    s = score("111m333m555m777m9m9m", rules=R.get("zhuji", wildcards="5p"), self_drawn=True,
              heavenly_hand=True)
    assert s.total == 8 and set(s.specials) == {"heavenly_hand", "no_wild"}
    # add8: 4 + 8 + 8 = 20
    s = score("111m333m555m777m9m9m", rules=R.get("zhuji", wildcards="5p", special_mode="add8"),
              self_drawn=True, heavenly_hand=True)
    assert s.total == 20


def test_all_honors_needs_no_three_tai():
    # SSS WWW NNN FFF PP: Green 1 + 对对胡 1 = 2 ordinary; 全字牌 needs no 3 台: 8
    s = zj("SSSWWWNNNFFFPP")
    assert s.total == 8 and s.ordinary == 2 and s.specials == ("all_honors",)
    assert "half_flush" not in s.items          # no suit: not 混一色
    s = score("SSSWWWNNNFFFPP", rules=R.get("zhuji", all_honors_tai=7), self_drawn=True)
    assert s.total == 7
    # [EEEE] CCC FFF P S + 3 jokers: the jokers make PPP and SS; East 2, three
    # dragons 3, 对对胡 1, 杠开 1, three 财神 2 = 9 > 8: max(8, 9) = 9
    s = zj("[EEEE]CCCFFFPS", kong=True, wildcards=3)
    assert s.total == 9 and s.ordinary == 9
    assert sorted(s.substitutions) == [tile_index("S"), tile_index("P"), tile_index("P")]
    # shape: 14 honors without four sets and a pair are no win, unless all_honors_any_shape
    with pytest.raises(NotWinning):
        zj("EESSWWNNCCFFPP")
    s = score("EESSWWNNCCFFPP", rules=R.get("zhuji", all_honors_any_shape=True), self_drawn=True)
    assert s.total == 8 and s.form == "all_honors"


def test_three_wildcards():
    rs = R.get("zhuji", wildcards="5p")
    # 123m 456m 789m + SS + three 5p: the 财神 best stand for ... whatever
    # they stand for, three 财神 add 2.  Best: 5p x3 as 123m? -> 清一色? no, SS
    # is honors: 混一色 1 + 三财神 2 + (pung of the wilds as S? only 2 S left:
    # SSS + pair of wilds: S pung 0) ... the search settles it; the brute
    # force below checks it.  Here: at least 3 = 1 (混一色) + 2.
    s = score("123m456m789mSS5p5p5p", rules=rs, self_drawn=True)
    assert "three_wilds" in s.items and s.wilds == 3 and s.total >= 3
    s2 = score("123m456m789mSS5p5p5p", rules=rs.with_options(three_wilds="exactly"), self_drawn=True)
    assert s2.total == s.total
    # four 财神: 'exactly' drops the item
    s4 = score("123m456m789mS5p5p5p5p", rules=rs, self_drawn=True)
    s4x = score("123m456m789mS5p5p5p5p", rules=rs.with_options(three_wilds="exactly"), self_drawn=True)
    assert "three_wilds" in s4.items and "three_wilds" not in s4x.items
    assert s4.total - s4x.total >= 2 or s4.total == 8


def test_wildcard_choice_worked_by_hand():
    # EE 123m 456m 789m + three 5p (财神).  (a) one 财神 as East: EEE (2), the
    # other two a pair of characters: East 2 + 混一色 1 + 三财神 2 = 5.  (b) EE
    # the pair, the three 财神 a set: East cannot (5 copies); a Red pung: 1 +
    # 1 + 2 = 4; a chow: 平胡 1 + 1 + 2 = 4.  Best 5, East among the stand-ins.
    s = score("EE123m456m789m5p5p5p", rules=R.get("zhuji", wildcards="5p"), self_drawn=True)
    assert s.total == 5
    assert items(s) == {"east_pung": 1, "half_flush": 1, "three_wilds": 1}
    sub = list(s.substitutions)
    assert tile_index("E") in sub
    sub.remove(tile_index("E"))
    assert sub[0] == sub[1] and sub[0] < 9
    # the chosen substitution scores the same under the concrete scorer
    assert _concrete_total("EE123m456m789m", [], s.substitutions, 3) == 5


def test_two_adjacent_wild_kinds_and_the_winning_wildcard():
    # 5p and 6p are wild (8 tiles).  123m 456m 789m SS + 5p 6p + 6p (wins on a
    # 财神); three 财神 add 2 whatever they stand for.  (a) one makes SSS (0), two
    # a pair of characters: 混一色 1 -> 3; (b) a chow of characters, SS the pair:
    # 平胡 1 + 混一色 1 -> 4; (c) all three an East pung, SS the pair: East 2 +
    # 混一色 1 -> 5 (the search found (c) when the first version of this test
    # expected (b)).
    rs = R.get("zhuji", wildcards="5p6p")
    s = score("123m456m789mSS5p6p6p", rules=rs, self_drawn=True)
    assert s.total == 5 and items(s) == {"east_pung": 1, "half_flush": 1, "three_wilds": 1}
    assert s.substitutions == (27, 27, 27)
    # score(wildcard_tiles=...) names the same kinds
    s2 = score("123m456m789mSS5p6p6p", rules="zhuji", wildcard_tiles=["5p", "6p"], self_drawn=True)
    assert s2.total == 5
    with pytest.raises(InvalidHand):
        score("123m456m789mSS5p6p6p", rules=rs, wildcard_tiles=["5p"], self_drawn=True)


def test_wild_kinds_one_or_two_adjacent():
    assert R.get("zhuji", wildcards="5p6p").options["wildcards"] == ("5p", "6p")
    assert R.get("zhuji").with_option_text(["wildcards=5p,6p"]).options["wildcards"] == ("5p", "6p")
    assert R.get("zhuji", wildcards=["E"]).options["wildcards"] == ("E",)
    with pytest.raises(InvalidOption):
        R.get("zhuji", wildcards="5p6p7p")                     # three kinds
    for bad in ("5p7p", "9p1s", "ES"):
        with pytest.raises(InvalidOption):
            score("123m456m789mSS4m4m4m", rules=R.get("zhuji", wildcards=bad), self_drawn=True)
    # wild_adjacency="suit_and_honors": E+S are a row
    s = score("123m456m789mCC" + "ES" + "E", rules=R.get("zhuji", wildcards="ES", wild_adjacency="suit_and_honors"),
              self_drawn=True)
    assert s.wilds == 3


def test_a_wildcard_never_joins_a_meld():
    with pytest.raises(InvalidHand, match="财神"):
        score("[555p]123m456m789m1m1m", rules=R.get("zhuji", wildcards="5p"), self_drawn=True)


def test_minimum_and_options():
    # EEE 123m 456p 789s 1s1s: 2 台 < 3: not legal; min_tai=2: legal
    assert not zj("EEE123m456p789s1s1s").legal
    s = score("EEE123m456p789s1s1s", rules=R.get("zhuji", min_tai=2), self_drawn=True)
    assert s.legal and s.settlement() == (3, -1, -1, -1)
    with pytest.raises(InvalidHand):
        zj("EEE123m456p789s1s1s").settlement()
    with pytest.raises(InvalidOption):
        R.get("zhuji", min_tai=-1)
    assert R.get("zhuji").min_points == 3


def test_bad_input_and_ignored_flags():
    with pytest.raises(InvalidHand, match="flowers"):
        zj("EEECCC123m789m5m5m", flowers=1)
    s = zj("EEECCC123m789m5m5m", fourth_tile=True)
    assert "fourth_tile" in s.ignored_flags and s.total == 4
    with pytest.raises(InvalidHand):
        zj("EEECCC123m789m5m5m", fourth_tile=True, strict=True)
    with pytest.raises(TypeError):
        zj("EEECCC123m789m5m5m", no_such_flag=True)
    with pytest.raises(NotWinning):
        zj("EEECCC123m789m5m6m")
    with pytest.raises(InvalidHand):
        zj("EEECCC123m789m5m5m", wild_fifth=True)


def test_score_batch_scores_zhuji_row_by_row():
    # rows under the rule set's options (here 5p wild): the seed hand with a
    # 财神 (4), without one (无财: 8), the same on a discard (4 台, no win), and
    # a hand that is no win
    rs = R.get("zhuji", wildcards="5p")
    recs = [{"hand": "EEECCC123m789m5m5p", "self_drawn": True}, {"hand": "EEECCC123m789m5m5m", "self_drawn": True},
            {"hand": "EEECCC123m789m5m5p"}, {"hand": "EEECCC123m789m5m6m", "self_drawn": True}]
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs, rules=rs))
    assert res.totals[:3].tolist() == [4, 8, 4]
    assert res.legal[:3].tolist() == [True, True, False]
    assert res.errors[3] != 0
    for i in range(3):
        s = score(recs[i]["hand"], rules=rs, self_drawn=recs[i].get("self_drawn", False))
        assert res.totals[i] == s.total and bool(res.legal[i]) == s.legal


# -- payouts ------------------------------------------------------------------------

def test_payout_arithmetic():
    # each loser pays 2^(台-2), the winner three times that
    assert payout(3) == (6, -2, -2, -2)
    assert payout(4) == (12, -4, -4, -4)
    assert payout(5) == (24, -8, -8, -8)
    assert payout(8) == (192, -64, -64, -64)
    # 老庄: x2, not compounding by default; compounding: x2 per repeat
    assert payout(4, dealer_repeats=1) == (24, -8, -8, -8)
    assert payout(4, dealer_repeats=3) == (24, -8, -8, -8)
    assert payout(4, dealer_repeats=3, rules=R.get("zhuji", dealer_repeat_compound=True)) == (96, -32, -32, -32)
    assert payout(4, dealer_repeats=1, rules=R.get("zhuji", dealer_repeat_multiplier=3)) == (36, -12, -12, -12)
    # robbing a kong: paid like a self-drawn win, or by the konger alone
    assert payout(4, self_drawn=False, konger=2) == (12, -4, -4, -4)
    assert payout(4, self_drawn=False, konger=2, rules=R.get("zhuji", rob_kong_payer="konger")) == (12, 0, -12, 0)
    for t in range(3, 12):
        for r in range(3):
            assert sum(payout(t, dealer_repeats=r)) == 0
    with pytest.raises(InvalidHand):
        payout(2)                                   # below min_tai
    with pytest.raises(InvalidHand):
        payout(4, self_drawn=False)                 # the konger is needed
    with pytest.raises(InvalidHand):
        payout(4, self_drawn=False, konger=1, rules=R.get("zhuji", rob_kong_win=False))
    # the RuleSet's settle is the same
    assert R.get("zhuji").settle(5, True) == (24, -8, -8, -8)
    assert R.get("zhuji").settle(5, False, 3, dealer_repeats=1) == (48, -16, -16, -16)


# -- the substitution search against a brute force ----------------------------------

def _concrete_total(real: str, melds, subs, n_wild, rs=None):
    """Score the hand with the 财神 replaced by ``subs`` (no search)."""
    tiles = list(mjfast.parse_tiles(real)) + list(subs) if real else list(subs)
    h = Hand(tuple(melds), tuple(tiles), 0)
    return score_zhuji(h, rs or ZHUJI, self_drawn=True, held_wilds=n_wild).total


def _brute(real_tiles, melds, n_wild, rs, kong=False):
    """max over every multiset of n_wild tiles (four-copy rule) of the
    concrete scorer; None when none wins."""
    best = None
    base = np.zeros(34, int)
    for t in real_tiles:
        base[t] += 1
    for m in melds:
        for t in m.tiles():
            base[t] += 1
    for combo in itertools.combinations_with_replacement(range(34), n_wild):
        c = base.copy()
        for t in combo:
            c[t] += 1
        if c.max() > 4:
            continue
        h = Hand(tuple(melds), tuple(real_tiles) + combo, 0)
        try:
            tot = score_zhuji(h, rs, self_drawn=True, kong=kong, held_wilds=n_wild).total
        except NotWinning:
            continue
        if best is None or tot > best:
            best = tot
    return best


def _random_wild_hand(rng, kinds, n_wild, with_meld):
    """A winning hand from the non-wild kinds (maybe one meld), then
    ``n_wild`` of its concealed tiles replaced by 财神 tiles."""
    if n_wild > 4 * len(kinds):
        raise ValueError(f"{n_wild} 财神 of {len(kinds)} kind(s): at most {4 * len(kinds)} exist")
    while True:
        counts = np.zeros(34, int)
        for t in kinds:
            counts[t] = 4                              # never drawn as themselves
        sets = []
        ok = True
        for _ in range(4):
            for _try in range(20):
                if rng.random() < 0.45:
                    suit = rng.randrange(3)
                    start = suit * 9 + rng.randrange(7)
                    need = [start, start + 1, start + 2]
                    kind = "chow"
                else:
                    t = rng.randrange(34)
                    need = [t, t, t]
                    kind = "pung"
                c2 = counts.copy()
                for t in need:
                    c2[t] += 1
                if c2.max() <= 4:
                    counts = c2
                    sets.append((kind, need))
                    break
            else:
                ok = False
        pair = None
        for _try in range(20):
            t = rng.randrange(34)
            if counts[t] <= 2:
                pair = t
                break
        if not ok or pair is None:
            continue
        melds = []
        if with_meld:
            kind, need = sets.pop()
            melds.append(Meld(kind, need[0]))
        tiles = [t for _k, need in sets for t in need] + [pair, pair]
        rng.shuffle(tiles)
        wild_tiles = []
        for i in range(n_wild):
            wild_tiles.append(kinds[i % len(kinds)])
        if any(wild_tiles.count(k) > 4 for k in kinds):
            continue
        tiles = tiles[n_wild:] + wild_tiles
        rng.shuffle(tiles)
        return melds, tiles


@pytest.mark.parametrize("seed", range(6))
def test_best_substitution_equals_the_brute_force(seed):
    rng = random.Random(1234 + seed)
    for case in range(12):
        if rng.random() < 0.5:
            kinds = [rng.randrange(34)]
        else:
            a = rng.randrange(3) * 9 + rng.randrange(8)
            kinds = [a, a + 1]
        n_wild = rng.choice((0, 1, 1, 2, 2, 2)) if case % 4 else 3 if seed < 2 else 2
        melds, tiles = _random_wild_hand(rng, kinds, n_wild, rng.random() < 0.3)
        opts = {"wildcards": tuple(TILE_NAMES[k] for k in kinds), "wild_adjacency": "any"}
        if rng.random() < 0.3:
            opts["special_mode"] = "add8"
        rs = R.get("zhuji", **opts)
        h = Hand(tuple(melds), tuple(tiles), 0)
        got = score(h, rules=rs, self_drawn=True)
        real = [t for t in tiles if t not in kinds]
        oracle_rs = rs.with_options(wildcards=())
        want = _brute(real, melds, n_wild, oracle_rs)
        assert got.total == want, (h, kinds, got)
        if n_wild:
            # the reported stand-ins score that total when put in place
            assert _concrete_total("", melds, tuple(real) + tuple(got.substitutions), n_wild, oracle_rs) == want


# -- the command line ----------------------------------------------------------------

def _cli(*args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)


def test_cli_score_rules_zhuji():
    out = _cli("score", "EEECCC111m999m5m5p", "--rules", "zhuji", "--rule-option", "wildcards=5p",
               "--self-drawn", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["total"] == 5 and d["substitutions"] == ["5m"] and d["settlement"]["seats"] == [24, -8, -8, -8]
    out = _cli("score", "EEECCC111m999m5m5p", "--rules", "zhuji", "--rule-option", "wildcards=5p",
               "--self-drawn", "--dealer-repeats", "1")
    assert out.returncode == 0, out.stderr
    assert "+48" in out.stdout and "老庄 x2" in out.stdout
    out = _cli("score", "EEECCC111m999m5m5m", "--dealer-repeats", "1")
    assert out.returncode == 2 and "zhuji" in out.stderr


def _check_against_brute_force(rng, n_hands, wild_counts):
    for case in range(n_hands):
        if rng.random() < 0.5:
            kinds = [rng.randrange(34)]
        else:
            a = rng.randrange(3) * 9 + rng.randrange(8)
            kinds = [a, a + 1]
        n_wild = rng.choice(wild_counts)
        melds, tiles = _random_wild_hand(rng, kinds, n_wild, rng.random() < 0.3)
        rs = R.get("zhuji", wildcards=tuple(TILE_NAMES[k] for k in kinds), wild_adjacency="any")
        got = score(Hand(tuple(melds), tuple(tiles), 0), rules=rs, self_drawn=True)
        real = [t for t in tiles if t not in kinds]
        assert got.total == _brute(real, melds, n_wild, rs.with_options(wildcards=())), (melds, tiles, kinds)


@pytest.mark.slow
def test_best_substitution_equals_the_brute_force_many():
    # by hand: python -m pytest tests/test_rules_zhuji.py -m slow (a few minutes)
    _check_against_brute_force(random.Random(99), 150, (1, 2, 2, 3, 3))
    _check_against_brute_force(random.Random(98), 12, (4,))


def test_many_wildcards_the_best_over_every_winning_substitution():
    # 5 and 6 财神 (two kinds): too many for the brute force over all tiles, so
    # every winning substitution that mjfast.decompose lists is scored by the
    # concrete scorer; the search's total is their maximum, and its own
    # substitution is one of them.  7 and 8: the slow test below.
    _many_wildcards(random.Random(7), (5, 6, 5, 6))


@pytest.mark.slow
def test_many_wildcards_the_best_over_every_winning_substitution_more():
    _many_wildcards(random.Random(8), (5, 6, 7, 8) * 5)


def _many_wildcards(rng, counts):
    for n_wild in counts:
        a = rng.randrange(3) * 9 + rng.randrange(8)
        kinds = [a, a + 1]
        melds, tiles = _random_wild_hand(rng, kinds, n_wild, n_wild >= 7)
        rs = R.get("zhuji", wildcards=tuple(TILE_NAMES[k] for k in kinds))
        h = Hand(tuple(melds), tuple(tiles), 0)
        got = score(h, rules=rs, self_drawn=True)
        real = tuple(t for t in tiles if t not in kinds)
        # (decompose lists every MCR form: Zhuji plays four sets and a pair only)
        subs = {sub for form, _items, sub in mjfast.decompose(h, wildcard_tiles=kinds) if form == "regular"}
        assert subs and tuple(sorted(got.substitutions)) in subs
        plain = rs.with_options(wildcards=())
        best = max(_concrete_total("", melds, real + sub, n_wild, plain) for sub in subs)
        assert got.total == best, (melds, tiles, kinds)


# -- is_win / waits / shanten / useful_tiles with 财神 under rules="zhuji" ------------

def _regular_win_brute(counts, k, melds):
    """Some multiset of k tiles (four-copy rule) completes four sets and a pair."""
    from mjfast import _fans
    for combo in itertools.combinations_with_replacement(range(34), k):
        c = counts.copy()
        for t in combo:
            c[t] += 1
        if c.max() > 4:
            continue
        if any(form == "regular" for form, _ in _fans.decompose_one(c, melds)):
            return True
    return False


def test_is_win_and_waits_with_wildcards_play_zhuji_s_one_form():
    # seven pairs with a wildcard is a win in MCR's forms, not in Zhuji's
    assert mjfast.is_win("1133557799mSSWW") is True
    assert mjfast.is_win("1133557799mSSW", wildcards=1) is True
    assert mjfast.is_win("1133557799mSSW", wildcards=1, rules="zhuji") is False
    assert mjfast.waits("1133557799mSS", wildcards=1, rules="zhuji") == []
    assert mjfast.shanten("1133557799mSSW", wildcards=1) == -1
    assert mjfast.shanten("1133557799mSSW", wildcards=1, rules="zhuji") > 0
    _forms_against_brute_force(random.Random(3), 60, wait_check_max_k=1)


@pytest.mark.slow
def test_is_win_and_waits_with_wildcards_play_zhuji_s_one_form_more():
    _forms_against_brute_force(random.Random(4), 400, wait_check_max_k=2)


def _forms_against_brute_force(rng, n, wait_check_max_k):
    for case in range(n):
        kinds = [rng.randrange(34)]
        k = (0, 1, 1, 2, 2)[case % 5]
        melds, tiles = _random_wild_hand(rng, kinds, k, rng.random() < 0.3)
        real = [t for t in tiles if t not in kinds]
        if rng.random() < 0.5:                 # break it now and then
            real[rng.randrange(len(real))] = rng.randrange(34)
        counts = np.zeros(34, np.uint8)
        for t in real:
            counts[t] += 1
        if counts.max() > 4:
            continue
        want = _regular_win_brute(counts, k, len(melds))
        assert mjfast.is_win(counts, melds=len(melds), wildcards=k, rules="zhuji") is want, (real, k)
        # waits of the hand less one real tile: each listed tile wins, each other does not
        if real and k <= wait_check_max_k:
            c13 = counts.copy()
            c13[real[0]] -= 1
            w = mjfast.waits(c13, melds=len(melds), wildcards=k, rules="zhuji")
            for t in range(34):
                if c13[t] < 4:
                    x = c13.copy()
                    x[t] += 1
                    assert (t in w) is _regular_win_brute(x, k, len(melds)), (c13, k, t)
            assert (34 in w) is (bool(w) and k < 8)
            sh = mjfast.shanten(c13, melds=len(melds), wildcards=k, rules="zhuji")
            assert (sh == 0) is bool(w)
            assert mjfast.shanten(c13, melds=len(melds), wildcards=k, rules="zhuji", form="regular") == sh
            # useful tiles: the draws that lower that shanten
            u = mjfast.useful_tiles(c13, melds=len(melds), wildcards=k, rules="zhuji")
            for t in range(34):
                if c13[t] < 4:
                    x = c13.copy()
                    x[t] += 1
                    lower = mjfast.shanten(x, melds=len(melds), wildcards=k, rules="zhuji") < sh
                    assert (t in u) is lower, (c13, k, t)


def test_describe_gives_the_minimum_in_tai():
    # Zhuji counts 台, not points: its summary says so.
    text = mjfast.rules.get("zhuji").describe()
    assert "minimum to win: 3 台" in text
    assert "minimum to win: 8 points" in mjfast.rules.get("mcr").describe()
