"""The two-player (二人麻将) fan table, as data: one :class:`Fan` per fan with
its id, key, English and Chinese names, points, whole-fan exclusions and
definition.  docs/rules.md explains each entry and the rulings behind it.

Plain data (it imports only :mod:`mjfast.rules.mcr`'s records): setup.py
reads it at build time to generate the compiled engine's fan ids, and
mjfast/rules/two_player.py loads its points and exclusions into the engine.
"""
from __future__ import annotations

from ..mcr.table import Fan, FanTable

__all__ = ["TWO_PLAYER_TABLE"]

_F = Fan
_FANS = (
    # -- 88 ------------------------------------------------------------------
    _F(1, "big_four_winds", "Big Four Winds", "大四喜", 88,
       ("big_three_winds", "little_four_winds", "all_pungs", "pung_of_terminals_or_honors"),
       definition="Pungs (or kongs) of all four winds and any pair (the page's 'every tile a wind' "
                  "cannot be: the MCR definition)."),
    _F(2, "big_three_dragons", "Big Three Dragons", "大三元", 88, ("little_three_dragons", "two_dragons_pungs"),
       definition="Pungs (or kongs) of the three dragons."),
    _F(3, "seven_shifted_pairs", "Seven Shifted Pairs", "连七对", 88,
       ("seven_pairs", "full_flush", "fully_concealed_hand", "concealed_hand", "single_wait", "no_honors"),
       form="seven_pairs", definition="Seven pairs of consecutive characters."),
    _F(4, "heavenly_hand", "Heavenly Hand", "天和", 88, (),
       partial="Earthly Hand and Human Hand (option highest_heavenly_only)",
       definition="The dealer wins with the 14 dealt tiles (flag heavenly_hand)."),
    _F(5, "nine_gates", "Nine Gates", "九莲宝灯", 88,
       ("full_flush", "fully_concealed_hand", "concealed_hand", "no_honors"),
       partial="one Pung of Terminals or Honors (the 111m or 999m of the gates)",
       definition="1112345678999m concealed, won on any character."),
    _F(6, "four_kongs", "Four Kongs", "四杠子", 88,
       ("three_kongs", "two_kongs", "melded_kong", "concealed_kong", "all_pungs", "single_wait"),
       definition="Four kongs, melded or concealed, and any pair."),
    # -- 64 ------------------------------------------------------------------
    _F(7, "little_four_winds", "Little Four Winds", "小四喜", 64, ("big_three_winds", "pung_of_terminals_or_honors"),
       definition="Pungs of three winds and a pair of the fourth."),
    _F(8, "little_three_dragons", "Little Three Dragons", "小三元", 64, ("two_dragons_pungs",),
       definition="Pungs of two dragons and a pair of the third."),
    _F(9, "four_concealed_pungs", "Four Concealed Pungs", "四暗刻", 64,
       ("three_concealed_pungs", "two_concealed_pungs", "all_pungs", "concealed_hand", "fully_concealed_hand"),
       definition="Four concealed pungs (concealed kongs count)."),
    _F(10, "pure_terminal_chows", "Pure Terminal Chows", "一色双龙会", 64,
       ("seven_pairs", "full_flush", "pure_double_chow", "two_terminal_chows", "no_honors"),
       definition="123m 123m 789m 789m and a pair of 5m."),
    _F(11, "earthly_hand", "Earthly Hand", "地和", 64, (),
       partial="Human Hand (option highest_heavenly_only)",
       definition="After the dealer's first discard, the non-dealer wins by self-draw (flag earthly_hand)."),
    _F(12, "all_honors", "All Honors", "字一色", 64,
       ("all_terminals_and_honors", "all_pungs", "pung_of_terminals_or_honors"),
       definition="Every tile an honor."),
    # -- 48 ------------------------------------------------------------------
    _F(13, "four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一色四节高", 48,
       ("pure_shifted_pungs", "pure_triple_chow", "all_pungs"),
       definition="Pungs of four consecutive characters."),
    _F(14, "quadruple_chow", "Quadruple Chow", "一色四同顺", 48,
       ("pure_triple_chow", "pure_shifted_pungs", "pure_double_chow"),
       definition="Four identical chows and any pair."),
    # -- 32 ------------------------------------------------------------------
    _F(15, "four_pure_shifted_chows", "Four Pure Shifted Chows", "一色四步高", 32,
       ("pure_shifted_chows", "short_straight", "two_terminal_chows", "pure_double_chow"),
       definition="Four chows rising by 1 each or by 2 each."),
    _F(16, "three_kongs", "Three Kongs", "三杠", 32, ("two_kongs", "melded_kong", "concealed_kong"),
       definition="Three kongs."),
    _F(17, "human_hand", "Human Hand", "人和", 32, (),
       definition="A win within the first go-around (flag human_hand)."),
    _F(18, "all_terminals_and_honors", "All Terminals and Honors", "混幺九", 32,
       ("all_pungs", "pung_of_terminals_or_honors"),
       definition="Every tile 1m, 9m or an honor (seven pairs too)."),
    _F(19, "ready_at_start", "Ready at Start", "天听", 32, (),
       definition="Ready right after the deal (flag ready_at_start): the non-dealer with the 13 dealt "
                  "tiles, the dealer after the first discard."),
    # -- 24 ------------------------------------------------------------------
    _F(20, "seven_pairs", "Seven Pairs", "七对", 24, ("fully_concealed_hand", "concealed_hand", "single_wait"),
       form="seven_pairs", definition="Seven pairs."),
    _F(21, "full_flush", "Full Flush", "清一色", 24, ("no_honors",),
       definition="Characters only."),
    _F(22, "pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", 24, ("pure_triple_chow",),
       definition="Pungs of three consecutive characters."),
    _F(23, "pure_triple_chow", "Pure Triple Chow", "一色三同顺", 24, ("pure_shifted_pungs", "pure_double_chow"),
       definition="Three identical chows."),
    # -- 16 ------------------------------------------------------------------
    _F(24, "pure_shifted_chows", "Pure Shifted Chows", "一色三步高", 16, (),
       definition="Three chows rising by 1 each or by 2 each."),
    _F(25, "pure_straight", "Pure Straight", "清龙", 16, (),
       definition="123m 456m 789m (the page writes 青龙)."),
    _F(26, "three_concealed_pungs", "Three Concealed Pungs", "三暗刻", 16, ("two_concealed_pungs",),
       definition="Three concealed pungs (concealed kongs count)."),
    # -- 12 ------------------------------------------------------------------
    _F(27, "upper_four", "Upper Four", "大于五", 12, ("no_honors",),
       definition="Every tile a 6-9 character (the MCR definition; the page repeats another fan's text)."),
    _F(28, "big_three_winds", "Big Three Winds", "三风刻", 12, (),
       partial="Pung of Terminals or Honors for its three wind pungs",
       definition="Pungs of three winds (the MCR definition; the page repeats another fan's text)."),
    # -- 8 -------------------------------------------------------------------
    _F(29, "out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", 8, (),
       definition="Self-drawn win on the replacement tile of a kong (flag kong)."),
    _F(30, "half_flush", "Half Flush", "混一色", 8, (),
       definition="Characters and honors, both present."),
    # -- 6 -------------------------------------------------------------------
    _F(31, "two_concealed_pungs", "Two Concealed Pungs", "双暗刻", 6, (),
       definition="Two concealed pungs (concealed kongs count)."),
    _F(32, "two_dragons_pungs", "Two Dragons Pungs", "双箭刻", 6, (),
       partial="Pung of Terminals or Honors for its two dragon pungs",
       definition="Pungs of two dragons."),
    _F(33, "all_pungs", "All Pungs", "碰碰和", 6, (),
       definition="Four pungs or kongs and a pair."),
    _F(34, "melded_hand", "Melded Hand", "全求人", 6, ("single_wait",),
       definition="Four melded sets, won on the opponent's discard of the pair tile."),
    # -- 4 -------------------------------------------------------------------
    _F(35, "two_kongs", "Two Kongs", "双杠", 4, ("melded_kong", "concealed_kong"),
       definition="Two kongs, melded or concealed."),
    _F(36, "fully_concealed_hand", "Fully Concealed Hand", "不求人", 4, ("concealed_hand",),
       definition="No chow, pung or melded kong, and a self-drawn win."),
    _F(37, "win_off_a_discard", "Win off a Discard", "放铳", 4, (),
       definition="A win on the opponent's discard (option fangchong: 'discard', or 'rob_kong' for "
                  "robbing a kong only)."),
    # -- 2 -------------------------------------------------------------------
    _F(38, "concealed_hand", "Concealed Hand", "门前清", 2, (),
       definition="No chow, pung or melded kong, and a win on a discard."),
    _F(39, "concealed_kong", "Concealed Kong", "暗杠", 2, (),
       definition="A concealed kong."),
    # -- 1 -------------------------------------------------------------------
    _F(40, "pure_double_chow", "Pure Double Chow", "一般高", 1, (), definition="Two identical chows."),
    _F(41, "short_straight", "Short Straight", "连六", 1, (), definition="Two chows making six consecutive tiles."),
    _F(42, "two_terminal_chows", "Two Terminal Chows", "老少副", 1, (), definition="123m and 789m."),
    _F(43, "single_wait", "Single Wait", "单钓", 1, (), definition="The only winning tile was the pair tile."),
    _F(44, "pair_258", "2-5-8 Pair", "258将", 1, (), definition="The pair is 2m, 5m or 8m."),
    _F(45, "terminal_pair", "Terminal Pair", "幺九头", 1, (), definition="The pair is 1m or 9m."),
    _F(46, "flower_tiles", "Flower Tiles", "花牌", 1, (),
       partial="1 point per flower, added after the reading is chosen; not counted toward the minimum",
       definition="One point per flower, only in a winning hand."),
    _F(47, "melded_kong", "Melded Kong", "明杠", 1, (),
       definition="A kong of the opponent's discard (and, by option, a kong added to one's own pung)."),
    _F(48, "no_honors", "No Honors", "无字", 1, (), definition="No honor tiles."),
    _F(49, "pung_of_terminals_or_honors", "Pung of Terminals or Honors", "幺九刻", 1, (),
       partial="not for the pungs a wind or dragon fan already scores",
       definition="A pung or kong of 1m, 9m or an honor, each."),
    _F(50, "edge_wait", "Edge Wait", "边张", 1, (), definition="12m won on 3m or 89m won on 7m, the only winning tile."),
    _F(51, "closed_wait", "Closed Wait", "嵌张", 1, (), definition="Won on the middle tile of a chow, the only winning tile."),
)

TWO_PLAYER_TABLE = FanTable(_FANS, name="two_player")
