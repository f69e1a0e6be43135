"""What a rule set is: :class:`RuleSet`, its :class:`Option` records, and the
registry behind :func:`mjfast.rules.get` / :func:`mjfast.rules.available`.

A rule set is data: the tiles it plays with, the hand size, the winning forms
it allows, its fan table (:class:`~mjfast.rules.mcr.FanTable`), the minimum to
win, the context flags it understands, its named options and its settlement.
Scoring functions take ``rules=`` (a name or a :class:`RuleSet`) and ask the
rule set which engine scores it: the compiled MCR engine (with the rule set's
variant bits) or the rule set's own predicates.

docs/rules.md describes every rule set, its options and where each comes from.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Tuple

import numpy as np

import importlib
from .. import _fans
from ..errors import InvalidArgument, InvalidHand, InvalidOption, UnknownRules
from ..scoring.records import check_wind
from ..spec import flags as _flags
from .mcr.table import FanTable

__all__ = ["Option", "RuleSet", "FanResult", "CountedResult", "register", "get", "available", "ALL_TILES",
           "ignored_flags", "check_flag_names", "cannot_hold", "strict_message", "impossible_flags",
           "dropped_reasons", "DROP_REASONS"]

#: Every tile index 0..33 (1m..9m, 1p..9p, 1s..9s, E S W N, C F P).
ALL_TILES = frozenset(range(34))

#: The most wildcards a hand may hold in the wildcard analysis of
#: docs/wildcards.md (jokers, or two wild kinds of four): the limit of a rule
#: set whose own rules have no wildcards but that takes the analysis (mcr).
ANALYSIS_WILDCARDS = 8

_TILE_NAMES = ([f"{r}m" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)]
               + [f"{r}s" for r in range(1, 10)] + list("ESWNCFP"))


@dataclass(frozen=True)
class FanResult:
    """One scored fan (or item of a rule set's table): ``points`` is per
    instance, ``count`` how many times it scored.  Every rule set's result
    lists these (or a subclass naming its unit)."""
    name: str
    zh: str
    points: int
    count: int
    key: str
    id: int

    @property
    def total(self) -> int:
        return self.points * self.count

    def __str__(self) -> str:
        times = f" x{self.count}" if self.count > 1 else ""
        return f"{self.name} ({self.zh}) {self.points}{times}"



class CountedResult:
    """What a rule set's result reads off its item counts: ``_counts``
    ({item key: count}) over ``rules.table``, and ``_dropped`` (the flags
    the rule set could not hold, with why)."""
    __slots__ = ()
    # what the subclass holds (declared for type checkers)
    fans: Any
    _dropped: Any

    def fan_counts(self):
        """int16 counts indexed by the rule set's fan ids (0 unused)."""
        t = self.rules.table
        out = np.zeros(max(t.ids) + 1, np.int16)
        for k, c in self._counts.items():
            out[t[k].id] = c
        return out

    def __contains__(self, name) -> bool:
        return any(f.name == name or f.key == name or f.zh == name for f in self.fans)

    @property
    def ignored_flags(self) -> dict:
        return dict(self._dropped)


def non_negative(v):
    """An :class:`Option` check: 0 or more."""
    return None if v >= 0 else "must be 0 or more"


def positive(v):
    """An :class:`Option` check: 1 or more."""
    return None if v > 0 else "must be at least 1"


@dataclass(frozen=True)
class Option:
    """One named option of a rule set: its default, the values it accepts
    (``choices``; or ``kind`` with an optional ``check``), what it means, and
    the rule text it settles (``source``, in our words)."""
    name: str
    default: object
    doc: str
    source: str = ""
    choices: Optional[tuple] = None
    kind: Optional[type] = None
    check: Optional[Callable[[object], Optional[str]]] = None   # returns a complaint or None

    def validate(self, value, rules_name: str):
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool) != isinstance(self.choices[0], bool):
                raise InvalidOption(f"rule set {rules_name!r}: option {self.name} must be one of "
                                      f"{', '.join(map(repr, self.choices))}, got {value!r}")
            return value
        if self.kind is bool:
            if value is True or value is False:
                return value
            raise InvalidOption(f"rule set {rules_name!r}: option {self.name} must be true or false, got {value!r}")
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOption(f"rule set {rules_name!r}: option {self.name} must be an int, got {value!r}")
        if self.check is not None:
            complaint = self.check(value)
            if complaint:
                raise InvalidOption(f"rule set {rules_name!r}: option {self.name} {complaint}, got {value!r}")
        return value

    def parse(self, text: str, rules_name: str):
        """The value of ``KEY=VALUE`` text (command line): bools as true/false,
        ints as digits, choices by their spelling."""
        t = text.strip()
        if self.kind is bool or (self.choices and isinstance(self.choices[0], bool)):
            low = t.lower()
            if low in ("true", "1", "yes", "on"):
                return self.validate(True, rules_name)
            if low in ("false", "0", "no", "off"):
                return self.validate(False, rules_name)
            raise InvalidOption(f"rule set {rules_name!r}: option {self.name} must be true or false, got {t!r}")
        if self.kind is int:
            try:
                v = int(t)
            except ValueError:
                raise InvalidOption(f"rule set {rules_name!r}: option {self.name} must be an int, "
                                      f"got {t!r}") from None
            return self.validate(v, rules_name)
        return self.validate(t, rules_name)


def check_settle_args(total, self_drawn, discarder, rules=None):
    """``(total, self_drawn, discarder)`` of a settlement checked and made
    plain ints / bool: ``total`` a whole number, 0 or more; ``self_drawn`` a
    bool; ``discarder`` None or an int (each rule set checks its range).  So
    a float total is not truncated nor a string flag read as true.  With
    ``rules`` (a rule-set name) the rule set's own settle function checks
    that it was given a RuleSet of that engine too."""
    if type(total) is int and total >= 0 and type(self_drawn) is bool and (discarder is None
                                                                         or type(discarder) is int):
        return total, self_drawn, discarder      # the common case, as the checks below would give it
    if isinstance(total, bool) or not isinstance(total, numbers.Integral):
        raise InvalidArgument(f"settle: total must be an int, got {total!r}")
    if total < 0:
        raise InvalidHand(f"settle: total must be 0 or more, got {total}")
    # numpy's bool is numpy.bool_ (named "bool" since numpy 2)
    if not isinstance(self_drawn, bool) and not (type(self_drawn).__module__ == "numpy"
                                                 and type(self_drawn).__name__ in ("bool_", "bool")):
        raise InvalidArgument(f"settle: self_drawn must be a bool, got {self_drawn!r}")
    if discarder is not None and (isinstance(discarder, bool) or not isinstance(discarder, numbers.Integral)):
        raise InvalidArgument(f"settle: discarder must be None or 1 (left), 2 (opposite), 3 (right), "
                              f"got {discarder!r}")
    return int(total), bool(self_drawn), (None if discarder is None else int(discarder))


def check_engine(rs, engine: str, what: str):
    """TypeError unless ``rs`` is a RuleSet of ``engine``."""
    if not isinstance(rs, RuleSet) or rs.engine != engine:
        raise InvalidArgument(f"{what} takes a {engine!r} RuleSet first, got {rs!r}")


@dataclass(frozen=True)
class RuleSet:
    """A rule set: see the module docstring and docs/rules.md.

    ``engine`` names the scorer: ``"mcr"`` (the compiled MCR engine, with
    ``variant`` bits for the rulings that differ from the reference) or a rule
    set's own (``"two_player"``).  ``options`` holds the current value of
    every option; :meth:`with_options` makes a new rule set.
    """
    name: str
    title: str
    table: FanTable
    tiles: frozenset = ALL_TILES
    hand_size: int = 13
    forms: Tuple[str, ...] = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
    flags: Tuple[str, ...] = ()
    option_specs: Tuple[Option, ...] = ()
    options: Mapping = field(default_factory=dict)
    flowers_count_to_minimum: bool = False
    players: int = 4
    settlement_text: str = ""
    engine: str = "mcr"
    variant_of: Callable = field(default=lambda opts: 0, repr=False, compare=False)
    settle_fn: Optional[Callable] = field(default=None, repr=False, compare=False)
    source: str = ""
    #: what a hand's total counts (the minimum to win is in this unit)
    unit: str = "points"
    #: A rule set that scores a hand entirely on its own (its own flags,
    #: wildcards, result type): ``score_fn(hand, rs, ctx, flags, strict, wild)``
    #: with ``ctx`` the MCR context keywords of :func:`mjfast.score`
    #: (self_drawn ... flowers), ``flags`` its other keyword arguments
    #: (unchecked), ``wild`` the ``wildcards`` / ``wildcard_tiles`` /
    #: ``wild_fifth`` arguments.  None: the MCR engine or the two-player path.
    score_fn: Optional[Callable] = field(default=None, repr=False, compare=False)
    #: ``check_options(options) -> complaint or None``: a test of options
    #: that depend on each other (zhuji: two 财神 kinds adjacent under its
    #: ``wild_adjacency``), run whenever options are set.
    check_options: Optional[Callable] = field(default=None, repr=False, compare=False)
    #: ``max_wildcards_of(options) -> (n, why)``: the most wildcards one hand
    #: may hold under the rule set, and the words saying where that comes
    #: from (old Shanghai: its four 百搭).  None: the analysis limit,
    #: :data:`ANALYSIS_WILDCARDS`.  docs/wildcards.md lists each rule set's.
    max_wildcards_of: Optional[Callable] = field(default=None, repr=False, compare=False)
    #: how ``ignored_flags`` words a flag the rule set does not read, after
    #: "ignored: rule set '<name>' " (zhuji counts 台 items, guizhou 胡 kinds)
    ignored_wording: str = field(default="has no fan that uses it", repr=False, compare=False)
    #: The rule set's engine (:class:`mjfast.rules.engine.Engine`): an
    #: instance, or ``"module:NAME"`` imported on first use.  None: the
    #: function engine of ``score_fn`` when there is one, else the compiled
    #: MCR engine.  :attr:`impl` is the engine itself.
    engine_impl: object = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        specs = {o.name: o for o in self.option_specs}
        opts = {o.name: o.default for o in self.option_specs}
        for k, v in dict(self.options).items():
            if k not in specs:
                raise InvalidOption(f"rule set {self.name!r} has no option {k!r} "
                                      f"(options: {', '.join(specs) or 'none'})")
            opts[k] = specs[k].validate(v, self.name)
        if self.check_options is not None:
            bad = self.check_options(opts)
            if bad:
                raise InvalidOption(f"rule set {self.name!r}: {bad}")
        object.__setattr__(self, "options", MappingProxyType(opts))

    @property
    def impl(self):
        """The rule set's engine (see :mod:`mjfast.rules.engine`): what
        scoring, batches, settlement and the command line ask."""
        ref = self.engine_impl
        if ref is not None and type(ref) is not str:
            return ref
        if ref is None:
            ref = _FUNCTION_ENGINE if self.score_fn is not None else _MCR_ENGINE
        e = _ENGINES.get(ref)
        if e is None:
            mod, _, attr = ref.partition(":")
            e = _ENGINES[ref] = getattr(importlib.import_module(mod), attr)
        # kept in the field (compare=False, repr=False): the next call is one read
        object.__setattr__(self, "engine_impl", e)
        return e

    @property
    def wild_kinds(self) -> tuple:
        """The tile kinds this rule set's own rules make wild (its engine's
        :meth:`~mjfast.rules.engine.Engine.wild_kinds`), () for none."""
        return tuple(self.impl.wild_kinds(self))

    @property
    def is_default(self) -> bool:
        """Whether this is the registry's default rule set (MCR, whatever
        its options): the one a record or a result need not name."""
        return self.name == DEFAULT

    # -- options -----------------------------------------------------------
    def with_options(self, **changes) -> "RuleSet":
        """A new rule set with some options changed (unknown names raise)."""
        opts = dict(self.options)
        opts.update(changes)
        return RuleSet(**{**self.__dict__, "options": opts})

    def with_option_text(self, pairs) -> "RuleSet":
        """``with_options`` from ``["KEY=VALUE", ...]`` strings (the command line)."""
        specs = {o.name: o for o in self.option_specs}
        changes = {}
        for p in pairs or ():
            if "=" not in p:
                raise InvalidOption(f"--rule-option wants KEY=VALUE, got {p!r}")
            k, v = p.split("=", 1)
            k = k.strip().replace("-", "_")
            if k not in specs:
                raise InvalidOption(f"rule set {self.name!r} has no option {k!r} "
                                      f"(options: {', '.join(specs) or 'none'})")
            changes[k] = specs[k].parse(v, self.name)
        return self.with_options(**changes) if changes else self

    def option(self, name: str):
        return self.options[name]

    @property
    def defaults(self) -> dict:
        return {o.name: o.default for o in self.option_specs}

    @property
    def changed_options(self) -> dict:
        """The options that differ from their defaults."""
        return {k: v for k, v in self.options.items() if self.defaults[k] != v}

    @property
    def variant(self) -> int:
        """The compiled MCR engine's variant bits for these options (0 = MCR)."""
        return int(self.variant_of(self.options))

    @property
    def min_points(self) -> int:
        """The minimum to win (flowers excluded unless ``flowers_count_to_minimum``)."""
        for k in ("min_points", "min_fan", "min_tai"):
            if k in self.options:
                return int(self.options[k])
        return 0

    @property
    def strict(self) -> bool:
        return bool(self.options.get("strict", False))

    # -- checks ------------------------------------------------------------
    def legal(self, total: int, flowers: int) -> bool:
        pts = total if self.flowers_count_to_minimum else total - flowers
        return pts >= self.min_points

    @property
    def max_wildcards(self) -> int:
        """The most wildcards one hand may hold under this rule set (0: it
        takes none)."""
        return self._wildcard_limit()[0]

    def _wildcard_limit(self):
        if self.max_wildcards_of is None:
            return ANALYSIS_WILDCARDS, "the wildcard analysis' limit: two wild kinds of four"
        n, why = self.max_wildcards_of(self.options)
        return int(n), why

    def check_wildcards(self, k: int, what: str = "wildcards") -> None:
        """Raise :class:`~mjfast.InvalidHand` when a hand holds more than
        :attr:`max_wildcards` wildcards (``k``; ``what`` names the argument
        they came from)."""
        n, why = self._wildcard_limit()
        if k > n:
            has = f"at most {n} wildcards in a hand" if n else "no wildcards"
            raise InvalidHand(f"{what}: {k} wildcards, but rule set {self.name!r} has {has} ({why})")

    def check_tiles(self, all_counts) -> None:
        """Raise :class:`~mjfast.InvalidHand` naming the rule set when a tile
        (melds included) is not one of its tiles."""
        if self.tiles is ALL_TILES or len(self.tiles) == 34:
            return
        for t in range(34):
            if all_counts[t] and t not in self.tiles:
                raise InvalidHand(f"tile {_TILE_NAMES[t]} is not played in rule set {self.name!r} "
                                  f"({self.title}: {self.tile_text()})")

    def tile_text(self) -> str:
        """The rule set's tiles in short words, for messages."""
        groups = []
        if all(t in self.tiles for t in range(9)):
            groups.append("characters 1m-9m")
        if all(t in self.tiles for t in range(9, 18)):
            groups.append("dots 1p-9p")
        if all(t in self.tiles for t in range(18, 27)):
            groups.append("bamboo 1s-9s")
        if all(t in self.tiles for t in range(27, 31)):
            groups.append("winds")
        if all(t in self.tiles for t in range(31, 34)):
            groups.append("dragons")
        return ", ".join(groups)

    # -- settlement --------------------------------------------------------
    def settle(self, total: int, self_drawn: bool, discarder: Optional[int] = None, **kw) -> tuple:
        """Point changes of the players for a won hand worth ``total`` (see
        docs/rules.md for each rule set's arithmetic).  ``total`` a whole
        number, 0 or more; ``self_drawn`` a bool; ``discarder`` None or 1-3
        (checked here once for every rule set, so a float total is not
        truncated nor a string flag read as true)."""
        total, self_drawn, discarder = check_settle_args(total, self_drawn, discarder)
        return self.impl.settle(self, total, self_drawn, discarder, **kw)

    def settle_seats(self, total: int, self_drawn: bool, winner_seat: int, discarder_seat: Optional[int] = None,
                     **kw) -> tuple:
        """:meth:`settle` of a four-player rule set by absolute seats, 0-3 or
        ``"E" "S" "W" "N"`` (in play order: the seat before the winner is its
        left, 1 in :meth:`settle`'s numbering): the tuple is indexed by seat.
        ``discarder_seat`` None on a self-drawn win."""
        if self.players != 4:
            raise InvalidArgument(f"settle_seats: rule set {self.name!r} is played by {self.players}, not 4")
        w = winner_seat if type(winner_seat) is int and 0 <= winner_seat <= 3 else check_wind(winner_seat,
                                                                                                "winner_seat")
        if self_drawn:
            if discarder_seat is not None:
                raise ValueError("a self-drawn win has no discarder (drop discarder_seat)")
            rel = self.settle(total, self_drawn, None, **kw)
        else:
            if discarder_seat is None:
                raise ValueError("on a discard win give discarder_seat (0-3 or E S W N) with winner_seat")
            d = (discarder_seat if type(discarder_seat) is int and 0 <= discarder_seat <= 3
                 else check_wind(discarder_seat, "discarder_seat"))
            if d == w:
                raise ValueError(f"discarder_seat and winner_seat are the same seat ({'ESWN'[w]})")
            rel = self.settle(total, self_drawn, (w - d) % 4, **kw)
        out = [0, 0, 0, 0]
        for r, amount in enumerate(rel):
            out[(w - r) % 4] = amount
        return tuple(out)

    def __repr__(self) -> str:
        ch = self.changed_options
        extra = f" {ch}" if ch else ""
        return f"<RuleSet {self.name!r}{extra}>"

    def __hash__(self):
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __reduce__(self):
        # pickled by name and options (for worker processes and Dask): the
        # fields hold functions and a read-only mapping that do not pickle
        if _REGISTRY.get(self.name) is None:
            raise TypeError(f"rule set {self.name!r} is not registered (mjfast.rules.register): "
                            "only registered rule sets can be pickled")
        return (_with_options, (self.name, dict(self.changed_options)))

    def __eq__(self, other):
        return (isinstance(other, RuleSet) and self.name == other.name
                and dict(self.options) == dict(other.options))

    def describe(self) -> str:
        """A readable summary: tiles, hand size, forms, minimum, flags, options."""
        lines = [f"{self.name}: {self.title}",
                 f"  tiles: {self.tile_text()}" + (", flowers" if "flowers" in self.flags else ""),
                 f"  hand: {self.hand_size} tiles + the winning tile; forms: {', '.join(self.forms)}",
                 f"  minimum to win: {self.min_points} {self.unit}"
                 + ("" if self.flowers_count_to_minimum or "flowers" not in self.flags else " (flowers not counted)"),
                 f"  flags: {', '.join(self.flags)}",
                 f"  fans: {len(self.table)}"]
        if self.option_specs:
            lines.append("  options:")
            for o in self.option_specs:
                cur = self.options[o.name]
                mark = "" if cur == o.default else f" (now {cur!r})"
                lines.append(f"    {o.name} = {o.default!r}{mark}: {o.doc}")
        if self.settlement_text:
            lines.append(f"  settlement: {self.settlement_text}")
        return "\n".join(lines)


#: the rule set of ``rules=None`` (and of the command line without --rules)
DEFAULT = "mcr"
#: the engines of a RuleSet that names none (see RuleSet.impl)
_MCR_ENGINE = "mjfast.rules.mcr.engine:MCR_ENGINE"
_FUNCTION_ENGINE = "mjfast.rules.engine:FUNCTION_ENGINE"
#: engines named "module:NAME", once imported
_ENGINES: dict = {}

_REGISTRY: dict = {}
#: rule sets whose module is imported on first use (get), so that importing
#: mjfast (and starting the command line) does not load them all.  Each has
#: its own fan table (mjfast.stats.cli counts on it; tests/test_imports.py checks)
_LAZY = {"guizhou": "mjfast.rules.guizhou", "shanghai_old": "mjfast.rules.shanghai",
         "two_player": "mjfast.rules.two_player", "zhuji": "mjfast.rules.zhuji"}


# -- context flags (declared in mjfast/spec/flags.py) --------------------------

def check_flag_names(given, what: str = "score()") -> None:
    """A TypeError for a keyword of ``given`` that is no context flag of
    :data:`mjfast.spec.flags.FLAGS` (every rule set takes every flag)."""
    for k in given:
        if k not in _flags.FLAGS:
            raise TypeError(f"{what} got an unexpected keyword argument {k!r}")


def ignored_flags(rules: RuleSet, given) -> dict:
    """{flag: reason} for every context flag set in ``given`` (a mapping of
    flag name to value; other keys are skipped) that ``rules`` does not read
    (not in ``rules.flags``), in the order of :data:`mjfast.spec.flags.FLAGS`.
    The one place a rule set's unused flags are found and worded."""
    why = f"ignored: rule set {rules.name!r} {rules.ignored_wording}"
    return {n: why for n in _flags.FLAGS if given.get(n) and n not in rules.flags}


def cannot_hold(dropped) -> str:
    """The flags in ``dropped`` ({flag: reason}) in one line, as errors word
    them: a reason "dropped: ..." (the flag cannot hold for this hand) reads
    "cannot hold: ..."; "ignored: ..." stays."""
    parts = []
    for k, v in dropped.items():
        if v.startswith("dropped:"):
            v = "cannot hold:" + v[len("dropped:"):]
        parts.append(f"{k} {v}")
    return "; ".join(parts)


def strict_message(dropped) -> str:
    """The ``strict=True`` error for the flags in ``dropped`` ({flag: reason})."""
    return cannot_hold(dropped) + " (strict=True)"


# -- the flags that cannot hold for a hand (docs/rulings.md, 4) ----------------
# The kernel finds them (src/fankernel/fan_base.pxd, _impossible_flags: the one
# statement of the rule, for one hand and for batches); Python only words them.

_WIN_BITS = _flags.bits(_flags.WIN)
_MELD_KIND = {"chow": 0, "pung": 1, "kong": 2}

#: How MCR words the flags the kernel drops: ``fourth_tile``, and ``kong``
#: on a self-drawn win (``kong_self_drawn``) or on a discard
#: (``kong_discard``).  A rule set that words them in its own terms passes
#: :func:`dropped_reasons` a mapping with the same keys.
DROP_REASONS = MappingProxyType({
    "fourth_tile": "dropped: the concealed tiles hold another copy of the winning tile, so it cannot be the last one",
    "kong_self_drawn": "dropped: out with a replacement tile needs a kong among the melds, and there is none",
    "kong_discard": "dropped: robbing the kong needs a winning tile that is not also in the hand or its melds",
})


def impossible_flags(h, *, self_drawn=False, fourth_tile=False, kong=False, win=None) -> int:
    """The bits (:data:`mjfast.spec.flags` win byte) of ``fourth_tile`` /
    ``kong`` that cannot hold for the :class:`~mjfast.Hand` ``h``, as the
    kernel finds them: ``fourth_tile`` with another copy of the winning tile
    in hand; ``kong`` on a self-drawn win without a kong among the melds, or
    on a discard (robbing a kong) of a tile the hand or its melds also hold.
    ``win``: the winning tile (default: h's last concealed tile; -1 when it
    is a wildcard, which no copy in hand contradicts)."""
    if win is None:
        win = h.tiles[-1] if h.tiles else -1
    melds = np.array([(_MELD_KIND[m.kind], m.tile) for m in h.melds], dtype=np.uint8).reshape(-1, 2)
    bits = (_WIN_BITS["self_drawn"] * bool(self_drawn) | _WIN_BITS["fourth_tile"] * bool(fourth_tile)
            | _WIN_BITS["kong"] * bool(kong))
    return _fans.impossible_flags(h.counts, melds, len(h.melds), int(win), bits)


def dropped_reasons(bits: int, self_drawn: bool, reasons=DROP_REASONS) -> dict:
    """{flag name: why it was dropped} for the bits the kernel dropped
    (:func:`impossible_flags`, ``Score`` / ``BatchResult`` ignored bits),
    worded by ``reasons`` (keys as :data:`DROP_REASONS`).  The one place they
    are worded."""
    out = {}
    if bits & _WIN_BITS["fourth_tile"]:
        out["fourth_tile"] = reasons["fourth_tile"]
    if bits & _WIN_BITS["kong"]:
        out["kong"] = reasons["kong_self_drawn" if self_drawn else "kong_discard"]
    return out


def register(rules: RuleSet) -> RuleSet:
    """Add a rule set to the registry (by its name)."""
    _REGISTRY[rules.name] = rules
    return rules


def loaded(name: str) -> bool:
    """True when the rule set ``name`` is registered and loaded: one of the
    lazy ones (``_LAZY``) is registered by name only until its first
    :func:`get` imports it."""
    return name in _REGISTRY


def available() -> tuple:
    """Names of the registered rule sets, MCR first."""
    return tuple(sorted(set(_REGISTRY) | set(_LAZY), key=lambda n: (n != DEFAULT, n)))


def get(rules=DEFAULT, **options) -> RuleSet:
    """The rule set named ``rules`` (or ``rules`` itself if it is a
    :class:`RuleSet`), with ``options`` applied."""
    if type(rules) is str and not options:
        rs = _REGISTRY.get(rules)           # (the common case, first)
        if rs is not None:
            return rs
    if isinstance(rules, RuleSet):
        rs = rules
    elif rules is None:
        rs = _REGISTRY[DEFAULT]
    elif isinstance(rules, str):
        if rules not in _REGISTRY and rules in _LAZY:
            importlib.import_module(_LAZY[rules])      # registers it
        try:
            rs = _REGISTRY[rules]
        except KeyError:
            raise UnknownRules(f"unknown rule set {rules!r} (available: {', '.join(available())})") from None
    else:
        raise UnknownRules(f"rules must be a rule-set name or a mjfast.rules.RuleSet, "
                              f"got {type(rules).__name__}")
    return rs.with_options(**options) if options else rs


def _with_options(name, options):
    """Unpickle a rule set with changed options (see RuleSet.__reduce__)."""
    return get(name, **options)
