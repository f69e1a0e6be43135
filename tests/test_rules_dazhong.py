"""dazhong (大众麻将), worked by hand: every 不计 entry of the 大众 rule page
that is fuller than the reference calculator's (the rule-spec table of
disputed exclusion lists, "Seed 000 says" against "Reference does"), and the
settlement of a win below MCR's minimum.

Each case gives the fans MCR scores (the reference's lists), then the fan the
page's fuller list also removes.  Unless stated: a discard win, seat and
prevalent wind East, no flowers; the last tile is the winning tile.
"""
import pytest

import mjfast
from mjfast import rules as R


def fans(s):
    return {f.key: f.count for f in s.fans}


def pts(d):
    return sum(R.MCR[k].points * c for k, c in d.items())


CASES = [
    # 一色四同顺 (Quadruple Chow).  Page: 不计一色三节高、一般高、四归一、一色三同顺、缺一门.
    # The reference keeps One Voided Suit.  123m x4 + 5p pair, won on 5p (the
    # only wait: Single Wait).  Quadruple Chow 48 + Concealed Hand 2 + All
    # Chows 2 (which excludes No Honors) + One Voided Suit 1 (no bamboo) +
    # Single Wait 1 = 54; dazhong drops One Voided Suit: 53.
    ("quadruple_chow", "123m123m123m123m5p5p", {},
     {"quadruple_chow": 1, "concealed_hand": 1, "all_chows": 1, "one_voided_suit": 1, "single_wait": 1},
     ("one_voided_suit",), 54, 53),
    # 一色四节高 (Four Pure Shifted Pungs).  Page: 不计一色三同顺、一色三节高、碰碰和、缺一门.
    # 111 222 333 444m + 5p pair won on 5p.  Four Concealed Pungs 64 (no
    # All Pungs, no Concealed Hand) + Four Pure Shifted Pungs 48 + Pung of
    # Terminals or Honors 1 (111m) + One Voided Suit 1 + No Honors 1 + Single
    # Wait 1 = 116.  dazhong drops One Voided Suit (this entry) and the Single
    # Wait (四暗刻: "放炮和牌不计单钓将", a discard win): 114.
    ("four_pure_shifted_pungs", "111m222m333m444m5p5p", {},
     {"four_concealed_pungs": 1, "four_pure_shifted_pungs": 1, "pung_of_terminals_or_honors": 1,
      "one_voided_suit": 1, "no_honors": 1, "single_wait": 1},
     ("one_voided_suit", "single_wait"), 116, 114),
    # 一色四步高 (Four Pure Shifted Chows).  Page: 不计一色三步高、缺一门、连六.
    # 123 234 345 456m + 9p pair won on 9p (the only wait).  Four Pure
    # Shifted Chows 32 (no Short Straight, no Two Terminal Chows) + Concealed
    # Hand 2 + All Chows 2 + One Voided Suit 1 + Single Wait 1 = 38; dazhong 37.
    ("four_pure_shifted_chows", "123m234m345m456m9p9p", {},
     {"four_pure_shifted_chows": 1, "concealed_hand": 1, "all_chows": 1, "one_voided_suit": 1,
      "single_wait": 1},
     ("one_voided_suit",), 38, 37),
    # 三风刻 (Big Three Winds).  Page: 不计缺一门.  EEE SSS WWW 123m + 4p pair
    # won on 4p.  Three Concealed Pungs 16 + Big Three Winds 12 (its three
    # pungs score no Pung of Terminals or Honors) + Prevalent Wind 2 + Seat
    # Wind 2 (EEE, both East) + Concealed Hand 2 + One Voided Suit 1 + Single
    # Wait 1 = 36; dazhong 35.
    ("big_three_winds", "EEESSSWWW123m4p4p", {},
     {"three_concealed_pungs": 1, "big_three_winds": 1, "prevalent_wind": 1, "seat_wind": 1,
      "concealed_hand": 1, "one_voided_suit": 1, "single_wait": 1},
     ("one_voided_suit",), 36, 35),
    # 小三元 (Little Three Dragons).  Page: 不计箭刻、双箭刻、缺一门.  CCC FFF
    # PP 123m 78p + 9p.  Little Three Dragons 64 + Outside Hand 4 (every set
    # holds a terminal or honor) + Concealed Hand 2 + Two Concealed Pungs 2 +
    # One Voided Suit 1 = 73 (78p waits on 6p and 9p: no wait fan); dazhong 72.
    ("little_three_dragons", "CCCFFFPP123m78p9p", {},
     {"little_three_dragons": 1, "outside_hand": 1, "concealed_hand": 1, "two_concealed_pungs": 1,
      "one_voided_suit": 1},
     ("one_voided_suit",), 73, 72),
    # 四暗刻 (Four Concealed Pungs).  Page: "放炮和牌不计单钓将": on a discard,
    # no Single Wait.  The reference scores it when the wait was unique (the
    # rule spec's ruling on seed 000's examples, which leave it out).  111m
    # 222p 333s 444m + EE won on E: Four Concealed Pungs 64 + Mixed Shifted
    # Pungs 8 (1-2-3 across the suits) + Pung of Terminals or Honors 1 (111m)
    # + Single Wait 1 = 74; dazhong 73.
    ("four_concealed_pungs", "111m222p333s444mEE", {},
     {"four_concealed_pungs": 1, "mixed_shifted_pungs": 1, "pung_of_terminals_or_honors": 1,
      "single_wait": 1},
     ("single_wait",), 74, 73),
    # 九莲宝灯 (Nine Gates).  Page: 不计清一色、不求人、门前清、幺九刻.  The
    # reference removes only one Pung of Terminals or Honors.  Won on 2m the
    # best reading is 111 22 345 678 999m: Nine Gates 88 + Two Concealed
    # Pungs 2 + Short Straight 1 (345 678) + Pung of Terminals or Honors 1
    # (the second of 111m / 999m) = 92; dazhong drops 幺九刻 whole: 91.
    ("nine_gates", "1112345678999m2m", {},
     {"nine_gates": 1, "two_concealed_pungs": 1, "short_straight": 1, "pung_of_terminals_or_honors": 1},
     ("pung_of_terminals_or_honors",), 92, 91),
]


@pytest.mark.parametrize("by,hand,ctx,mcr_fans,gone,mcr_total,dz_total", CASES, ids=[c[0] for c in CASES])
def test_dazhong_extra_exclusion_worked(by, hand, ctx, mcr_fans, gone, mcr_total, dz_total):
    assert pts(mcr_fans) == mcr_total                      # the arithmetic of the comment
    a = mjfast.score(hand, **ctx)
    assert fans(a) == mcr_fans and a.total == mcr_total
    dz_fans = {k: v for k, v in mcr_fans.items() if k not in gone}
    assert pts(dz_fans) == dz_total
    b = mjfast.score(hand, rules="dazhong", **ctx)
    assert fans(b) == dz_fans and b.total == dz_total and by in fans(b)
    assert mjfast.score_batch([dict(hand=hand, **ctx)], rules="dazhong").totals[0] == dz_total


def test_dazhong_four_concealed_pungs_self_drawn_keeps_single_wait():
    # "放炮和牌不计单钓将" names the discard win only.  Self-drawn: Four
    # Concealed Pungs 64 + Mixed Shifted Pungs 8 + Pung of T/H 1 + Single Wait
    # 1 + Self-Drawn 1 = 75 under both (Fully Concealed Hand is not scored
    # beside Four Concealed Pungs: 不求人 is in its list; Self-Drawn stays).
    want = {"four_concealed_pungs": 1, "mixed_shifted_pungs": 1, "pung_of_terminals_or_honors": 1,
            "single_wait": 1, "self_drawn": 1}
    for rs in ("mcr", "dazhong"):
        s = mjfast.score("111m222p333s444mEE", self_drawn=True, rules=rs)
        assert fans(s) == want and s.total == pts(want) == 75


def test_dazhong_little_four_winds_voided_suit_cannot_occur():
    # 小四喜: the page adds 缺一门 to its list, but three wind pungs, a wind
    # pair and one set leave room for one suit only: the hand is a Half
    # Flush, never One Voided Suit, so dazhong scores it as MCR does.
    # EEE SSS WWW NN 12m + 3m (edge, the only wait): Little Four Winds 64 (no
    # Big Three Winds, no Pung of T/H on the winds) + Three Concealed Pungs
    # 16 + Half Flush 6 + Outside Hand 4 (123m holds a terminal, every other
    # set is honors) + Prevalent Wind 2 + Seat Wind 2 + Concealed Hand 2 +
    # Edge Wait 1 = 97.
    want = {"little_four_winds": 1, "half_flush": 1, "three_concealed_pungs": 1, "prevalent_wind": 1,
            "seat_wind": 1, "concealed_hand": 1, "edge_wait": 1, "outside_hand": 1}
    a, b = mjfast.score("EEESSSWWWNN12m3m"), mjfast.score("EEESSSWWWNN12m3m", rules="dazhong")
    assert fans(a) == fans(b) == want and a.total == b.total == pts(want) == 97


def test_dazhong_settles_a_low_win():
    # No minimum (推倒胡): melded 123m and 456m, 789p 11s 23p + 4p.  All
    # Chows 2 + Short Straight 1 (123m 456m) = 3; 23p waits on 1p and 4p: no
    # wait fan.  Under MCR it cannot be declared (3 < 8); under dazhong it can.
    h = "[123m1][456m1]789p11s23p4p"
    s = mjfast.score(h, rules="dazhong", flowers=2)
    assert fans(s) == {"all_chows": 1, "short_straight": 1, "flower_tiles": 2}
    assert s.total == 5 and s.points_without_flowers == 3 and s.is_legal_win
    assert not mjfast.score(h, flowers=2).is_legal_win
    # The page gives no settlement: MCR's.  F = 5 (flowers count once the hand
    # has won).  The opposite player (2) discarded: pays 8 + 5 = 13, the other
    # two 8 each, the winner gains 13 + 8 + 8 = 29.
    assert s.settlement(discarder=2) == (29, -8, -13, -8)
    # Self-drawn adds Self-Drawn 1 (a melded hand: no Fully Concealed Hand):
    # F = 6, each of the three pays 14, the winner gains 42.
    t = mjfast.score(h, rules="dazhong", flowers=2, self_drawn=True)
    assert t.total == 6 and t.settlement() == (42, -14, -14, -14)
    assert R.get("dazhong").settle(6, True) == (42, -14, -14, -14)
    # The lowest possible dazhong win: a hand with no fan at all scores
    # Chicken Hand 8, so no win settles at 0 (melded 234m 456p 678s, 555m,
    # EE pair won on 5m, seat and prevalent wind South so EE is no wind fan).
    c = mjfast.score("[234m1][456p1][678s1]EE55m5m", rules="dazhong", seat_wind="S", round_wind="S")
    assert fans(c) == {"chicken_hand": 1} and c.total == 8
    assert c.settlement(discarder=1) == (32, -16, -8, -8)
