"""The Zhuji (诸暨麻将) 台 table, as data: one :class:`TaiItem` per item with
its key, English and Chinese names, 台, kind, rule and the passage of the rule
page it comes from (in our words).  docs/rules.md explains each item and the
rulings behind it; mjfast/rules/zhuji.py holds the predicates.

Plain data (it imports only :mod:`mjfast.rules.mcr`'s records): the rule set
exposes it as a :class:`~mjfast.rules.mcr.FanTable` (``points`` = 台) so that
``mjfast fans --rules zhuji`` and the generic code read it like any table.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mcr.table import Fan, FanTable

__all__ = ["TaiItem", "ZHUJI_ITEMS", "ZHUJI_TABLE", "ORDINARY", "SPECIAL"]

#: An item added to the hand's ordinary 台.
ORDINARY = "ordinary"
#: 天胡 / 地胡 / 全字牌 / 无财: worth 8 (by default the hand's 台 is max(8,
#: ordinary)); all but 全字牌 need 3 ordinary 台 (see zhuji.py).
SPECIAL = "special"


@dataclass(frozen=True)
class TaiItem:
    """One item of the 台 count (台数算法)."""
    id: int
    key: str
    en: str
    zh: str
    tai: int
    kind: str
    rule: str
    source: str
    per: str = "hand"        # "hand" or "set": 台 per pung/kong of the kind

    def fan(self) -> Fan:
        return Fan(self.id, self.key, self.en, self.zh, self.tai, (),
                   partial=("per pung or kong" if self.per == "set" else ""),
                   definition=self.rule)


_I = TaiItem
ZHUJI_ITEMS = (
    _I(1, "dragon_pung", "Dragon Pung", "中发白刻", 1, ORDINARY,
       "A pung or kong of Red, Green or White dragons, 1 台 each.",
       "A: the dragons in a pung each count one 台; the glossary adds: pung or kong, each one.", per="set"),
    _I(2, "east_pung", "East Pung", "东风刻", 2, ORDINARY,
       "A pung or kong of East, 2 台, whatever the player's seat; South, West and North pungs count "
       "nothing.",
       "A: East counts two 台 for every player, the other winds have no 台; the glossary: only the "
       "East-two-台 game is supported.", per="set"),
    _I(3, "all_chows", "All Chows", "平胡", 1, ORDINARY,
       "The four sets are chows (melded chows included) and a pair of any tile; no pung or kong.",
       "B: only the two tiles of the pair are alike, everything else runs in chows."),
    _I(4, "all_pungs", "All Pungs", "对对胡", 1, ORDINARY,
       "The four sets are pungs or kongs and a pair.",
       "B: apart from the pair, every tile is in a pung."),
    _I(5, "half_flush", "Half Flush", "混一色", 1, ORDINARY,
       "One suit and honors, both present.  The honor pungs count their own 台 too.",
       "D: one suit plus winds and dragons adds one 台 to the honors' own."),
    _I(6, "full_flush", "Full Flush", "清一色", 3, ORDINARY,
       "One suit, no honors.  With All Chows or All Pungs the hand is 4 台.",
       "C: a one-suit hand is three 台; all-chow or all-pung one-suit hands are four."),
    _I(7, "three_wilds", "Three Wildcards", "三财神", 2, ORDINARY,
       "At least three 财神 in the winning hand (option three_wilds: exactly three).",
       "C: three 财神 may count as two 台."),
    _I(8, "kong_replacement", "Win on a Kong Replacement", "杠开", 1, ORDINARY,
       "A self-drawn win on the tile drawn after a kong (flag kong with self_drawn).",
       "E: when ready, a win on the tile drawn after a kong adds one 台."),
    _I(9, "robbing_kong", "Robbing a Kong", "抢杠", 1, ORDINARY,
       "A win on the tile another player adds to a pung or melds into a kong (flag kong, not "
       "self-drawn): the one win that is not self-drawn.",
       "E: the winner who robs a kong also adds one 台; the kong rules: melded kongs can be robbed, "
       "concealed ones cannot."),
    _I(10, "heavenly_hand", "Heavenly Hand", "天胡", 8, SPECIAL,
       "The dealer wins with the 14 dealt tiles (flag heavenly_hand).  Needs 3 ordinary 台.",
       "G: the dealer wins on the dealt tiles before any play: 8 台, if the hand's real 台 is at least 3."),
    _I(11, "earthly_hand", "Earthly Hand", "地胡", 8, SPECIAL,
       "A non-dealer wins on the first tile drawn (flag earthly_hand).  Needs 3 ordinary 台.",
       "G: a non-dealer wins on the first tile drawn: 8 台, if the hand's real 台 is at least 3."),
    _I(12, "all_honors", "All Honors", "全字牌", 8, SPECIAL,
       "Every tile a wind or a dragon (option all_honors_tai: 7, the glossary's 辣子).  Needs no "
       "ordinary 台.",
       "G: every tile E S W N C F P is 8 台, and unlike the other three needs no 3 台; the glossary "
       "calls it 字一色 / 辣子 and sets it at 7."),
    _I(13, "no_wild", "No Wildcard", "无财", 8, SPECIAL,
       "No 财神 in the winning hand, in a game that has 财神.  Needs 3 ordinary 台 (option no_wild: "
       "'plus_one' makes it a plain 1 台 item, the glossary's 包麻将 value).",
       "G: a hand without 财神 is 8 台, if its real 台 is at least 3; the glossary: in 包麻将 no 财神 "
       "adds one 台."),
)

ZHUJI_TABLE = FanTable((i.fan() for i in ZHUJI_ITEMS), name="zhuji")
