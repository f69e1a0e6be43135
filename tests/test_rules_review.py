"""An independent review of the zhuji, guizhou and shanghai_old rule sets.

Every expected value below was worked out by hand from the rule text (the
spec of each rule set, in our words in docs/rules.md) before the code was
run; the arithmetic is in the comments.  The hands favour items that
combine: several 台 / 番 items at once, caps, wildcard hands whose best
substitution is not the obvious one, settlements with several winners,
金鸡 / 银鸡 / 责任鸡 / 包鸡, 热炮 and 黄庄.
"""
from __future__ import annotations

import pytest

import mjfast
from mjfast import InvalidHand, rules
from mjfast.rules import guizhou, zhuji


def zj(**opts):
    return rules.get("zhuji", **opts)


# =====================================================================
# Zhuji (诸暨麻将)
# =====================================================================

def test_zhuji_full_flush_all_pungs_with_one_wild():
    # 5p wild, stands for the missing 9m: 111m 333m 555m 777m 9m9m.
    # 清一色 3 + 对对胡 1 = 4 (one 财神: no 三财神; a 财神 held: no 无财).
    s = mjfast.score("111m333m555m777m9m5p", rules=zj(wildcards="5p"), self_drawn=True)
    assert s.total == 4
    assert s.items == {"full_flush": 1, "all_pungs": 1}
    assert s.substitutions == (8,)                 # 9m
    # payout: each pays 2^(4-2) = 4, the winner gets 12
    assert s.settlement() == (12, -4, -4, -4)


def test_zhuji_three_wilds_best_substitution_is_all_chows():
    # real 234m 5678m 11m 99m + three 5p 财神 (the winning tile one of them).
    # Pair 11m: 234 567 + 8m 9m w(7m) = 789 + 9m w w(7m 8m) = 789 -> all chows:
    #   平胡 1 + 清一色 3 + 三财神 2 = 6, the 财神 standing for 7m 7m 8m.
    # Pair 99m needs 11m + w = 111m (a pung): 清一色 3 + 三财神 2 = 5 at best.
    # Using a 财神 as 888m / 999m likewise breaks 平胡.  Best: 6.
    s = mjfast.score("234m5678m11m99m5p5p5p", rules=zj(wildcards="5p"), self_drawn=True)
    assert s.total == 6
    assert s.items == {"all_chows": 1, "full_flush": 1, "three_wilds": 1}
    # several substitutions reach 6 (7m 7m 8m, or 1m 7m 8m: 11m + 123m 456m 789m 789m):
    # whichever is reported, the concrete hand it gives is all chows of one
    # suit, worth 平胡 1 + 清一色 3 = 4 without the 三财神
    assert len(s.substitutions) == 3 and all(t < 9 for t in s.substitutions)
    from mjfast.tiles import TILE_NAMES
    concrete = "234m5678m11m99m" + "".join(TILE_NAMES[t] for t in s.substitutions)
    c = mjfast.score(concrete, rules=zj(), self_drawn=True)
    assert c.total == 4 and c.items == {"all_chows": 1, "full_flush": 1}
    # 2^(6-2) = 16 each, the winner 48
    assert s.settlement() == (48, -16, -16, -16)
    # 三财神 "exactly": still three 财神 -> 6
    assert mjfast.score("234m5678m11m99m5p5p5p", rules=zj(wildcards="5p", three_wilds="exactly"),
                        self_drawn=True).total == 6


def test_zhuji_four_wilds_make_an_east_pung():
    # 123m 456m 789m S + four 5p 财神.  One 财神 pairs the S; the other three
    # make EEE (East 2): 东 2 + 混一色 1 + 三财神 2 = 5.  (All chows instead:
    # SS + a fourth chow of m: 平胡 1 + 混一色 1 + 三财神 2 = 4; SSS + a pair: 3.)
    s = mjfast.score("123m456m789mS5p5p5p5p", rules=zj(wildcards="5p"), self_drawn=True)
    assert s.total == 5
    assert s.items == {"east_pung": 1, "half_flush": 1, "three_wilds": 1}
    assert sorted(s.substitutions) == [27, 27, 27, 28]
    # 三财神 "exactly" three: four 财神 do not count; the best is then
    # EEE from three 财神 + SS: 东 2 + 混一色 1 = 3
    e = mjfast.score("123m456m789mS5p5p5p5p", rules=zj(wildcards="5p", three_wilds="exactly"),
                     self_drawn=True)
    assert e.total == 3


def test_zhuji_heavenly_hand_with_no_wild_max8_and_add8():
    # 中中中 发发发 123m 456m 7m7m, self-drawn, dealer's dealt hand (天胡).
    # Ordinary: 中 1 + 发 1 + 混一色 1 = 3 >= 3, so 天胡 counts.
    hand = "CCCFFF123m456m7m7m"
    # no 财神 named: no 无财. max8: max(8, 3) = 8; add8: 3 + 8 = 11.
    assert mjfast.score(hand, rules=zj(), self_drawn=True, heavenly_hand=True).total == 8
    assert mjfast.score(hand, rules=zj(special_mode="add8"), self_drawn=True, heavenly_hand=True).total == 11
    # a game with 财神 (5p), none held: 无财 qualifies too.
    # max8: the specials do not stack: 8.  add8: 3 + 8 + 8 = 19.
    s = mjfast.score(hand, rules=zj(wildcards="5p"), self_drawn=True, heavenly_hand=True)
    assert s.total == 8 and set(s.specials) == {"heavenly_hand", "no_wild"}
    assert mjfast.score(hand, rules=zj(wildcards="5p", special_mode="add8"), self_drawn=True,
                        heavenly_hand=True).total == 19
    # special_min_tai=4: ordinary 3 is short, neither counts: 3 台, a win (min 3)
    s = mjfast.score(hand, rules=zj(wildcards="5p", special_min_tai=4), self_drawn=True, heavenly_hand=True)
    assert s.total == 3 and s.specials == () and s.legal
    # 天胡 on a discard is not a thing: the flag is dropped, and the hand
    # is no legal win
    d = mjfast.score(hand, rules=zj(), heavenly_hand=True)
    assert "heavenly_hand" in d.ignored_flags and not d.legal


def test_zhuji_all_honors_needs_no_three_and_max8():
    # EEE 中中中 发发发 白白白 SS: 东 2 + 中发白 3 + 对对胡 1 = 6 ordinary;
    # 全字牌 8 -> max(8, 6) = 8; all_honors_tai=7 -> max(7, 6) = 7; add8: 6 + 8 = 14.
    hand = "EEECCCFFFPPPSS"
    assert mjfast.score(hand, rules=zj(), self_drawn=True).total == 8
    assert mjfast.score(hand, rules=zj(all_honors_tai=7), self_drawn=True).total == 7
    assert mjfast.score(hand, rules=zj(special_mode="add8"), self_drawn=True).total == 14
    # with a 财神 game and none held: 无财 too (ordinary 6 >= 3): add8 6 + 8 + 8 = 22
    assert mjfast.score(hand, rules=zj(wildcards="5p", special_mode="add8"), self_drawn=True).total == 22


def test_zhuji_ordinary_above_eight_beats_the_special():
    # [中中中中] concealed kong, 发发发 白白白, EE + three 5p 财神, self-drawn on
    # the kong's replacement tile.  Best: one 财神 -> EEE, two -> a pair.
    # 东 2 + 中发白 3 + 对对胡 1 + 三财神 2 + 杠开 1 = 9, and a pair of suit
    # tiles adds 混一色 1: 10 (first worked as 9: the review's own slip).
    # An honor pair instead makes 全字牌 (8): max(8, 9) = 9 < 10.
    s = mjfast.score("[CCCC]FFFPPPEE5p5p5p", rules=zj(wildcards="5p"), self_drawn=True, kong=True)
    assert s.ordinary == 10 and s.total == 10 and "half_flush" in s.items
    # add8: the honor pair's reading is 9 + 8 = 17 > 10.
    a = mjfast.score("[CCCC]FFFPPPEE5p5p5p", rules=zj(wildcards="5p", special_mode="add8"),
                     self_drawn=True, kong=True)
    assert a.total == 17


def test_zhuji_robbing_a_kong_payouts_and_dealer_repeat():
    # 中中中 发发发 123m 56p 9s9s, robbing the 4p: 中 1 + 发 1 + 抢杠 1 = 3, a win.
    hand = "CCCFFF123m56p9s9s4p"
    s = mjfast.score(hand, rules=zj(), kong=True)
    assert s.total == 3 and s.legal
    # paid like a self-drawn win: 2^(3-2) = 2 each, the winner 6
    assert s.settlement(konger=2) == (6, -2, -2, -2)
    k = mjfast.score(hand, rules=zj(rob_kong_payer="konger"), kong=True)
    assert k.settlement(konger=2) == (6, 0, -6, 0)
    # 老庄 x2, not compounding: two repeats still x2 -> (12, 0, -12, 0)
    assert k.settlement(konger=2, dealer_repeats=2) == (12, 0, -12, 0)
    # compounding: x2^2 = x4 -> (24, 0, -24, 0)
    c = mjfast.score(hand, rules=zj(rob_kong_payer="konger", dealer_repeat_compound=True), kong=True)
    assert c.settlement(konger=2, dealer_repeats=2) == (24, 0, -24, 0)
    # rob_kong_win=False: not a legal win, no payout
    n = mjfast.score(hand, rules=zj(rob_kong_win=False), kong=True)
    assert not n.legal
    with pytest.raises(ValueError):
        n.settlement(konger=2)


def test_zhuji_minimum_and_payout_function():
    # 东 2 only: 2 台, below the minimum of 3; a win with min_tai=2, each pays 2^0 = 1
    s = mjfast.score("EEE123m456p789s1s1s", rules=zj(), self_drawn=True)
    assert s.total == 2 and not s.legal
    with pytest.raises(ValueError):
        s.settlement()
    s2 = mjfast.score("EEE123m456p789s1s1s", rules=zj(min_tai=2), self_drawn=True)
    assert s2.legal and s2.settlement() == (3, -1, -1, -1)
    # payout(7): 2^5 = 32 each, the winner 96; in a 老庄 hand 64 / 192
    assert zhuji.payout(7) == (96, -32, -32, -32)
    assert zhuji.payout(7, dealer_repeats=1) == (192, -64, -64, -64)


def test_zhuji_min_tai_below_two_is_refused():
    # 2^(台-2) pays nothing whole below 2 台: a minimum of 0 or 1 would make
    # a hand "legal" that has no payout, so the option refuses it.
    for bad in (0, 1, -1):
        with pytest.raises(ValueError, match="min_tai"):
            zj(min_tai=bad)


# =====================================================================
# Guizhou (捉鸡麻将): hand patterns
# =====================================================================

def test_guizhou_patterns_with_bonuses():
    # 清龙对 30; self-drawn +1 = 31; 天听 adds 10 to a higher pattern: 40, self-drawn 41
    assert mjfast.score("11112233445566p", rules="guizhou").total == 30
    assert mjfast.score("11112233445566p", rules="guizhou", self_drawn=True).total == 31
    assert mjfast.score("11112233445566p", rules="guizhou", ready_at_start=True).total == 40
    assert mjfast.score("11112233445566p", rules="guizhou", ready_at_start=True, self_drawn=True).total == 41
    # 七对 of mixed suits: 10; 龙七对 (1111m): 20
    assert mjfast.score("1133m99m5577p22s5s5s", rules="guizhou").total == 10
    assert mjfast.score("1111m2233p445566s", rules="guizhou").total == 20
    # 清大对: three melded m pungs + 444m + 5m5m won on the pair; not 单吊
    # (three melds only): 15
    assert mjfast.score("[111m1][222m2][333m3]444m5m5m", rules="guizhou").total == 15


def test_guizhou_single_wait_with_pungs():
    # 金钩钓: four melded pungs of mixed suits, won on the pair: 单吊 10 (大对子 5 too:
    # highest -> 10; "sum" -> 15)
    h = "[111m1][222p2][333s3][444m1]5m5m"
    assert mjfast.score(h, rules="guizhou").total == 10
    assert mjfast.score(h, rules=rules.get("guizhou", single_wait_with_pungs="sum")).total == 15
    # one suit: 清单吊 20 (清大对 15 is lower); "sum": 清单吊 20 + 大对子 5 = 25
    f = "[111m1][222m2][333m3][444m1]5m5m"
    assert mjfast.score(f, rules="guizhou").total == 20
    assert mjfast.score(f, rules=rules.get("guizhou", single_wait_with_pungs="sum")).total == 25


def test_guizhou_pass_rule_and_its_exceptions():
    plain = "345m678p789s55s23m4m"
    s = mjfast.score(plain, rules="guizhou")
    assert s.total == 1 and not s.legal            # 平胡 without a kong
    # 热炮: no pass needed
    assert mjfast.score(plain, rules="guizhou", discard_after_kong=True).legal
    # 抢杠 (kong on a discard win): no pass, scored as self-drawn: 1 + 1 = 2.
    # Robbing needs a winning tile held nowhere else (the konger holds the
    # other three): on the 4m of 345m 234m it is dropped, on a 1m it holds.
    assert "kong" in mjfast.score(plain, rules="guizhou", kong=True).ignored_flags
    r = mjfast.score("345m678p789s55s23m1m", rules="guizhou", kong=True)
    assert r.legal and r.total == 2
    # a concealed kong is the pass; self-drawn on its replacement tile:
    # 平胡 1 + 自摸 1 + 杠开 1 = 3
    k = mjfast.score("[2222m]345m678p789s5s5s", rules="guizhou", self_drawn=True, kong=True)
    assert k.legal and k.total == 3


# =====================================================================
# Guizhou: settlements
# =====================================================================

def test_guizhou_golden_chicken_self_drawn():
    # seat 1 wins self-drawn a 平胡 with a 闷豆 of 2m and a pair of 1s.
    # flipped 9s: the chicken is 1s itself (9 wraps to 1): 金鸡, every 1s worth 2.
    # seat 3 discarded the first 1s (冲锋鸡, left on the table) and is not ready.
    game = dict(
        hands=["1479m2458p3469s5m", "[2222m]345m678p789s1s1s", "1368m1369p2456s7m", "3568m23679p2568s"],
        winners=[1], discarder=None, discards=[[], [], [], ["1s"]], first_chicken=3, flipped="9s")
    st = guizhou.settle(game)
    # pattern: 平胡 1 + 自摸 1 = 2 from each of seats 0, 2, 3 -> seat 1 +6
    # kong: 闷豆 3 from each -> +9
    # chickens: seat 1 holds two 1s x2 = 4 from each (+12, the others -4);
    #   seat 3's 冲锋鸡: 2 x2 (金鸡) = 4 from each (+12, the others -4)
    # 包鸡: seat 3 not ready: pays the winner 1 x2 = 2
    # seat 0: -2 -3 -4 -4 = -13; seat 1: 6 + 9 + 12 - 4 + 2 = 25;
    # seat 2: -13; seat 3: -2 -3 -4 + 12 - 2 = 1.  Sum 0.
    assert st.golden
    assert st.totals == (-13, 25, -13, 1)


def test_guizhou_two_winners_responsibility_and_silver_chicken():
    # seat 2 discards 5s; seats 0 (平胡, its 闷豆 2m the pass) and 1 (七对) win on it.
    # seat 3 discarded the first 1s; seat 2 ponged it: a 责任鸡 held by seat 2, not ready.
    # flipped 9p: 1p is a chicken, 银鸡 (2); seat 3 holds a 1p.
    game = dict(
        hands=["[2222m]345m678p789s5s5s", "1133m99m5577p22s5s5s", "[111s3]3579m2468p36s", "1459p1468m24789s"],
        winners=[0, 1], discarder=2, discards=[[], [], [], ["3p"]],
        first_chicken=3, first_chicken_claimed_by=2, flipped="9p")
    st = guizhou.settle(game)
    # pattern: seat 2 pays seat 0 1 and seat 1 10
    # kong: seat 0's 闷豆: 3 from each of seats 1, 2, 3
    # chickens: seat 2's three 1s: 3 from each other player; 责任鸡: seat 3 pays seat 2 1 more;
    #   seat 3's 1p (银鸡): 2 from each other player
    # 包鸡: the 冲锋鸡 became a 责任鸡 whose holder (seat 2) is not ready: seat 2
    #   pays each winning or ready player 1 (seats 0 and 1)
    # seat 0: 1 + 9 - 3 - 2 + 1 = 6; seat 1: 10 - 3 - 3 - 2 + 1 = 3
    # seat 2: -11 - 3 + 9 + 1 - 2 - 2 = -8; seat 3: -3 - 3 - 1 + 6 = -1.  Sum 0.
    assert st.totals == (6, 3, -8, -1)
    br = st.by_reason()
    assert br["pattern"] == (1, 10, -11, 0)
    assert br["responsibility_chicken"] == (0, 0, 1, -1)


HOT = dict(
    hands=["1579m1459p34689s", "345m678p789s55s23m4m", "1279m12489p2467s", "[3333p]2469m7p11258s"],
    winners=[1], discarder=3, discards=[[], [], [], []], flipped="5m", hot_kong="3p")


def test_guizhou_hot_discard():
    # seat 3 konged 3p (闷豆) and its next discard, 4m, dealt in to seat 1's 平胡
    # (no pass needed on 热炮).  Chickens: 1s and 6m (flipped 5m).
    # 热炮: seat 3's 豆 and its 鸡 (1s 1s 6m) score nothing.  Nobody else holds a chicken.
    # pattern: seat 3 pays 1.  Totals (0, 1, 0, -1).
    assert guizhou.settle(HOT).totals == (0, 1, 0, -1)
    # 热炮赔分: the discarder also pays the winner its kong's value, 9 for a 闷豆
    assert guizhou.settle(HOT, hot_discard_pays_kong=True).totals == (0, 10, 0, -10)
    # without the 热炮 rule the 平胡 has no pass: the record cannot be
    with pytest.raises(ValueError):
        guizhou.settle(HOT, hot_discard=False)


def test_guizhou_drawn_game_best_and_worst_wait():
    # nobody wins.  Seat 0 is ready: [5555m] 222p 888s 3334m waits 4m (333m 44m: 大对子 5)
    # or 2m / 5m (234m or 345m with 33m: 平胡 1, the kong its pass).
    # The others are not ready and pay seat 0 each: 5 (best wait) or 1 (worst).
    # No 豆, no 鸡 in a drawn game (the 闷豆 and seat 3's 1s pay nothing).
    game = dict(
        hands=["[5555m]222p888s3334m", "1479m1369p2457s8p", "2678m1457p34699s", "169m23568p11s378s"],
        winners=[], discards=[[], [], [], []])
    assert guizhou.settle(game).totals == (15, -5, -5, -5)
    assert guizhou.settle(game, drawn_game_value="worst_wait").totals == (3, -1, -1, -1)
    assert guizhou.settle(game, drawn_game_payment=False).totals == (0, 0, 0, 0)


# =====================================================================
# old Shanghai 番/和
# =====================================================================

def sh(**opts):
    return rules.get("shanghai_old", **opts)


def test_shanghai_self_drawn_dragon_pair_wait():
    # concealed chows 123m 456m 789p 234s, won self-drawn on the 中 of the pair:
    # 和: 番牌对 2 + 自摸 2 + 麻将头 2 = 6 (the rule text's own 2 + 2 + 2 = 6).
    # 番: 不求人 2 (three suits and a dragon: no 五门齐, no 缺一门; 123m 456m are one suit: no 混龙).
    # (6 + 20) x 2^2 = 104 -> rounded up 110.
    s = mjfast.score("123m456m789p234sCC", rules="shanghai_old", self_drawn=True)
    assert (s.he, s.fan, s.raw, s.total) == (6, 2, 104, 110)
    # everyone pays the total on a self-drawn win
    assert s.settlement() == (330, -110, -110, -110)


def test_shanghai_cap_and_its_options():
    # 中 and 发 melded pungs, 123m 456m, won on the 白 pair from a discard.
    # 和: 4 + 4 (melded dragon pungs) + 2 (番牌对) + 2 (麻将头) = 12.
    # 番: 箭刻 x2 = 2, 小三元 1, 混一色 1 = 4.  (12 + 20) x 16 = 512 -> capped 500.
    h = "[CCC1][FFF2]123m456mPP"
    s = mjfast.score(h, rules="shanghai_old")
    assert (s.he, s.fan, s.raw, s.total) == (12, 4, 512, 500) and s.capped
    assert mjfast.score(h, rules=sh(cap=False)).total == 520          # 512 rounded up
    assert mjfast.score(h, rules=sh(base=10)).total == 360            # 22 x 16 = 352 -> 360
    # the rule text's example: a 50-和 hand with 4 番 is 800, capped at 500
    assert mjfast.score(h, rules=sh(base=38)).total == 500
    assert mjfast.score(h, rules=sh(base=38, cap=False)).total == 800
    assert mjfast.score(h, rules=sh(round_to=1, cap=False)).total == 512


def test_shanghai_limit_hand_uncapped_keeps_the_larger():
    # 大三元 melded, 123m, won on the 5m pair: a limit hand: 500.
    # Uncapped: its own figure: 和 4 x 3 + 麻将头 2 = 14, 番 箭刻 3 + 混一色 1 = 4:
    # (14 + 20) x 16 = 544 -> 550 > 500: 550.
    h = "[CCC1][FFF2][PPP3]123m5m5m"
    s = mjfast.score(h, rules="shanghai_old")
    assert s.total == 500 and "big_three_dragons" in s.limit_hand
    assert mjfast.score(h, rules=sh(cap=False)).total == 550


def test_shanghai_double_wind():
    # East seat, East round: a melded East pung is 4 和 and 2 番 (seat + round).
    # 和: 4 + 麻将头 2 = 6; 番: 2 + 混龙 1 (123m 456p 789s) = 3.
    # (6 + 20) x 8 = 208 -> 210; double_wind=False: 2 番: 104 -> 110.
    h = "[EEE1]123m456p789s5s5s"
    assert mjfast.score(h, rules="shanghai_old", seat_wind="E", round_wind="E").total == 210
    assert mjfast.score(h, rules=sh(double_wind=False), seat_wind="E", round_wind="E").total == 110


def test_shanghai_two_wilds_pick_the_dragon_pung():
    # real 123m 456p 789s 中中 E, two 百搭, self-drawn, won on the E; seat S, round W.
    # a) 百搭 -> 中 and E: 中中中 坎 8 + EE pair (E no value) 0 + 自摸 2 + 麻将头 2 = 12 和;
    #    番: 箭刻 1 + 不求人 2 + 五门齐 1 + 混龙 1 = 5.  (12 + 20) x 32 = 1024.
    # b) 百搭 -> E E: EEE 坎 8 + 中中 pair 2 + 自摸 2 = 12 和 (the E completes the pung,
    #    no 麻将头); 番 2 + 1 + 1 = 4: 512.  a) is larger.
    rs = sh(cap=False)
    s = mjfast.score("123m456p789sCCE", rules=rs, wildcards=2, self_drawn=True, seat_wind="S",
                     round_wind="W")
    assert (s.he, s.fan, s.raw, s.total) == (12, 5, 1024, 1030)
    assert sorted(s.substitutions) == [27, 31]


def test_shanghai_two_dragons_and_the_pearl_stacks():
    # 123m 789m 123s 789s, won on the 1p pair from a discard.  No exclusions:
    # 双龙抢球 3 + 老少和 2 (strict: every set 123/789, the pair a terminal) + 清带幺 2 = 7 番.
    # 和: 麻将头 2 (a pair of 1p has no value).  (2 + 20) x 2^7 = 2816 -> 2820 uncapped; 500 capped.
    h = "123m789m123s789s1p1p"
    s = mjfast.score(h, rules=sh(cap=False))
    assert (s.he, s.fan, s.raw, s.total) == (2, 7, 2816, 2820)
    assert mjfast.score(h, rules="shanghai_old").total == 500


# =====================================================================
# Guizhou: robbing a kong, 豆全包, 鸡全包
# =====================================================================

ROB = dict(
    hands=["345m789s123s99m45p6p", "1468m2479p25689s", "[666p1]2479m1358p17s", "2567m23899p3446s"],
    winners=[0], discarder=2, robbed=True, discards=[[], [], [], []], flipped="2m")


def test_guizhou_robbing_a_kong():
    # seat 2 adds its 4th 6p to its pung (爬坡豆); seat 0 robs it: 平胡 with no pass,
    # scored as self-drawn (1 + 1 = 2); the konger pays for all three: 6.  The robbed kong
    # stays a pung and scores nothing.  Chickens 1s and 3m (flipped 2m): seat 0 holds
    # 1s and 3m (2 from each), seat 2 holds a 1s (1 from each).
    # seat 0: 6 + 6 - 1 = 11; seat 1: -2 - 1 = -3; seat 2: -6 - 2 + 3 = -5; seat 3: -3.
    assert guizhou.settle(ROB).totals == (11, -3, -5, -3)
    # 抢杠烧鸡: seat 2's chicken scores nothing: (12, -2, -8, -2)
    assert guizhou.settle(ROB, rob_burns_chickens=True).totals == (12, -2, -8, -2)
    # the konger pays pattern + 1 once: seat 0 2 + 6 - 1 = 7, seat 2 -2 - 2 + 3 = -1
    assert guizhou.settle(ROB, rob_kong_payment="one").totals == (7, -3, -1, -3)


LIABLE = dict(
    hands=["1469m13468p2469s", "[2222p]345m678p789s5s5s", "1133m5599p2266s8s", "[7777m1]2358m367p349s"],
    winners=[1], discarder=None, discards=[[], [], [], ["1s", "1s"]], first_chicken=3, flipped="4s")


def test_guizhou_all_kongs_and_all_chickens_liable():
    # seat 1 wins self-drawn (平胡, its 闷豆 2p the pass); seat 2 is ready (七对 on 8s);
    # seat 3 is not ready, holds a 接豆 of 7m fed by seat 2, and discarded two 1s,
    # the first the 冲锋鸡.  Flipped 4s: 5s is a chicken (seat 1 holds two).
    # pattern 2 from each (+6); seat 1's 闷豆 3 from each (+9); seat 2 feeds seat 3's 接豆 3;
    # seat 1's chickens 2 from each; seat 3's 1s: 冲锋鸡 2 + 1 = 3 from each;
    # 包鸡: seat 3 pays seats 1 and 2 1 each.
    # seat 0: -2 - 3 - 2 - 3 = -10; seat 1: 6 + 9 + 6 - 3 + 1 = 19;
    # seat 2: -2 - 3 - 3 - 2 - 3 + 1 = -12; seat 3: -2 - 3 + 3 - 2 + 9 - 2 = 3.
    assert guizhou.settle(LIABLE).totals == (-10, 19, -12, 3)
    # 豆全包: seat 3 (not ready) pays its 接豆's 3 back to its feeder, seat 2 (ready)
    assert guizhou.settle(LIABLE, all_kongs_liable=True).totals == (-10, 19, -9, 0)
    # 鸡全包 (instead of 包鸡): seat 3's exposed 1s: the 冲锋鸡 2 + the other 1 = 3 to each
    # winning or ready player (seats 1 and 2): seat 1 21, seat 2 -10, seat 3 -1
    assert guizhou.settle(LIABLE, all_chickens_liable=True).totals == (-10, 21, -10, -1)
    assert guizhou.settle(LIABLE, all_chickens_liable=True, all_kongs_liable=True).totals == (-10, 21, -7, -4)


# =====================================================================
# Robustness: bad input raises ValueError / TypeError naming the problem
# =====================================================================

def test_settle_refuses_bad_totals_and_flags():
    for name in ("zhuji", "guizhou", "shanghai_old", "mcr", "two_player"):
        rs = rules.get(name)
        for args, exc in [((1.5, True), TypeError), (("8", True), TypeError), ((-3, True), ValueError),
                          ((8, "no"), TypeError), ((8, False, 1.0), TypeError), ((True, True), TypeError)]:
            with pytest.raises(exc, match="settle"):
                rs.settle(*args)
    with pytest.raises(TypeError, match="self_drawn"):
        zhuji.payout(4, self_drawn="no")
    with pytest.raises(TypeError, match="konger"):
        zhuji.payout(4, self_drawn=False, konger=1.0)


_GARBAGE = [None, -1, 0, 1, 2, 3, 7, 99, 10 ** 30, 1.5, float("nan"), "", "x", "5p", "5p7p", "E", b"1m",
            [], [1], ["Z"], [99], {}, {"a": 1}, (), object(), True, False]


def _fuzz_args(rng):
    return {k: rng.choice(_GARBAGE) for k in rng.sample(
        ["self_drawn", "kong", "last_tile", "fourth_tile", "seat_wind", "round_wind", "flowers",
         "wildcards", "wildcard_tiles", "heavenly_hand", "earthly_hand", "ready_at_start",
         "discard_after_kong", "declared_ready", "wild_win", "strict"], rng.randint(0, 4))}


N_FUZZ = 3000


def test_fuzz_rule_sets_raise_clearly():
    import random
    rng = random.Random(12)
    hands = ["123m456p789s123s5s5s", "EEECCC123m789m5m5m", "11112233445566p", "[CCC1][FFF2]123m456mPP",
             "123m456p789sCCE", "", "1m", "ZZZ", "[1111m]" * 5, 7, None, b"123m"]
    opts = {"zhuji": ["wildcards", "min_tai", "special_mode", "three_wilds", "dealer_repeat_multiplier",
                      "all_honors_tai", "wild_adjacency"],
            "guizhou": ["single_wait", "self_drawn_bonus", "concealed_chicken_kong", "golden_chicken",
                        "drawn_game_value"],
            "shanghai_old": ["base", "limit", "cap", "round_to", "flower_he", "payment", "double_wind"]}
    for _ in range(N_FUZZ):
        name = rng.choice(list(opts))
        what = rng.randrange(4)
        try:
            if what == 0:
                rs = rules.get(name)
                res = mjfast.score(rng.choice(hands), rules=rs, **_fuzz_args(rng))
                assert isinstance(res.total, int) and res.total >= 0
            elif what == 1:
                rules.get(name, **{rng.choice(opts[name]): rng.choice(_GARBAGE)})
            elif what == 2:
                out = rules.get(name).settle(rng.choice(_GARBAGE), rng.choice(_GARBAGE), rng.choice(_GARBAGE))
                assert sum(out) == 0
            else:
                game = {k: rng.choice(_GARBAGE + [["1m"] * 4, [0], [[], [], [], []]])
                        for k in rng.sample(["hands", "winners", "discarder", "dealer", "discards", "flipped",
                                             "first_chicken", "hot_kong", "robbed", "late_kongs"],
                                            rng.randint(0, 5))}
                if rng.random() < 0.5:
                    game["hands"] = ["1479m2458p3469s5m", "[2222m]345m678p789s1s1s", "1368m1369p2456s7m",
                                     "3568m23679p2568s"]
                    game.setdefault("winners", [1])
                st = guizhou.settle(game)
                assert sum(st.totals) == 0
        except (ValueError, TypeError) as exc:
            assert str(exc), "an error without a message"


def test_zhuji_wildcard_kinds_checked_when_set():
    # two 财神 kinds must be adjacent under wild_adjacency: refused when the
    # option is set, not only at the first score()
    with pytest.raises(ValueError, match="not adjacent"):
        zj(wildcards="5p7p")
    with pytest.raises(ValueError, match="not adjacent"):
        zj(wildcards="9m1p")                       # ranks 9 and 1 of different suits
    ok = zj(wildcards="ES", wild_adjacency="suit_and_honors")
    with pytest.raises(ValueError, match="not adjacent"):
        ok.with_options(wild_adjacency="suit")
    # payout arguments far beyond any hand are refused, not computed
    with pytest.raises(ValueError, match="台"):
        zhuji.payout(10 ** 6)
    with pytest.raises(ValueError, match="dealer_repeats"):
        zhuji.payout(4, dealer_repeats=10 ** 6, rules=zj(dealer_repeat_compound=True))


def test_settle_functions_called_directly():
    from mjfast.rules import shanghai
    with pytest.raises(TypeError, match="RuleSet"):
        guizhou.settle_pattern(None, 3, False, 1)
    with pytest.raises(TypeError, match="RuleSet"):
        shanghai.settle_shanghai(rules.get("guizhou"), 3, True)
    with pytest.raises(TypeError, match="total"):
        guizhou.settle_pattern(rules.get("guizhou"), 1.5, True)
