"""Old Shanghai 番/和 scoring (``rules="shanghai_old"``): predicates,
options, the 百搭 wildcards and the settlement.

The table (items, units, values) is data in :mod:`.table`.  A hand
is scored like this (docs/rules.md, "shanghai_old"):

1. with wildcards, every substitution that completes the hand is tried (and,
   when the winning tile is a wildcard, every tile it may stand for);
2. for each, every reading of the concealed tiles, and every set the winning
   tile may have completed (the winner arranges the hand: a pung completed
   by a discard is a melded pung, a chow completed in the middle a closed
   wait, the pair a pair wait) is scored: 和 items, 番 items, limit hands;
3. total = (和 + base) x 2^番, rounded up to a multiple of ``round_to``,
   capped at ``limit`` (option ``cap``); a limit hand scores ``limit``;
4. the highest total is kept (ties: a limit hand, then the higher uncapped
   figure, then the first met), and with it the tiles the wildcards stood for.

The rule text gives no exclusions (不计): every item that holds scores, so
番 accumulate (Little Three Dragons also scores its two dragon pungs).
The predicates are plain Python: this rule set is scored one hand at a time
(``score_batch`` runs it row by row).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ... import _core, _fans, _wild
from ...errors import InvalidArgument, InvalidHand, NotWinning
from ...hand import Hand, parse_hand
from ...scoring.records import check_context, check_flag
from ...tiles import TILE_NAMES, set_text
from ..base import (CountedResult, FanResult, Option, RuleSet, check_flag_names, dropped_reasons,
                    ignored_flags, impossible_flags, non_negative, positive, register, strict_message,
                    check_engine, check_settle_args)
from .engine import ShanghaiEngine
from .table import ITEMS, SHANGHAI_OLD_TABLE, UNITS
from ...analysis.wild import check as check_wild

__all__ = ["SHANGHAI_OLD", "SHANGHAI_OLD_TABLE", "ShanghaiScore", "ScoredItem", "score_shanghai",
           "settle_shanghai", "SHANGHAI_FLAGS"]

_ITEM = {i.key: i for i in ITEMS}

# tile indices
_1P, _5P, _2S = 9, 13, 19
_RED, _GREEN, _WHITE = 31, 32, 33
_WINDS = range(27, 31)
_DRAGONS = (31, 32, 33)
#: 全素 tiles: 发, the winds, 2 3 4 6 8 bamboo.
_PLAIN = frozenset((19, 20, 21, 23, 25, 27, 28, 29, 30, _GREEN))
#: 全绿 tiles: 发 and 2 3 4 6 8 bamboo.
_GREEN_TILES = frozenset((19, 20, 21, 23, 25, _GREEN))

#: The context flags shanghai_old uses (keyword arguments of score()).
SHANGHAI_FLAGS = ("self_drawn", "kong", "last_tile", "seat_wind", "round_wind", "flowers",
                  "heavenly_hand", "earthly_hand", "declared_ready", "wild_win")


_OPTIONS = (
    Option("base", 20, "底和: the base 和 added to the hand's 和 before doubling",
           source="the text: originally 10 和; in current use 20 to 50", kind=int, check=non_negative),
    Option("limit", 500, "满贯: the most a hand scores (with cap), and what a limit hand scores",
           source="the text: set by the table, commonly 500 和", kind=int, check=positive),
    Option("cap", True, "totals above the limit are capped at it; false: no cap (a limit hand then "
           "scores the larger of the limit and its own figure)",
           source="the text: once the limit is reached the hand is 满贯 (封顶); the issue makes it an option",
           kind=bool),
    Option("round_to", 10, "the final figure is rounded up to a multiple of this (1 = no rounding)",
           source="the text: current practice rounds odd 和 up, only the final figure (32 x 2^3 = 256 -> 260)",
           kind=int, check=positive),
    Option("double_wind", True, "a wind that is both seat and round wind counts twice: 2 番 for its "
           "pung, 2 x 2 和 for its pair; false: once",
           source="the text counts 番 per kind among 中 发 白, seat wind, round wind; silent on a wind "
                  "that is both", kind=bool),
    Option("missing_suit_scores", True, "缺一门 (exactly one suit absent) scores 1 番",
           source="the text lists it, and adds that it probably should not score", kind=bool),
    Option("mixed_steps_suits", "not_one_suit", "三节拉（混）: 'not_one_suit' = the three pungs not all "
           "of one suit; 'three_suits' = one in each suit",
           source="the text: 'mixed' suits, with an example in three suits",
           choices=("not_one_suit", "three_suits")),
    Option("old_young", "strict", "老少和: 'strict' = every set a 123 or 789 chow (both present), the "
           "pair a 1 or 9, no honors; 'loose' = a 123 and a 789 chow and no pung or kong",
           source="the text: 123 and 789 'tiger' chows, no pungs, 'stricter than 清带幺'",
           choices=("strict", "loose")),
    Option("true_kong", "replacement", "抢真杠: 'replacement' = a self-drawn win on 2s drawn as a kong's "
           "replacement tile (as written); 'robbing' = robbing a kong of 2s",
           source="the text says 'drawing 2s off a kong', though the name says robbing (抢) a kong",
           choices=("replacement", "robbing")),
    Option("wild_true_tiles", False, "a 百搭 standing for 5p, 1p, 2s (the winning tile of the 真 limit "
           "hands) or for a tile of 风花雪月 counts for those limit hands",
           source="our reading: the names stress the real tile (真); the text is silent on 百搭", kind=bool),
    Option("edge_wait", False, "边张 (the 3 of 123, the 7 of 789) adds 2 和",
           source="the text defines 边张 but adds 2 和 only for 自摸, 嵌档 and 麻将头", kind=bool),
    Option("unique_wait", False, "嵌档, 麻将头 (and 边张) only when the hand had a single winning tile; "
           "false: whenever the winning tile completes that set in the reading chosen",
           source="the text gives the extras by shape only", kind=bool),
    Option("flower_he", 4, "和 per flower in the winning hand (0 = flowers score nothing)",
           source="the set has four flowers; the scoring passage is silent on them (4 each is the "
                  "classical value)", kind=int, check=non_negative),
    Option("payment", "all_pay", "who pays the total: 'all_pay' = each of the other three; "
           "'discarder_pays' = the discarder alone on a discard win (all three on a self-drawn win)",
           source="the text gives no settlement", choices=("all_pay", "discarder_pays")),
    Option("strict", False, "a flag that cannot hold or that the rule set does not use is an error "
           "instead of being dropped and reported", source="our choice", kind=bool),
)


# -- the result ------------------------------------------------------------------

@dataclass(frozen=True)
class ScoredItem(FanResult):
    """One scored item: ``points`` is its value per instance in its
    ``unit`` ("fan" 番, "he" 和, "limit"), ``count`` how many times it scored."""
    unit: str

    def __str__(self) -> str:
        times = f" x{self.count}" if self.count > 1 else ""
        unit = {"fan": " 番", "he": " 和", "limit": ""}[self.unit]
        val = "满贯" if self.unit == "limit" else f"{self.points}{unit}"
        return f"{self.name} ({self.zh}) {val}{times}"


class ShanghaiScore(CountedResult):
    """The result of ``score(hand, rules="shanghai_old")``.

    ``total`` (after rounding and the cap), ``he`` (the hand's 和, flowers
    included, base excluded), ``base``, ``fan`` (番), ``raw`` = (he + base)
    x 2^fan, ``limit_hand`` (the keys of the limit hands held, empty if none),
    ``capped``; ``fans`` lists every item (limit hands, then 番, then 和);
    ``substitutions`` the tiles the wildcards stood for (None without).
    """

    __slots__ = ("rules", "total", "he", "base", "fan", "raw", "limit_hand", "capped", "form", "self_drawn",
                 "flowers", "_counts", "_sets", "_dropped", "_subs")

    def __init__(self, rules, total, he, fan, raw, limit_hand, capped, form, counts, sets, self_drawn,
                 flowers, dropped, subs):
        self.rules = rules
        self.total = total
        self.he = he
        self.base = rules.options["base"]
        self.fan = fan
        self.raw = raw
        self.limit_hand = limit_hand
        self.capped = capped
        self.form = form
        self.self_drawn = self_drawn
        self.flowers = flowers
        self._counts = counts
        self._sets = sets
        self._dropped = dropped
        self._subs = subs

    @property
    def substitutions(self):
        """With wildcards: the tiles (indices) the wildcards stood for, the
        winning tile's first when it was a wildcard, the others ascending;
        None without wildcards."""
        return self._subs

    @property
    def fans(self) -> list:
        out = []
        for key, c in self._counts.items():
            it = _ITEM[key]
            pts = self.rules.options["flower_he"] if key == "flower" else it.value
            out.append(ScoredItem(it.en, it.zh, pts, c, key, it.id, it.unit))
        order = {"limit": 0, "fan": 1, "he": 2}
        out.sort(key=lambda f: (order[f.unit], -f.points, f.id))
        return out

    items = fans

    @property
    def points_without_flowers(self) -> int:
        return self.total

    @property
    def is_legal_win(self) -> bool:
        """Always true: the rule text sets no minimum."""
        return self.rules.legal(self.total, 0)

    legal = is_legal_win

    @property
    def decomposition(self) -> tuple:
        """The sets of the reading used: ``(kind, tiles, melded)``, melds
        first; a pung completed by the winning discard is melded."""
        return tuple((kind, set_text(kind, t), melded) for kind, t, melded in self._sets)

    def settlement(self, discarder: Optional[int] = None, **kw) -> tuple:
        """Point changes (winner, left, opposite, right): see option ``payment``."""
        return self.rules.settle(self.total, self.self_drawn, discarder, **kw)

    def as_dict(self) -> dict:
        out = {"total": self.total, "he": self.he, "base": self.base, "fan": self.fan,
               "limit": list(self.limit_hand),
               "fans": [{"name": f.name, "zh": f.zh, "points": f.points, "count": f.count, "unit": f.unit}
                        for f in self.fans],
               "legal": self.is_legal_win, "rules": self.rules.name}
        if self._subs is not None:
            out["substitutions"] = [TILE_NAMES[t] for t in self._subs]
        if self._dropped:
            out["ignored_flags"] = self.ignored_flags
        return out

    def __repr__(self) -> str:
        fans = ", ".join(str(f) for f in self.fans)
        return (f"ShanghaiScore(total={self.total}, he={self.he}, base={self.base}, fan={self.fan}"
                + (f", limit={list(self.limit_hand)}" if self.limit_hand else "") + f", items=[{fans}])")


# -- settlement --------------------------------------------------------------------

def settle_shanghai(rs, total, self_drawn, discarder=None, **_):
    """(winner, left, opposite, right) point changes.  ``all_pay``: each of
    the other three pays the total; ``discarder_pays``: on a discard win the
    discarder alone pays it (1 = left, 2 = opposite, 3 = right)."""
    check_engine(rs, 'shanghai_old', "settle_shanghai")
    t, self_drawn, discarder = check_settle_args(total, self_drawn, discarder)
    if self_drawn:
        if discarder is not None:
            raise ValueError("a self-drawn win has no discarder")
        return (3 * t, -t, -t, -t)
    if discarder is None and rs.options["payment"] == "all_pay":
        return (3 * t, -t, -t, -t)
    if isinstance(discarder, (bool, np.bool_)) or discarder not in (1, 2, 3):
        raise ValueError("on a discard win give discarder=1 (left, 上家), 2 (opposite, 对家) "
                         f"or 3 (right, 下家), got {discarder!r}")
    if rs.options["payment"] == "all_pay":
        return (3 * t, -t, -t, -t)
    out = [t, 0, 0, 0]
    out[int(discarder)] = -t
    return tuple(out)


# -- predicates ---------------------------------------------------------------------

def _knitted_steps(pungs, opts):
    """'pure' / 'mixed' / None: three suit pungs of ranks 1-4-7, 2-5-8 or 3-6-9."""
    suited = [t for t in pungs if t < 27]
    found = None
    n = len(suited)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                trio = (suited[i], suited[j], suited[k])
                ranks = sorted(t % 9 for t in trio)
                if not (ranks[1] == ranks[0] + 3 and ranks[2] == ranks[1] + 3):
                    continue
                suits = {t // 9 for t in trio}
                if len(suits) == 1:
                    return "pure"
                if len(suits) == 3 or opts["mixed_steps_suits"] == "not_one_suit":
                    found = "mixed"
    return found


def _roles(t, seat, rnd, double):
    """How many value roles a tile has (dragon, seat wind, round wind)."""
    if t in _DRAGONS:
        return 1
    r = (t == seat) + (t == rnd)
    return r if double else min(r, 1)


def _regular_fans(sets, pair, win_set, ctx, opts, fans, limits, hand):
    """番 and limit hands of a regular reading.  ``sets``: (kind, tile,
    concealed) of the four sets after the winning tile is placed."""
    pungs = [t for k, t, c in sets if k in ("pung", "kong")]
    concealed = [t for k, t, c in sets if k in ("pung", "kong") and c]
    chows = sorted(t for k, t, c in sets if k == "chow")
    for t in pungs:
        if t in _DRAGONS:
            fans["dragon_pung"] = fans.get("dragon_pung", 0) + 1
        if t == ctx["seat"]:
            fans["seat_wind_pung"] = fans.get("seat_wind_pung", 0) + 1
        if t == ctx["round"] and (t != ctx["seat"] or opts["double_wind"]):
            fans["round_wind_pung"] = fans.get("round_wind_pung", 0) + 1
    dragons = sum(1 for t in pungs if t in _DRAGONS)
    winds = sum(1 for t in pungs if 27 <= t <= 30)
    if dragons == 3:
        limits.add("big_three_dragons")
    elif dragons == 2 and pair in _DRAGONS:
        fans["little_three_dragons"] = 1
    if winds == 4:
        limits.add("big_four_winds")
    elif winds == 3 and 27 <= pair <= 30:
        fans["little_four_winds"] = 1
    steps = _knitted_steps(pungs, opts)
    if steps == "pure":
        fans["pure_knitted_pungs"] = 1
    elif steps == "mixed":
        fans["mixed_knitted_pungs"] = 1
    if len(pungs) == 4:
        ranks = [t % 9 + 1 for t in pungs + [pair] if t < 27]
        if len(ranks) == 5 and all(r % 2 == 0 for r in ranks):
            fans["all_even_pungs"] = 1
        if len(ranks) == 5 and all(r % 2 == 1 for r in ranks):
            fans["all_odd_pungs"] = 1
        if not concealed and win_set is not None and win_set[0] == "pung" and not ctx["self_drawn"]:
            fans["four_claimed_pungs"] = 1
    if len(concealed) == 4:
        fans["four_concealed_pungs"] = 1
    for r in range(9):
        if all(s * 9 + r in concealed for s in range(3)):
            fans["triple_concealed_pungs"] = 1
    starts = {t % 9: set() for t in chows}
    for t in chows:
        starts[t % 9].add(t // 9)
    if any(a // 9 != b // 9 != c // 9 != a // 9 for a in chows if a % 9 == 0 for b in chows if b % 9 == 3
           for c in chows if c % 9 == 6):
        fans["mixed_straight"] = 1
    if any(len(s) == 3 for s in starts.values()):
        fans["three_suit_chows"] = 1
    if any(all(s * 9 + r in chows for r in (0, 3, 6)) for s in range(3)):
        fans["pure_straight"] = 1
    triple = any(chows.count(t) >= 3 for t in chows)
    sp = sorted(t for t in pungs if t < 27)
    shifted = any(t + 1 in sp and t + 2 in sp and t // 9 == (t + 2) // 9 for t in sp)
    if triple or shifted:
        fans["triple_chow_or_shifted_pungs"] = 1
    honors = hand["honors"]
    term = lambda t: t < 27 and t % 9 in (0, 8)   # noqa: E731
    if not honors and term(pair) and all(
            (term(t) or term(t + 2)) if k == "chow" else term(t) for k, t, c in sets):
        fans["pure_outside"] = 1
    tigers = [t % 9 for t in chows]
    if not pungs and 0 in tigers and 6 in tigers:
        if opts["old_young"] == "loose" or (set(tigers) <= {0, 6} and term(pair) and not honors):
            fans["old_and_young"] = 1
    if pair == _1P and chows == [0, 6, 18, 24]:
        fans["dragons_and_pearl"] = 1


def _hand_facts(all_c, real_all, melds, ctx, opts):
    """What every reading shares: the tile-set 番 and limit hands, and the
    context ones."""
    fans, limits = {}, set()
    present = [t for t in range(34) if all_c[t]]
    suits = {t // 9 for t in present if t < 27}
    honors = any(t >= 27 for t in present)
    winds = any(27 <= t <= 30 for t in present)
    dragons = any(t >= 31 for t in present)
    if len(suits) == 3 and winds and dragons:
        fans["five_groups"] = 1
    if len(suits) == 2 and opts["missing_suit_scores"]:
        fans["missing_suit"] = 1
    if len(suits) == 1:
        fans["half_flush" if honors else "full_flush"] = 1
    if not suits:
        limits.add("all_honors")
    if all(t in _PLAIN for t in present):
        fans["all_plain"] = 1
    if all(t in _GREEN_TILES for t in present):
        limits.add("all_green")
    if all(18 <= t < 27 or t == _RED for t in present) and all_c[_RED] == 2 and suits:
        limits.add("red_in_green")
    src = all_c if opts["wild_true_tiles"] else real_all
    if any(src[t] for t in _WINDS) and src[_5P] and src[_WHITE] and src[_1P]:
        limits.add("wind_flower_snow_moon")
    if ctx["self_drawn"] and all(m.kind == "kong" and m.concealed for m in melds):
        fans["fully_concealed"] = 1
    if len(melds) == 4 and not any(m.concealed for m in melds) and not ctx["self_drawn"]:
        fans["all_melded"] = 1
    if ctx["declared_ready"]:
        fans["declared_ready"] = 1
    for k in ("heavenly_hand", "earthly_hand"):
        if ctx[k]:
            limits.add(k)
    return fans, limits, {"honors": honors, "suits": suits}


def _context_limits(win, win_real, ctx, opts, limits):
    real = win_real or opts["wild_true_tiles"]
    if not real:
        return
    if win == _5P and ctx["self_drawn"] and ctx["kong"]:
        limits.add("true_flower_on_kong")
    if win == _1P and ctx["self_drawn"] and ctx["last_tile"]:
        limits.add("true_moon_from_the_sea")
    if win == _2S and ctx["kong"] and ctx["self_drawn"] == (opts["true_kong"] == "replacement"):
        limits.add("true_bamboo_kong")


def _finish(rs, he_items, fans, limits):
    """(total, rounded uncapped figure, he, fan)."""
    opts = rs.options
    he = sum((opts["flower_he"] if k == "flower" else _ITEM[k].value) * c for k, c in he_items.items())
    fan = sum(_ITEM[k].value * c for k, c in fans.items())
    raw = (he + opts["base"]) * (1 << fan)
    r = opts["round_to"]
    rounded = -(-raw // r) * r
    lim = opts["limit"]
    if limits:
        total = lim if opts["cap"] else max(lim, rounded)
    else:
        total = min(rounded, lim) if opts["cap"] else rounded
    return total, rounded, he, fan, raw


def _score_concrete(rs, melds, counts, win, win_real, real_all, ctx, flowers):
    """The best (key, result parts) over every reading and placement of one
    complete 14-tile hand with known tiles; None when it does not win."""
    opts = rs.options
    n_melds = len(melds)
    readings = _fans.decompose_one(np.ascontiguousarray(counts, dtype=np.uint8), n_melds)
    readings = [r for r in readings if r[0] != "knitted_straight"]
    if not readings:
        return None
    all_c = np.array(counts, dtype=np.int16)
    for m in melds:
        if m.kind == "chow":
            all_c[m.tile:m.tile + 3] += 1
        else:
            all_c[m.tile] += 4 if m.kind == "kong" else 3
    base_fans, base_limits, hand = _hand_facts(all_c, real_all, melds, ctx, opts)
    _context_limits(win, win_real, ctx, opts, base_limits)
    standing = None
    waits13 = None
    if opts["unique_wait"] or (n_melds == 0 and len(hand["suits"]) == 1 and not hand["honors"]):
        standing = np.array(counts, dtype=np.uint8)
        standing[win] -= 1
        waits13 = list(_core.waits_one(standing, n_melds))
        s = win // 9
        if n_melds == 0 and all(s * 9 + r in waits13 for r in range(9)):
            base_limits.add("nine_gates")
    single_wait = waits13 is not None and len(waits13) == 1
    seat, rnd, double = ctx["seat"], ctx["round"], opts["double_wind"]
    meld_sets = [(m.kind, m.tile, bool(m.kind == "kong" and m.concealed), True) for m in melds]
    best = None
    for form, items in readings:
        if form == "regular":
            pair = next(t for k, t in items if k == "pair")
            conc = [(k, t) for k, t in items if k != "pair"]
            places = [i for i, (k, t) in enumerate(conc) if (k == "chow" and t <= win <= t + 2)
                      or (k == "pung" and t == win)]
            places = [("pair", None)] * (pair == win) + [("set", i) for i in places]
        elif form == "seven_pairs":
            places = [("pair", None)]
        else:
            places = [(None, None)]
        for where, idx in places:
            fans = dict(base_fans)
            limits = set(base_limits)
            he = {}
            if flowers and opts["flower_he"]:
                he["flower"] = flowers
            if ctx["self_drawn"]:
                he["self_drawn"] = 1
            sets_out = [(k, t, True) for k, t, c, _ in meld_sets]
            if form == "regular":
                sets = [(k, t, c) for k, t, c, _ in meld_sets]
                win_set = None
                for i, (k, t) in enumerate(conc):
                    c = True
                    if where == "set" and i == idx:
                        win_set = (k, t)
                        if k == "pung" and not ctx["self_drawn"]:
                            c = False           # completed by the discard: a melded pung
                    sets.append((k, t, c))
                    sets_out.append((k, t, not c))
                sets_out.append(("pair", pair, False))
                for k, t, c in sets:
                    if k == "chow":
                        continue
                    r = _roles(t, seat, rnd, double)
                    cls = "value" if r else ("terminals" if t >= 27 or t % 9 in (0, 8) else "simples")
                    pre = ("concealed_pung_" if c else "pung_") if k == "pung" else \
                        ("concealed_kong_" if c else "melded_kong_")
                    he[pre + cls] = he.get(pre + cls, 0) + 1
                r = _roles(pair, seat, rnd, double)
                if r:
                    he["pair_value"] = r
                wait_ok = not opts["unique_wait"] or single_wait
                if wait_ok:
                    if where == "pair":
                        he["pair_wait"] = 1
                    elif win_set is not None and win_set[0] == "chow":
                        t = win_set[1]
                        if win == t + 1:
                            he["closed_wait"] = 1
                        elif opts["edge_wait"] and ((t % 9 == 0 and win == t + 2) or (t % 9 == 6 and win == t)):
                            he["edge_wait"] = 1
                _regular_fans(sets, pair, win_set, {**ctx}, opts, fans, limits, hand)
            elif form == "seven_pairs":
                fans["seven_pairs"] = 1
                pv = sum(_roles(t, seat, rnd, double) for k, t in items)
                if pv:
                    he["pair_value"] = pv
                if not opts["unique_wait"] or single_wait:
                    he["pair_wait"] = 1
                sets_out += [("pair", t, False) for k, t in items]
            else:
                if form == "thirteen_orphans":
                    limits.add("thirteen_orphans")
                else:
                    fans["thirteen_unrelated"] = 1
                sets_out += [(k, t, False) for k, t in items]
            if "full_flush" in fans and "pure_straight" in fans:
                limits.add("pure_straight_flush")
            total, rounded, he_sum, fan_sum, raw = _finish(rs, he, fans, limits)
            key = (total, bool(limits), rounded)      # ties: a limit hand, then the larger figure
            if best is None or key > best[0]:
                counts_out = {**{k: 1 for k in limits}, **fans, **he}
                best = (key, total, he_sum, fan_sum, raw, tuple(sorted(limits, key=lambda k: _ITEM[k].id)),
                        total < rounded and not limits, form, counts_out, tuple(sets_out))
    return best


# -- the entry point -------------------------------------------------------------------

def _parse(hand):
    if isinstance(hand, str):
        return parse_hand(hand)
    if isinstance(hand, Hand):
        return hand
    raise InvalidArgument(f"hand must be a notation string or a Hand, got {type(hand).__name__}")


#: How the kong flags that cannot hold (mjfast.rules.base.impossible_flags) are worded here.
_DROP_REASONS = {
    "kong_self_drawn": "dropped: out on a replacement tile needs a kong among the melds, and there is none",
    "kong_discard": "dropped: robbing a kong needs a winning tile that is not also in the hand or its melds"}


def score_shanghai(hand, rs, ctx, flags, strict, wild):
    """``score(hand, rules="shanghai_old", ...)``: see the module docstring.
    ``ctx``, ``flags``, ``strict``, ``wild``: as :attr:`RuleSet.score_fn`
    receives them from :func:`mjfast.score`."""
    check_flag_names(flags)
    extra = {k: check_flag(v, k) for k, v in flags.items()}
    strict = check_flag(strict, "strict") or rs.strict
    fl, seat, rnd, flowers = check_context(ctx["self_drawn"], ctx["fourth_tile"], ctx["kong"], ctx["last_tile"],
                                           ctx["seat_wind"], ctx["round_wind"], ctx["flowers"])
    self_drawn, kong, last_tile = bool(fl & 1), bool(fl & 4), bool(fl & 8)
    h = _parse(hand)
    if not h.tiles and not (extra.get("wild_win") and wild["wildcards"]):
        # (with wild_win the winning tile is a 百搭: four melds and one 百搭 beside another are a hand)
        raise InvalidHand("a winning hand needs a winning tile (the last concealed tile)")
    flowers += h.flowers or 0
    if flowers > 4:
        raise InvalidHand(f"old Shanghai has 4 flowers, got {flowers}")
    w = check_wild(wild["wildcards"], wild["wildcard_tiles"], wild["wild_fifth"])
    if w.fifth:
        raise ValueError("score does not support wild_fifth=True")
    real = np.array(h.counts, dtype=np.uint8)
    win = int(h.win_tile) if h.tiles else -1
    win_wild = False
    if w.kinds is not None:
        k = int(real[list(w.kinds)].sum())
        rs.check_wildcards(k, "wildcard_tiles")
        real[list(w.kinds)] = 0
        win_wild = win in w.kinds
        if extra.get("wild_win"):
            raise InvalidArgument("wild_win goes with wildcards=k; with wildcard_tiles the winning tile is "
                                  "wild when it is of a wild kind")
    else:
        k = w.k or 0
        rs.check_wildcards(k)
        if extra.get("wild_win"):
            if k < 1:
                raise InvalidArgument("wild_win=True (the winning tile was a 百搭) needs wildcards=k with k >= 1")
            win_wild = True
    n_melds = len(h.melds)
    n = int(real.sum()) + k + 3 * n_melds
    if n != 14:
        raise InvalidHand(f"a winning hand has 14 tiles counting 3 per meld; got {int(real.sum())} real concealed"
                          + (f" + {k} wildcards" if k else "") + f" + {n_melds} melds = {n}")
    melds_c = np.zeros(34, np.int16)
    for m in h.melds:
        if m.kind == "chow":
            melds_c[m.tile:m.tile + 3] += 1
        else:
            melds_c[m.tile] += 4 if m.kind == "kong" else 3
    real_all = real.astype(np.int16) + melds_c
    if (real_all > 4).any():
        t = int(np.flatnonzero(real_all > 4)[0])
        raise InvalidHand(f"more than 4 copies of {TILE_NAMES[t]}")
    # -- the context: what holds, what is dropped and why
    dropped = ignored_flags(rs, {**ctx, **extra})
    # (a 百搭 winning tile can be robbed whatever the hand holds: win -1)
    cannot = dropped_reasons(impossible_flags(h, self_drawn=self_drawn, kong=kong, win=-1 if win_wild else win),
                             self_drawn, _DROP_REASONS)
    dropped.update(cannot)
    kong = kong and not cannot
    if last_tile and not self_drawn:
        dropped["last_tile"] = "ignored: its only use (海底捞真月) is a self-drawn win"
    heavenly, earthly = extra.get("heavenly_hand", False), extra.get("earthly_hand", False)
    if heavenly and (not self_drawn or n_melds or seat != 0):
        heavenly = False
        dropped["heavenly_hand"] = "dropped: the dealer (seat East) wins self-drawn with the dealt tiles, no meld"
    if earthly and (self_drawn or n_melds or seat == 0):
        earthly = False
        dropped["earthly_hand"] = ("dropped: a non-dealer (seat not East) wins on the dealer's first discard, "
                                   "with no meld")
    if dropped and strict:
        raise InvalidHand(strict_message(dropped))
    c = {"self_drawn": self_drawn, "kong": kong, "last_tile": last_tile, "seat": 27 + seat, "round": 27 + rnd,
         "heavenly_hand": heavenly, "earthly_hand": earthly, "declared_ready": extra.get("declared_ready", False)}
    # -- every substitution (one, empty, without wildcards), every winning tile it allows
    if k:
        caps = np.clip(4 - melds_c, 0, 4).astype(np.uint8)
        subs = [np.frombuffer(s, dtype=np.uint8) for s in _wild.win_substitutions(real, k, n_melds, -1, caps)]
    else:
        subs = [np.zeros(34, np.uint8)]
    best = None
    for s in subs:
        full = real + s
        stood = [t for t in range(34) for _ in range(int(s[t]))]
        for wt in (sorted(set(stood)) if win_wild else [win]):
            r = _score_concrete(rs, h.melds, full, wt, not win_wild, real_all, c, flowers)
            if r is not None and (best is None or r[0] > best[0][0]):
                rest = list(stood)
                if win_wild:
                    rest.remove(wt)
                best = (r, tuple(([wt] if win_wild else []) + sorted(rest)))
    if best is None:
        what = f" with {k} wildcards" if k else ""
        raise NotWinning(f"not a winning hand under rule set 'shanghai_old'{what}: "
                         f"{hand if isinstance(hand, str) else h}")
    (_, total, he, fan, raw, limit_hand, capped, form, counts, sets), subs_out = best
    return ShanghaiScore(rs, total, he, fan, raw, limit_hand, capped, form, counts, sets, self_drawn, flowers,
                         dropped, subs_out if k else None)


SHANGHAI_OLD = register(RuleSet(
    name="shanghai_old",
    title="old Shanghai 番/和 scoring: (和 + base) x 2^番, 百搭 wildcards, flowers, 满贯 limit hands",
    table=SHANGHAI_OLD_TABLE,
    hand_size=13,
    forms=("regular", "seven_pairs", "thirteen_orphans", "honors_knitted"),
    flags=SHANGHAI_FLAGS,
    option_specs=_OPTIONS,
    flowers_count_to_minimum=True,
    settlement_text=("no settlement in the rule text: by default (payment='all_pay') each of the other "
                     "three pays the total; 'discarder_pays': the discarder alone on a discard win"),
    engine="shanghai_old",
    settle_fn=settle_shanghai,
    score_fn=score_shanghai,
    engine_impl=ShanghaiEngine(),
    # "百搭：（或听用）共四张": the set has four, so no hand holds more
    max_wildcards_of=lambda opts: (4, "its 百搭: four in the set, 共四张"),
    source="an old Shanghai-style home rule text (番/和 scoring, with 百搭 and flowers)",
))
