"""The old Shanghai 番/和 table (rule set ``shanghai_old``), as data.

A hand's score is (和 + base) x 2^番, rounded up to a multiple of 10 and
capped at the limit (满贯); a limit hand scores the limit outright.  Three
kinds of item make it up, each an :class:`Item` with its unit:

* ``"fan"``: 番, each one doubles the score (``value`` 番 per instance);
* ``"he"``: 和, basic points added before the doubling (``value`` 和 per instance);
* ``"limit"``: a 满贯 hand, worth the limit whatever else it holds.

``source`` gives the rule text's words for the item in our own phrasing.
:data:`SHANGHAI_OLD_TABLE` is the same table as a
:class:`~mjfast.rules.mcr.FanTable` (points = the item's value in its unit;
0 for limit hands), which is what ``RuleSet.table`` and the listings use.
docs/rules.md ("shanghai_old") explains every item and the readings behind them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mcr.table import Fan, FanTable

__all__ = ["Item", "ITEMS", "SHANGHAI_OLD_TABLE", "UNITS"]


@dataclass(frozen=True)
class Item:
    """One scoring item of the old Shanghai table."""
    id: int
    key: str
    en: str
    zh: str
    unit: str          # "fan" (番, doubles), "he" (和, points) or "limit" (满贯)
    value: int         # 番 or 和 per instance; 0 for a limit hand
    definition: str
    source: str = ""
    form: str = "any"


_I = Item
ITEMS = (
    # -- 1 番 (listed before the 二番 heading) ---------------------------------
    _I(1, "five_groups", "Five Groups", "五门齐", "fan", 1,
       "Characters, dots, bamboo, winds and dragons all in the hand (melds included).",
       "五福临门: the five groups, 筒 索 万, the winds and the dragons, all present"),
    _I(2, "missing_suit", "Missing Suit", "缺一门", "fan", 1,
       "Exactly one of the three suits absent (option missing_suit_scores).",
       "断色: one suit missing; the author adds that, being so common, it probably should not score"),
    _I(3, "little_three_dragons", "Little Three Dragons", "小三元", "fan", 1,
       "Pungs (or kongs) of two dragons and a pair of the third; the two pungs score their own 番 too.",
       "two of 中 发 白 melded or concealed as pungs, the third a pair"),
    _I(4, "mixed_knitted_pungs", "Mixed Step Pungs", "三节拉（混）", "fan", 1,
       "Three pungs (or kongs) of ranks 1-4-7, 2-5-8 or 3-6-9, not all of one suit "
       "(option mixed_steps_suits).",
       "three pungs whose ranks are 1,4,7 / 2,5,8 / 3,6,9 in mixed suits (e.g. 1p melded, 4s concealed, 7m kong)"),
    _I(5, "all_even_pungs", "All Even Pungs", "全双数", "fan", 1,
       "An all-pungs hand (four pungs or kongs and a pair), every tile a suit tile of rank 2, 4, 6 or 8.",
       "an all-pungs (对对和) win whose sets and pair are all of even rank"),
    _I(6, "all_odd_pungs", "All Odd Pungs", "全单数", "fan", 1,
       "An all-pungs hand, every tile a suit tile of rank 1, 3, 5, 7 or 9.",
       "the opposite of 全双数: all pungs, every rank odd"),
    _I(7, "half_flush", "Half Flush", "混一色", "fan", 1,
       "One suit and honors (both present).", "one of the three suits, mixed with winds or dragons"),
    _I(8, "mixed_straight", "Mixed Straight", "混龙", "fan", 1,
       "Chows 123, 456 and 789, each in a different suit.",
       "1-9 in sequence across the three suits; the suits must be three, else it is not 混龙"),
    _I(9, "three_suit_chows", "Mixed Triple Chow", "三相逢", "fan", 1,
       "The same chow in all three suits.", "three chows of the same numbers, in different suits"),
    _I(10, "dragon_pung", "Dragon Pung", "箭刻", "fan", 1,
       "Each pung or kong of 中, 发 or 白.", "any of 中 发 白, seat wind, round wind held three or more: 1 番 each"),
    _I(11, "seat_wind_pung", "Seat Wind Pung", "门风刻", "fan", 1,
       "A pung or kong of one's seat wind.", "as 箭刻"),
    _I(12, "round_wind_pung", "Round Wind Pung", "圈风刻", "fan", 1,
       "A pung or kong of the round wind (with the seat wind: option double_wind).",
       "圈风: in the East round a melded or concealed East pung is 1 番, and so on"),
    # -- 2 番 -----------------------------------------------------------------
    _I(13, "fully_concealed", "Fully Concealed", "不求人", "fan", 2,
       "Self-drawn, with no chow, pung or melded kong claimed (concealed kongs allowed).",
       "never asked anyone for a tile (no chow, no pung), won by self-draw"),
    _I(14, "all_melded", "All Melded", "全求人", "fan", 2,
       "Four melded sets (chows, pungs, melded kongs) and a win on a discard.",
       "four sets chowed or punged and the single-wait winning tile discarded by another player"),
    _I(15, "pure_outside", "Pure Outside Hand", "清带幺", "fan", 2,
       "Every set and the pair hold a 1 or a 9; no honors.",
       "all sets and the pair are suit tiles and each holds a terminal; no winds or dragons"),
    _I(16, "old_and_young", "Old and Young", "老少和", "fan", 2,
       "Chows of 123 and 789 (both), no pung or kong; by default (option old_young) stricter: "
       "every set such a chow and the pair a 1 or a 9, no honors.",
       "the 123 'little tiger' and 789 'big tiger' chows, no pungs; stricter than 清带幺"),
    _I(17, "four_claimed_pungs", "Four Claimed Pungs", "清四碰", "fan", 2,
       "Four pungs (or kongs), none concealed, the last completed by the winning discard "
       "(not a win on the pair).",
       "平四碰: punged four times and out, no concealed pung, and not a win waiting on the pair"),
    _I(18, "seven_pairs", "Seven Pairs", "七对", "fan", 2,
       "Seven pairs (four of a kind may be two pairs).", "six pairs and a lone tile, won on that tile's pair",
       form="seven_pairs"),
    _I(19, "triple_chow_or_shifted_pungs", "Triple Chow or Shifted Pungs", "双般高", "fan", 2,
       "Three identical chows of one suit, or pungs (or kongs) of three consecutive ranks of one suit.",
       "three identical chows, or three consecutive pungs (concealed ones count)"),
    _I(20, "four_concealed_pungs", "Four Concealed Pungs", "四暗坎", "fan", 2,
       "Four concealed pungs (concealed kongs count; a pung completed by the winning discard does not).",
       "four concealed pungs at the win"),
    _I(21, "pure_knitted_pungs", "Pure Step Pungs", "三节拉（清）", "fan", 2,
       "Three pungs (or kongs) of ranks 1-4-7, 2-5-8 or 3-6-9 in one suit.",
       "as 三节拉（混）, all three of one suit"),
    _I(22, "all_plain", "All Plain", "全素", "fan", 2,
       "Only 发, winds and 2 3 4 6 8 bamboo.", "every tile 'plain' (blue or green): 发, the winds, 2 3 4 6 8 索"),
    _I(23, "pure_straight", "Pure Straight", "清龙", "fan", 2,
       "Chows 123, 456 and 789 of one suit.", "1 to 9 of one suit as three chows"),
    _I(24, "little_four_winds", "Little Four Winds", "小四喜", "fan", 2,
       "Pungs (or kongs) of three winds and a pair of the fourth.",
       "three winds held three or more each, the fourth the pair"),
    _I(25, "triple_concealed_pungs", "Triple Concealed Pungs", "三色同坎", "fan", 2,
       "Three concealed pungs (or concealed kongs) of the same rank in the three suits.",
       "three concealed pungs of one number in different suits"),
    _I(26, "thirteen_unrelated", "Thirteen Unrelated", "十三不搭", "fan", 2,
       "Fourteen different tiles: honors and suit tiles knitted 147 / 258 / 369 (one pattern per suit).",
       "apart from the winds and dragons, the suit tiles are 1-4-7, 2-5-8, 3-6-9 combinations",
       form="honors_knitted"),
    # -- 3 番 -----------------------------------------------------------------
    _I(27, "full_flush", "Full Flush", "清一色", "fan", 3,
       "One suit, no honors.", "every tile of one suit, no honor"),
    _I(28, "declared_ready", "Declared Ready", "扣听", "fan", 3,
       "Declared ready and turned the hand face down, changing nothing after (flag declared_ready).",
       "announce 扣听 when ready, turn the tiles down, change none of them"),
    _I(29, "dragons_and_pearl", "Two Dragons and the Pearl", "双龙抢球", "fan", 3,
       "123m 789m 123s 789s and a pair of 1p.", "1p as the pair, 123 789 characters, 123 789 bamboo"),
    # -- 满贯 (limit) -----------------------------------------------------------
    _I(30, "true_flower_on_kong", "True Flower on the Kong", "杠上开真花", "limit", 0,
       "A self-drawn win on a kong's replacement tile, the tile 5p (flag kong).",
       "5p looks like a plum blossom: drawing it off a kong to win is 满贯"),
    _I(31, "true_moon_from_the_sea", "True Moon from the Sea", "海底捞真月", "limit", 0,
       "A self-drawn win on the last tile, the tile 1p (flags last_tile, self_drawn).",
       "1p looks like the moon: fishing it from the sea bottom (last tile) to win"),
    _I(32, "true_bamboo_kong", "True Bamboo Kong", "抢真杠", "limit", 0,
       "A win on 2s on a kong: as written, drawn as the kong's replacement tile (option true_kong).",
       "2s looks like a bamboo pole (竹杠): 'drawing 2s off a kong to win'"),
    _I(33, "wind_flower_snow_moon", "Wind, Flower, Snow and Moon", "风花雪月", "limit", 0,
       "A wind, 5p (flower), 白 (snow) and 1p (moon) all in the hand.",
       "one of the winds, 5p, 白 and 1p all present in the winning hand"),
    _I(34, "big_three_dragons", "Big Three Dragons", "大三元", "limit", 0,
       "Pungs (or kongs) of 中, 发 and 白.", "all three dragons melded or concealed as pungs"),
    _I(35, "all_green", "All Green", "全绿", "limit", 0,
       "Only 发 and 2 3 4 6 8 bamboo.", "the text's 全球 is a typo: every tile green, 发 and 2 3 4 6 8 索"),
    _I(36, "red_in_green", "A Touch of Red in All Green", "万绿丛中一点红", "limit", 0,
       "Bamboo tiles and a pair of 中, nothing else.",
       "from 全绿 but any bamboo will do, with a pair of 中 (or won waiting on the 中 pair)"),
    _I(37, "heavenly_hand", "Heavenly Hand", "天和", "limit", 0,
       "The dealer wins with the dealt tiles (flag heavenly_hand).", "the dealer's dealt tiles already win"),
    _I(38, "earthly_hand", "Earthly Hand", "地和", "limit", 0,
       "A non-dealer, ready from the deal, wins on the dealer's first discard (flag earthly_hand).",
       "a non-dealer dealt a ready hand wins on the dealer's first discard"),
    _I(39, "thirteen_orphans", "Thirteen Orphans", "十三老", "limit", 0,
       "The 1 and 9 of each suit and the seven honors, one of them paired.",
       "terminals of three suits and the seven honors, one doubled as the pair", form="thirteen_orphans"),
    _I(40, "big_four_winds", "Big Four Winds", "大四喜", "limit", 0,
       "Pungs (or kongs) of all four winds.", "each wind held three or more"),
    _I(41, "pure_straight_flush", "Full Flush with Pure Straight", "清一色兼一条龙", "limit", 0,
       "A full flush holding 123 456 789 of its suit.", "清一色 together with 清龙"),
    _I(42, "nine_gates", "Nine Gates", "九莲宝灯", "limit", 0,
       "A concealed full flush whose 13 tiles before the win wait on all nine tiles of the suit "
       "(1112345678999 + any).",
       "a one-suit hand that, when ready, wins on every tile 1-9 of the suit"),
    _I(43, "all_honors", "All Honors", "风一色", "limit", 0,
       "Only winds and dragons.", "every tile a wind or a dragon, no suit tile"),
    # -- 和 (basic points) ------------------------------------------------------
    _I(44, "pung_simples", "Melded Pung of Simples", "小幺碰", "he", 2,
       "A melded pung (碰) of 2-8.", "小幺 (2-8): a pung, 2 和"),
    _I(45, "concealed_pung_simples", "Concealed Pung of Simples", "小幺坎", "he", 4,
       "A concealed pung (坎) of 2-8.", "a 坎, 4 和"),
    _I(46, "melded_kong_simples", "Melded Kong of Simples", "小幺明杠", "he", 8,
       "A melded kong of 2-8.", "a melded kong, 8 和"),
    _I(47, "concealed_kong_simples", "Concealed Kong of Simples", "小幺暗杠", "he", 16,
       "A concealed kong of 2-8.", "a concealed kong, 16 和"),
    _I(48, "pung_terminals", "Melded Pung of Terminals or Winds", "幺九碰", "he", 4,
       "A melded pung of 1, 9 or a wind that is neither seat nor round wind.",
       "1, 9 and the winds that are not the seat or round wind: a pung, 4 和"),
    _I(49, "concealed_pung_terminals", "Concealed Pung of Terminals or Winds", "幺九坎", "he", 8,
       "A concealed pung of 1, 9 or such a wind.", "a 坎, 8 和"),
    _I(50, "melded_kong_terminals", "Melded Kong of Terminals or Winds", "幺九明杠", "he", 16,
       "A melded kong of 1, 9 or such a wind.", "a melded kong, 16 和"),
    _I(51, "concealed_kong_terminals", "Concealed Kong of Terminals or Winds", "幺九暗杠", "he", 32,
       "A concealed kong of 1, 9 or such a wind.", "a concealed kong, 32 和"),
    _I(52, "pung_value", "Melded Pung of Value Tiles", "番牌碰", "he", 4,
       "A melded pung of a dragon, the seat wind or the round wind (its 番 is scored apart).",
       "中 发 白, seat or round wind: a pung, 4 和 (and 1 番)"),
    _I(53, "concealed_pung_value", "Concealed Pung of Value Tiles", "番牌坎", "he", 8,
       "A concealed pung of a dragon, the seat wind or the round wind.", "a 坎, 8 和 (and 1 番)"),
    _I(54, "melded_kong_value", "Melded Kong of Value Tiles", "番牌明杠", "he", 16,
       "A melded kong of a dragon, the seat wind or the round wind.", "a melded kong, 16 和 (and 1 番)"),
    _I(55, "concealed_kong_value", "Concealed Kong of Value Tiles", "番牌暗杠", "he", 32,
       "A concealed kong of a dragon, the seat wind or the round wind.", "a concealed kong, 32 和 (and 1 番)"),
    _I(56, "pair_value", "Pair of Value Tiles", "番牌对", "he", 2,
       "A pair of a dragon, the seat wind or the round wind (twice for a wind that is both: option "
       "double_wind).", "中 发 白, seat or round wind: a pair, 2 和"),
    _I(57, "self_drawn", "Self-Drawn", "自摸", "he", 2,
       "A self-drawn win.", "自摸 adds 2 和"),
    _I(58, "closed_wait", "Closed Wait", "嵌档", "he", 2,
       "The winning tile completes a chow in the middle.", "嵌档 adds 2 和"),
    _I(59, "pair_wait", "Pair Wait", "麻将头", "he", 2,
       "The winning tile completes the pair.", "winning on the pair (麻将头) adds 2 和"),
    _I(60, "edge_wait", "Edge Wait", "边张", "he", 2,
       "The winning tile is the 3 of 123 or the 7 of 789 (option edge_wait; the text gives it no 和).",
       "the text defines 边张 but scores only 自摸, 嵌档 and 麻将头"),
    _I(61, "flower", "Flower", "花", "he", 4,
       "Each flower (option flower_he; the text gives flowers no value).",
       "the set has four flowers; the scoring passage is silent on them"),
)

#: key -> unit ("fan", "he", "limit").
UNITS = {i.key: i.unit for i in ITEMS}

SHANGHAI_OLD_TABLE = FanTable(
    (Fan(i.id, i.key, i.en, i.zh, i.value, form=i.form,
         definition=f"[{ {'fan': '番', 'he': '和', 'limit': '满贯'}[i.unit]}] {i.definition}") for i in ITEMS),
    name="shanghai_old")
