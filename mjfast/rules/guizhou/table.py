"""The Guizhou catch-chicken (捉鸡麻将, 贵阳麻将) pattern table, as data.

One :class:`~mjfast.rules.mcr.Fan` record per hand pattern (牌型) and per
bonus that adds to a pattern: its id, key, English and Chinese names, points
and definition.  Only the single highest pattern of a hand counts (the
combined entries, such as 清七对, are listed with their own value, which is
the sum of their parts); the bonuses (self-drawn, 杠开, 天听/天胡/地胡) add to
it.  A 平胡 under 天胡 / 地胡 / 天听 counts 10: its own 1 plus the "on a Plain
Win" entry, 9.  Every item a hand scores is worth its table points (times a
count: the self-drawn bonus is 1 x the option self_drawn_bonus).
docs/rules.md ("guizhou") explains each entry and the rulings behind it.

Plain data: mjfast/rules/guizhou/hand.py holds the predicates.
"""
from __future__ import annotations

from ..mcr.table import Fan, FanTable

__all__ = ["GUIZHOU_TABLE", "PATTERNS", "BONUSES", "SPECIAL_STARTS"]

_F = Fan
_FANS = (
    # -- patterns (牌型): the highest one that applies counts -----------------
    _F(1, "plain_win", "Plain Win", "平胡", 1, form="regular",
       definition="Any four sets and a pair.  Needs a pass (通行证): a kong (豆) among the winner's "
                  "melds, except on 热炮, 抢杠, 天听, 天胡 and 地胡."),
    _F(2, "all_pungs", "All Pungs", "大对子", 5, ("plain_win",), form="regular",
       definition="Four pungs or kongs and a pair."),
    _F(3, "seven_pairs", "Seven Pairs", "七对", 10, form="seven_pairs",
       definition="Seven pairs, nothing melded (four of a kind counts as two pairs)."),
    _F(4, "dragon_seven_pairs", "Dragon Seven Pairs", "龙七对", 20, ("seven_pairs",), form="seven_pairs",
       definition="Seven pairs in which four identical tiles make two of the pairs."),
    _F(5, "full_flush", "Full Flush", "清一色", 10, ("plain_win",), form="regular",
       definition="Four sets and a pair, every tile (melds included) of one suit."),
    _F(6, "full_flush_all_pungs", "Full Flush All Pungs", "清大对", 15,
       ("full_flush", "all_pungs", "plain_win"), form="regular",
       definition="清一色 and 大对子 together."),
    _F(7, "full_flush_seven_pairs", "Full Flush Seven Pairs", "清七对", 20, ("seven_pairs", "full_flush"),
       form="seven_pairs", definition="清一色 and 七对 together."),
    _F(8, "full_flush_dragon_pairs", "Full Flush Dragon Seven Pairs", "清龙对", 30,
       ("dragon_seven_pairs", "full_flush_seven_pairs", "seven_pairs", "full_flush"), form="seven_pairs",
       definition="清一色 and 龙七对 together."),
    _F(9, "single_wait", "Single Wait", "单吊", 10, ("plain_win",), form="regular",
       partial="大对子 too when the option single_wait_with_pungs is 'sum'",
       definition="Four sets melded, won on the pair tile (金钩钓); option single_wait='pair_wait': won "
                  "on the pair tile when it was the only winning tile."),
    _F(10, "full_flush_single_wait", "Full Flush Single Wait", "清单吊", 20,
       ("single_wait", "full_flush", "plain_win"), form="regular",
       partial="大对子 too when the option single_wait_with_pungs is 'sum'",
       definition="清一色 and 单吊 together."),
    # -- bonuses that add to the pattern ---------------------------------------
    _F(11, "self_drawn", "Self-Drawn", "自摸", 1,
       definition="A self-drawn win adds 1 (a win robbing a kong counts as self-drawn)."),
    _F(12, "out_on_kong", "Out on a Kong", "杠开", 1,
       definition="A self-drawn win on the replacement tile of one's own kong (杠上花): pattern +1."),
    _F(13, "heavenly_hand", "Heavenly Hand", "天胡", 10,
       partial="not on a 平胡: there the entry of the same name 'on a Plain Win' (9) makes it 10 in all",
       definition="The dealer wins with the dealt tiles: 平胡 counts 10, any other pattern +10."),
    _F(14, "earthly_hand", "Earthly Hand", "地胡", 10,
       partial="not on a 平胡: there the entry of the same name 'on a Plain Win' (9) makes it 10 in all",
       definition="A non-dealer wins in the first go-around, on a discard or self-drawn: scored as 天胡."),
    _F(15, "ready_at_start", "Ready at Start", "天听", 10,
       partial="not on a 平胡: there the entry of the same name 'on a Plain Win' (9) makes it 10 in all",
       definition="The winner declared ready after their first discard (dealer) or in the first "
                  "go-around (non-dealer): scored as 天胡."),
    # -- a 平胡 under 天胡 / 地胡 / 天听 counts 10: 平胡 1 + 9 ------------------------
    _F(16, "heavenly_hand_plain_win", "Heavenly Hand on a Plain Win", "天胡平胡", 9,
       definition="天胡 with a 平胡: the 平胡 counts 10 (1 + 9)."),
    _F(17, "earthly_hand_plain_win", "Earthly Hand on a Plain Win", "地胡平胡", 9,
       definition="地胡 with a 平胡: the 平胡 counts 10 (1 + 9)."),
    _F(18, "ready_at_start_plain_win", "Ready at Start on a Plain Win", "天听平胡", 9,
       definition="天听 with a 平胡: the 平胡 counts 10 (1 + 9)."),
)

GUIZHOU_TABLE = FanTable(_FANS, name="guizhou")

#: The pattern keys, in table order.
PATTERNS = tuple(f.key for f in _FANS if f.id <= 10)
#: The bonus keys.
BONUSES = tuple(f.key for f in _FANS if f.id > 10)
#: The three bonuses that are scored alike (only the first present counts).
SPECIAL_STARTS = ("heavenly_hand", "earthly_hand", "ready_at_start")
