"""Scoring one MCR hand: ``mjfast.score("[567m2][EEE1]45m678pFF6m", self_drawn=True)``.

The fan table (names, points, exclusions) is the data in
:mod:`mjfast.rules.mcr`; the compiled engine holds it as data generated from
that module at build time (importing this module loads nothing).
Everything about the hand is validated in Python before the kernel runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .. import _core, _fans, _wild
from ..errors import InvalidArgument, InvalidHand, NotWinning
from ..hand import Hand, parse_hand
from .records import FLAG_BITS, check_context, check_flag, check_wind
from ..rules.mcr import MCR
from ..rules.base import (CountedResult, FanResult, RuleSet, check_flag_names, cannot_hold, dropped_reasons,
                         get as _get_rules, ignored_flags, strict_message)
from ..spec import flags as _flags
from ..rules.mcr.sets import MCR_RULES
from ..tiles import TILE_NAMES, set_text
from ..analysis.wild import check

__all__ = ["score", "Score", "FanResult", "hand_args", "WINDS", "MIN_POINTS"]

#: Seat and round winds, by number.
WINDS = ("E", "S", "W", "N")
#: The minimum to declare a win (起和), flowers not counted: the mcr rule
#: set's (its ``min_points`` option at its default).
MIN_POINTS = MCR_RULES.min_points

_FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
MELD_KIND = {"chow": 0, "pung": 1, "kong": 2}
_PACK_TYPES = {1: "chow", 2: "pung", 3: "kong", 5: "pair"}
_FLOWER_ID = MCR["flower_tiles"].id


# fan id -> Fan record, for building results
_BY_ID = {fan.id: fan for fan in MCR}


def winning_hand(hand) -> Hand:
    """A notation string or Hand, as a Hand that has a winning tile."""
    if isinstance(hand, str):
        h = parse_hand(hand)
    elif isinstance(hand, Hand):
        h = hand
    else:
        raise InvalidArgument(f"hand must be a notation string or a Hand, got {type(hand).__name__}")
    if not h.tiles:
        raise InvalidHand("a winning hand needs a winning tile (the last concealed tile)")
    return h


def hand_args(hand, self_drawn=False, fourth_tile=False, kong=False, last_tile=False,
              seat_wind="E", round_wind="E", flowers=0):
    """Validate one hand and its context; returns the packed arguments of the kernel."""
    flags, seat, rnd, flowers = check_context(self_drawn, fourth_tile, kong, last_tile,
                                              seat_wind, round_wind, flowers)
    h = winning_hand(hand)
    if h.n_tiles != 14:
        raise InvalidHand(
            f"a winning hand has 14 tiles counting 3 per meld; got {len(h.tiles)} concealed"
            f" + {len(h.melds)} melds = {h.n_tiles}"
        )
    flowers = flowers + (h.flowers or 0)
    if flowers > 8:
        raise InvalidHand(f"at most 8 flowers, got {flowers}")
    melds = np.zeros((4, 3), dtype=np.uint8)
    for i, m in enumerate(h.melds):
        melds[i, 0] = MELD_KIND[m.kind]
        melds[i, 1] = m.tile
        melds[i, 2] = 0 if m.concealed else 1
    counts = np.ascontiguousarray(h.counts, dtype=np.uint8)
    return h, counts, melds, len(h.melds), int(h.win_tile), flags, seat, rnd, flowers


# -- flags the rules drop ------------------------------------------------------
# The kernel finds them (mjfast.rules.base.impossible_flags); worded by
# mjfast.rules.base.dropped_reasons.

_FOURTH, _KONG = FLAG_BITS["fourth_tile"], FLAG_BITS["kong"]


def dropped_flags(counts, melds, n_melds, win_tile, flags) -> np.ndarray:
    """(N,) uint8: the flag bits that the scorer drops as impossible, per row
    (docs/rulings.md, 4; the kernel's check).  Columns as in
    :class:`~mjfast.HandBatch`; rows must be valid."""
    counts = np.ascontiguousarray(counts, dtype=np.uint8).reshape(-1, 34)
    n = counts.shape[0]
    out = np.empty(n, np.uint8)
    _fans.impossible_flags_batch(counts, np.ascontiguousarray(melds, dtype=np.uint8).reshape(n, 4, 3),
                                 np.ascontiguousarray(n_melds, dtype=np.uint8).reshape(n),
                                 np.ascontiguousarray(win_tile, dtype=np.uint8).reshape(n),
                                 np.ascontiguousarray(flags, dtype=np.uint8).reshape(n), out)
    return out


def ignored_message(bits: int, self_drawn: bool) -> str:
    """One line for ``strict`` errors: which flags cannot hold, and why."""
    return cannot_hold(dropped_reasons(bits, self_drawn))


class Score:
    """The result of :func:`score`.

    ``total`` (flowers included), ``fans`` (list of :class:`FanResult`, highest
    first), ``decomposition`` (the sets of the reading used), ``form``,
    ``is_legal_win``, ``ignored_flags`` (context flags the rules dropped);
    :meth:`settlement` gives the point changes.
    """

    __slots__ = ("total", "self_drawn", "flowers", "_buf", "_fans", "_dropped", "_rules", "_extra", "_subs")

    def __init__(self, total, buf, self_drawn, flowers, dropped=0, rules=None):
        self.total = total
        self.self_drawn = self_drawn
        self.flowers = flowers
        self._buf = buf          # int16[100]: fan counts by id, form, packs
        self._fans = None
        self._dropped = int(dropped)
        self._rules = rules      # None = MCR with its defaults
        self._extra = None       # {flag: reason} for flags the rule set does not use
        self._subs = None        # the tiles the wildcards stood for (score(..., wildcards=...))

    @property
    def substitutions(self):
        """With wildcards (``score(..., wildcards=...)``): the tiles the
        wildcards stood for in the best-scoring reading, one per wildcard
        (the winning tile's first when the winning tile was a wildcard, the
        others ascending); None without wildcards."""
        return self._subs

    @property
    def rules(self) -> RuleSet:
        """The rule set the hand was scored under."""
        return MCR_RULES if self._rules is None else self._rules

    @property
    def fans(self) -> list:
        if self._fans is None:
            self._fans = _fans_from_counts(self._buf[:84])
        return self._fans

    @property
    def form(self) -> str:
        return _FORMS[int(self._buf[84])]

    @property
    def decomposition(self) -> tuple:
        b = self._buf
        packs = [(int(b[85 + 3 * i]), int(b[86 + 3 * i]), int(b[87 + 3 * i])) for i in range(5) if b[85 + 3 * i]]
        return _decomposition(packs)

    @property
    def points_without_flowers(self) -> int:
        return self.total - self.flowers

    @property
    def is_legal_win(self) -> bool:
        """At least the rule set's minimum not counting flowers (MCR: 8, 起和)."""
        if self._rules is None:
            return self.points_without_flowers >= MIN_POINTS
        return self._rules.legal(self.total, self.flowers)

    legal = is_legal_win

    @property
    def ignored_flags(self) -> dict:
        """``{flag: reason}`` for each flag passed to :func:`score` that the
        rules drop because it cannot hold for this hand (``fourth_tile`` with
        another copy of the winning tile in hand; ``kong`` on a self-drawn win
        without a kong, or robbing a kong of a tile the hand also holds).
        Empty when every flag was applied.  ``score(..., strict=True)`` raises
        instead."""
        out = dropped_reasons(self._dropped, self.self_drawn)
        if self._extra:
            out.update(self._extra)
        return out

    def fan_counts(self) -> np.ndarray:
        """int16 counts indexed by fan id (0 unused, 1-82)."""
        return self._buf[:83].copy()

    def __contains__(self, name) -> bool:
        return any(f.name == name or f.key == name for f in self.fans)

    def settlement(self, discarder: Optional[int] = None, *, discarder_seat=None, winner_seat=None) -> tuple:
        """Point changes of the four players, as a 4-tuple: the rule set's
        settlement (:meth:`RuleSet.settle <mjfast.rules.RuleSet.settle>`; MCR:
        base 8, F = ``total``).

        MCR, self-drawn: each other player pays 8 + F.  On a discard the
        discarder pays 8 + F and the other two pay 8.

        **Relative seats** (the default), numbered like the notation's meld
        digits: the tuple is (winner, 1, 2, 3) with 1 = the player on the
        winner's left (上家, who plays just before the winner), 2 = opposite
        (对家), 3 = the player on the right (下家, who plays just after).  On a
        discard win give ``discarder=1``, ``2`` or ``3`` in this numbering.

        **Absolute seats**, only under explicit names: ``winner_seat`` (and on
        a discard win ``discarder_seat``) as 0-3 or ``"E" "S" "W" "N"`` (seats
        in play order E -> S -> W -> N, like Botzone's player ids 0-3); the
        tuple is then indexed by absolute seat (E, S, W, N).

        >>> s = score("123m456m789m123p5p5p")                  # F = 23  # doctest: +SKIP
        >>> s.settlement(discarder=1)        # the winner's left discarded  # doctest: +SKIP
        (47, -31, -8, -8)
        >>> s.settlement(winner_seat="S", discarder_seat="E")  # E is S's left  # doctest: +SKIP
        (-31, 47, -8, -8)
        """
        if winner_seat is not None or discarder_seat is not None:
            if discarder is not None:
                raise TypeError("give either discarder (relative: 1 = left, 2 = opposite, 3 = right) "
                                "or discarder_seat and winner_seat (absolute seats 0-3 / E S W N), not both")
            if winner_seat is None:
                raise TypeError("discarder_seat needs winner_seat (absolute seats 0-3 or E S W N)")
            return self.rules.settle_seats(self.total, self.self_drawn, winner_seat, discarder_seat)
        if not self.self_drawn:
            if discarder is None:
                raise ValueError("on a discard win give discarder=1 (left, 上家), 2 (opposite, 对家) "
                                 "or 3 (right, 下家)")
            if isinstance(discarder, (bool, np.bool_)) or not isinstance(discarder, (int, np.integer)):
                raise TypeError(f"discarder must be an int 1 (left, 上家), 2 (opposite, 对家) or 3 (right, 下家), "
                                f"got {discarder!r}")
            if discarder not in (1, 2, 3):
                raise ValueError(f"discarder must be 1 (left, 上家), 2 (opposite, 对家) or 3 (right, 下家), "
                                 f"got {discarder!r}")
        return self.rules.settle(self.total, self.self_drawn, discarder)

    def as_dict(self) -> dict:
        """The JSON result: total, fans, legal, and ``ignored_flags`` (``{flag:
        reason}``) only when the rules dropped a flag (as in JSONL result lines)."""
        out = {
            "total": self.total,
            "fans": [{"name": f.name, "zh": f.zh, "points": f.points, "count": f.count} for f in self.fans],
            "legal": self.is_legal_win,
        }
        if self._dropped or self._extra:
            out["ignored_flags"] = self.ignored_flags
        if self._rules is not None and self._rules != MCR_RULES:
            out["rules"] = self._rules.name
        return out

    def __repr__(self) -> str:
        fans = ", ".join(str(f) for f in self.fans)
        ign = f", ignored_flags={sorted(self.ignored_flags)}" if self._dropped else ""
        return f"Score(total={self.total}, legal={self.is_legal_win}, fans=[{fans}]{ign})"


def _fans_from_counts(counts) -> list:
    out = []
    for fid in np.flatnonzero(counts):
        c = int(counts[fid])
        if c <= 0:
            continue
        fan = _BY_ID[int(fid)]
        out.append(FanResult(fan.en, fan.zh, fan.points, c, fan.key, fan.id))
    # highest value first, then table order
    out.sort(key=lambda f: (-f.points, f.id))
    return out


def _decomposition(packs):
    out = []
    for typ, tile, melded in packs:
        kind = _PACK_TYPES[typ]
        out.append((kind, set_text(kind, tile), bool(melded)))
    return tuple(out)




def score(hand, *, self_drawn: bool = False, fourth_tile: bool = False, kong: bool = False,
          last_tile: bool = False, seat_wind="E", round_wind="E", flowers: int = 0,
          strict: bool = False, rules=None, wildcards=None, wildcard_tiles=None, wild_fifth=False,
          **rule_flags) -> Score:
    """Score a winning MCR hand.

    ``hand``: notation with melds first and the winning tile last
    (``"[567m2][EEE1]45m678pFF6m"``) or a :class:`~mjfast.Hand`.
    ``self_drawn``, ``fourth_tile``, ``kong``, ``last_tile``: bools (a numpy
    bool too; anything else raises :class:`~mjfast.errors.InvalidArgument`, a
    TypeError).  ``kong``: robbing the kong on a discard win, out with a
    replacement tile on a self-drawn win.  ``last_tile``: last tile draw / last
    tile claim.  ``fourth_tile``: the winning tile is the last of its kind (和绝张).
    ``seat_wind`` / ``round_wind``: ``"E" "S" "W" "N"`` or 0-3; ``flowers`` 0-8.

    Flags that cannot hold are dropped as the reference does (docs/rulings.md, 4), and
    reported in :attr:`Score.ignored_flags`: fourth_tile when you hold another
    copy of the winning tile (it is set when your melds hold three); kong for a
    self-drawn win with no kong, or a discard win on a tile you already hold.
    With ``strict=True`` such a flag raises :class:`~mjfast.InvalidHand` instead.

    ``rules``: a rule-set name (``mjfast.rules.available()``) or a
    :class:`~mjfast.rules.RuleSet`; ``None`` is MCR.  Flags other rule sets
    understand (``heavenly_hand``, ``earthly_hand``, ``human_hand``,
    ``ready_at_start`` for two-player; ``wild_win``, ``declared_ready`` for
    old Shanghai; ``discard_after_kong`` for Guizhou) are keyword arguments
    too, taken under every rule set; a flag the
    rule set does not use is dropped and reported in ``ignored_flags`` (an
    error under ``strict``).  A tile the rule set does not play raises
    :class:`~mjfast.InvalidHand` naming the rule set.

    Wildcards (``wildcards=k`` beside the hand's tiles, or
    ``wildcard_tiles=[kind, ...]``; docs/wildcards.md): every substitution
    that completes the hand is scored (and, when the winning tile is a
    wildcard, every tile it may stand for) and the highest total is returned,
    with :attr:`Score.substitutions`.  ``wild_fifth=True`` is not supported.

    Raises :class:`~mjfast.NotWinning` if the tiles are not a winning hand,
    :class:`~mjfast.InvalidHand` for malformed input.
    """
    rs: Optional[RuleSet]
    if rules is not None and rules is not MCR_RULES:
        rs = rules if type(rules) is RuleSet else _get_rules(rules)
        if rs is not MCR_RULES and not rs.impl.mcr_fans:
            # the rule set's own engine (mjfast.rules.engine); those on the
            # compiled MCR kernel (mcr, dazhong) are scored below, with their
            # variant bits (their engine's score comes back here)
            return rs.impl.score(rs, hand,
                                 dict(self_drawn=self_drawn, fourth_tile=fourth_tile, kong=kong,
                                      last_tile=last_tile, seat_wind=seat_wind, round_wind=round_wind,
                                      flowers=flowers),
                                 rule_flags, strict,
                                 dict(wildcards=wildcards, wildcard_tiles=wildcard_tiles, wild_fifth=wild_fifth))
        rules = rs
    if wildcards is not None or wildcard_tiles is not None or wild_fifth is not False:
        return score_wild(hand, wildcards, wildcard_tiles, wild_fifth, strict, rules, rule_flags,
                           dict(self_drawn=self_drawn, fourth_tile=fourth_tile, kong=kong, last_tile=last_tile,
                                seat_wind=seat_wind, round_wind=round_wind, flowers=flowers))
    rs = None
    variant = 0
    if (rules is not None and rules is not MCR_RULES) or rule_flags:
        rs = MCR_RULES if rules is None else rules
        if rule_flags or rs.strict:
            return _score_rules(hand, rs, rule_flags, strict, self_drawn=self_drawn, fourth_tile=fourth_tile,
                                kong=kong, last_tile=last_tile, seat_wind=seat_wind, round_wind=round_wind,
                                flowers=flowers)
        # an MCR-engine rule set that plays every tile: the usual paths, with its variant bits
        variant = rs.variant
        if rs is MCR_RULES:
            rs = None
    buf = np.zeros(100, dtype=np.int16)
    if strict is not False:
        strict = check_flag(strict, "strict")
    if type(hand) is str:
        # fast path: the context packed and the hand parsed and scored in
        # compiled code (with fourth_tile / kong, the bits the rules drop come
        # back beside it); a bad argument, a hand it does not take (an error,
        # flower codes) or a flag that may be dropped under strict=True go
        # through hand_args, which words the problem
        c = _core.context_code(self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)
        if c >= 0 and not (c & (_FOURTH | _KONG) and strict):
            drop = None
            if c & (_FOURTH | _KONG):
                drop = np.zeros(1, dtype=np.uint8)
                total = _fans.score_str(hand, c & 15, c >> 4 & 3, c >> 6 & 3, c >> 8, buf, variant, drop)
            else:
                total = _fans.score_str(hand, c & 15, c >> 4 & 3, c >> 6 & 3, c >> 8, buf, variant)
            if total >= 0:
                return Score(total, buf, bool(c & 1), c >> 8, 0 if drop is None else int(drop[0]), rs)
            if total == -1:
                raise NotWinning(f"not a winning hand: {hand}")
            if total == -3:  # pragma: no cover - the parser validated the hand
                raise InvalidHand(f"invalid hand: {hand}")
    args = hand_args(hand, self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)
    return _score_args(hand, args, strict, variant, rs, buf)


def _score_args(hand, args, strict, variant, rs, buf) -> Score:
    """Score :func:`hand_args`' packed arguments with the kernel: the flags the
    rules drop are reported (an error under ``strict``), the reading kept in ``buf``."""
    h, counts, melds, n_melds, win, flags, seat, rnd, fl = args
    dropped = _fans.impossible_flags(counts, melds, n_melds, win, flags)
    if dropped and strict:
        raise InvalidHand(f"{ignored_message(dropped, bool(flags & 1))} (strict=True)")
    total, form, packs = _fans.score_one(counts, melds, n_melds, win, flags, seat, rnd, fl, buf[:84], variant)
    if total == -3:  # pragma: no cover - hand_args validated the hand
        raise InvalidHand(f"invalid hand: {hand}")
    if total < 0:
        raise NotWinning(f"not a winning hand: {hand if isinstance(hand, str) else h}")
    buf[84] = form
    for i, (typ, tile, melded) in enumerate(packs):
        buf[85 + 3 * i:88 + 3 * i] = (typ, tile, melded)
    return Score(total, buf, bool(flags & 1), fl, dropped, rs)


def score_wild(hand, wildcards, wildcard_tiles, wild_fifth, strict, rules, rule_flags, ctx) -> Score:
    """score() with wildcards: the best total over the substitutions that win."""
    w = check(wildcards, wildcard_tiles, wild_fifth)
    if w.fifth:
        raise ValueError("score does not support wild_fifth=True")
    h = winning_hand(hand)
    real = np.array(h.counts, dtype=np.uint8)
    win = int(h.win_tile)
    win_wild = False
    rs = MCR_RULES if rules is None else rules if type(rules) is RuleSet else _get_rules(rules)
    if w.kinds is not None:
        k = int(real[list(w.kinds)].sum())
        rs.check_wildcards(k, "wildcard_tiles")
        real[list(w.kinds)] = 0
        win_wild = win in w.kinds
    else:
        k = w.k
        rs.check_wildcards(k)
    total = int(real.sum()) + k + 3 * len(h.melds)
    if total != 14:
        raise InvalidHand(f"a winning hand has 14 tiles counting 3 per meld; got {int(real.sum())} real concealed"
                          f" + {k} wildcards + {len(h.melds)} melds = {total}")
    # copies in melds lower the four-copy cap of the wildcards
    caps = np.clip(4 - (np.asarray(h.all_counts, dtype=np.int16) - np.asarray(h.counts, dtype=np.int16)),
                   0, 4).astype(np.uint8)
    best = None
    for sub in _wild.win_substitutions(real, k, len(h.melds), -1, caps):
        s = np.frombuffer(sub, dtype=np.uint8)
        full = real + s
        stood = [t for t in range(34) for _ in range(int(s[t]))]
        for wt in (sorted(set(stood)) if win_wild else [win]):
            c = full.copy()
            c[wt] -= 1
            tiles = tuple([t for t in range(34) for _ in range(int(c[t]))] + [wt])
            sc = score(Hand(melds=h.melds, tiles=tiles, flowers=h.flowers), strict=strict, rules=rules,
                       **ctx, **rule_flags)
            if best is None or sc.total > best[0].total:
                rest = list(stood)
                if win_wild:
                    rest.remove(wt)
                best = (sc, tuple(([wt] if win_wild else []) + sorted(rest)))
    if best is None:
        raise NotWinning(f"not a winning hand with {k} wildcards: {hand if isinstance(hand, str) else h}")
    best[0]._subs = best[1]
    return best[0]


# -- other rule sets -------------------------------------------------------------

#: Flags a rule set may understand beyond MCR's context (mjfast.spec.flags,
#: the ``rule`` byte).  Every rule set takes all of them as keywords of
#: score() (and as batch record fields): one it has no use for is reported in
#: ``ignored_flags``, never an error unless ``strict``.
EXTRA_FLAGS = _flags.names(_flags.RULE)
_MCR_CONTEXT = _flags.names(_flags.WIN)


def rule_flag_values(rule_flags, strict, rs):
    """``(flags, strict)`` of a rule set's score: the keyword flags checked
    (names of mjfast.spec.flags, bool values) and ``strict`` with the rule
    set's own ``strict`` option."""
    check_flag_names(rule_flags)
    extra = {k: check_flag(v, k) for k, v in rule_flags.items()}
    return extra, check_flag(strict, "strict") or rs.strict


def _score_rules(hand, rs, rule_flags, strict, **ctx):
    extra, strict = rule_flag_values(rule_flags, strict, rs)
    unused = ignored_flags(rs, extra)
    if unused and strict:
        raise InvalidHand(strict_message(unused))
    args = hand_args(hand, ctx["self_drawn"], ctx["fourth_tile"], ctx["kong"], ctx["last_tile"],
                     ctx["seat_wind"], ctx["round_wind"], ctx["flowers"])
    rs.check_tiles(args[0].all_counts)
    out = _score_args(hand, args, strict, rs.variant, rs, np.zeros(100, dtype=np.int16))
    out._extra = unused or None
    return out


class RuleScore(CountedResult):
    """The result of :func:`score` under a rule set with its own fan table
    (two_player): the same reading API as :class:`Score`."""

    __slots__ = ("rules", "total", "self_drawn", "flowers", "form", "_counts", "_items", "_dropped", "_subs")

    def __init__(self, rules, total, fans, form, items, self_drawn, flowers, dropped):
        self.rules = rules
        self.total = total
        self.self_drawn = self_drawn
        self.flowers = flowers
        self.form = form
        self._counts = fans
        self._items = items
        self._dropped = dropped
        self._subs = None        # set by score(..., wildcards=...)

    @property
    def substitutions(self):
        """With wildcards: the tiles they stood for (as :attr:`Score.substitutions`); None without."""
        return self._subs

    @property
    def fans(self) -> list:
        t = self.rules.table
        out = [FanResult(t[k].en, t[k].zh, t[k].points, c, k, t[k].id) for k, c in self._counts.items() if c > 0]
        out.sort(key=lambda f: (-f.points, f.id))
        return out

    @property
    def points_without_flowers(self) -> int:
        return self.total - self.flowers

    @property
    def is_legal_win(self) -> bool:
        return self.rules.legal(self.total, self.flowers)

    legal = is_legal_win

    @property
    def decomposition(self) -> tuple:
        return tuple((kind, set_text(kind, t), False) for kind, t in self._items)

    def __contains__(self, name) -> bool:
        return any(f.name == name or f.key == name for f in self.fans)

    def settlement(self, discarder=None, *, balance=None) -> tuple:
        """(winner, loser) point changes (docs/rules.md): the loser pays
        total x fan_value, at most ``balance``."""
        return self.rules.settle(self.total, self.self_drawn, discarder, balance=balance)

    def as_dict(self) -> dict:
        out = {
            "total": self.total,
            "fans": [{"name": f.name, "zh": f.zh, "points": f.points, "count": f.count} for f in self.fans],
            "legal": self.is_legal_win,
            "rules": self.rules.name,
        }
        if self._dropped:
            out["ignored_flags"] = self.ignored_flags
        return out

    def __repr__(self) -> str:
        fans = ", ".join(str(f) for f in self.fans)
        return f"RuleScore(rules={self.rules.name!r}, total={self.total}, legal={self.is_legal_win}, fans=[{fans}])"
