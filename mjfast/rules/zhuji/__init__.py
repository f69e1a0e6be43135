"""Zhuji mahjong (诸暨麻将): 台 counting with 财神 wildcards, and its payouts.

136 tiles, no flowers; 财神 (one kind, or two adjacent kinds, chosen before
play) may stand for any tile; only self-drawn wins (and, by our reading,
robbing a kong); a hand needs 3 台 (option ``min_tai``); each of the three
losers pays 2^(台 - 2), doubled in a 老庄 hand.  The items and their 台 are
data (table.py); docs/rules.md explains each ruling.

How a hand is scored (:func:`score_zhuji`):

1. the 财神 are taken out of the concealed tiles; with up to four, every
   substitution that completes the hand (mjfast._wild.win_substitutions:
   the wildcard win tables prune the walk) is read by the table decomposer
   (``_fans.decompose_one``), regular form only (four sets and a pair);
   from five on, :func:`_best_substitution` builds the sets themselves and
   keeps the best (thousands of substitutions would otherwise be read), and
   that one substitution is read the same way;
2. each reading's ordinary 台 is the sum of the ordinary items; the special
   items (天胡, 地胡, 无财 with 3 ordinary 台 or more; 全字牌 always) make
   the hand max(8, ordinary) (option ``special_mode``);
3. the reading and substitution with the highest 台 is kept (ties: the first
   met, in the walk's order; the search keeps its first best) and the tiles
   the 财神 stood for are reported.

The predicates are plain Python: Zhuji is scored a hand at a time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ... import _fans, _wild
from ...errors import InvalidArgument, InvalidHand, InvalidOption, NotWinning
from ...tiles import TILE_NAMES, parse_tiles, set_text, tile_index
from ..base import (CountedResult, FanResult, Option, RuleSet, check_flag_names, dropped_reasons, get as _get,
                   ignored_flags, impossible_flags, non_negative, positive, register, strict_message)
from .engine import ZhujiEngine
from .table import ZHUJI_ITEMS, ZHUJI_TABLE
from ...analysis.wild import check
from ...hand import Hand, parse_hand
from ...scoring.records import check_context, check_flag

__all__ = ["ZHUJI", "ZHUJI_TABLE", "ZHUJI_ITEMS", "ZhujiScore", "TaiResult", "score_zhuji", "payout",
           "wild_kinds", "ZHUJI_FLAGS"]

#: The context flags Zhuji understands.
ZHUJI_FLAGS = ("self_drawn", "kong", "heavenly_hand", "earthly_hand")

_ITEM = {i.key: i for i in ZHUJI_ITEMS}
_EAST = 27
_DRAGONS = (31, 32, 33)
_WINDS_ORDER = (27, 28, 29, 30)
_DRAGON_ORDER = (31, 32, 33)


# -- options ---------------------------------------------------------------------

def _tile_kinds(value) -> tuple:
    """The wildcard kinds of the ``wildcards`` option: "5p", "5p6p", "5p,6p",
    ["5p", "6p"], [13, 14]... as a sorted tuple of tile indices."""
    if value is None:
        return ()
    if isinstance(value, str):
        text = value.replace(",", " ").replace("+", " ").split()
        out = []
        for word in text:
            out.extend(_parse_word(word))
        items = out
    elif isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        items = [value]
    else:
        try:
            items = list(value)
        except TypeError:
            raise InvalidArgument(f"wildcards must be tile names or indices, got {value!r}") from None
    kinds = set()
    for x in items:
        if isinstance(x, str):
            kinds.update(_parse_word(x))
        elif isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            if not 0 <= x <= 33:
                raise InvalidHand(f"wildcards: tile index {int(x)} is outside 0..33")
            kinds.add(int(x))
        else:
            raise InvalidArgument(f"wildcards: a tile is a name like '5p' or an index 0..33, got {x!r}")
    return tuple(sorted(kinds))


def _parse_word(word: str) -> list:
    """'5p' -> [13]; '56p' or '5p6p' -> [13, 14]; 'E' -> [27]; 'CF' -> [31, 32]."""
    w = word.strip()
    if not w:
        return []
    try:
        return [int(t) for t in parse_tiles(w)]
    except InvalidHand:
        return [tile_index(w)]          # a Botzone code or a Chinese name, else its message


def _adjacent(a: int, b: int, mode: str) -> bool:
    if mode == "any":
        return True
    if a < 27 and b == a + 1 and a // 9 == b // 9:
        return True
    if mode == "suit_and_honors":
        for run in (_WINDS_ORDER, _DRAGON_ORDER):
            if a in run and b in run and run.index(b) == run.index(a) + 1:
                return True
    return False


def check_wild_kinds(kinds: tuple, mode: str) -> Optional[str]:
    """A complaint when ``kinds`` is not one kind or two adjacent kinds."""
    if len(kinds) > 2:
        return (f"names {len(kinds)} kinds ({' '.join(TILE_NAMES[t] for t in kinds)}): "
                "财神 are one kind or two adjacent kinds")
    if len(kinds) == 2 and not _adjacent(kinds[0], kinds[1], mode):
        return (f"{TILE_NAMES[kinds[0]]} and {TILE_NAMES[kinds[1]]} are not adjacent "
                f"(wild_adjacency={mode!r})")
    return None


@dataclass(frozen=True)
class _WildOption(Option):
    """The ``wildcards`` option: the 财神 kinds, kept as a tuple of names."""

    def validate(self, value, rules_name: str):
        try:
            kinds = _tile_kinds(value)
        except (InvalidHand, InvalidArgument) as exc:     # (a tile of the option's value: an option error)
            raise InvalidOption(str(exc)) from None
        if len(kinds) > 2:
            raise InvalidOption(f"rule set {rules_name!r}: option wildcards "
                                f"{check_wild_kinds(kinds, 'any')}")
        return tuple(TILE_NAMES[t] for t in kinds)

    def parse(self, text: str, rules_name: str):
        return self.validate(text, rules_name)



def _min_tai(v):
    # 2^(台 - 2) is no whole payout below 2 台: a lower minimum would call a
    # hand legal that settlement() cannot pay
    return None if v >= 2 else "must be at least 2 (a hand pays 2^(台 - 2))"



_OPTIONS = (
    _WildOption("wildcards", (), "the 财神 kinds: one kind ('5p') or two adjacent kinds ('5p6p'); "
                "() = a game without 财神 (no 无财 item then); score(wildcard_tiles=...) may name them "
                "instead, and wildcards=k adds k jokers",
                source="财神 are set by the players: two adjacent kinds (8 tiles) or one kind (4 tiles)"),
    Option("wild_adjacency", "suit", "which two kinds are 'adjacent': 'suit' = consecutive ranks of one "
           "suit (5p+6p); 'suit_and_honors' also E-S, S-W, W-N, C-F, F-P; 'any' = any two kinds",
           source="连着的8张牌 ('8 tiles in a row') does not say what a row is",
           choices=("suit", "suit_and_honors", "any")),
    Option("min_tai", 3, "the minimum to win (起胡), in 台 (2 or more)",
           source="the page says 2 台 once and 3 台 three times (the special-hand rule too): 3",
           kind=int, check=_min_tai),
    Option("special_mode", "max8", "天胡 / 地胡 / 无财 / 全字牌: 'max8' = the hand is worth max(8, ordinary "
           "台), the specials do not stack; 'add8' = each adds its 8 to the ordinary 台",
           source="都算8台 ('all count as 8 台') beside an item list that is added up",
           choices=("max8", "add8")),
    Option("special_min_tai", 3, "the ordinary 台 that 天胡, 地胡 and 无财 need (全字牌 needs none)",
           source="该四种牌型除全字牌实际台数都要在3台以上", kind=int, check=non_negative),
    Option("three_wilds", "at_least", "三财神 (2 台): 'at_least' three 财神 in the hand, or 'exactly' three",
           source="三个财神可以算2台 says three; a hand may hold up to eight",
           choices=("at_least", "exactly")),
    Option("no_wild", "special", "无财: 'special' = 8 台 with the 3-台 condition (自由麻将); 'plus_one' = a "
           "plain 1 台 item (the glossary's 包麻将 value)",
           source="section G gives 8 台; the glossary gives 1 台 '包麻将中'",
           choices=("special", "plus_one")),
    Option("all_honors_tai", 8, "全字牌: 8 (section G) or 7 (the glossary's 辣子)",
           source="G: 8 台; the glossary: 本游戏辣子定为7台", choices=(8, 7)),
    Option("all_honors_any_shape", False, "全字牌 wins with any 14 honor tiles, not only four sets and a pair",
           source="全是风向牌直接算辣子 ('all honors counts directly') may mean no shape is needed",
           kind=bool),
    Option("rob_kong_win", True, "robbing a kong is a legal win (the one win that is not self-drawn)",
           source="只能自摸胡 ('self-drawn wins only'), yet melded kongs can be robbed and 抢杠 scores +1 台",
           kind=bool),
    Option("rob_kong_payer", "all", "who pays a win robbing a kong: 'all' three, as a self-drawn win, or "
           "'konger', who pays all three shares",
           source="the page gives no payout for robbing a kong", choices=("all", "konger")),
    Option("dealer_repeat_multiplier", 2, "the factor on every payout of a 老庄 hand (after a draw or a "
           "dealer win)", source="当老庄时，相应分数都加倍 ('doubled')", kind=int, check=positive),
    Option("dealer_repeat_compound", False, "the 老庄 factor compounds over consecutive repeats "
           "(x2, x4, ...) instead of being x2 for every repeat",
           source="the page does not say whether a second repeat doubles again", kind=bool),
    Option("strict", False, "a flag that cannot hold or that Zhuji does not use is an error instead of being "
           "dropped and reported", source="our choice", kind=bool),
)


def _wildcard_limit(opts):
    """财神由玩家自定: one kind (its 4 tiles) or two adjacent kinds (8 tiles)."""
    n = len(_tile_kinds(opts["wildcards"]))
    if n == 1:
        return 4, "its one 财神 kind (option wildcards): four tiles, 同一的4张牌"
    return 8, "two 财神 kinds at most: eight tiles, 连着的8张牌"


def wild_kinds(rs: RuleSet) -> tuple:
    """The 财神 kinds of a Zhuji rule set (tile indices), checked against
    ``wild_adjacency``."""
    kinds = _tile_kinds(rs.options["wildcards"])
    bad = check_wild_kinds(kinds, rs.options["wild_adjacency"])
    if bad:
        raise InvalidOption(f"rule set 'zhuji': option wildcards {bad}")
    return kinds


# -- payouts ---------------------------------------------------------------------

#: bounds on payout()'s arguments: far above any real hand or run of 老庄
_MAX_TAI = 64
_MAX_REPEATS = 100


def _repeat_factor(opts, dealer_repeats) -> int:
    if isinstance(dealer_repeats, (bool, np.bool_)) or not isinstance(dealer_repeats, (int, np.integer)):
        raise InvalidArgument(f"dealer_repeats must be an int (0 = not a 老庄 hand), got {dealer_repeats!r}")
    if not 0 <= dealer_repeats <= _MAX_REPEATS:
        raise InvalidHand(f"dealer_repeats must be 0 to {_MAX_REPEATS}, got {dealer_repeats}")
    m = int(opts["dealer_repeat_multiplier"])
    if dealer_repeats == 0:
        return 1
    return m ** int(dealer_repeats) if opts["dealer_repeat_compound"] else m


def payout(tai: int, self_drawn: bool = True, konger: Optional[int] = None, dealer_repeats: int = 0,
           rules=None) -> tuple:
    """Point changes ``(winner, left, opposite, right)`` of a won Zhuji hand
    worth ``tai`` 台: each loser pays 2^(台 - 2), the winner gets three times
    that; in a 老庄 hand (``dealer_repeats`` >= 1: the hand after a draw or a
    dealer win) everything is multiplied by ``dealer_repeat_multiplier``
    (compounded per repeat with ``dealer_repeat_compound``).  A win robbing a
    kong (``self_drawn=False``) names the ``konger`` (1 = left, 2 = opposite,
    3 = right); with ``rob_kong_payer="konger"`` the konger pays all three
    shares.  A hand below ``min_tai``, or a win that is neither self-drawn nor
    allowed as robbing a kong, raises ValueError: it is no win."""
    rs = ZHUJI if rules is None else (rules if isinstance(rules, RuleSet) else _get(rules))
    if rs.engine != "zhuji":
        raise InvalidArgument(f"payout is Zhuji's; got rule set {rs.name!r}")
    opts = rs.options
    if isinstance(tai, (bool, np.bool_)) or not isinstance(tai, (int, np.integer)):
        raise InvalidArgument(f"tai must be an int, got {tai!r}")
    if tai > _MAX_TAI:
        # no hand comes near this (each item is a few 台); a larger figure is
        # a caller's mistake, and 2^(台 - 2) of it would exhaust memory
        raise InvalidHand(f"{tai} 台 is more than any Zhuji hand can score (at most {_MAX_TAI} accepted)")
    if tai < opts["min_tai"]:
        raise InvalidHand(f"{tai} 台 is below the minimum of {opts['min_tai']} (min_tai): not a win")
    if not isinstance(self_drawn, (bool, np.bool_)):
        raise InvalidArgument(f"self_drawn must be a bool, got {self_drawn!r}")
    if konger is not None and (isinstance(konger, (bool, np.bool_))
                               or not isinstance(konger, (int, np.integer))):
        raise InvalidArgument(f"konger must be None or 1 (left), 2 (opposite), 3 (right), got {konger!r}")
    unit = (1 << (int(tai) - 2)) * _repeat_factor(opts, dealer_repeats)
    if self_drawn:
        if konger is not None:
            raise InvalidHand("a self-drawn win has no konger")
        return (3 * unit, -unit, -unit, -unit)
    if not opts["rob_kong_win"]:
        raise InvalidHand("Zhuji allows only self-drawn wins (rob_kong_win=False)")
    if isinstance(konger, (bool, np.bool_)) or konger not in (1, 2, 3):
        raise InvalidHand("a win robbing a kong names the konger: 1 (left, 上家), 2 (opposite, 对家) or "
                          f"3 (right, 下家), got {konger!r}")
    if opts["rob_kong_payer"] == "all":
        return (3 * unit, -unit, -unit, -unit)
    out = [3 * unit, 0, 0, 0]
    out[int(konger)] = -3 * unit
    return tuple(out)


def _settle(rs, total, self_drawn, discarder=None, dealer_repeats=0, **_):
    return payout(total, self_drawn, discarder, dealer_repeats, rules=rs)


# -- results -----------------------------------------------------------------------

class TaiResult(FanResult):
    """One item of a Zhuji hand: ``points`` is its 台 per instance, ``count``
    how many times it scored (a pung item counts per pung)."""


class ZhujiScore(CountedResult):
    """The result of ``score(hand, rules="zhuji", ...)``.

    ``total`` (= ``tai``), ``ordinary`` (the ordinary 台: the items without the
    specials), ``fans`` (the items found, :class:`TaiResult`, highest first;
    the qualifying specials included), ``specials`` (the qualifying special
    items), ``notes`` ({item: why it did not count}), ``substitutions`` (the
    tiles the 财神 stood for, as ``Score.substitutions``; None without 财神),
    ``wilds`` (财神 in the hand), ``legal`` / ``why_not_legal``,
    ``ignored_flags``; :meth:`settlement` pays it out.
    """

    __slots__ = ("rules", "total", "ordinary", "self_drawn", "form", "wilds", "substitutions", "_counts",
                 "specials", "notes", "_sets", "_dropped", "why_not_legal")

    flowers = 0

    def __init__(self, rules, total, ordinary, items, specials, notes, sets, form, self_drawn, wilds,
                 substitutions, dropped, why_not_legal):
        self.rules = rules
        self.total = total
        self.ordinary = ordinary
        self._counts = items
        self.specials = specials
        self.notes = notes
        self._sets = sets
        self.form = form
        self.self_drawn = self_drawn
        self.wilds = wilds
        self.substitutions = substitutions
        self._dropped = dropped
        self.why_not_legal = why_not_legal

    @property
    def tai(self) -> int:
        return self.total

    @property
    def points_without_flowers(self) -> int:
        return self.total

    @property
    def fans(self) -> list:
        out = [TaiResult(_ITEM[k].en, _ITEM[k].zh, self._tai_of(k), c, k, _ITEM[k].id)
               for k, c in self._counts.items() if c > 0]
        out.sort(key=lambda f: (-f.points, f.id))
        return out

    def _tai_of(self, key) -> int:
        return _item_tai(key, self.rules.options)

    @property
    def how(self) -> str:
        """How the specials made the total, e.g. ``"max(8, ordinary 4) = 8"``
        ('' without a qualifying special)."""
        if not self.specials:
            return ""
        vals = [self._tai_of(k) for k in self.specials]
        if self.rules.options["special_mode"] == "max8":
            return f"max({', '.join(map(str, vals))}, ordinary {self.ordinary}) = {self.total}"
        return f"ordinary {self.ordinary} + {' + '.join(map(str, vals))} = {self.total}"

    @property
    def items(self) -> dict:
        """{item key: count} of the items found."""
        return dict(self._counts)

    @property
    def is_legal_win(self) -> bool:
        return self.why_not_legal is None

    legal = is_legal_win

    @property
    def decomposition(self) -> tuple:
        """The sets of the chosen reading: ``(kind, tiles, melded)``, melds first."""
        return tuple((kind, set_text(kind, t), melded) for kind, t, melded in self._sets)

    def settlement(self, discarder: Optional[int] = None, *, konger: Optional[int] = None,
                   dealer_repeats: int = 0) -> tuple:
        """``(winner, left, opposite, right)`` point changes (:func:`payout`);
        a win robbing a kong names the konger (``konger=`` or ``discarder=``,
        1 = left, 2 = opposite, 3 = right).  Raises ValueError for a hand that
        is not a legal win (:attr:`why_not_legal`)."""
        if discarder is not None and konger is not None:
            raise InvalidArgument("give konger (or discarder), not both")
        if self.why_not_legal:
            raise InvalidHand(f"no payout: {self.why_not_legal}")
        return payout(self.total, self.self_drawn, konger if konger is not None else discarder,
                      dealer_repeats, rules=self.rules)

    def as_dict(self) -> dict:
        out = {
            "total": self.total,
            "fans": [{"name": f.name, "zh": f.zh, "points": f.points, "count": f.count} for f in self.fans],
            "legal": self.is_legal_win,
            "rules": self.rules.name,
            "ordinary": self.ordinary,
        }
        if self.specials:
            out["how"] = self.how
        if self.substitutions is not None:
            out["substitutions"] = [TILE_NAMES[t] for t in self.substitutions]
        if self.notes:
            out["notes"] = dict(self.notes)
        if self.why_not_legal:
            out["why_not_legal"] = self.why_not_legal
        if self._dropped:
            out["ignored_flags"] = self.ignored_flags
        return out

    def __repr__(self) -> str:
        fans = ", ".join(str(f) for f in self.fans)
        sub = f", substitutions={tuple(TILE_NAMES[t] for t in self.substitutions)}" \
            if self.substitutions is not None else ""
        return f"ZhujiScore(tai={self.total}, legal={self.is_legal_win}, items=[{fans}]{sub})"


def _item_tai(key, opts) -> int:
    if key == "all_honors":
        return int(opts["all_honors_tai"])
    if key == "no_wild" and opts["no_wild"] == "plus_one":
        return 1
    return _ITEM[key].tai


# -- predicates ----------------------------------------------------------------------

def _ordinary_context(n_wild, has_wild_game, kong_repl, robbing, opts) -> dict:
    items = {}
    if kong_repl:
        items["kong_replacement"] = 1
    if robbing:
        items["robbing_kong"] = 1
    if (n_wild >= 3 and opts["three_wilds"] == "at_least") or (n_wild == 3 and opts["three_wilds"] == "exactly"):
        items["three_wilds"] = 1
    if has_wild_game and n_wild == 0 and opts["no_wild"] == "plus_one":
        items["no_wild"] = 1
    return items


def _finish(items: dict, all_honors: bool, n_wild, has_wild_game, heavenly, earthly, opts):
    """(total, ordinary, items with the qualifying specials, specials, notes)."""
    ordinary = sum(_item_tai(k, opts) * c for k, c in items.items())
    cands = []
    if heavenly:
        cands.append("heavenly_hand")
    if earthly:
        cands.append("earthly_hand")
    if all_honors:
        cands.append("all_honors")
    if has_wild_game and n_wild == 0 and opts["no_wild"] == "special":
        cands.append("no_wild")
    if not cands:
        return ordinary, ordinary, items, (), {}
    need = opts["special_min_tai"]
    specials = []
    notes = {}
    for k in cands:
        if k == "all_honors" or ordinary >= need:
            specials.append(k)
        else:
            notes[k] = f"not counted: the ordinary 台 ({ordinary}) is below {need}"
    if not specials:
        return ordinary, ordinary, items, (), notes
    out = dict(items)
    for k in specials:
        out[k] = 1
    vals = [_item_tai(k, opts) for k in specials]
    total = max([ordinary] + vals) if opts["special_mode"] == "max8" else ordinary + sum(vals)
    return total, ordinary, out, tuple(specials), notes


def _tai_of_tiles(full, melds, items, n_wild, has_wild_game, ctx_items, heavenly, earthly, opts):
    """Best (total, ordinary, items, specials, notes, sets) over the regular
    readings of one concrete hand: ``full`` the concealed counts (财神
    replaced), ``items`` the readings of ``_fans.decompose_one``."""
    suits = set()
    honors = False
    for t in range(34):
        if full[t]:
            if t < 27:
                suits.add(t // 9)
            else:
                honors = True
    for m in melds:
        if m.tile < 27:
            suits.add(m.tile // 9)
        else:
            honors = True
    base = dict(ctx_items)
    if len(suits) == 1:
        base["half_flush" if honors else "full_flush"] = 1
    all_honors = not suits
    best = None
    meld_sets = [(m.kind, m.tile, True) for m in melds]
    for form, reading in items:
        if form != "regular":
            continue
        it = dict(base)
        n_chow = sum(1 for m in melds if m.kind == "chow")
        pung_tiles = [m.tile for m in melds if m.kind != "chow"]
        for kind, t in reading:
            if kind == "chow":
                n_chow += 1
            elif kind == "pung":
                pung_tiles.append(t)
        if n_chow == 4:
            it["all_chows"] = 1
        elif len(pung_tiles) == 4:
            it["all_pungs"] = 1
        d = sum(1 for t in pung_tiles if t in _DRAGONS)
        if d:
            it["dragon_pung"] = d
        e = sum(1 for t in pung_tiles if t == _EAST)
        if e:
            it["east_pung"] = e
        res = _finish(it, all_honors, n_wild, has_wild_game, heavenly, earthly, opts)
        if best is None or res[0] > best[0]:
            sets = tuple(meld_sets) + tuple((kind, t, False) for kind, t in reading)
            best = res + (sets, "regular")
    return best


# -- the 财神 search -------------------------------------------------------------------
#
# A hand's 台 depend on its sets only through a few features: how many chows
# and pungs (kongs), how many dragon and East pungs, and which suits and
# whether honors appear.  So instead of scoring every multiset of tiles the
# 财神 can stand for (thousands with 6-8 财神), the search builds the sets
# themselves: it takes the lowest real tile not yet placed and tries every
# set or pair that can hold it (a 财神 filling each missing tile, no kind past
# its copies), and once every real tile is placed, the sets made of 财神
# alone are chosen by their features only (one tile of each class is enough:
# the lowest with room).  The best total found is then scored as a concrete
# hand by the same code as a hand without 财神.

_SET_CLASSES = None
#: from this many 财神 on, the search below replaces scoring every winning
#: substitution (with 4 the substitutions are fewer than the search's
#: branches: 0.6 ms against 2 ms a hand; with 8, 170 ms against 3 ms)
_SEARCH_FROM = 5


def _wild_set_classes():
    """Candidate sets made of 财神 alone, grouped by what they add to the 台:
    {class: [(kind, tiles), ...]} with the lowest tiles first."""
    global _SET_CLASSES
    if _SET_CLASSES is None:
        classes = {}
        for t in range(34):
            if t in _DRAGONS or t == _EAST:
                key = ("pung", t)
            elif t >= 27:
                key = ("pung", "wind")
            else:
                key = ("pung", t // 9)
            classes.setdefault(key, []).append(("pung", (t, t, t)))
        for s in range(27):
            if s % 9 <= 6:
                classes.setdefault(("chow", s // 9), []).append(("chow", (s, s + 1, s + 2)))
        pairs = {}
        for t in range(34):
            pairs.setdefault(3 if t >= 27 else t // 9, []).append(t)
        _SET_CLASSES = (list(classes.values()), list(pairs.values()))
    return _SET_CLASSES


def _features(kind, t):
    """(chows, pungs, dragon pungs, East pungs, suit/honor bit) of one set."""
    bit = 8 if t >= 27 else 1 << (t // 9)
    if kind == "chow":
        return 1, 0, 0, 0, bit
    return 0, 1, int(t in _DRAGONS), int(t == _EAST), bit


def _best_substitution(real, k, melds, caps, total_of):
    """(best total, the 34 counts the k 财神 stand for) over every way of
    completing ``real`` (34 counts, the 财神 removed) beside ``melds`` into
    four sets and a pair, no kind past ``caps``; None when none does.
    ``total_of(chows, pungs, dragon pungs, East pungs, suit bits)`` is the
    hand's total for those features (memoised by the caller)."""
    left = [int(x) for x in real]
    cap = [int(x) for x in caps]
    used = left[:]                         # copies placed (real + stand-ins), per kind
    sub = [0] * 34                         # what the 财神 stand for
    need = 4 - len(melds)
    f0 = [0, 0, 0, 0, 0]
    for m in melds:
        f = _features("chow" if m.kind == "chow" else "pung", m.tile)
        for i in range(4):
            f0[i] += f[i]
        f0[4] |= f[4]
    best = [None, None]
    set_classes, pair_classes = _wild_set_classes()

    def done(f):
        tot = total_of(*f)
        if best[0] is None or tot > best[0]:
            best[0], best[1] = tot, sub[:]

    def add(f, kind, t):
        g = _features(kind, t)
        return [f[0] + g[0], f[1] + g[1], f[2] + g[2], f[3] + g[3], f[4] | g[4]]

    def finish(n_sets, have_pair, f, k_left):
        """The sets left, then the pair if it is left, made of 财神 alone.
        Sets first: a pair can then take any kind with room, while a dragon
        or East pung has one kind only."""
        if n_sets == need:
            if have_pair:
                done(f)
                return
            for cls in pair_classes:
                for t in cls:
                    if used[t] + 2 <= cap[t]:
                        used[t] += 2
                        sub[t] += 2
                        done(f[:4] + [f[4] | (8 if t >= 27 else 1 << (t // 9))])
                        used[t] -= 2
                        sub[t] -= 2
                        break
            return
        for ci in range(finish.first[n_sets], len(set_classes)):
            for kind, tiles in set_classes[ci]:
                if all(used[u] + tiles.count(u) <= cap[u] for u in set(tiles)):
                    for u in tiles:
                        used[u] += 1
                        sub[u] += 1
                    finish.first[n_sets + 1] = ci          # classes in order: each choice once
                    finish(n_sets + 1, have_pair, add(f, kind, tiles[0]), k_left - 3)
                    for u in tiles:
                        used[u] -= 1
                        sub[u] -= 1
                    break
    finish.first = [0] * 6

    def place(t, n_sets, pair, f, k_left):
        while t < 34 and not left[t]:
            t += 1
        if t == 34:
            if 3 * (need - n_sets) + (0 if pair else 2) == k_left:
                finish.first[n_sets] = 0
                finish(n_sets, pair, f, k_left)
            return
        # the pair holding t: one or two real copies, a 财神 for the other
        if not pair:
            for j in ((2, 1) if left[t] >= 2 else (1,)):
                if 2 - j <= k_left and used[t] + 2 - j <= cap[t]:
                    left[t] -= j
                    used[t] += 2 - j
                    sub[t] += 2 - j
                    place(t, n_sets, True, f[:4] + [f[4] | (8 if t >= 27 else 1 << (t // 9))], k_left - 2 + j)
                    left[t] += j
                    used[t] -= 2 - j
                    sub[t] -= 2 - j
        if n_sets == need:
            return
        # a pung holding t
        for j in range(min(3, left[t]), 0, -1):
            w = 3 - j
            if w <= k_left and used[t] + w <= cap[t]:
                left[t] -= j
                used[t] += w
                sub[t] += w
                place(t, n_sets + 1, pair, add(f, "pung", t), k_left - w)
                left[t] += j
                used[t] -= w
                sub[t] -= w
        # a chow holding t (its tiles below t are 财神: t is the lowest real tile left)
        if t >= 27:
            return
        for s in range(max(t - 2, t - t % 9), min(t, t - t % 9 + 6) + 1):
            others = [u for u in (s, s + 1, s + 2) if u != t]
            # each other tile: a real copy (when one is left and above t) or a 财神
            for mask in range(4):
                w = 0
                ok = True
                for i, u in enumerate(others):
                    if mask >> i & 1:
                        if u < t or not left[u]:
                            ok = False
                            break
                    else:
                        w += 1
                        if used[u] + 1 > cap[u]:
                            ok = False
                            break
                if not ok or w > k_left:
                    continue
                left[t] -= 1
                for i, u in enumerate(others):
                    if mask >> i & 1:
                        left[u] -= 1
                    else:
                        used[u] += 1
                        sub[u] += 1
                place(t, n_sets + 1, pair, add(f, "chow", s), k_left - w)
                left[t] += 1
                for i, u in enumerate(others):
                    if mask >> i & 1:
                        left[u] += 1
                    else:
                        used[u] -= 1
                        sub[u] -= 1

    place(0, 0, False, f0, k)
    return None if best[0] is None else (best[0], best[1])


def _shapeless_all_honors(real, k, melds, caps, n_wild, has_wild_game, ctx_items, heavenly, earthly, opts):
    """全字牌 without a shape (option all_honors_any_shape): the 财神 stand
    for honors with a copy left.  None when some tile is not an honor."""
    if any(real[t] for t in range(27)) or any(m.tile < 27 for m in melds):
        return None
    sub = []
    room = [int(caps[t]) - int(real[t]) for t in range(34)]
    for t in range(27, 34):
        while room[t] > 0 and len(sub) < k:
            sub.append(t)
            room[t] -= 1
    if len(sub) < k:
        return None
    res = _finish(dict(ctx_items), True, n_wild, has_wild_game, heavenly, earthly, opts)
    sets = tuple((m.kind, m.tile, True) for m in melds)
    return res + (sets, "all_honors"), tuple(sub)


#: How the kong flags that cannot hold (mjfast.rules.base.impossible_flags) are worded here.
_DROP_REASONS = {"kong_self_drawn": "dropped: a win on a kong replacement tile needs a kong among the melds, "
                                    "and there is none",
                 "kong_discard": "dropped: robbing a kong needs a winning tile that is not also in the hand "
                                 "or its melds (the konger holds the other three)"}


def _context(h, self_drawn, kong, heavenly, earthly, opts, wild_set):
    """(kong_replacement, robbing, heavenly, earthly, dropped {flag: reason})."""
    dropped = {}
    win = int(h.win_tile)
    kong_repl = robbing = False
    if kong:
        if not self_drawn and win in wild_set:
            dropped["kong"] = "dropped: a 财神 never joins a kong, so it cannot be robbed from one"
        else:
            dropped = dropped_reasons(impossible_flags(h, self_drawn=self_drawn, kong=True), self_drawn,
                                      _DROP_REASONS)
            kong_repl, robbing = not dropped and self_drawn, not dropped and not self_drawn
    for k, v in (("heavenly_hand", heavenly), ("earthly_hand", earthly)):
        if not v:
            continue
        if not self_drawn:
            dropped[k] = "dropped: it is a self-drawn win by definition"
        elif h.melds:
            dropped[k] = "dropped: it is won on the dealt tiles (or the first draw), before any meld"
        elif kong_repl:
            dropped[k] = "dropped: it is won before any kong"
    if heavenly and earthly and "heavenly_hand" not in dropped and "earthly_hand" not in dropped:
        dropped["earthly_hand"] = ("dropped: heavenly_hand is the dealer's win and earthly_hand a non-dealer's; "
                                   "both cannot hold")
    return (kong_repl, robbing, heavenly and "heavenly_hand" not in dropped,
            earthly and "earthly_hand" not in dropped, dropped)


def score_zhuji(h, rs, *, self_drawn=False, kong=False, heavenly_hand=False, earthly_hand=False,
                wildcards=None, wildcard_tiles=None, dropped=None, held_wilds=None) -> ZhujiScore:
    """Score a parsed hand ``h`` (a :class:`~mjfast.Hand` with its winning
    tile, 14 tiles counting 3 per meld, the 财神 among its concealed tiles)
    under Zhuji rules ``rs``.  ``wildcard_tiles``: the 财神 kinds (else the
    option ``wildcards``); ``wildcards=k``: k jokers beside the tiles (a
    game whose option names no 财神).  Raises NotWinning when no substitution
    completes the hand.

    ``held_wilds=n``: the hand is concrete (every 财神 already replaced by
    the tile it stands for) and n of its tiles were 财神: no substitution is
    searched, the items that count 财神 see n.  The tests score every
    substitution this way to check the search."""
    opts = rs.options
    kinds = wild_kinds(rs)
    if wildcard_tiles is not None:
        given = check(None, wildcard_tiles, False).kinds
        bad = check_wild_kinds(given, opts["wild_adjacency"])
        if bad:
            raise InvalidHand(f"wildcard_tiles {bad}")
        if kinds and tuple(given) != kinds:
            raise InvalidHand(f"wildcard_tiles ({' '.join(TILE_NAMES[t] for t in given)}) differ from the "
                              f"rule set's option wildcards ({' '.join(TILE_NAMES[t] for t in kinds)})")
        kinds = tuple(given)
    jokers = 0
    if wildcards is not None:
        if kinds:
            raise InvalidHand("wildcards=k (jokers) with 财神 kinds named: give one or the other")
        jokers = check(wildcards, None, False).k
    if h.n_tiles + jokers != 14:
        raise InvalidHand(f"a winning hand has 14 tiles counting 3 per meld (财神 included); got "
                          f"{len(h.tiles)} concealed" + (f" + {jokers} jokers" if jokers else "")
                          + f" + {len(h.melds)} melds = {h.n_tiles + jokers}")
    wild_set = set(kinds)
    for m in h.melds:
        if wild_set & set(m.tiles()):
            raise InvalidHand(f"a meld holds a 财神 ({' '.join(TILE_NAMES[t] for t in sorted(wild_set))}): "
                              "in Zhuji a 财神 is never claimed into a chow, pung or kong (财神不能补杠)")
    real = np.array(h.counts, dtype=np.uint8)
    n_wild = jokers
    if held_wilds is not None:
        if wildcards is not None or wildcard_tiles is not None:
            raise InvalidHand("held_wilds is for a concrete hand: no wildcards or wildcard_tiles beside it")
        n_wild = int(held_wilds)
        kinds, wild_set = (), set()
    for t in kinds:
        n_wild += int(real[t])
        real[t] = 0
    rs.check_wildcards(n_wild, "财神" if kinds or held_wilds is not None else "wildcards")
    has_wild_game = bool(kinds) or wildcards is not None or held_wilds is not None
    win = int(h.win_tile)
    win_wild = win in wild_set
    kong_repl, robbing, heavenly, earthly, drop = _context(h, self_drawn, kong, heavenly_hand, earthly_hand,
                                                           opts, wild_set)
    if dropped:
        drop.update(dropped)
    ctx_items = _ordinary_context(n_wild, has_wild_game, kong_repl, robbing, opts)
    n_melds = len(h.melds)
    melds = h.melds
    meld_copies = np.asarray(h.all_counts, dtype=np.int16) - np.asarray(h.counts, dtype=np.int16)
    caps = np.clip(4 - meld_copies, 0, 4).astype(np.uint8)
    best = None
    best_sub = None
    if n_wild == 0 or held_wilds is not None:
        subs = [bytes(34)]
    elif n_wild < _SEARCH_FROM:
        # few 财神: scoring every winning substitution is quicker than the search
        subs = _wild.win_substitutions(real, n_wild, n_melds, -1, caps)
    else:
        memo: dict = {}

        def total_of(n_chow, n_pung, dragons, east, bits):
            key = (n_chow, n_pung, dragons, east, bits)
            tot = memo.get(key)
            if tot is None:
                it = dict(ctx_items)
                suits = bin(bits & 7).count("1")
                if suits == 1:
                    it["half_flush" if bits & 8 else "full_flush"] = 1
                if n_chow == 4:
                    it["all_chows"] = 1
                elif n_pung == 4:
                    it["all_pungs"] = 1
                if dragons:
                    it["dragon_pung"] = dragons
                if east:
                    it["east_pung"] = east
                tot = memo[key] = _finish(it, suits == 0, n_wild, has_wild_game, heavenly, earthly, opts)[0]
            return tot

        found = _best_substitution(real, n_wild, melds, caps, total_of)
        subs = [] if found is None else [bytes(found[1])]
    for sub in subs:
        s = np.frombuffer(sub, dtype=np.uint8)
        full = real + s
        readings = _fans.decompose_one(full, n_melds)
        if not readings:
            continue
        res = _tai_of_tiles(full, melds, readings, n_wild, has_wild_game, ctx_items, heavenly, earthly, opts)
        if res is not None and (best is None or res[0] > best[0]):
            best, best_sub = res, s
    if opts["all_honors_any_shape"]:
        got = _shapeless_all_honors(real, 0 if held_wilds is not None else n_wild, melds, caps, n_wild, has_wild_game, ctx_items, heavenly,
                                    earthly, opts)
        if got is not None and (best is None or got[0][0] > best[0]):
            best = got[0]
            best_sub = np.zeros(34, np.uint8)
            for t in got[1]:
                best_sub[t] += 1
    if best is None:
        raise NotWinning(f"not a winning hand under rule set 'zhuji' "
                         f"({n_wild} 财神, four sets and a pair needed): {h}")
    total, ordinary, items, specials, notes, sets, form = best
    subs_out = None
    if held_wilds is not None:
        subs_out = None
    elif has_wild_game:
        assert best_sub is not None     # set with best
        stood = [t for t in range(34) for _ in range(int(best_sub[t]))]
        if win_wild and stood:
            # the winning 财神 stood for one of these; none of Zhuji's items
            # depends on the winning tile, so the first is as good as any
            first = stood.pop(0)
            stood = [first] + stood
        subs_out = tuple(stood)
    why = None
    if not self_drawn and not robbing:
        why = "Zhuji allows only self-drawn wins" + (" and robbing a kong" if opts["rob_kong_win"] else "")
    elif robbing and not opts["rob_kong_win"]:
        why = "Zhuji allows only self-drawn wins (rob_kong_win=False)"
    elif total < opts["min_tai"]:
        why = f"{total} 台 is below the minimum of {opts['min_tai']} (min_tai)"
    return ZhujiScore(rs, total, ordinary, items, specials, notes, sets, form, bool(self_drawn), n_wild,
                      subs_out, drop, why)


# -- the entry point of score() ----------------------------------------------------



def score_entry(hand, rs, ctx: dict, rule_flags: dict, strict, wild: dict):
    """``score(hand, rules=<zhuji>, ...)`` (the rule set's ``score_fn``): the
    context checked, flags Zhuji does not use reported (an error under
    ``strict``), then :func:`score_zhuji`."""
    wildcards, wildcard_tiles, wild_fifth = wild["wildcards"], wild["wildcard_tiles"], wild["wild_fifth"]
    check_flag_names(rule_flags)
    extra = {k: check_flag(v, k) for k, v in rule_flags.items()}
    strict = check_flag(strict, "strict") or rs.strict
    if not isinstance(wild_fifth, (bool, np.bool_)):
        raise InvalidArgument(f"wild_fifth must be a bool, got {wild_fifth!r}")
    if wild_fifth:
        raise InvalidHand("Zhuji keeps the four-copy rule: wild_fifth=True is not supported")
    _, _, _, flowers = check_context(ctx["self_drawn"], ctx["fourth_tile"], ctx["kong"], ctx["last_tile"],
                                     ctx["seat_wind"], ctx["round_wind"], ctx["flowers"])
    if isinstance(hand, str):
        h = parse_hand(hand)
    elif isinstance(hand, Hand):
        h = hand
    else:
        raise InvalidArgument(f"hand must be a notation string or a Hand, got {type(hand).__name__}")
    if not h.tiles:
        raise InvalidHand("a winning hand needs a winning tile (the last concealed tile)")
    if flowers or h.flowers:
        raise InvalidHand("Zhuji mahjong has no flowers")
    dropped = ignored_flags(rs, {**ctx, **extra})
    if ctx["seat_wind"] not in ("E", 0) or ctx["round_wind"] not in ("E", 0):
        dropped["winds"] = "ignored: in Zhuji East scores 2 台 for every seat, whatever the winds"
    out = score_zhuji(h, rs, self_drawn=bool(ctx["self_drawn"]), kong=bool(ctx["kong"]),
                      heavenly_hand=extra.get("heavenly_hand", False), earthly_hand=extra.get("earthly_hand", False),
                      wildcards=wildcards, wildcard_tiles=wildcard_tiles, dropped=dropped)
    if strict and out.ignored_flags:
        raise InvalidHand(strict_message(out.ignored_flags))
    return out


ZHUJI = register(RuleSet(
    name="zhuji",
    title="诸暨麻将: Zhuji mahjong, 台 counting with 财神 wildcards, self-drawn wins only",
    table=ZHUJI_TABLE,
    hand_size=13,
    forms=("regular",),
    flags=ZHUJI_FLAGS,
    option_specs=_OPTIONS,
    flowers_count_to_minimum=True,
    settlement_text=("each of the three losers pays 2^(台 - 2), the winner gets 3 x 2^(台 - 2); "
                     "a 老庄 hand (after a draw or a dealer win) pays x dealer_repeat_multiplier"),
    engine="zhuji",
    unit="台",
    settle_fn=_settle,
    score_fn=score_entry,
    engine_impl=ZhujiEngine(),
    ignored_wording="has no item that uses it",
    max_wildcards_of=_wildcard_limit,
    check_options=lambda o: (lambda bad: f"option wildcards {bad}" if bad else None)(
        check_wild_kinds(_tile_kinds(o["wildcards"]), o["wild_adjacency"])),
    source="the 诸暨麻将 rule page (an online game's help page), section 台数算法 A-G and its glossary",
))
