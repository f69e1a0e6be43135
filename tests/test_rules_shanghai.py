"""Old Shanghai 番/和 scoring (rules="shanghai_old"), and the rule-set hook
it uses (RuleSet.score_fn: a rule set that scores hands on its own)."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import rules as R
from mjfast.rules.base import RuleSet
from mjfast.score import FanResult


# -- the hook: RuleSet.score_fn ------------------------------------------------

class _Toy:
    """A result with the reading API the batch path uses."""

    def __init__(self, total, fans, ignored):
        self.total, self.fans, self.ignored_flags = total, fans, ignored


def _toy_score(hand, rs, ctx, flags, strict, wild):
    h = mjfast.parse_hand(hand) if isinstance(hand, str) else hand
    if not mjfast.is_win(h.counts, melds=len(h.melds), wildcards=wild["wildcards"]):
        raise mjfast.NotWinning("toy: not winning")
    # the total says what reached the hook: self-drawn, seat wind, a keyword flag, wildcards
    total = 100 + 10 * ctx["self_drawn"] + int(ctx["seat_wind"] in ("S", 1)) + 1000 * bool(flags.get("heavenly_hand"))
    total += 10000 * (wild["wildcards"] or 0)
    ignored = {"kong": "toy: no kong fan"} if ctx["kong"] else {}
    return _Toy(total, [FanResult("Toy", "玩具", total, 1, "toy", 1)], ignored)


def _toy():
    from mjfast.rules.mcr import FanTable, Fan
    table = FanTable((Fan(1, "toy", "Toy", "玩具", 1, (), definition="toy"),), name="toy")
    return RuleSet(name="toy", title="toy", table=table, engine="toy", score_fn=_toy_score)


def test_score_fn_hook_single_hand():
    toy = _toy()
    assert mjfast.score("123m456m789m123p5p5p", rules=toy).total == 100
    assert mjfast.score("123m456m789m123p5p5p", rules=toy, self_drawn=True, seat_wind="S").total == 111
    assert mjfast.score("123m456m789m123p5p5p", rules=toy, heavenly_hand=True).total == 1100
    assert mjfast.score("123m456m789m123p5p", rules=toy, wildcards=1).total == 10100
    with pytest.raises(mjfast.NotWinning):
        mjfast.score("123m456m789m123p5p6p", rules=toy)


def test_score_fn_hook_batch_row_by_row():
    toy = _toy()
    recs = [{"hand": "123m456m789m123p5p5p"}, {"hand": "123m456m789m123p5p5p", "self_drawn": True},
            {"hand": "123m456m789m123p5p6p"}, {"hand": "123m456m789m123p5p5p", "kong": True}]
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs), rules=toy)
    assert res.totals.tolist()[:2] == [100, 110] and res.errors.tolist()[:3] == [0, 0, 2]
    assert res.ignored_flags(3) == {"kong": "toy: no kong fan"}
    strict = mjfast.score_batch(mjfast.HandBatch.from_records(recs), rules=toy, strict=True)
    assert strict.errors[3] != 0 and "toy: no kong fan" in strict.error_message(3)


# -- shanghai_old ------------------------------------------------------------------
#
# Defaults: base 20, rounding up to 10, limit 500 with the cap, a wind that is
# both seat and round counts twice, 缺一门 scores.  Most hands below use seat
# South and round West, so that East and North are plain winds (幺九 class)
# and South / West are value tiles.  Total = ceil10((和 + 20) x 2^番), <= 500.

SW = dict(seat_wind="S", round_wind="W")


def sc(hand, rules="shanghai_old", **kw):
    return mjfast.score(hand, rules=rules, **kw)


def items(s):
    return {f.key: f.count for f in s.fans}


# (id, hand, context and options, total, the items scored).  Each comment works
# the figure out from the rule text (docs/rules.md, "shanghai_old").
CASES = [
    # 五门齐: 123m 456p 789s (混龙, 1 番) EEE (plain wind, concealed: 8 和) CC (dragon pair 2 和),
    # won on C (pair wait 2 和).  和 12, 番 2: (12 + 20) x 4 = 128 -> 130.
    ("five_groups", "123m456p789sEEECC", SW, 130,
     {"five_groups": 1, "mixed_straight": 1, "concealed_pung_terminals": 1, "pair_value": 1, "pair_wait": 1}),
    # 缺一门 (no bamboo): 和 = pair wait 2; 1 番: 22 x 2 = 44 -> 50.
    ("missing_suit", "123m456m789p234pNN", SW, 50, {"missing_suit": 1, "pair_wait": 1}),
    # the same with missing_suit_scores=False: 22 -> 30.
    ("missing_suit_off", "123m456m789p234pNN", dict(SW, opts=dict(missing_suit_scores=False)), 30,
     {"pair_wait": 1}),
    # 小三元: CCC FFF concealed (8 + 8 和, 1 番 each), PP (2 和), pair wait 2; 小三元 1 番, 混一色 1 番.
    # 和 20, 番 4: 40 x 16 = 640, uncapped here (the cap is tested below).
    ("little_three_dragons", "CCCFFF123m456mPP", dict(SW, opts=dict(cap=False)), 640,
     {"little_three_dragons": 1, "dragon_pung": 2, "half_flush": 1, "concealed_pung_value": 2,
      "pair_value": 1, "pair_wait": 1}),
    # 三节拉（混）: concealed 111p (8 和) 444s (4) 777m (4), pair wait 2: 和 18, 1 番: 38 x 2 = 76 -> 80.
    ("mixed_knitted_pungs", "111p444s777m234m5p5p", SW, 80,
     {"mixed_knitted_pungs": 1, "concealed_pung_terminals": 1, "concealed_pung_simples": 2, "pair_wait": 1}),
    # 全双数: four concealed simple pungs (4 x 4 和) and a 4s pair, won on it (2): 和 18;
    # 全双数 1 + 四暗坎 2 = 3 番: 38 x 8 = 304 -> 310.
    ("all_even_pungs", "222m444p666s888m4s4s", SW, 310,
     {"all_even_pungs": 1, "four_concealed_pungs": 1, "concealed_pung_simples": 4, "pair_wait": 1}),
    # 全单数: melded 111m (4), 333p (2), 555s (2), concealed 777m (4), 99p won on it (2): 和 14,
    # 1 番: 34 x 2 = 68 -> 70.
    ("all_odd_pungs", "[111m1][333p1][555s1]777m9p9p", SW, 70,
     {"all_odd_pungs": 1, "pung_terminals": 1, "pung_simples": 2, "concealed_pung_simples": 1,
      "pair_wait": 1}),
    # 混一色: characters and NNN (plain wind, concealed 8 和), pair wait 2: 和 10, 1 番: 30 x 2 = 60.
    ("half_flush", "123m345m678mNNN9m9m", SW, 60,
     {"half_flush": 1, "concealed_pung_terminals": 1, "pair_wait": 1}),
    # 混龙: 123m 456p 789s; pair wait 2: 22 x 2 = 44 -> 50.
    ("mixed_straight", "123m456p789s234m6s6s", SW, 50, {"mixed_straight": 1, "pair_wait": 1}),
    # 三相逢: 234 in each suit; pair wait 2: 22 x 2 = 44 -> 50.
    ("three_suit_chows", "234m234p234s567m8p8p", SW, 50, {"three_suit_chows": 1, "pair_wait": 1}),
    # 箭刻: melded CCC (value pung, 4 和, 1 番), pair wait 2: 26 x 2 = 52 -> 60.
    ("dragon_pung", "[CCC1]123m456p678s5s5s", SW, 60, {"dragon_pung": 1, "pung_value": 1, "pair_wait": 1}),
    # 门风: South is the seat wind: the same figures, 60.
    ("seat_wind_pung", "[SSS1]123m456p678s5s5s", SW, 60,
     {"seat_wind_pung": 1, "pung_value": 1, "pair_wait": 1}),
    # 圈风: West is the round wind: 60.
    ("round_wind_pung", "[WWW1]123m456p678s5s5s", SW, 60,
     {"round_wind_pung": 1, "pung_value": 1, "pair_wait": 1}),
    # East seat in the East round: the East pung is both (2 番): 26 x 4 = 104 -> 110 ...
    ("double_wind", "[EEE1]123m456p678s5s5s", {}, 110,
     {"seat_wind_pung": 1, "round_wind_pung": 1, "pung_value": 1, "pair_wait": 1}),
    # ... and once with double_wind=False: 26 x 2 = 52 -> 60.
    ("double_wind_off", "[EEE1]123m456p678s5s5s", dict(opts=dict(double_wind=False)), 60,
     {"seat_wind_pung": 1, "pung_value": 1, "pair_wait": 1}),
    # 不求人: concealed and self-drawn; 和: self-drawn 2 + pair wait 2 = 4; 2 番: 24 x 4 = 96 -> 100.
    ("fully_concealed", "123m456p678s234m5s5s", dict(SW, self_drawn=True), 100,
     {"fully_concealed": 1, "self_drawn": 1, "pair_wait": 1}),
    # 全求人: four melded chows, won on a discard of the pair tile: 22 x 4 = 88 -> 90.
    ("all_melded", "[123m1][456p1][678s1][234m1]5s5s", SW, 90, {"all_melded": 1, "pair_wait": 1}),
    # 清带幺: 123m 789m 123p 999s (concealed terminal pung 8 和) 11s won on it (2): 和 10,
    # 2 番: 30 x 4 = 120.
    ("pure_outside", "123m789m123p999s1s1s", SW, 120,
     {"pure_outside": 1, "concealed_pung_terminals": 1, "pair_wait": 1}),
    # 老少和 (strict, the default): only 123 / 789 chows, the pair a 9, no honors -- also 清带幺:
    # 4 番, pair wait 2: 22 x 16 = 352 -> 360.
    ("old_and_young", "123m789m123p789p9s9s", SW, 360,
     {"old_and_young": 1, "pure_outside": 1, "pair_wait": 1}),
    # 123m and 789m chows with other chows: only the loose reading scores it (2 番): 22 x 4 = 88 -> 90 ...
    ("old_and_young_loose", "123m789m456p234s5s5s", dict(SW, opts=dict(old_young="loose")), 90,
     {"old_and_young": 1, "pair_wait": 1}),
    # ... and the strict one does not: 22 -> 30.
    ("old_and_young_strict", "123m789m456p234s5s5s", SW, 30, {"pair_wait": 1}),
    # 清四碰: three melded pungs, the fourth (444p) completed by the winning discard, so melded too:
    # 4 x 2 和 = 8, 2 番: 28 x 4 = 112 -> 120.
    ("four_claimed_pungs", "[222m1][666p1][888s1]3m3m4p4p4p", SW, 120,
     {"four_claimed_pungs": 1, "pung_simples": 4}),
    # self-drawn, 444p is concealed: no 清四碰; 和 2+2+2+4 + self-drawn 2 = 12: 32 -> 40.
    ("four_claimed_pungs_self_drawn", "[222m1][666p1][888s1]3m3m4p4p4p", dict(SW, self_drawn=True), 40,
     {"pung_simples": 3, "concealed_pung_simples": 1, "self_drawn": 1}),
    # 七对: pairs of plain tiles, won on the NN pair (2 和): 22 x 4 = 88 -> 90.
    ("seven_pairs", "1m1m4m4m7p7p9p9p2s2s5s5sNN", SW, 90, {"seven_pairs": 1, "pair_wait": 1}),
    # 双般高: 234m x3 read as 222m 333m 444m (concealed, 3 x 4 和, consecutive pungs) beats the triple
    # chow reading (same 番, less 和): 和 14, 2 番: 34 x 4 = 136 -> 140.
    ("triple_chow_or_shifted_pungs", "234m234m234m567p8s8s", SW, 140,
     {"triple_chow_or_shifted_pungs": 1, "concealed_pung_simples": 3, "pair_wait": 1}),
    # 四暗坎: 222m 555p 777s (3 x 4) NNN (8) concealed, won on the pair (2): 和 22, 2 番: 42 x 4 = 168 -> 170.
    ("four_concealed_pungs", "222m555p777sNNN3m3m", SW, 170,
     {"four_concealed_pungs": 1, "concealed_pung_simples": 3, "concealed_pung_terminals": 1, "pair_wait": 1}),
    # 三节拉（清）: 111m (8) 444m (4) 777m (4), pair wait 2: 和 18, 2 番: 38 x 4 = 152 -> 160.
    ("pure_knitted_pungs", "111m444m777m234p5s5s", SW, 160,
     {"pure_knitted_pungs": 1, "concealed_pung_terminals": 1, "concealed_pung_simples": 2, "pair_wait": 1}),
    # 全素 + 混一色: melded EEE (plain wind, 4 和), concealed 666s (4), FF (2), pair wait (2): 和 12,
    # 3 番: 32 x 8 = 256 -> 260 (the rule text's own rounding example: 260, not 40 x 8 = 320).
    ("all_plain", "[EEE1]234s234s666sFF", SW, 260,
     {"all_plain": 1, "half_flush": 1, "pung_terminals": 1, "concealed_pung_simples": 1,
      "pair_value": 1, "pair_wait": 1}),
    # 清龙: 123m 456m 789m, pair wait 2: 22 x 4 = 88 -> 90.
    ("pure_straight", "123m456m789m234p5s5s", SW, 90, {"pure_straight": 1, "pair_wait": 1}),
    # 小四喜: EEE (8) SSS (seat, 8, 1 番) WWW (round, 8, 1 番) NN (plain), pair wait 2: 和 26;
    # 小四喜 2 + 1 + 1 + 混一色 1 = 5 番: 46 x 32 = 1472 -> 1480 uncapped.
    ("little_four_winds", "EEESSSWWW123mNN", dict(SW, opts=dict(cap=False)), 1480,
     {"little_four_winds": 1, "seat_wind_pung": 1, "round_wind_pung": 1, "half_flush": 1,
      "concealed_pung_terminals": 1, "concealed_pung_value": 2, "pair_wait": 1}),
    # 三色同坎: 333 concealed in each suit (3 x 4 和), pair wait 2: 和 14, 2 番: 34 x 4 = 136 -> 140.
    ("triple_concealed_pungs", "333m333p333s456m7p7p", SW, 140,
     {"triple_concealed_pungs": 1, "concealed_pung_simples": 3, "pair_wait": 1}),
    # 十三不搭 + 五门齐: no 和: 20 x 8 = 160.
    ("thirteen_unrelated", "147m258p369sESWNC", SW, 160, {"thirteen_unrelated": 1, "five_groups": 1}),
    # 清一色: 888m concealed (4), pair wait (2): 26 x 8 = 208 -> 210.
    ("full_flush", "123m345m567m888m9m9m", SW, 210,
     {"full_flush": 1, "concealed_pung_simples": 1, "pair_wait": 1}),
    # 扣听 (flag): 3 番, pair wait 2: 22 x 8 = 176 -> 180.
    ("declared_ready", "123m456p678s234m5s5s", dict(SW, declared_ready=True), 180,
     {"declared_ready": 1, "pair_wait": 1}),
    # 双龙抢球 3 + 清带幺 2 + 老少和 2 = 7 番, pair wait 2: 22 x 128 = 2816 -> 2820 uncapped.
    ("dragons_and_pearl", "123m789m123s789s1p1p", dict(SW, opts=dict(cap=False)), 2820,
     {"dragons_and_pearl": 1, "pure_outside": 1, "old_and_young": 1, "pair_wait": 1}),
    # -- 和 items ----------------------------------------------------------------
    # kongs of simples: melded 2222m (8), concealed 3333p (16), pair wait 2: 和 26, no 番: 46 -> 50.
    ("kongs_simples", "[2222m1][3333p]123s456s7s7s", SW, 50,
     {"melded_kong_simples": 1, "concealed_kong_simples": 1, "pair_wait": 1}),
    # kongs of terminals: 1111m melded (16), 9999p concealed (32), pair wait 2: 和 50: 70.
    ("kongs_terminals", "[1111m1][9999p]123s456s7s7s", SW, 70,
     {"melded_kong_terminals": 1, "concealed_kong_terminals": 1, "pair_wait": 1}),
    # kongs of dragons: CCCC melded (16), FFFF concealed (32), pair wait 2: 和 50, 2 番: 70 x 4 = 280.
    ("kongs_value", "[CCCC1][FFFF]123m456p7s7s", SW, 280,
     {"melded_kong_value": 1, "concealed_kong_value": 1, "dragon_pung": 2, "pair_wait": 1}),
    # 嵌档: 24m won on 3m: 2 和: 22 -> 30.
    ("closed_wait", "123m456p678s5s5s24m3m", SW, 30, {"closed_wait": 1}),
    # 边张: 12m won on 3m scores nothing by default: 20 ...
    ("edge_wait_default", "123m456p678s5s5s12m3m", SW, 20, {}),
    # ... and 2 和 with edge_wait=True: 22 -> 30.
    ("edge_wait", "123m456p678s5s5s12m3m", dict(SW, opts=dict(edge_wait=True)), 30, {"edge_wait": 1}),
    # flowers: 3 x 4 和 + pair wait 2 = 14: 34 -> 40.
    ("flower", "123m456p678s234m5s5s", dict(SW, flowers=3), 40, {"flower": 3, "pair_wait": 1}),
    # -- limit hands (满贯 = 500) -------------------------------------------------------
    ("true_flower_on_kong", "[EEEE]123m456m99s46p5p", dict(SW, self_drawn=True, kong=True), 500, None),
    ("true_moon_from_the_sea", "123m456m789sNN23p1p", dict(SW, self_drawn=True, last_tile=True), 500, None),
    ("true_bamboo_kong", "[EEEE]123m456m99p13s2s", dict(SW, self_drawn=True, kong=True), 500, None),
    ("wind_flower_snow_moon", "123p456pPPP789mEE", SW, 500, None),
    ("big_three_dragons", "CCCFFFPPP123sEE", SW, 500, None),
    ("all_green", "234s666s888sFFF3s3s", SW, 500, None),
    ("red_in_green", "123s456s789s111sCC", SW, 500, None),
    ("heavenly_hand", "123m456p678s234m5s5s", dict(self_drawn=True, heavenly_hand=True), 500, None),
    ("earthly_hand", "123m456p678s234m5s5s", dict(SW, earthly_hand=True), 500, None),
    ("thirteen_orphans", "1m9m1p9p1s9sESWNCFPP", SW, 500, None),
    ("big_four_winds", "EEESSSWWWNNN5m5m", SW, 500, None),
    ("pure_straight_flush", "123m456m789m234m5m5m", SW, 500, None),
    ("nine_gates", "1112345678999m5m", SW, 500, None),
    ("all_honors", "EEESSSWWWCCCFF", SW, 500, None),
]


def _run(hand, kw):
    kw = dict(kw)
    opts = kw.pop("opts", {})
    rs = R.get("shanghai_old", **opts)
    return sc(hand, rules=rs, **kw)


@pytest.mark.parametrize("name,hand,kw,total,expected", CASES, ids=[c[0] for c in CASES])
def test_item(name, hand, kw, total, expected):
    s = _run(hand, kw)
    assert s.total == total, s
    if expected is None:                      # a limit hand: the item named by the case is there
        assert name in s.limit_hand, s
    else:
        assert items(s) == expected, s
        assert not s.limit_hand
        # the total is the formula on the reported items
        rs = s.rules
        raw = (s.he + rs.options["base"]) * 2 ** s.fan
        assert s.raw == raw and s.he == sum(f.total for f in s.fans if f.unit == "he")
        assert s.fan == sum(f.total for f in s.fans if f.unit == "fan")


def test_every_item_has_a_case():
    from mjfast.rules.shanghai.table import ITEMS
    seen = set()
    for name, hand, kw, total, expected in CASES:
        s = _run(hand, kw)
        seen |= set(items(s))
    missing = {i.key for i in ITEMS} - seen
    assert not missing, missing


# -- the cap, rounding, base -----------------------------------------------------------

def test_cap_and_limit():
    # 小三元 hand: 40 x 16 = 640 uncapped (above); capped at the default limit 500
    s = sc("CCCFFF123m456mPP", **SW)
    assert (s.total, s.raw, s.capped) == (500, 640, True)
    assert sc("CCCFFF123m456mPP", rules=R.get("shanghai_old", limit=1000), **SW).total == 640
    # the rule text's example: a 50-和 hand (和 + base) is 100, 200, 400 with 1-3 番 and 500 (not 800)
    # with 4.  Bases chosen so that 和 + base = 50: melded CCC (4 和) + pair wait (2) + base 44 with
    # 1 番 (箭刻) or 4 番 (+ 扣听 3); the pair-wait hand (2 和) + base 48 with 2 番 (全求人 shape is not
    # needed: 扣听 gives 3).
    h = "123m456p678s234m5s5s"                       # 和 2 (pair wait), no 番
    s1 = sc("[CCC1]123m456p678s5s5s", rules=R.get("shanghai_old", base=44), **SW)     # 和 6, 1 番
    s2 = sc("[123m1][456p1][678s1][234m1]5s5s", rules=R.get("shanghai_old", base=48), **SW)  # 全求人 2 番
    s3 = sc(h, declared_ready=True, rules=R.get("shanghai_old", base=48), **SW)         # 和 2, 3 番
    s4 = sc("[CCC1]123m456p678s5s5s", declared_ready=True, rules=R.get("shanghai_old", base=44), **SW)  # 4 番
    assert (s1.total, s2.total, s3.total, s4.total) == (100, 200, 400, 500)
    assert sc(h, declared_ready=True, rules=R.get("shanghai_old", base=48, cap=False), **SW).total == 400
    assert sc("[CCC1]123m456p678s5s5s", declared_ready=True,
              rules=R.get("shanghai_old", base=44, cap=False), **SW).total == 800
    # a limit hand is the limit, whatever its figure; uncapped it keeps the larger
    big = sc("CCCFFFPPP123sEE", **SW)                 # 和 3 x 8 + EE pair 0 + wait 2 = 26, 番 3 + 混一色 1
    assert big.total == 500 and big.limit_hand == ("big_three_dragons",)
    assert sc("CCCFFFPPP123sEE", rules=R.get("shanghai_old", cap=False), **SW).total == 740   # 46 x 16 = 736
    assert sc("CCCFFFPPP123sEE", rules=R.get("shanghai_old", limit=300), **SW).total == 300


def test_rounding_and_base():
    h = "[EEE1]234s234s666sFF"                        # 和 12, 3 番 (the all_plain case)
    assert sc(h, **SW).total == 260
    assert sc(h, rules=R.get("shanghai_old", round_to=1), **SW).total == 256
    assert sc(h, rules=R.get("shanghai_old", base=10), **SW).total == 180        # 22 x 8 = 176 -> 180
    assert sc(h, rules=R.get("shanghai_old", base=10, round_to=1), **SW).total == 176


# -- context: limit hands that need the real tile, flags, options --------------------------

def test_context_limits_and_their_negatives():
    # 杠上开真花 needs 5p: the same kong win on 4p (edge/closed shapes aside) is no limit
    assert "true_flower_on_kong" not in sc("[EEEE]123m456m99s56p4p", self_drawn=True, kong=True, **SW).limit_hand
    # ... and the kong flag: without it, no limit.  和: the concealed East kong (plain wind) 32, closed
    # wait 2, self-drawn 2 = 36; 不求人 2 番 (a concealed kong is no claim): 56 x 4 = 224 -> 230
    s = sc("[EEEE]123m456m99s46p5p", self_drawn=True, **SW)
    assert not s.limit_hand and s.total == 230
    # 海底捞真月 is self-drawn; on a discard last_tile is reported as unused
    d = sc("123m456m789sNN23p1p", last_tile=True, **SW)
    assert not d.limit_hand and "last_tile" in d.ignored_flags
    # 抢真杠: as written (replacement draw), or robbing a kong by option
    rob = R.get("shanghai_old", true_kong="robbing")
    assert sc("[EEEE]123m456m99p13s2s", self_drawn=True, kong=True, rules=rob, **SW).limit_hand == ()
    assert sc("123m456m99p789p13s2s", kong=True, rules=rob, **SW).limit_hand == ("true_bamboo_kong",)
    assert sc("123m456m99p789p13s2s", kong=True, **SW).limit_hand == ()
    # 天和 is the dealer's (seat East) self-drawn win; elsewhere it is dropped and reported
    s = sc("123m456p678s234m5s5s", self_drawn=True, heavenly_hand=True, **SW)
    assert not s.limit_hand and "heavenly_hand" in s.ignored_flags
    with pytest.raises(mjfast.InvalidHand, match="heavenly_hand"):
        sc("123m456p678s234m5s5s", self_drawn=True, heavenly_hand=True, strict=True, **SW)
    # 地和 is a discard win by a non-dealer
    s = sc("123m456p678s234m5s5s", earthly_hand=True)                  # seat East: the dealer
    assert not s.limit_hand and "earthly_hand" in s.ignored_flags
    # unknown keywords are TypeErrors; other rule sets' flags are reported as unused
    with pytest.raises(TypeError, match="riichi"):
        sc("123m456p678s234m5s5s", riichi=True)
    assert "human_hand" in sc("123m456p678s234m5s5s", human_hand=True).ignored_flags
    assert "fourth_tile" in sc("123m456p678s234m5s5s", fourth_tile=True).ignored_flags


def test_options_validate():
    with pytest.raises(mjfast.InvalidOption, match="limit"):
        R.get("shanghai_old", limit=0)
    with pytest.raises(mjfast.InvalidOption, match="old_young"):
        R.get("shanghai_old", old_young="medium")
    assert R.get("shanghai_old").with_option_text(["round-to=1", "cap=false"]).changed_options == \
        {"round_to": 1, "cap": False}


def test_mixed_steps_suits_option():
    # 1p 4s 7s: not all one suit, but only two suits
    h = "111p444s777s234m5p5p"
    assert "mixed_knitted_pungs" in items(sc(h, **SW))
    assert "mixed_knitted_pungs" not in items(sc(h, rules=R.get("shanghai_old", mixed_steps_suits="three_suits"),
                                                 **SW))


def test_unique_wait_option():
    # 24m won on 3m: 3m was the only winning tile, so 嵌档 holds under unique_wait too
    one = "123m456p678s5s5s24m3m"
    assert items(sc(one, rules=R.get("shanghai_old", unique_wait=True), **SW)) == {"closed_wait": 1}
    # a lone N waiting for its pair: one winning tile, 麻将头 holds
    single = "123m456p678s234mNN"
    assert items(sc(single, rules=R.get("shanghai_old", unique_wait=True), **SW)) == {"pair_wait": 1}
    # 5678s won on 5s: the hand also won on 8s (567s + 88s), so under unique_wait no 麻将头
    two = "123m456p678s234m5s5s"
    assert "pair_wait" in items(sc(two, **SW))
    assert "pair_wait" not in items(sc(two, rules=R.get("shanghai_old", unique_wait=True), **SW))


def test_settlement():
    s = sc("123m456p678s234m5s5s", declared_ready=True, **SW)           # 180
    assert s.settlement(2) == (540, -180, -180, -180)
    assert s.settlement() == (540, -180, -180, -180)          # all pay: the discarder does not matter
    dp = sc("123m456p678s234m5s5s", declared_ready=True, rules=R.get("shanghai_old", payment="discarder_pays"),
            **SW)
    assert dp.settlement(2) == (180, 0, -180, 0)
    with pytest.raises(ValueError, match="discarder"):
        dp.settlement()
    sd = sc("123m456p678s234m5s5s", self_drawn=True, rules=R.get("shanghai_old", payment="discarder_pays"), **SW)
    assert sd.settlement() == (3 * sd.total, -sd.total, -sd.total, -sd.total)
    assert sum(dp.settlement(1)) == 0 and sum(s.settlement(3)) == 0


def test_flowers():
    h = "123m456p678s234m5s5s"
    assert sc(h, flowers=4, **SW).total == 40                    # 16 + 2 + 20 = 38 -> 40
    assert items(sc(h, flowers=2, **SW))["flower"] == 2
    assert sc(h, flowers=4, rules=R.get("shanghai_old", flower_he=0), **SW).total == 30      # 22 -> 30
    assert sc(h, flowers=4, rules=R.get("shanghai_old", flower_he=10, round_to=1), **SW).total == 62
    with pytest.raises(mjfast.InvalidHand, match="4 flowers"):
        sc(h, flowers=5)


def test_result_api():
    s = sc("[CCC1]123m456p678s5s5s", **SW)
    d = s.as_dict()
    assert d["total"] == 60 and d["rules"] == "shanghai_old" and d["fan"] == 1 and d["he"] == 6
    assert s.decomposition[0] == ("pung", "CCC", True)
    assert "箭刻" in s and "dragon_pung" in s
    fc = s.fan_counts()
    assert fc[R.SHANGHAI_OLD_TABLE["dragon_pung"].id] == 1 and fc.sum() == 3
    assert s.legal and s.substitutions is None
    with pytest.raises(mjfast.NotWinning):
        sc("123m456p678s234m5s6s")
    with pytest.raises(mjfast.InvalidHand):
        sc("123m456p678s234m5s")


def test_batch_row_by_row():
    recs = [{"hand": c[1], "self_drawn": bool(c[2].get("self_drawn", False)),
             "seat_wind": c[2].get("seat_wind", "E"), "round_wind": c[2].get("round_wind", "E")}
            for c in CASES if not c[2].get("opts") and not c[2].get("declared_ready")
            and not any(k in c[2] for k in ("kong", "last_tile", "heavenly_hand", "earthly_hand", "flowers"))]
    recs.append({"hand": "123m456p678s234m5s6s"})
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs), rules="shanghai_old")
    for i, r in enumerate(recs[:-1]):
        one = sc(r["hand"], self_drawn=r["self_drawn"], seat_wind=r["seat_wind"], round_wind=r["round_wind"])
        assert res.totals[i] == one.total, r
    assert res.errors[-1] == 2


# -- 百搭 wildcards ----------------------------------------------------------------------

def test_wildcards_choose_the_best_substitution():
    # 123m 456p 789s EE 3m + two 百搭, East seat and round.  The best: a third East (a concealed
    # pung of the double wind: 8 和, 2 番) and a second 3m (the pair, won on it: 2 和); 混龙 1 番.
    # 和 10, 番 3: 30 x 8 = 240.  (Making 3m3m3m and keeping EE as the pair gives 和 4 + 4 + 2 and
    # only 1 番: 120.)
    s = sc("123m456p789sEE3m", wildcards=2)
    assert s.total == 240 and s.substitutions == (2, 27)
    assert items(s)["concealed_pung_value"] == 1


def test_wildcard_true_tiles():
    # a 百搭 drawn off the kong (wild_win) standing for 5p: 杠上开真花 needs a real 5p by default
    h = "[EEEE]123m456m99s46p"                    # 10 real concealed tiles + 1 百搭 = 11
    plain = sc(h, wildcards=1, wild_win=True, self_drawn=True, kong=True, **SW)
    assert not plain.limit_hand and plain.substitutions == (13,)          # it stood for 5p (closed wait)
    real = sc(h + "5p", self_drawn=True, kong=True, **SW)
    assert real.limit_hand == ("true_flower_on_kong",)
    wild_ok = sc(h, wildcards=1, wild_win=True, self_drawn=True, kong=True,
                 rules=R.get("shanghai_old", wild_true_tiles=True), **SW)
    assert wild_ok.limit_hand == ("true_flower_on_kong",) and wild_ok.substitutions == (13,)
    # 风花雪月 with the 白 a 百搭: not by default, yes with wild_true_tiles
    # (11 real tiles, no 白; three 百搭 may make a 白 pung)
    h2 = "123p456p789mEE"
    assert "wind_flower_snow_moon" not in sc(h2, wildcards=3, **SW).limit_hand
    s = sc(h2, wildcards=3, rules=R.get("shanghai_old", wild_true_tiles=True), **SW)
    assert s.limit_hand == ("wind_flower_snow_moon",) and s.substitutions == (33, 33, 33)


def test_four_melds_and_two_wildcards():
    # four melds, one real tile and a 百搭 drawn to win: the 百搭 pairs the real tile
    s = sc("[123m1][456p1][789s1][EEE1]5s", wildcards=1, wild_win=True, **SW)
    assert s.substitutions == (22,) and "all_melded" in s
    # (全求人 2 + 混龙 1 = 3 番; 和: EEE melded, a plain wind, 4 + pair wait 2 = 6: 26 x 8 = 208 -> 210)
    assert s.total == 210
    # four melds and two 百搭, the second drawn to win: they make any pair.  The best is a dragon pair:
    # 2 和 and the fifth group (五门齐 1 番): 全求人 2 + 混龙 1 + 五门齐 1 = 4 番; 和 4 + 2 + 2 = 8:
    # 28 x 16 = 448 -> 450.  (The seat wind S pair gives 2 和 but no 五门齐: 28 x 8 = 224 -> 230.)
    s = sc("[123m1][456p1][789s1][EEE1]", wildcards=2, wild_win=True, **SW)
    assert s.total == 450 and s.substitutions in ((31, 31), (32, 32), (33, 33))
    with pytest.raises(mjfast.InvalidHand, match="winning tile"):
        sc("[123m1][456p1][789s1][EEE1]", wildcards=2)


def test_wildcard_arguments():
    with pytest.raises(mjfast.InvalidArgument, match="wild_win"):
        sc("123m456p789sEE3m5m5m", wild_win=True)
    with pytest.raises(mjfast.InvalidHand, match="14 tiles"):
        sc("123m456p789sEE3m", wildcards=3)
    with pytest.raises(ValueError, match="wild_fifth"):
        sc("123m456p789sEE3m", wildcards=2, wild_fifth=True)
    with pytest.raises(mjfast.NotWinning, match="2 wildcards"):
        sc("147m258p369sES3m", wildcards=2)
    # wildcard_tiles: the 白 tiles of the hand are wild; the winning tile is one of them
    s = sc("123m456p789sEE3mPP", wildcard_tiles=["P"])
    assert s.substitutions[0] in (2, 27) and s.total == sc("123m456p789sEE3m", wildcards=2).total


# A brute-force oracle: every multiset of tiles the wildcards may stand for (no fifth copy), each
# scored as a plain hand (the winning tile, when wild, every tile it stood for).  Under
# wild_true_tiles=True a wildcard is the tile it stands for in every respect, so the best plain
# score is the answer.

def _random_hand(rng):
    """A random winning regular hand: (melds notation, concealed tiles, win tile)."""
    while True:
        counts = [0] * 34
        sets = []
        for _ in range(4):
            if rng.random() < 0.5:
                s = rng.randrange(3)
                t = s * 9 + rng.randrange(7)
                sets.append(("chow", t))
                for x in range(3):
                    counts[t + x] += 1
            else:
                t = rng.randrange(34)
                sets.append(("pung", t))
                counts[t] += 3
        p = rng.randrange(34)
        counts[p] += 2
        if max(counts) <= 4:
            break
    n_melds = rng.choice((0, 0, 1, 2))
    melds, conc = [], []
    for i, (k, t) in enumerate(sets):
        if i < n_melds:
            names = [mjfast.tiles.TILE_NAMES[t + x] for x in range(3)] if k == "chow" else \
                [mjfast.tiles.TILE_NAMES[t]] * 3
            melds.append("[" + "".join(n[0] for n in names[:-1]) + names[-1] + "1]" if t < 27
                         else "[" + "".join(names) + "1]")
        else:
            conc += [t + x for x in range(3)] if k == "chow" else [t] * 3
    conc += [p, p]
    rng.shuffle(conc)
    return "".join(melds), conc


def _notation(melds, tiles):
    return melds + "".join(mjfast.tiles.TILE_NAMES[t] for t in tiles)


def _oracle(melds, real, k, win_wild, win, rs, ctx):
    import itertools
    h = mjfast.parse_hand(melds) if melds else None
    meld_c = np.zeros(34, int)
    if h is not None:
        for m in h.melds:
            if m.kind == "chow":
                meld_c[m.tile:m.tile + 3] += 1
            else:
                meld_c[m.tile] += 3
    base = np.bincount(real, minlength=34) + meld_c
    best = None
    for sub in itertools.combinations_with_replacement(range(34), k):
        c = base.copy()
        for t in sub:
            c[t] += 1
        if c.max() > 4:
            continue
        for wt in (sorted(set(sub)) if win_wild else [win]):
            tiles = list(real) + list(sub)
            tiles.remove(wt)
            tiles.append(wt)
            try:
                s = mjfast.score(_notation(melds, tiles), rules=rs, **ctx)
            except mjfast.NotWinning:
                continue
            if best is None or s.total > best:
                best = s.total
    return best


def _against_brute_force(seed, hands, ks):
    import random
    rng = random.Random(seed)
    rs = R.get("shanghai_old", wild_true_tiles=True, cap=False)
    checked = 0
    while checked < hands:
        melds, conc = _random_hand(rng)
        k = rng.choice(ks)
        win_wild = rng.random() < 0.3
        wild_idx = set(rng.sample(range(len(conc)), k))
        real = [t for i, t in enumerate(conc) if i not in wild_idx]
        win = None
        if not win_wild:
            win = real[-1]
        ctx = dict(self_drawn=rng.random() < 0.5, seat_wind=rng.randrange(4), round_wind=rng.randrange(4))
        want = _oracle(melds, real, k, win_wild, win, rs, ctx)
        got = mjfast.score(_notation(melds, real), rules=rs, wildcards=k, wild_win=win_wild, **ctx)
        assert got.total == want, (melds, real, k, win_wild, ctx)
        # the reported substitution, scored as a plain hand, gives the same total
        subs = list(got.substitutions)
        tiles = list(real) + subs
        w = subs[0] if win_wild else win
        tiles.remove(w)
        tiles.append(w)
        assert mjfast.score(_notation(melds, tiles), rules=rs, **ctx).total == got.total
        checked += 1


@pytest.mark.parametrize("seed", range(4))
def test_wildcards_against_brute_force(seed):
    _against_brute_force(seed, 6, (1, 2))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 110))
def test_wildcards_against_brute_force_slow(seed):
    _against_brute_force(seed, 20, (1, 2, 3))


def test_docs_list_every_item_and_option():
    import pathlib
    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    sec = text[text.index("## `shanghai_old`"):]
    from mjfast.rules.shanghai.table import ITEMS
    for it in ITEMS:
        assert f"(`{it.key}`)" in sec and it.zh in sec, it.key
    for o in R.get("shanghai_old").option_specs:
        assert f"| `{o.name}` |" in sec, o.name
    # the example of the section
    s = sc("[EEE1]234s234s666sFF", seat_wind="S", round_wind="W")
    assert (s.total, s.he, s.base, s.fan, s.raw) == (260, 12, 20, 3, 256)
    assert sc("123m456p789sEE3m", wildcards=2).settlement(discarder=1) == (720, -240, -240, -240)


# -- the command line ---------------------------------------------------------------------

def _cli(capsys, *argv):
    from mjfast.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_wildcards_and_flags(capsys):
    import json
    code, out, _ = _cli(capsys, "score", "123m456p789sEE3m", "--rules", "shanghai_old", "--wildcards", "2", "--json")
    d = json.loads(out)
    assert code == 0 and d["total"] == 240 and d["substitutions"] == ["3m", "E"]
    assert d["settlement"]["seats"] == [720, -240, -240, -240]
    code, out, _ = _cli(capsys, "score", "123m456p678s234m5s5s", "--rules", "shanghai_old", "--declared-ready",
                        "--seat", "S", "--round", "W", "--json")
    assert code == 0 and json.loads(out)["total"] == 180
    code, out, _ = _cli(capsys, "score", "[EEEE]123m456m99s46p", "--rules", "shanghai_old", "--wildcards", "1",
                        "--wild-win", "--self-drawn", "--kong", "--rule-option", "wild_true_tiles=true")
    assert code == 0 and "True Flower on the Kong" in out and "Wildcards stood for: 5p" in out
    # under a rule set with no use for them the flags are reported as
    # ignored (an error with --strict), as score() and the batch readers do
    for flag, name in (("--declared-ready", "declared ready"), ("--wild-win", "wild win")):
        code, out, _ = _cli(capsys, "score", "123m456p678s234m5s5s", flag)
        assert code == 0 and f"Ignored: {name} (ignored: rule set 'mcr' has no fan that uses it)" in out
        code, _, err = _cli(capsys, "score", "123m456p678s234m5s5s", flag, "--strict")
        assert code != 0 and "has no fan that uses it (strict=True)" in err
    code, _, err = _cli(capsys, "score", "--jsonl", "--wildcards", "2")
    assert code != 0 and "--wildcards cannot be used with --jsonl" in err


# -- properties on random hands -------------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_random_hands_keep_the_formula(seed):
    """On random winning hands: the total is the formula on the reported items; the order of the
    concealed tiles does not matter; lifting the cap never lowers a total; the base only adds."""
    import random
    rng = random.Random(seed)
    plain = R.get("shanghai_old")
    uncapped = R.get("shanghai_old", cap=False)
    for _ in range(60):
        melds, conc = _random_hand(rng)
        ctx = dict(self_drawn=rng.random() < 0.5, seat_wind=rng.randrange(4), round_wind=rng.randrange(4),
                   flowers=rng.randrange(5))
        s = mjfast.score(_notation(melds, conc), rules=plain, **ctx)
        he = sum(f.total for f in s.fans if f.unit == "he")
        fan = sum(f.total for f in s.fans if f.unit == "fan")
        assert (s.he, s.fan) == (he, fan)
        figure = -(-(he + 20) * 2 ** fan // 10) * 10
        assert s.total == (500 if s.limit_hand else min(500, figure))
        assert s.capped == (not s.limit_hand and figure > 500)
        # the winning tile stays last; the other concealed tiles in another order
        rest = conc[:-1]
        rng.shuffle(rest)
        assert mjfast.score(_notation(melds, rest + conc[-1:]), rules=plain, **ctx).total == s.total
        u = mjfast.score(_notation(melds, conc), rules=uncapped, **ctx)
        assert u.total >= s.total and (u.total == s.total or s.total == 500)
