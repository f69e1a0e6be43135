"""Guizhou catch-chicken (rule set ``guizhou``, 捉鸡麻将): one hand per pattern
worked out by hand from the rule text (docs/rules.md, "guizhou"), the pass
rule and its exceptions, the options, and a worked settlement per rule with
the arithmetic in the comments; then the game record's validation and a
property test: random valid games always settle to zero.

Seats 0-3 play in turn order; a meld's claim digit is 1 = left (the seat
before), 2 = opposite, 3 = right (the seat after): seat s claimed from
(s - digit) % 4.
"""
from __future__ import annotations

import random

import pytest

import mjfast
from mjfast import rules as R
from mjfast import score
from mjfast.rules import guizhou as G
from mjfast.rules.guizhou.settlement import REASONS, chicken_tiles

GZ = R.get("guizhou")


def items(s):
    return {f.key: f.points for f in s.fans}


# -- the table -------------------------------------------------------------------

def test_table_is_the_rule_text():
    pts = {f.zh: f.points for f in G.GUIZHOU_TABLE.fans}
    assert pts == {"平胡": 1, "大对子": 5, "七对": 10, "龙七对": 20, "清一色": 10, "清大对": 15, "清七对": 20,
                   "清龙对": 30, "单吊": 10, "清单吊": 20, "自摸": 1, "杠开": 1, "天胡": 10, "地胡": 10, "天听": 10,
                   # a 平胡 under 天胡 / 地胡 / 天听 counts 10: 1 + 9
                   "天胡平胡": 9, "地胡平胡": 9, "天听平胡": 9}
    # each combined entry is the sum of its parts
    t = G.GUIZHOU_TABLE
    assert t["full_flush_all_pungs"].points == t["full_flush"].points + t["all_pungs"].points
    assert t["full_flush_seven_pairs"].points == t["full_flush"].points + t["seven_pairs"].points
    assert t["full_flush_dragon_pairs"].points == t["full_flush"].points + t["dragon_seven_pairs"].points
    assert t["full_flush_single_wait"].points == t["full_flush"].points + t["single_wait"].points
    assert "guizhou" in R.available() and GZ.tiles == frozenset(range(27)) and GZ.forms == ("regular", "seven_pairs")


# -- one hand per pattern ------------------------------------------------------------

# (hand, context, expected {item: points}, total); a discard win unless self_drawn
PATTERNS = {
    # 2222m kong melded (the pass) + 345m 456p 789s 55s: four sets and a pair with
    # chows, three suits: 平胡 1.
    "plain_win": ("[2222m]345m456p789s5s5s", {}, {"plain_win": 1}, 1),
    # 111m 222p 333s 444s 55s: all pungs, three suits: 大对子 5.
    "all_pungs": ("111m222p333s444s5s5s", {}, {"all_pungs": 5}, 5),
    # 11m 22m 55p 77p 33s 88s 99s: seven pairs, three suits: 七对 10.
    "seven_pairs": ("11m22m55p77p33s88s9s9s", {}, {"seven_pairs": 10}, 10),
    # 2222m (four identical, two of the pairs) 55p 77p 33s 88s 9s: 龙七对 20.
    "dragon_seven_pairs": ("2222m55p77p33s88s9s9s", {}, {"dragon_seven_pairs": 20}, 20),
    # 1112345678999m + 5m: all characters, with chows: 清一色 10 (the nine gates
    # are nothing more here).
    "full_flush": ("1112345678999m5m", {}, {"full_flush": 10}, 10),
    # 111p 333p 555p 777p 99p: one suit, all pungs: 清大对 15 (not 10 + 5 + 1).
    "full_flush_all_pungs": ("111p333p555p777p9p9p", {}, {"full_flush_all_pungs": 15}, 15),
    # 11 33 44 55 66 88 99s: one suit, seven pairs: 清七对 20.
    "full_flush_seven_pairs": ("11s33s44s55s66s88s9s9s", {}, {"full_flush_seven_pairs": 20}, 20),
    # 1111p 22p 33p 44p 55p 6p + 6p: one suit, seven pairs with four 1p: 清龙对 30;
    # the regular reading (123p 123p 456p...) is only 清一色.
    "full_flush_dragon_pairs": ("11112233445566p", {}, {"full_flush_dragon_pairs": 30}, 30),
    # four pungs melded (m, p, s) and 55m won on the pair tile: 单吊 10 (金钩钓); it
    # is also all pungs, but only the highest pattern counts (not 15).
    "single_wait": ("[111m1][222p2][333s3][444m1]5m5m", {}, {"single_wait": 10}, 10),
    # the same, all characters: 清单吊 20.
    "full_flush_single_wait": ("[111m1][222m2][333m3][444m1]5m5m", {}, {"full_flush_single_wait": 20}, 20),
}


@pytest.mark.parametrize("key", sorted(PATTERNS))
def test_one_hand_per_pattern(key):
    hand, ctx, exp, total = PATTERNS[key]
    s = score(hand, rules="guizhou", **ctx)
    assert s.pattern == key
    assert items(s) == exp and s.total == total and s.legal


def test_every_pattern_has_a_hand():
    assert set(PATTERNS) == set(G.GUIZHOU_TABLE.keys[:10])


def test_highest_pattern_over_readings():
    # 11223344556677m: a regular reading (123 123 456 456 77 -> 清一色 10) and
    # seven pairs (-> 清七对 20): the highest counts, 20.
    s = score("1122334455667m7m", rules="guizhou")
    assert items(s) == {"full_flush_seven_pairs": 20}
    # 111222333m 456p 77p: read as 123m x3 it has chows, read as pungs it is
    # all pungs except 456p: the chow 456p keeps it a 平胡 -- but it has no kong,
    # so it is not legal.  111m 222m 333m 444p 77p: all pungs -> 大对子 5.
    s = score("111m222m333m456p7p7p", rules="guizhou")
    assert s.pattern == "plain_win" and not s.legal
    assert score("111m222m333m444p7p7p", rules="guizhou").pattern == "all_pungs"


# -- bonuses ---------------------------------------------------------------------------

def test_self_drawn_and_out_on_kong():
    # 平胡 1 + 自摸 1 = 2: each other player pays 2.
    s = score("[2222m]345m456p789s5s5s", rules="guizhou", self_drawn=True)
    assert items(s) == {"plain_win": 1, "self_drawn": 1} and s.total == 2 and s.pattern_value == 1
    # on the kong's replacement tile: 平胡 1 + 杠开 1 + 自摸 1 = 3
    s = score("[2222m]345m456p789s5s5s", rules="guizhou", self_drawn=True, kong=True)
    assert items(s) == {"plain_win": 1, "out_on_kong": 1, "self_drawn": 1} and s.total == 3
    assert s.settlement() == (9, -3, -3, -3)
    # 杠开 with no kong cannot be: dropped and reported (an error under strict)
    s = score("11m22m55p77p33s88s9s9s", rules="guizhou", self_drawn=True, kong=True)
    assert s.total == 11 and "kong" in s.ignored_flags
    with pytest.raises(mjfast.InvalidHand, match="kong"):
        score("11m22m55p77p33s88s9s9s", rules="guizhou", self_drawn=True, kong=True, strict=True)
    # self_drawn_bonus option: 七对 10 + 3
    s = score("11m22m55p77p33s88s9s9s", rules=GZ.with_options(self_drawn_bonus=3), self_drawn=True)
    assert s.total == 13 and [(f.key, f.points, f.count) for f in s.fans][-1] == ("self_drawn", 1, 3)


def test_special_starts():
    plain = "123m456m789p234s1s1s"          # 平胡 without a kong
    # 天听: a 平胡 counts 10 (1 + 9), and needs no pass
    s = score(plain, rules="guizhou", ready_at_start=True)
    assert items(s) == {"plain_win": 1, "ready_at_start_plain_win": 9} and s.total == 10 and s.legal
    # 天听 on 七对: 10 + 10 = 20
    assert score("11m22m55p77p33s88s9s9s", rules="guizhou", ready_at_start=True).total == 20
    # 天胡 (self-drawn): 平胡 10 + 自摸 1 = 11
    s = score(plain, rules="guizhou", self_drawn=True, heavenly_hand=True)
    assert items(s) == {"plain_win": 1, "heavenly_hand_plain_win": 9, "self_drawn": 1} and s.total == 11 and s.legal
    # 天胡 on a discard cannot be: dropped, and the 平胡 is then not legal
    s = score(plain, rules="guizhou", heavenly_hand=True)
    assert "heavenly_hand" in s.ignored_flags and s.total == 1 and not s.legal
    # 地胡 on a discard, 大对子: 5 + 10 = 15
    assert score("111m222p333s444s5s5s", rules="guizhou", earthly_hand=True).total == 15
    # only one of them counts: 天胡 and 天听 together is still 平胡 10 + 自摸 1
    assert score(plain, rules="guizhou", self_drawn=True, heavenly_hand=True, ready_at_start=True).total == 11
    # rule off: the flag is dropped
    s = score(plain, rules=GZ.with_options(ready_at_start=False), ready_at_start=True)
    assert s.total == 1 and not s.legal and "ready_at_start" in s.ignored_flags


# -- the pass rule ------------------------------------------------------------------

def test_pass_rule_and_its_exceptions():
    plain = "123m456m789p234s1s1s"
    s = score(plain, rules="guizhou")
    # 平胡 without a kong: scored (1) but not a legal win
    assert s.total == 1 and not s.legal and "通行证" in s.pass_note
    # a kong among the melds is the pass (a late kong 憨包豆 looks the same in a hand)
    s = score("[2222m]345m456p789s5s5s", rules="guizhou")
    assert s.legal and s.passed_by.startswith("豆")
    # a melded kong of a discard is a pass too
    assert score("[2222m1]345m456p789s5s5s", rules="guizhou").legal
    # a pung is not
    assert not score("[222m1]345m456p789s5s5s", rules="guizhou").legal
    # 热炮: a win on the discard right after the discarder's kong
    assert score(plain, rules="guizhou", discard_after_kong=True).passed_by.startswith("热炮")
    # 抢杠: robbing a kong (kong=True on a discard); the win counts as self-drawn: 1 + 1
    s = score("123m456m789p11s23s4s", rules="guizhou", kong=True)
    assert s.legal and s.passed_by.startswith("抢杠") and items(s) == {"plain_win": 1, "self_drawn": 1}
    # 天听 / 天胡 / 地胡
    assert score(plain, rules="guizhou", ready_at_start=True).legal
    assert score(plain, rules="guizhou", earthly_hand=True).legal
    assert score(plain, rules="guizhou", self_drawn=True, heavenly_hand=True).legal
    # higher patterns need no pass
    assert score("111m222p333s444s5s5s", rules="guizhou").legal
    assert score("1112345678999m5m", rules="guizhou").legal
    # options: no pass rule; 天听 without the pass exemption; 热炮 / 抢杠 off
    assert score(plain, rules=GZ.with_options(plain_win_needs_pass=False)).legal
    assert not score(plain, rules=GZ.with_options(ready_at_start_without_pass=False), ready_at_start=True).legal
    s = score(plain, rules=GZ.with_options(hot_discard=False), discard_after_kong=True)
    assert not s.legal and "discard_after_kong" in s.ignored_flags
    s = score("123m456m789p11s23s4s", rules=GZ.with_options(rob_kong=False), kong=True)
    assert not s.legal and "kong" in s.ignored_flags


def test_batch_and_cli_paths():
    b = mjfast.HandBatch.from_strings(["[2222m]345m456p789s5s5s", "123m456m789p234s1s1s", "11112233445566p",
                                       "123m456m789p234s1s2s"], rules="guizhou")
    r = mjfast.score_batch(b)
    # 平胡 with a pass 1 (legal); 平胡 without 1 (not legal); 清龙对 30; not a win
    assert list(r.totals[:3]) == [1, 1, 30] and list(r.legal) == [True, False, True, False]
    assert r.errors[3] != 0
    with pytest.raises(mjfast.InvalidHand, match="not played in rule set 'guizhou'"):
        score("123m456m789pEEE1s1s", rules="guizhou")


# -- options of the hand -----------------------------------------------------------

def test_hand_options():
    # single_wait='pair_wait': 123m 456m 789p 234s + 1s won on 1s, its only wait -> 单吊 10
    # (with the default, four melds are needed: a plain 平胡)
    pw = GZ.with_options(single_wait="pair_wait")
    assert score("[2222m]345m456p789s5s5s", rules=pw).pattern == "single_wait"
    assert score("[2222m]345m456p789s5s5s", rules="guizhou").pattern == "plain_win"
    # 1112345678999m waits on nine tiles: never a single wait
    assert score("1112345678999m5m", rules=pw).pattern == "full_flush"
    # single_wait_with_pungs='sum': 单吊 10 + 大对子 5 = 15; 清单吊 20 + 5 = 25
    sm = GZ.with_options(single_wait_with_pungs="sum")
    assert items(score("[111m1][222p2][333s3][444m1]5m5m", rules=sm)) == {"single_wait": 10, "all_pungs": 5}
    assert score("[111m1][222m2][333m3][444m1]5m5m", rules=sm).total == 25
    # chows: not claimable by default
    with pytest.raises(mjfast.InvalidHand, match="allow_chow"):
        score("[123m]456m789p234s1s1s", rules="guizhou")
    assert score("[123m][2222p]789p234s1s1s", rules=GZ.with_options(allow_chow=True)).pattern == "plain_win"
    # the pattern payment of one hand: the discarder pays, or everyone with the option
    s = score("111m222p333s444s5s5s", rules="guizhou")
    assert s.settlement(2) == (5, 0, -5, 0)
    assert score("111m222p333s444s5s5s", rules=GZ.with_options(discard_win_payer="everyone")).settlement(2) \
        == (15, -5, -5, -5)


# -- settlements ------------------------------------------------------------------------

def settle(game, **opts):
    return G.settle(game, **opts)


def net(st, reason):
    return st.by_reason().get(reason, (0, 0, 0, 0))


def pays(st, reason):
    """{(payer, payee): amount} of one reason."""
    out = {}
    for p in st.payments:
        if p.reason == reason:
            out[(p.payer, p.payee)] = out.get((p.payer, p.payee), 0) + p.amount
    return out


# G1: seat 0 wins a 平胡 (pass: its concealed kong of 2m) on seat 2's 5s.  The
# flipped tile is 2p, so 3p is a chicken beside the 幺鸡 1s.
#   seat 0  [2222m][777p3] 345m 789s 55s  winner; 闷豆 2m
#   seat 1  [3333p] 456m 678m 9p 1s 4s 7s  not ready; 闷豆 of the chicken 3p; one 1s
#   seat 2  11p 22p 44p 55p 66s 88s 7m    ready (七对 on 7m), the discarder
#   seat 3  [9999m1] 11s 234s 567s 6p 9p    not ready; 接豆 9m fed by seat 2 (3 - 1);
#           discarded the first 1s (冲锋鸡), still on the table
G1 = dict(hands=["[2222m][777p3]345m789s5s5s", "[3333p]456m678m9p1s4s7s", "1122p4455p66s88s7m",
                 "[9999m1]11s234s567s6p9p"],
          winners=[0], discarder=2, dealer=0, discards=[["9s"], ["8p"], ["3s"], ["1s", "2s"]],
          first_chicken=3, flipped="2p")


def test_g1_base_settlement():
    st = settle(G1)
    # pattern: 平胡 1, the discarder (seat 2) pays it
    assert pays(st, "pattern") == {(2, 0): 1}
    # kongs: seat 0's 闷豆 2m, each other pays 3 (+9); seat 1's 闷豆 3p (+9);
    # seat 3's 接豆 9m, its feeder seat 2 pays 3
    assert net(st, "kong") == (9 - 3, -3 + 9, -3 - 3 - 3, -3 - 3 + 3)
    assert pays(st, "kong")[(2, 3)] == 3
    # chickens (1s and 3p): seat 1: the 闷豆 of 3p is 7 (instead of 4 x 1) + one
    # 1s 1 = 8 from each other; seat 3: two 1s held 2 + the discarded 1s 1 + the
    # 冲锋鸡 1 more = 4 from each other; seats 0 and 2 hold none
    assert pays(st, "chicken") == {(0, 1): 8, (2, 1): 8, (3, 1): 8, (0, 3): 4, (1, 3): 4, (2, 3): 4}
    # 包鸡: seat 3 discarded the 冲锋鸡 and is not ready: pays each ready or
    # winning player (seat 0 won, seat 2 is ready) 1
    assert pays(st, "chicken_liability") == {(3, 0): 1, (3, 2): 1}
    # seat 0: +1 + 9 - 3 - 8 - 4 + 1 = -4
    # seat 1: -3 + 9 + 24 - 4 = 26
    # seat 2: -1 - 3 - 3 - 3 - 8 - 4 + 1 = -21
    # seat 3: -3 - 3 + 3 - 8 + 12 - 2 = -1
    assert st.totals == (-4, 26, -21, -1) and sum(st.totals) == 0
    assert st.ready == (True, False, True, False) and st.ready_values == {2: 10}
    assert st.chickens == (11, 18) and not st.golden and not st.silver
    assert [(k.tile, k.kind, k.fed_by) for k in st.kongs[3]] == [(8, "melded", 2)]
    assert [k.zh for ks in st.kongs for k in ks] == ["闷豆", "闷豆", "接豆"]
    assert st.next_dealer == 1
    assert set(p.reason for p in st.payments) <= set(REASONS)
    # the same record as a GuizhouGame
    assert G.settle(G.GuizhouGame(**G1)).totals == st.totals


def test_g1_late_kong_is_a_pass_worth_nothing():
    # seat 0's 2m kong made late (憨包豆): no 3s for it, yet seat 0's 平胡 keeps its pass.
    # Against G1: seat 0 -9, seats 1-3 +3 each: (-13, 29, -18, 2)
    st = settle(dict(G1, late_kongs={0: ["2m"]}))
    assert st.totals == (-13, 29, -18, 2) and st.kongs[0][0].kind == "late"


def test_g1_concealed_chicken_kong_options():
    # chicken_kong_replaces=False: seat 1's 3p kong is 7 + 4 x 1 = 11, + the 1s = 12 a payer
    st = settle(G1, chicken_kong_replaces=False)
    assert pays(st, "chicken")[(0, 1)] == 12 and st.totals == (-8, 38, -25, -5)
    # concealed_chicken_kong=5: 5 + 1 = 6 a payer: against G1 seat 1 -6, the others +2
    st = settle(G1, concealed_chicken_kong=5)
    assert pays(st, "chicken")[(0, 1)] == 6 and st.totals == (-2, 20, -19, 1)


def test_g1_up_down_chicken():
    # 上下鸡: flipped 2p -> 3p and 1p; seat 2 holds 11p: 2 from each other.
    # Against G1: seat 2 +6, the others -2: (-6, 24, -15, -3)
    st = settle(G1, up_down_chicken=True)
    assert st.chickens == (9, 11, 18) and pays(st, "chicken")[(0, 2)] == 2
    assert st.totals == (-6, 24, -15, -3)
    # one below a flipped 1 wraps to 9 (option up_down_wraps), or not
    assert chicken_tiles(0, GZ.with_options(up_down_chicken=True).options)[0] == (1, 8, 18)
    assert chicken_tiles(0, GZ.with_options(up_down_chicken=True, up_down_wraps=False)
                                          .options)[0] == (1, 18)


def test_full_house_chicken():
    # flipped 8p -> 9p is the chicken (3p is not any more); seat 0 discarded a 9p.
    # seat 1: 1s 1 + 9p 1 = 2 a payer; seat 3: 1s x2 + 9p = 3 held, discarded 1s 1,
    # 冲锋鸡 1 more = 5; seat 0's discarded 9p counts only under 满堂鸡: 1 a payer.
    g = dict(G1, flipped="8p", discards=[["9s", "9p"], ["8p"], ["3s"], ["1s", "2s"]])
    st = settle(g)
    assert pays(st, "chicken") == {(0, 1): 2, (2, 1): 2, (3, 1): 2, (0, 3): 5, (1, 3): 5, (2, 3): 5}
    st2 = settle(g, full_house_chicken=True)
    assert pays(st2, "chicken")[(1, 0)] == 1
    assert tuple(b - a for a, b in zip(st.totals, st2.totals)) == (3, -1, -1, -1)


def test_golden_chicken():
    # flipped 9s: the chicken one above is the 1s itself: 金鸡, every 1s worth 2.
    # seat 1: one 1s = 2; seat 3: two held 4 + one discarded 2 + 冲锋鸡 2 more = 8;
    # 包鸡 2 each to seats 0 and 2.  3p is no chicken now: seat 1's 闷豆 is only a 豆.
    # seat 0: +1 + 9 - 3 - 2 - 8 + 2 = -1
    # seat 1: -3 + 9 + 6 - 8 = 4
    # seat 2: -1 - 3 - 3 - 3 - 2 - 8 + 2 = -18
    # seat 3: -3 - 3 + 3 - 2 + 24 - 4 = 15
    st = settle(dict(G1, flipped="9s"))
    assert st.golden and st.chickens == (18,)
    assert pays(st, "chicken") == {(0, 1): 2, (2, 1): 2, (3, 1): 2, (0, 3): 8, (1, 3): 8, (2, 3): 8}
    assert pays(st, "chicken_liability") == {(3, 0): 2, (3, 2): 2}
    assert st.totals == (-1, 4, -18, 15)
    # golden_chicken=False: 1 each: seat 1 1, seat 3 2 + 1 + 1 = 4, 包鸡 1
    st = settle(dict(G1, flipped="9s"), golden_chicken=False)
    assert not st.golden and pays(st, "chicken")[(0, 3)] == 4 and pays(st, "chicken_liability")[(3, 0)] == 1


def test_g1_kong_liability_and_collecting():
    # 豆全包: seat 1 (not ready) pays its 闷豆 back, 3 to each ready or winning player
    # (seats 0 and 2); seat 3 (not ready) pays its 接豆 back to the feeder seat 2 (ready): 3.
    st = settle(G1, all_kongs_liable=True)
    assert pays(st, "kong_liability") == {(1, 0): 3, (1, 2): 3, (3, 2): 3}
    assert st.totals == (-4 + 3, 26 - 6, -21 + 6, -1 - 3)
    # collect_when_not_ready=False: seats 1 and 3 collect no 豆 and no 鸡:
    # seat 0: +1 + 9 + 1 (包鸡) = 11; seat 1: -3; seat 2: -1 - 3 + 1 = -3; seat 3: -3 - 2 = -5
    st = settle(G1, collect_when_not_ready=False)
    assert st.totals == (11, -3, -3, -5)
    # discard_win_payer='everyone': seats 1, 2 and 3 each pay the 平胡 1
    st = settle(G1, discard_win_payer="everyone")
    assert pays(st, "pattern") == {(1, 0): 1, (2, 0): 1, (3, 0): 1} and st.totals == (-2, 25, -21, -2)


def test_g1_all_chickens_liable():
    # 鸡全包 (replaces 包鸡): seat 3 is not ready: its 冲锋鸡 2 (its discarded 1s is that
    # tile, no other exposed 1s) to seats 0 and 2; seat 1 exposed no 1s (held concealed).
    st = settle(G1, all_chickens_liable=True)
    assert pays(st, "chicken_liability") == {(3, 0): 2, (3, 2): 2}
    assert st.totals == (-4 + 1, 26, -21 + 1, -1 - 2)
    # to everyone: seat 1 is paid too
    st = settle(G1, all_chickens_liable=True, all_chickens_liable_to="everyone")
    assert pays(st, "chicken_liability") == {(3, 0): 2, (3, 1): 2, (3, 2): 2}


def test_dealer_repeat():
    # seat 0, the dealer, won: 连庄 keeps the deal; otherwise it passes to seat 1
    assert settle(G1).next_dealer == 1
    assert settle(G1, dealer_repeat=True).next_dealer == 0
    assert settle(dict(G1, dealer=1), dealer_repeat=True).next_dealer == 2


# G2: seat 1 wins self-drawn on the replacement tile of its 4p kong (杠开); flipped 9s (金鸡).
#   seat 0  123p 567p 789p 23s 66m   not ready (a 平胡 wait, no pass)
#   seat 1  [4444p] 111s 234m 567m 88s   winner: 平胡 1 + 杠开 1 + 自摸 1 = 3
#   seat 2  11m 22m 33m 44m 55m 66p 7p   ready (七对)
#   seat 3  [999s2] 345s 345s 6s 7s 8m 9m   not ready
G2 = dict(hands=["123p567p789p2s3s6m6m", "[4444p]111s234m567m8s8s", "11m22m33m44m55m66p7p",
                 "[999s2]345s345s6s7s8m9m"],
          winners=[1], discarder=None, dealer=0, discards=[["9m"], [], ["2s"], ["5p"]],
          flipped="9s", replacement=True)


def test_g2_self_drawn_out_on_kong_golden():
    st = settle(G2)
    # pattern 3 from each other (+9); 闷豆 4p 3 from each (+9); 金鸡: three 1s x 2 = 6 from each (+18)
    assert pays(st, "pattern") == {(0, 1): 3, (2, 1): 3, (3, 1): 3}
    assert pays(st, "chicken") == {(0, 1): 6, (2, 1): 6, (3, 1): 6}
    assert st.totals == (-12, 36, -12, -12)
    assert st.scores[1].total == 3 and st.scores[1].pattern == "plain_win"
    # golden_chicken off: 3 a payer -> (-9, 27, -9, -9)
    assert settle(G2, golden_chicken=False).totals == (-9, 27, -9, -9)
    # not on the replacement tile: 平胡 1 + 自摸 1 = 2 -> (-11, 33, -11, -11)
    assert settle(dict(G2, replacement=False)).totals == (-11, 33, -11, -11)
    # 天胡 for dealer seat 1 (no replacement): 平胡 counts 10, + 自摸 1 = 11 a payer:
    # 33 + 9 + 18 = 60
    st = settle(dict(G2, replacement=False, dealer=1, heavenly=True))
    assert pays(st, "pattern")[(0, 1)] == 11 and st.totals == (-20, 60, -20, -20)


# G3: seat 0 discards 3m; seats 1 and 2 both win on it (一炮多响).  Flipped 9m:
# 1m is a chicken worth 2 (银鸡).  The first 1s was discarded by seat 3 and
# ponged by seat 0 (责任鸡); seat 3 later discarded another 1s.
#   seat 0  [111s1] 2p 5p 8p 2s 5s 8s 4m 7m 99p   not ready, the discarder
#   seat 1  [555p2] 666s 777s 11m 33m + 3m         大对子 5; two 1m (银鸡)
#   seat 2  22m 44m 66p 88p 99s 22s 3m + 3m        七对 10
#   seat 3  444p 777p 888s 55m 66m                 ready (大对子 on 5m / 6m)
G3 = dict(hands=["[111s1]2p5p8p2s5s8s4m7m9p9p", "[555p2]666s777s1m1m3m3m3m", "22m44m66p88p99s22s3m3m",
                 "444p777p888s5m5m6m6m"],
          winners=[1, 2], discarder=0, dealer=0, discards=[["7s"], ["4s"], ["3p"], ["1s"]],
          first_chicken=3, first_chicken_claimed_by=0, flipped="9m")


def test_g3_multiple_winners_responsibility_silver():
    st = settle(G3)
    # the discarder pays each winner their own pattern
    assert pays(st, "pattern") == {(0, 1): 5, (0, 2): 10}
    # chickens: seat 0 three 1s 3 a payer; seat 1 two 1m x 2 (银鸡) = 4 a payer;
    # seat 3 one discarded 1s 1 a payer (the 冲锋鸡 was claimed: no bonus)
    assert pays(st, "chicken") == {(1, 0): 3, (2, 0): 3, (3, 0): 3, (0, 1): 4, (2, 1): 4, (3, 1): 4,
                                   (0, 3): 1, (1, 3): 1, (2, 3): 1}
    # 责任鸡: seat 3 pays seat 0 one more
    assert pays(st, "responsibility_chicken") == {(3, 0): 1}
    # 包鸡: the 责任鸡's holder seat 0 is not ready: pays seats 1, 2 (won) and 3 (ready) 1 each
    assert pays(st, "chicken_liability") == {(0, 1): 1, (0, 2): 1, (0, 3): 1}
    # seat 0: -15 + 9 - 4 - 1 + 1 - 3 = -13
    # seat 1: +5 - 3 + 12 - 1 + 1 = 14
    # seat 2: +10 - 3 - 4 - 1 + 1 = 3
    # seat 3: -3 - 4 + 3 - 1 + 1 = -4
    assert st.totals == (-13, 14, 3, -4)
    assert st.silver and st.chickens == (0, 18)
    # silver off: seat 1's 1m are 1 each: 2 a payer
    assert pays(settle(G3, silver_chicken=False), "chicken")[(0, 1)] == 2
    with pytest.raises(ValueError, match="multiple_winners"):
        settle(G3, multiple_winners=False)


def test_g3_all_chickens_liable():
    # 鸡全包: seat 0 (not ready) exposed a pung of 1s: the 责任鸡 2 + two other 1s 1
    # each = 4 to each of seats 1, 2, 3 (-12 instead of the 包鸡 -3)
    st = settle(G3, all_chickens_liable=True)
    assert pays(st, "chicken_liability") == {(0, 1): 4, (0, 2): 4, (0, 3): 4}
    assert st.totals == (-13 - 9, 14 + 3, 3 + 3, -4 + 3)


def test_kong_claimed_first_chicken():
    # G3 with seat 0's pung of 1s a kong claimed from seat 3 ([1111s1]); seat 3 has no
    # other 1s to discard.  Seat 0 collects the 接豆 3 from seat 3 and four 1s 4 a payer.
    # seat 0: -15 + 3 + 12 - 4 + 1 (责任鸡) - 3 (包鸡) = -6
    # seat 1: +5 - 4 + 12 + 1 = 14; seat 2: +10 - 4 - 4 + 1 = 3
    # seat 3: -3 - 4 - 4 - 1 + 1 = -11
    g = dict(G3, hands=["[1111s1]2p5p8p2s5s8s4m7m9p9p"] + G3["hands"][1:], discards=[["7s"], ["4s"], ["3p"], []])
    st = settle(g)
    assert st.totals == (-6, 14, 3, -11)
    # kong_claim_is_responsibility=False: no 责任鸡, and the 包鸡 falls on the
    # discarder seat 3, who is ready: nobody pays it.  (-4, 13, 2, -11)
    st = settle(g, kong_claim_is_responsibility=False)
    assert "responsibility_chicken" not in st.by_reason() and "chicken_liability" not in st.by_reason()
    assert st.totals == (-4, 13, 2, -11)


# G4: seat 2 adds the fourth 6s to its pung; seat 3 robs it (抢杠) with a 平胡 and no kong.
#   seat 0  [777p3] 23m 56m 99m 1p 2p 3s 4s   not ready
#   seat 1  345p 567m 234s 55p 1s 2m           not ready; one 1s
#   seat 2  [666s1][8888m] 11s 234p 99s       the robbed konger; 闷豆 8m; two 1s; ready
#   seat 3  123m 456m 789p 11p 5s 7s + 6s      平胡 by 抢杠: 1 + 自摸 1 = 2; flipped 4s: 5s chicken
G4 = dict(hands=["[777p3]2m3m5m6m9m9m1p2p3s4s", "345p567m234s55p1s2m", "[666s1][8888m]1s1s234p9s9s",
                 "123m456m789p11p5s7s6s"],
          winners=[3], discarder=2, dealer=0, discards=[[], [], [], []], flipped="4s", robbed=True)


def test_g4_robbing_a_kong():
    st = settle(G4)
    # the konger pays for all three: 2 x 3 = 6
    assert pays(st, "pattern") == {(2, 3): 6}
    # 闷豆 8m 3 from each other; chickens: seat 2 two 1s 2, seat 1 one 1s 1, seat 3 one 5s 1
    # seat 0: -3 - 2 - 1 - 1 = -7; seat 1: -3 - 2 + 3 - 1 = -3
    # seat 2: -6 + 9 + 6 - 1 - 1 = 7; seat 3: +6 - 3 - 2 - 1 + 3 = 3
    assert st.totals == (-7, -3, 7, 3)
    # 抢杠烧鸡: seat 2's chickens (2 a payer) score nothing -> (-5, -1, 1, 5)
    assert settle(G4, rob_burns_chickens=True).totals == (-5, -1, 1, 5)
    # 抢杠烧豆: seat 2's 闷豆 (3 a payer) scores nothing -> (-4, 0, -2, 6)
    assert settle(G4, rob_burns_kongs=True).totals == (-4, 0, -2, 6)
    # rob_kong_payment='one': the konger pays 2 once -> (-7, -3, 11, -1)
    assert settle(G4, rob_kong_payment="one").totals == (-7, -3, 11, -1)
    with pytest.raises(ValueError, match="rob_kong"):
        settle(G4, rob_kong=False)


# G5: seat 1 makes a kong of 5p (a 接豆 fed by seat 3) and its next discard 3p
# deals in to seat 2's 平胡 without a kong: 热炮.
#   seat 0  [777m1] 111p 345s 678p 9p        not ready (平胡 wait, no pass)
#   seat 1  [5555p2] 11s 234m 678m 9m 9s      the discarder; two 1s
#   seat 2  123m 456m 789s 2p 4p 55s + 3p     平胡 1
#   seat 3  [2222s] 33m 4m 6m 66p 8s 9s 1m 7p  not ready; 闷豆 2s
G5 = dict(hands=["[777m1]111p345s678p9p", "[5555p2]1s1s234m678m9m9s", "123m456m789s2p4p5s5s3p",
                 "[2222s]3m3m4m6m6p6p8s9s1m7p"],
          winners=[2], discarder=1, dealer=0, discards=[[], [], [], []], hot_kong="5p")


def test_g5_hot_discard():
    st = settle(G5)
    # seat 1's 接豆 and its two 1s score nothing; seat 3's 闷豆 3 from each other
    # seat 0: -3; seat 1: -1 - 3 = -4; seat 2: +1 - 3 = -2; seat 3: +9
    assert st.totals == (-3, -4, -2, 9) and st.scores[2].passed_by.startswith("热炮")
    # 热炮赔分: seat 1 also pays the winner its kong's value: a 接豆, 3
    st = settle(G5, hot_discard_pays_kong=True)
    assert pays(st, "hot_discard_kong") == {(1, 2): 3} and st.totals == (-3, -7, 1, 9)
    with pytest.raises(ValueError, match="hot_discard"):
        settle(G5, hot_discard=False)
    # without 热炮 seat 2's 平胡 has no pass: it could not win
    with pytest.raises(ValueError, match=r"hands\[2\].*通行证"):
        settle(dict(G5, hot_kong=None))


def test_g5_earthly_and_declared_ready():
    # no 热炮 but 地胡 for seat 2: its 平胡 needs no pass and counts 10.  Now seat 1's
    # 接豆 (fed by seat 3: 3) and two 1s (2 a payer) score.
    # seat 0: -3 - 2 = -5; seat 1: -10 + 3 + 6 - 3 = -4; seat 2: +10 - 3 - 2 = 5;
    # seat 3: +9 - 3 - 2 = 4
    g = dict(G5, hot_kong=None, earthly=[2])
    st = settle(g)
    assert pays(st, "pattern") == {(1, 2): 10} and st.totals == (-5, -4, 5, 4)
    with pytest.raises(ValueError, match="earthly_hand"):
        settle(g, earthly_hand=False)
    # 天听 declared by seat 2: the same 10
    g = dict(G5, hot_kong=None, declared_ready=[2])
    assert settle(g).totals == (-5, -4, 5, 4)
    with pytest.raises(ValueError, match="通行证"):
        settle(g, ready_at_start_without_pass=False)


# G6: a drawn game (黄庄).
#   seat 0  11 22 33 44 55 66 7m    ready: 7m 清七对 20, 1m / 4m 清一色 10
#   seat 1  [3333p] 1s 5s 9s 2p 6p 9p 8s 7p 4s 5p   not ready
#   seat 2  123s 456s 789s 22p 5p 6p              a 平胡 wait with no pass: not ready
#   seat 3  88p 99p 22s 44s 66s 88s 4p             ready: 4p 七对 10
G6 = dict(hands=["1122334455667m", "[3333p]1s5s9s2p6p9p8s7p4s5p", "123s456s789s2p2p5p6p",
                 "88p99p22s44s66s88s4p"],
          winners=[], discards=[[], ["1s"], [], []], first_chicken=1)


def test_g6_drawn_game():
    st = settle(G6)
    assert mjfast.waits("1122334455667m") == [0, 3, 6]
    # each not-ready seat (1, 2) pays each ready seat its best wait: seat 0 20, seat 3 10;
    # no 豆 (seat 1's kong), no 鸡, no 包鸡 in a drawn game
    assert pays(st, "drawn_game") == {(1, 0): 20, (1, 3): 10, (2, 0): 20, (2, 3): 10}
    assert set(st.by_reason()) == {"drawn_game"}
    assert st.totals == (40, -30, -30, 20) and st.ready_values == {0: 20, 3: 10}
    # the worst wait instead: seat 0 is worth 10
    assert settle(G6, drawn_game_value="worst_wait").totals == (20, -20, -20, 20)
    # ready_needs_pass=False: seat 2 is ready, worth 1 (平胡); only seat 1 pays
    st = settle(G6, ready_needs_pass=False)
    assert st.totals == (20, -31, 1, 10)
    # no 黄庄 payments at all
    assert settle(G6, drawn_game_payment=False).totals == (0, 0, 0, 0)
    # seat 3 declared 天听: its 七对 is worth 10 + 10 = 20
    assert settle(dict(G6, declared_ready=[3])).totals == (40, -40, -40, 40)
    # the dealer keeps the deal on a drawn game under 连庄
    assert settle(G6, dealer_repeat=True).next_dealer == 0 and settle(G6).next_dealer == 1


# -- validation ----------------------------------------------------------------------

BAD = [
    (dict(hands=G1["hands"][:3]), TypeError, "hands"),
    (dict(hands=[1, 2, 3, 4]), TypeError, r"hands\[0\]"),
    (dict(winners=[5]), ValueError, r"winners\[0\]"),
    (dict(winners=[0, 0]), ValueError, "winners"),
    (dict(winners="0"), TypeError, "winners"),
    (dict(discarder=0), ValueError, "discarder"),
    (dict(discarder=True), TypeError, "discarder"),
    (dict(winners=[0, 1]), ValueError, r"hands\[1\]"),
    (dict(discarder=None, winners=[0, 1]), ValueError, "several winners"),
    (dict(hands=["[2222m][777p3]345m789s5s5s", "[3333p]456m678m9p1s4s7s", "1122p4455p66s88s7m",
                 "[9999m]11s234s567s6p9p"], discards=[["9s"], ["8p"], ["3s"], ["1s", "1s"]]),
     ValueError, "more than 4 copies of 1s"),
    (dict(hands=["[2222m][777p3]345m789s5s5s", "[3333p]456m678m9p1s4s7s", "1122p4455p66s88s7m",
                 "[9999m]11s234s567s6p9p"]), None, None),     # a concealed 9m kong is fine
    (dict(hands=["[2222m][777p3]345m789s5s5s", "[3333p]456m678m9p1s4s7s", "1122p4455p66s88s7m",
                 "[9999m]11s234s567s6pE"]), mjfast.InvalidHand, r"hands\[3\].*not played"),
    (dict(discards=[["9s"], ["8p"], ["3s"], ["1s", "2z"]]), ValueError, r"discards\[3\]\[1\]"),
    (dict(discards=[["9s"], ["8p"], ["3s"], [18, 1.5]]), TypeError, r"discards\[3\]\[1\]"),
    (dict(first_chicken=None), ValueError, "first_chicken"),
    (dict(first_chicken=1), ValueError, "first_chicken"),
    (dict(first_chicken_claimed_by=1), ValueError, "first_chicken_claimed_by"),
    (dict(flipped="E"), ValueError, "flipped"),
    (dict(winners=[], discarder=None), ValueError, "flipped"),
    (dict(late_kongs={0: ["3m"]}), ValueError, r"late_kongs\[0\]"),
    (dict(late_kongs={3: ["9m"]}), ValueError, r"late_kongs\[3\]"),
    (dict(late_kongs=[0]), TypeError, "late_kongs"),
    (dict(robbed=1), TypeError, "robbed"),
    (dict(robbed=True), ValueError, "robbed"),
    (dict(hot_kong="3p"), ValueError, "hot_kong"),
    (dict(replacement=True), ValueError, "replacement"),
    (dict(heavenly=True), ValueError, "heavenly"),
    (dict(earthly=[1]), ValueError, "earthly"),
    (dict(declared_ready=[1]), ValueError, "declared_ready"),
    (dict(unknown=1), TypeError, "unknown"),
    (dict(ready=[2]), None, None),                 # the record's ready seats agree with the hands
    (dict(ready=[1, 2]), ValueError, "ready"),
    (dict(ready=[0, 2]), ValueError, "ready"),     # a winner is not listed
    (dict(ready=[7]), ValueError, r"ready\[0\]"),
]


@pytest.mark.parametrize("change,exc,match", BAD)
def test_bad_records(change, exc, match):
    g = dict(G1, **change)
    if exc is None:
        assert sum(G.settle(g).totals) == 0
        return
    with pytest.raises(exc, match=match):
        G.settle(g)


def test_bad_calls():
    with pytest.raises(TypeError, match="GuizhouGame"):
        G.settle(["hands"])
    with pytest.raises(TypeError, match="hands"):
        G.settle({"winners": [0]})
    with pytest.raises(ValueError, match="guizhou"):
        G.settle(G1, rules="mcr")
    with pytest.raises(mjfast.InvalidOption, match="nope"):
        G.settle(G1, nope=True)
    # a winner's hand that does not win
    with pytest.raises(ValueError, match="not a winning hand"):
        G.settle(dict(G1, hands=["[2222m][777p3]345m789s5s6s"] + G1["hands"][1:]))
    # winners on one discard must end on the same tile
    with pytest.raises(ValueError, match="different tiles"):
        G.settle(dict(G3, hands=[G3["hands"][0], "[555p2]666s777s1m1m3m3m1m", *G3["hands"][2:]]))
    # a melded kong needs its feeder
    h3 = mjfast.parse_hand("[9999m1]11s234s567s6p9p")
    h3 = mjfast.Hand((mjfast.Meld("kong", 8),), h3.tiles)      # a melded kong, feeder not given
    with pytest.raises(ValueError, match=r"hands\[3\].*claim digit"):
        G.settle(dict(G1, hands=G1["hands"][:3] + [h3]))


# -- random games always settle to zero ---------------------------------------------------

_ALL = [t for t in range(27) for _ in range(4)]
_NAMES = mjfast.tiles.TILE_NAMES


def _take(pool, t, n=1):
    for _ in range(n):
        pool.remove(t)


def _units(rng, pool, n, must=None):
    """n random sets (chow or pung) and a pair from pool, as tile lists; with
    ``must``, one of them holds that tile once more, not taken from the pool."""
    sets, pair = [], None
    if must is not None:
        opts = [("pair", [])] + ([("pung", [must, must])] if n else [])
        if n:
            opts += [("chow", [x for x in (lo, lo + 1, lo + 2) if x != must])
                     for lo in range(max(must - 2, 0), must + 1) if lo // 9 == must // 9 and lo % 9 <= 6]
        kind, rest = rng.choice(opts)
        if kind == "pair":
            rest = [must]
        if any(pool.count(x) < rest.count(x) for x in rest):
            return None
        for x in rest:
            pool.remove(x)
        if kind == "pair":
            pair = [must, must]
        else:
            sets.append(sorted(rest + [must]))
    tries = 0
    while len(sets) < n:
        tries += 1
        if tries > 200:
            return None
        t = rng.choice(pool)
        if rng.random() < 0.4 and pool.count(t) >= 3:
            _take(pool, t, 3)
            sets.append([t, t, t])
        elif t % 9 <= 6 and t + 1 in pool and t + 2 in pool:
            for x in (t, t + 1, t + 2):
                pool.remove(x)
            sets.append([t, t + 1, t + 2])
    while pair is None:
        tries += 1
        if tries > 400:
            return None
        t = rng.choice(pool)
        if pool.count(t) >= 2:
            _take(pool, t, 2)
            pair = [t, t]
    return sets + [pair]


def _melds(rng, pool, seat, k):
    """k random melded pungs / kongs (text, tiles) with claim digits."""
    out = []
    for _ in range(k):
        cand = [t for t in set(pool) if pool.count(t) >= 3]
        if not cand:
            break
        t = rng.choice(sorted(cand))
        kind = rng.choice(["pung", "pung", "concealed", "added", "melded"]) if pool.count(t) == 4 else "pung"
        n = 3 if kind == "pung" else 4
        _take(pool, t, n)
        name = _NAMES[t]
        body = name[0] * n + name[1]
        digit = rng.randint(1, 3)
        text = {"pung": f"[{body}{digit}]", "concealed": f"[{body}]", "added": f"[{body}{digit + 4}]",
                "melded": f"[{body}{digit}]"}[kind]
        out.append((text, t, kind))
    return out


def _hand_text(melds, tiles, win=None):
    s = "".join(m[0] for m in melds) + "".join(_NAMES[t] for t in sorted(tiles))
    return s + (_NAMES[win] if win is not None else "")


def random_game(rng):
    """A random record that is consistent (tile counts, claims, flags); its
    winners' 平胡 may lack a pass, which settle() rejects."""
    pool = list(_ALL)
    rng.shuffle(pool)
    kind = rng.choice(["drawn", "self", "discard", "discard", "multi", "rob"])
    dealer = rng.randrange(4)
    hands = [None] * 4
    meld_info = [[] for _ in range(4)]
    game = {"dealer": dealer}
    if kind == "drawn":
        winners, discarder = [], None
    elif kind == "self":
        winners, discarder = [rng.randrange(4)], None
    else:
        discarder = rng.randrange(4)
        others = [s for s in range(4) if s != discarder]
        winners = sorted(rng.sample(others, rng.randint(2, 3) if kind == "multi" else 1))
    win_tile = None
    if kind == "rob":
        cand = [t for t in range(27) if t % 9 not in (0, 8)]
        win_tile = rng.choice(cand)
        _take(pool, win_tile, 4)
        digit = rng.randint(1, 3)
        meld_info[discarder].append((f"[{_NAMES[win_tile][0] * 3}{_NAMES[win_tile][1]}{digit}]", win_tile, "pung"))
        game["robbed"] = True
    elif winners and discarder is not None:
        win_tile = rng.choice(pool)
        pool.remove(win_tile)
    for s in winners:
        melds = _melds(rng, pool, s, rng.choice([0, 0, 1, 1, 2, 4]))
        meld_info[s] += melds
        must = win_tile
        units = _units(rng, pool, 4 - len(melds), must=must)
        if units is None:
            return None
        tiles = [t for u in units for t in u]
        if must is None:
            win = rng.choice(tiles)
        else:
            win = must
        tiles.remove(win)
        if kind == "rob" and tiles.count(win) > 0:
            return None
        hands[s] = _hand_text(meld_info[s], tiles, win)
    for s in range(4):
        if s in winners:
            continue
        if len(meld_info[s]) == 0:
            meld_info[s] += _melds(rng, pool, s, rng.choice([0, 0, 1, 2]))
        n = 13 - 3 * len(meld_info[s])
        units = _units(rng, pool, 4 - len(meld_info[s])) if rng.random() < 0.5 else None
        if units is not None:
            # a complete hand less one tile: ready, unless its only wins are 平胡 without a pass
            tiles = [t for u in units for t in u]
            pool.append(tiles.pop(rng.randrange(len(tiles))))
            rng.shuffle(pool)
        else:
            tiles = [pool.pop() for _ in range(n)]
        hands[s] = _hand_text(meld_info[s], tiles)
    game["hands"] = hands
    game["winners"] = winners
    game["discarder"] = discarder
    discards = [[pool.pop() for _ in range(rng.randint(0, 6))] for _ in range(4)]
    game["discards"] = [[_NAMES[t] for t in d] for d in discards]
    with1s = [s for s in range(4) if 18 in discards[s]]
    if with1s:
        game["first_chicken"] = rng.choice(with1s)
    else:
        claimed = [(s, (s - int(m[0][-2])) % 4) for s in range(4) for m in meld_info[s]
                   if m[1] == 18 and m[2] in ("pung", "melded", "added")]
        if claimed and rng.random() < 0.8:
            holder, feeder = rng.choice(claimed)
            game["first_chicken"] = feeder
            game["first_chicken_claimed_by"] = holder
    if winners and pool and rng.random() < 0.85:
        game["flipped"] = _NAMES[pool.pop()]
    late = {}
    for s in range(4):
        ks = [m[1] for m in meld_info[s] if m[2] in ("concealed", "added")]
        if ks and rng.random() < 0.3:
            late[s] = [_NAMES[rng.choice(ks)]]
    game["late_kongs"] = late
    if discarder is not None and kind != "rob" and rng.random() < 0.3:
        ks = [m[1] for m in meld_info[discarder] if m[2] != "pung"]
        if ks:
            game["hot_kong"] = _NAMES[rng.choice(ks)]
    if kind == "self" and rng.random() < 0.3 and any(m[2] != "pung" for m in meld_info[winners[0]]):
        game["replacement"] = True
    if kind == "self" and winners[0] == dealer and rng.random() < 0.3:
        game["heavenly"] = True
    if winners and rng.random() < 0.2:
        game["earthly"] = [s for s in winners if s != dealer][:1]
    if winners and rng.random() < 0.2:
        game["declared_ready"] = winners[:1]
    return game


_BOOL_OPTS = [o.name for o in GZ.option_specs if o.kind is bool]
_CHOICE_OPTS = {o.name: o.choices for o in GZ.option_specs if o.choices and len(o.choices) > 1}


def _random_options(rng):
    opts = {k: rng.random() < 0.5 for k in _BOOL_OPTS if rng.random() < 0.4}
    for k, ch in _CHOICE_OPTS.items():
        if rng.random() < 0.3:
            opts[k] = rng.choice(ch)
    if rng.random() < 0.2:
        opts["concealed_chicken_kong"] = rng.randint(0, 9)
    return opts


def _check_zero_sum(rng, game, opts):
    try:
        st = G.settle(game, **opts)
    except ValueError as e:
        # the generator does not arrange passes or keep to the rules switched off
        msg = str(e)
        assert ("通行证" in msg or "option" in msg or "not ready" in msg), msg
        return None
    assert sum(st.totals) == 0
    seats = [0] * 4
    for p in st.payments:
        assert p.amount > 0 and p.payer != p.payee and p.reason in REASONS
        assert isinstance(p.amount, int)
        seats[p.payer] -= p.amount
        seats[p.payee] += p.amount
    assert tuple(seats) == st.totals
    by = st.by_reason()
    if not game["winners"]:
        assert set(by) <= {"drawn_game"}
    else:
        assert "drawn_game" not in by
        # what each winner gets for the pattern is its score times its payers
        pat = {}
        for p in st.payments:
            if p.reason == "pattern":
                pat[p.payee] = pat.get(p.payee, 0) + p.amount
        rs = GZ.with_options(**opts)
        for w, sc in st.scores.items():
            if game["discarder"] is None or rs.options["discard_win_payer"] == "everyone" and not game.get("robbed"):
                n = 3
            elif game.get("robbed"):
                n = 3 if rs.options["rob_kong_payment"] == "all" else 1
            else:
                n = 1
            assert pat[w] == sc.total * n
    return st


def test_random_games_settle_to_zero():
    rng = random.Random(12)
    done = 0
    for _ in range(600):
        game = random_game(rng)
        if game is None:
            continue
        if _check_zero_sum(rng, game, _random_options(rng)) is not None:
            done += 1
    assert done >= 150


@pytest.mark.slow
def test_random_games_settle_to_zero_many():
    rng = random.Random(2024)
    done = 0
    for _ in range(20000):
        game = random_game(rng)
        if game is not None and _check_zero_sum(rng, game, _random_options(rng)) is not None:
            done += 1
    assert done >= 5000


def test_docs_worked_example():
    """docs/rules.md's worked Guizhou settlement runs and shows its real result."""
    import os
    import re
    doc = open(os.path.join(os.path.dirname(__file__), "..", "docs", "rules.md"), encoding="utf-8").read()
    part = doc[doc.index("### A worked settlement"):]
    code = re.search(r"```python\n(.*?)```", part, re.S).group(1)
    env = {"guizhou": G}
    exec(code, env)
    st = env["st"]
    assert f"st.totals        # {st.totals}" in code
    by = st.by_reason()
    shown = re.search(r"st.by_reason\(\)   # (\{.*?\})\n(?!\s*#  )", code + "\n", re.S)
    assert eval(re.sub(r"\n\s*#\s*", " ", shown.group(1))) == by


def test_score_arguments():
    h = "[2222m]345m456p789s5s5s"
    # context guizhou has no use for: reported, an error under strict
    s = score(h, rules="guizhou", fourth_tile=True, last_tile=True, seat_wind="S", human_hand=True)
    assert set(s.ignored_flags) == {"fourth_tile", "last_tile", "winds", "human_hand"} and s.total == 1
    with pytest.raises(mjfast.InvalidHand, match="strict"):
        score(h, rules="guizhou", last_tile=True, strict=True)
    with pytest.raises(TypeError, match="nonsense"):
        score(h, rules="guizhou", nonsense=True)
    with pytest.raises(TypeError, match="ready_at_start"):
        score(h, rules="guizhou", ready_at_start="yes")
    with pytest.raises(TypeError, match="self_drawn"):
        score(h, rules="guizhou", self_drawn=1)
    with pytest.raises(ValueError, match="wildcards"):
        score(h, rules="guizhou", wildcards=1)
    with pytest.raises(mjfast.InvalidHand, match="flowers"):
        score(h, rules="guizhou", flowers=2)
    with pytest.raises(mjfast.InvalidHand):
        score("[2222m]345m456p789s5s", rules="guizhou")
    with pytest.raises(mjfast.NotWinning):
        score("[2222m]345m456p789s5s6s", rules="guizhou")
    assert score(mjfast.parse_hand(h), rules="guizhou").total == 1
    assert score(h, rules="guizhou").as_dict()["pattern"] == "plain_win"


def test_rules_argument_elsewhere():
    # the shape functions take rules="guizhou": suit tiles, four sets and a pair or seven pairs
    # (four of a kind as two pairs counts: 龙七对)
    assert mjfast.is_win("11112233445566p", rules="guizhou")
    assert not mjfast.is_win("147m258p369s11123m", rules="guizhou")    # knitted straight: not a form here
    assert mjfast.is_win("147m258p369s11123m")
    assert mjfast.waits("1122334455667m", rules="guizhou") == [0, 3, 6]
    with pytest.raises(mjfast.InvalidHand, match="guizhou"):
        mjfast.waits("123m456m789pEE1s1s", rules="guizhou")
    text = GZ.describe()
    assert "flowers" not in text.splitlines()[1] and "ready_at_start = True" in text


def test_items_are_worth_their_table_points():
    # every item is its table points x its count, so the batch and JSONL paths (which
    # rebuild the list from fan counts) show the same sum as score()
    hands = [("123m456m789p234s1s1s", dict(ready_at_start=True)), ("111m222p333s444s5s5s", dict(earthly_hand=True)),
             ("[2222m]345m456p789s5s5s", dict(self_drawn=True, kong=True))]
    for h, ctx in hands:
        s = score(h, rules="guizhou", **ctx)
        assert s.total == sum(G.GUIZHOU_TABLE[f.key].points * f.count for f in s.fans)
    recs = [dict(hand=h, rules="guizhou", **ctx) for h, ctx in hands]
    r = mjfast.score_batch(mjfast.HandBatch.from_records(recs))
    assert list(r.totals) == [10, 15, 3]
    for i in range(3):
        assert r.totals[i] == sum(G.GUIZHOU_TABLE.fans[j].points * int(c) for j, c in enumerate(r.fan_counts[i]))


def test_settlement_as_dict():
    import json
    d = json.loads(json.dumps(G.settle(G3).as_dict(), ensure_ascii=False))
    assert d["totals"] == [-13, 14, 3, -4] and sum(p["amount"] for p in d["payments"] if p["payee"] == 2) \
        == 10 + 3 * 0 + 1          # seat 2 collects its 七对 10 and the 包鸡 1 (it holds no chicken)
    assert d["winners"]["1"]["pattern"] == "all_pungs" and d["chickens"] == ["1m", "1s"] and d["silver"]
    assert d["ready"] == [False, True, True, True] and d["next_dealer"] == 1
