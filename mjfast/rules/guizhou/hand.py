"""Guizhou catch-chicken (捉鸡麻将): the hand predicates.

A winning hand scores the single highest pattern of
:data:`~mjfast.rules.guizhou.table.GUIZHOU_TABLE` that it makes, plus the
bonuses of its context (self-drawn +1, 杠开 +1, 天听 / 天胡 / 地胡).  A
plain win (平胡) needs a pass (通行证): a kong among the winner's melds, with
the exceptions of the rule text (热炮, 抢杠, 天听, 天胡, 地胡).  A plain win
without a pass is scored but not legal (:attr:`GuizhouScore.legal` is False,
:attr:`GuizhouScore.pass_note` says why).

The functions take a parsed :class:`~mjfast.Hand` and the rule set's option
mapping; mjfast.score(hand, rules="guizhou", ...) and
:func:`mjfast.rules.guizhou.settle` call them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ... import _fans
from ...errors import InvalidHand, NotWinning
from ...hand import Hand, parse_hand
from ...tiles import TILE_NAMES
from ..base import FanResult, check_flag_names, dropped_reasons, ignored_flags, impossible_flags, strict_message
from .table import GUIZHOU_TABLE, SPECIAL_STARTS
from ...scoring.records import check_context, check_flag

__all__ = ["SUIT_TILES", "GuizhouScore", "GuizhouItem", "check_hand", "pattern_points", "score_guizhou",
           "hand_waits", "ready_value", "has_pass", "GUIZHOU_FLAGS", "score_entry"]

#: 1m-9m, 1p-9p, 1s-9s: the 108-tile set (no honors, no flowers).
SUIT_TILES = frozenset(range(27))

#: The context flags the rule set understands.  ``kong``: on a self-drawn win
#: the replacement tile of a kong (杠开); on a discard win robbing a kong (抢杠).
#: ``discard_after_kong``: the discarder had just made a kong (热炮).
GUIZHOU_FLAGS = ("self_drawn", "kong", "discard_after_kong", "heavenly_hand", "earthly_hand", "ready_at_start")

_T = GUIZHOU_TABLE


def check_hand(h: Hand, opts, what: str = "hand") -> None:
    """Raise :class:`~mjfast.InvalidHand` for a tile outside the suits or a
    melded chow when chows are not allowed."""
    for t in range(34):
        if h.all_counts[t] and t not in SUIT_TILES:
            raise InvalidHand(f"{what}: tile {TILE_NAMES[t]} is not played in rule set 'guizhou' "
                              f"(108 suit tiles: no honors, no flowers)")
    if h.flowers:
        raise InvalidHand(f"{what}: rule set 'guizhou' plays no flowers")
    if not opts["allow_chow"] and any(m.kind == "chow" for m in h.melds):
        raise InvalidHand(f"{what}: a melded chow, but rule set 'guizhou' allows no chow claims "
                          f"(option allow_chow=False)")


def _readings(counts, n_melds):
    """(regular readings, is seven pairs) of 14 - 3k concealed tiles."""
    regular = []
    seven = False
    for form, items in _fans.decompose_one(np.ascontiguousarray(counts, dtype=np.uint8), n_melds):
        if form == "regular":
            regular.append(items)
        elif form == "seven_pairs":
            seven = True
    return regular, seven


def _is_win_counts(counts, n_melds) -> bool:
    regular, seven = _readings(counts, n_melds)
    return bool(regular) or seven


def hand_waits(counts, melds, all_counts) -> list:
    """The suit tiles that complete 13 - 3k concealed ``counts`` (a tile whose
    four copies are all in the hand, melds included, is not a wait)."""
    out = []
    c = np.array(counts, dtype=np.uint8)
    for t in range(27):
        if all_counts[t] >= 4:
            continue
        c[t] += 1
        if _is_win_counts(c, len(melds)):
            out.append(t)
        c[t] -= 1
    return out


def has_pass(h: Hand) -> bool:
    """A pass (通行证): any kong among the melds, a late kong (憨包豆) included."""
    return any(m.kind == "kong" for m in h.melds)


def pattern_points(h: Hand, opts) -> Optional[dict]:
    """{pattern key: points} of a 14-tile hand: its highest pattern (two
    entries only for 单吊 + 大对子 under single_wait_with_pungs='sum');
    None when the tiles are not a winning hand."""
    counts = h.counts
    melds = h.melds
    regular, seven = _readings(counts, len(melds))
    if not regular and not seven:
        return None
    suits = {t // 9 for t in range(27) if h.all_counts[t]}
    one_suit = len(suits) == 1
    melded_chow = any(m.kind == "chow" for m in melds)
    all_pungs = bool(regular) and not melded_chow and any(
        all(kind != "chow" for kind, _ in items) for items in regular)
    dragon = seven and any(int(c) == 4 for c in counts)
    single = False
    if regular:
        win = int(h.win_tile)
        if opts["single_wait"] == "four_melds":
            single = len(melds) == 4
        else:
            standing = np.array(counts, dtype=np.uint8)
            standing[win] -= 1
            single = (any(("pair", win) in items for items in regular)
                      and hand_waits(standing, melds, h.all_counts) == [win])
    found = []
    if regular:
        found.append("plain_win")
        if all_pungs:
            found.append("all_pungs")
        if one_suit:
            found.append("full_flush")
            if all_pungs:
                found.append("full_flush_all_pungs")
        if single:
            found.append("full_flush_single_wait" if one_suit else "single_wait")
    if seven:
        found.append("seven_pairs")
        if dragon:
            found.append("dragon_seven_pairs")
        if one_suit:
            found.append("full_flush_dragon_pairs" if dragon else "full_flush_seven_pairs")
    # the highest pattern; ties (which only a table change could make) go to the later, combined entry
    best = max(found, key=lambda k: (_T[k].points, _T[k].id))
    out = {best: _T[best].points}
    if best in ("single_wait", "full_flush_single_wait") and all_pungs and opts["single_wait_with_pungs"] == "sum":
        out["all_pungs"] = _T["all_pungs"].points
    return out


class GuizhouItem(FanResult):
    """One scored item: the pattern or a bonus, its table points and count
    (``total`` = points x count; only the self-drawn bonus counts more than 1,
    by the option self_drawn_bonus)."""


def _item(key, count=1):
    f = _T[key]
    return GuizhouItem(f.en, f.zh, f.points, int(count), key, f.id)


class GuizhouScore:
    """The result of ``mjfast.score(hand, rules="guizhou", ...)``.

    ``total``: what each payer pays for the win (pattern + bonuses,
    self-drawn +1 included); ``pattern``: the highest pattern's key;
    ``pattern_value``: the pattern with 杠开 and 天听/天胡/地胡, before the
    self-drawn point; ``fans``: the items (:class:`GuizhouItem`); ``legal``:
    False for a plain win without a pass (``pass_note`` says why).
    """

    __slots__ = ("rules", "total", "pattern", "pattern_value", "self_drawn", "flowers", "form", "_items",
                 "_dropped", "pass_note", "passed_by", "reading")

    def __init__(self, rules, items, pattern, self_drawn, form, dropped, pass_note, passed_by):
        self.rules = rules
        self._items = tuple(items)
        self.total = sum(i.total for i in self._items)
        self.pattern = pattern
        self.pattern_value = self.total - (1 if self_drawn else 0)
        self.self_drawn = self_drawn
        self.flowers = 0
        self.form = form
        self._dropped = dict(dropped)
        self.pass_note = pass_note
        self.passed_by = passed_by
        self.reading = ()

    @property
    def decomposition(self) -> tuple:
        """The sets of the reading: (kind, tiles, melded), melds first."""
        return self.reading

    @property
    def fans(self) -> list:
        return list(self._items)

    @property
    def points_without_flowers(self) -> int:
        return self.total

    @property
    def is_legal_win(self) -> bool:
        return self.pass_note is None

    legal = is_legal_win

    @property
    def ignored_flags(self) -> dict:
        return dict(self._dropped)

    def fan_counts(self) -> np.ndarray:
        out = np.zeros(max(_T.ids) + 1, np.int16)
        for i in self._items:
            out[i.id] = i.count
        return out

    def __contains__(self, name) -> bool:
        return any(i.name == name or i.key == name or i.zh == name for i in self._items)

    def settlement(self, discarder=None, **kw) -> tuple:
        """The pattern payment alone (relative seats winner, left, opposite,
        right); a whole game's payments are :func:`mjfast.rules.guizhou.settle`."""
        return self.rules.settle(self.total, self.self_drawn, discarder, **kw)

    def as_dict(self) -> dict:
        out = {"total": self.total, "pattern": self.pattern,
               "fans": [{"name": i.name, "zh": i.zh, "points": i.points, "count": i.count} for i in self._items],
               "legal": self.is_legal_win, "rules": self.rules.name}
        if self.pass_note:
            out["pass"] = self.pass_note
        if self._dropped:
            out["ignored_flags"] = self.ignored_flags
        return out

    def __repr__(self) -> str:
        items = ", ".join(str(i) for i in self._items)
        return f"GuizhouScore(total={self.total}, legal={self.is_legal_win}, fans=[{items}])"


def _special_start(flags, opts):
    """The first of 天胡 / 地胡 / 天听 that holds and whose rule is on."""
    for k in SPECIAL_STARTS:
        if flags.get(k) and opts[k]:
            return k
    return None


def context_items(pats: dict, flags: dict, opts) -> list:
    """The items of a win: the pattern(s), then the bonuses its context gives.
    ``flags``: self_drawn (a robbed kong counts as self-drawn: pass it True),
    out_on_kong, special (a key of SPECIAL_STARTS or None)."""
    items = [_item(k) for k in pats]
    special = flags.get("special")
    if special:
        # 平胡 counts 10 in all (its 1 + 9); any other pattern +10
        items.append(_item(f"{special}_plain_win" if list(pats) == ["plain_win"] else special))
    if flags.get("out_on_kong"):
        items.append(_item("out_on_kong"))
    if flags.get("self_drawn") and opts["self_drawn_bonus"]:
        items.append(_item("self_drawn", opts["self_drawn_bonus"]))
    return items


def pass_exemption(flags: dict, opts) -> Optional[str]:
    """Which exception lets a 平胡 win without a pass (None = none holds)."""
    if flags.get("rob") and opts["rob_kong"]:
        return "抢杠 (robbing a kong)"
    if flags.get("hot") and opts["hot_discard"]:
        return "热炮 (the discard right after the discarder's kong)"
    special = flags.get("special")
    if special == "ready_at_start" and not opts["ready_at_start_without_pass"]:
        return None
    if special:
        return {"heavenly_hand": "天胡", "earthly_hand": "地胡", "ready_at_start": "天听"}[special]
    return None


#: How the kong flags that cannot hold (mjfast.rules.base.impossible_flags) are worded here.
_DROP_REASONS = {"kong_self_drawn": "dropped: 杠开 needs a kong among the melds, and there is none",
                 "kong_discard": "dropped: robbing a kong needs a winning tile held nowhere else in the hand"}


def score_guizhou(h: Hand, rs, flags: dict, dropped: Optional[dict] = None) -> GuizhouScore:
    """Score a parsed 14-tile hand under ``rs`` (rule set guizhou).

    ``flags``: self_drawn, kong, discard_after_kong, heavenly_hand,
    earthly_hand, ready_at_start (the score() keywords).  A flag that cannot
    hold is dropped and reported in ``ignored_flags``.  Raises
    :class:`~mjfast.NotWinning` when the tiles are not a winning hand.
    """
    opts = rs.options
    check_hand(h, opts)
    dropped = dict(dropped or {})
    self_drawn = bool(flags.get("self_drawn"))
    kong = bool(flags.get("kong"))
    out_on_kong = rob = hot = False
    if kong:
        cannot = dropped_reasons(impossible_flags(h, self_drawn=self_drawn, kong=True), self_drawn, _DROP_REASONS)
        if cannot:
            dropped.update(cannot)
        elif self_drawn:
            if not opts["out_on_kong"]:
                dropped["kong"] = "dropped: the 杠开 rule is off (option out_on_kong=False)"
            else:
                out_on_kong = True
        elif not opts["rob_kong"]:
            dropped["kong"] = "dropped: the 抢杠 rule is off (option rob_kong=False)"
        else:
            rob = True
    if flags.get("discard_after_kong"):
        if self_drawn or rob:
            dropped["discard_after_kong"] = "dropped: 热炮 is a win on an ordinary discard"
        elif not opts["hot_discard"]:
            dropped["discard_after_kong"] = "dropped: the 热炮 rule is off (option hot_discard=False)"
        else:
            hot = True
    if flags.get("heavenly_hand") and not self_drawn:
        dropped["heavenly_hand"] = "dropped: 天胡 is a win on the dealt tiles, self-drawn by definition"
    for k in SPECIAL_STARTS:
        if flags.get(k) and not opts[k] and k not in dropped:
            dropped[k] = f"dropped: the rule is off (option {k}=False)"
    special = _special_start({k: flags.get(k) and k not in dropped for k in SPECIAL_STARTS}, opts)
    pats = pattern_points(h, opts)
    if pats is None:
        raise NotWinning(f"not a winning hand under rule set 'guizhou': {h}")
    ctx = {"self_drawn": self_drawn or rob, "out_on_kong": out_on_kong, "special": special, "rob": rob,
           "hot": hot}
    items = context_items(pats, ctx, opts)
    note = None
    passed_by = None
    if list(pats) == ["plain_win"] and opts["plain_win_needs_pass"]:
        if has_pass(h):
            passed_by = "豆 (a kong)"
        else:
            passed_by = pass_exemption(ctx, opts)
            if passed_by is None:
                note = "平胡 needs a pass (通行证): a kong (豆) among the melds, or 热炮 / 抢杠 / 天听 / 天胡 / 地胡"
    best = next(iter(pats))
    form = "seven_pairs" if _T[best].form == "seven_pairs" else "regular"
    out = GuizhouScore(rs, items, best, ctx["self_drawn"], form, dropped, note, passed_by)
    out.reading = _reading(h, form, "all_pungs" in pats or "pungs" in best)
    return out


def _reading(h: Hand, form: str, pungs_only: bool) -> tuple:
    """The sets of the reading the pattern stands on: melds first (melded
    True), then the concealed sets and pair, as (kind, tiles text, melded)."""
    out = []
    for m in h.melds:
        n = {"chow": 0, "pung": 3, "kong": 4}[m.kind]
        name = TILE_NAMES[m.tile]
        text = (f"{int(name[0])}{int(name[0]) + 1}{int(name[0]) + 2}{name[1]}" if m.kind == "chow"
                else name[0] * n + name[1])
        out.append((m.kind, text, True))
    if form == "seven_pairs":
        items = [("pair", t) for t in range(27) for _ in range(int(h.counts[t]) // 2)]
    else:
        regular, _ = _readings(h.counts, len(h.melds))
        items = next((r for r in regular if all(k != "chow" for k, _ in r)), regular[0]) if pungs_only \
            else regular[0]
    for kind, t in items:
        name = TILE_NAMES[t]
        r = int(name[0])
        text = f"{r}{r + 1}{r + 2}{name[1]}" if kind == "chow" else name[0] * (3 if kind == "pung" else 2) + name[1]
        out.append((kind, text, False))
    return tuple(out)



def score_entry(hand, rs, ctx: dict, flags: dict, strict, wild: dict) -> GuizhouScore:
    """``mjfast.score(hand, rules="guizhou", ...)``: the rule set's
    ``score_fn``.  ``ctx``: score()'s MCR context keywords; ``flags``: its
    other keywords (discard_after_kong, heavenly_hand, earthly_hand,
    ready_at_start; human_hand is reported unused).  A context this rule set
    has no use for (fourth_tile, last_tile, winds) is dropped and reported in
    ``ignored_flags``; with ``strict`` any dropped flag is an error."""
    if wild.get("wildcards") is not None or wild.get("wildcard_tiles") is not None or wild.get("wild_fifth"):
        raise InvalidHand("wildcards: rule set 'guizhou' plays no wildcards (its rules have none)")
    check_flag_names(flags)
    _, seat, rnd, flowers = check_context(**ctx)
    given = {k: check_flag(v, k) for k, v in flags.items()}
    strict = check_flag(strict, "strict") or rs.strict
    if isinstance(hand, Hand):
        h = hand
    elif isinstance(hand, str):
        h = parse_hand(hand, expect="win")
    else:
        raise TypeError(f"a hand must be a notation string or a mjfast.Hand, got {type(hand).__name__}")
    if h.n_tiles != 14:
        raise InvalidHand(f"a winning hand has 14 tiles counting 3 per meld; got {len(h.tiles)} concealed"
                          f" + {len(h.melds)} melds = {h.n_tiles}")
    if flowers:
        raise InvalidHand("rule set 'guizhou' plays no flowers")
    dropped = ignored_flags(rs, {**ctx, **given})
    if seat or rnd:
        dropped["winds"] = "ignored: rule set 'guizhou' has no wind fan"
    use = {"self_drawn": bool(ctx.get("self_drawn")), "kong": bool(ctx.get("kong"))}
    use.update({k: v for k, v in given.items() if k in rs.flags})
    out = score_guizhou(h, rs, use, dropped)
    if out.ignored_flags and strict:
        raise InvalidHand(strict_message(out.ignored_flags))
    return out


def ready_value(h13: Hand, opts, special: Optional[str] = None) -> tuple:
    """(waits, best value) of a 13-tile hand: the suit tiles it wins on
    legally (a 平胡 wait needs a pass unless ``special`` exempts it) and the
    highest pattern value among them, with the 天听-style bonus of
    ``special`` (no self-drawn point).  ``([], 0)`` when not ready."""
    counts = np.array(h13.counts, dtype=np.uint8)
    ok = []
    best = 0
    for t in hand_waits(counts, h13.melds, h13.all_counts):
        h = Hand(h13.melds, tuple(h13.tiles) + (t,), 0)
        pats = pattern_points(h, opts)
        if pats is None:    # pragma: no cover - hand_waits found a reading
            continue
        ctx = {"special": special}
        plain = list(pats) == ["plain_win"]
        if (plain and opts["plain_win_needs_pass"] and opts["ready_needs_pass"] and not has_pass(h)
                and pass_exemption(ctx, opts) is None):
            continue
        ok.append(t)
        best = max(best, sum(i.total for i in context_items(pats, ctx, opts)))
    return ok, best
