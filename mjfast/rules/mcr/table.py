"""The Chinese Official Mahjong (MCR, 国标麻将) fan table, written as data.

One :class:`Fan` record per fan: its number in the 1998 table, a stable key,
the English name exactly as the reference calculator prints it, the Chinese
name, its points, and the fans it switches off (不计).  The engine reads the
table; it does not hard-code names, points or whole-fan exclusions.

Source of truth: the MCR rule book (definitions, exclusions, counting
principles).  Where its texts and the reference calculator (PyMahjongGB)
disagree, the table follows the reference, because the differential tests
compare against it; docs/rulings.md lists those choices with example hands.

How exclusions are meant to be applied
--------------------------------------
``Fan.excludes`` holds *whole-fan* exclusions only: when fan A is scored,
every fan listed in ``A.excludes`` is dropped, whatever its count.  Two kinds
of entries live there:

* exclusions the reference applies explicitly (its "不计" pass), and
* implications it enforces simply by never building the combination, e.g.
  Quadruple Chow never also yields Pure Triple Chow, Four Kongs never also
  yields Three Kongs.  Listing these keeps the table honest when an engine
  builds fans differently from the reference.

Applying the exclusions "all at once" (drop the union of ``excludes`` of every
fan found, see :attr:`FanTable.exclusion_masks`) gives the same result as the
reference's ordered pass, with a single exception handled before masking:

* Fully Concealed Hand under one of :data:`DEMOTES_FULLY_CONCEALED_HAND` is
  *demoted* to Self-Drawn, not just removed.  If it were removed by mask, its
  own exclusion of Self-Drawn would wrongly take Self-Drawn with it.

Anything that removes only *some* instances of a fan (a Pung of Terminals or
Honors for the pungs a wind fan already covers, Double Pung among the three
pungs of Triple Pung, ...) is not a whole-fan exclusion.  It is described in
words in ``Fan.partial`` and handled by the engine in named passes, by
counting or by never forming the combination.

Tests: ``tests/test_rules_table.py`` checks the table against the installed
reference calculator (names, points, and that no two fans it prints together
are declared mutually exclusive here).
"""

from __future__ import annotations

from dataclasses import dataclass, replace as _dc_replace
import re
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping, Union
import numpy as np

__all__ = [
    "Fan",
    "FanTable",
    "MCR",
    "DEMOTES_FULLY_CONCEALED_HAND",
    "REFERENCE_ZH",
    "FORMS",
    "describe",
]

#: Allowed values of :attr:`Fan.form`.  "any" means the fan is not tied to a
#: single winning form (it can occur in more than one of them).
FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight", "any")

_KEY_RE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")


def key_from_name(en: str) -> str:
    """The snake_case key derived from an English fan name.

    ``"Three-Suited Terminal Chows"`` -> ``"three_suited_terminal_chows"``.
    """
    return "_".join(re.findall(r"[a-z0-9]+", en.lower()))


@dataclass(frozen=True)
class Fan:
    """One fan (番种) of a rule set.

    ``excludes`` names (by key) the fans never scored alongside this one;
    ``partial`` describes, in words, exclusions that only remove some
    instances of another fan.  See the module docstring.
    """

    id: int
    key: str
    en: str
    zh: str
    points: int
    excludes: tuple[str, ...] = ()
    partial: str = ""
    form: str = "any"
    definition: str = ""

    def __post_init__(self) -> None:
        # Accept any iterable for excludes but always store a tuple, so the
        # record stays hashable and immutable.
        if not isinstance(self.excludes, tuple):
            object.__setattr__(self, "excludes", tuple(self.excludes))
        if not _KEY_RE.match(self.key):
            raise ValueError(f"fan key {self.key!r} is not snake_case")
        if self.form not in FORMS:
            raise ValueError(f"fan {self.key!r}: unknown form {self.form!r}")
        if self.key in self.excludes:
            raise ValueError(f"fan {self.key!r} excludes itself")
        if len(set(self.excludes)) != len(self.excludes):
            raise ValueError(f"fan {self.key!r} lists an exclusion twice")

    @property
    def label(self) -> str:
        """Short one-line label: ``"#28 Pure Straight 清龙 16"``."""
        return f"#{self.id} {self.en} {self.zh} {self.points}"

    def __str__(self) -> str:
        return self.label

    def describe(self, table: "FanTable | None" = None) -> str:
        """A readable multi-line summary (see :func:`describe`)."""
        return describe(self.key, MCR if table is None else table)


KeyOrId = Union[str, int]


class FanTable:
    """An immutable, ordered table of fans (ordered by id).

    Look fans up by key (``table["pure_straight"]``) or by id (``table[28]``).
    A rule variant is a new table: see :meth:`replace`, :meth:`with_fans` and
    :meth:`without`.
    """

    __slots__ = ("_fans", "_by_key", "_by_id", "_by_en", "_index", "_points", "_masks", "name")

    def __init__(self, fans: Iterable[Fan], name: str = "") -> None:
        fans = tuple(sorted(fans, key=lambda f: f.id))
        by_key: dict[str, Fan] = {}
        by_id: dict[int, Fan] = {}
        by_en: dict[str, Fan] = {}
        for f in fans:
            if f.key in by_key:
                raise ValueError(f"duplicate fan key {f.key!r}")
            if f.id in by_id:
                raise ValueError(f"duplicate fan id {f.id}")
            if f.en in by_en:
                raise ValueError(f"duplicate English name {f.en!r}")
            by_key[f.key] = f
            by_id[f.id] = f
            by_en[f.en] = f
        for f in fans:
            for k in f.excludes:
                if k not in by_key:
                    raise ValueError(f"fan {f.key!r} excludes unknown fan {k!r}")
        self._fans = fans
        self._by_key = by_key
        self._by_id = by_id
        self._by_en = by_en
        self._index = {f.key: i for i, f in enumerate(fans)}
        self._points = None  # numpy arrays are built on first use
        self._masks = None
        self.name = name

    # -- container protocol ------------------------------------------------
    def __getitem__(self, key_or_id: KeyOrId) -> Fan:
        if isinstance(key_or_id, str):
            try:
                return self._by_key[key_or_id]
            except KeyError:
                raise KeyError(f"no fan with key {key_or_id!r}") from None
        try:
            i = int(key_or_id)  # also accepts numpy integers
        except (TypeError, ValueError):
            raise KeyError(f"not a fan key or id: {key_or_id!r}") from None
        if isinstance(key_or_id, bool) or i != key_or_id:
            raise KeyError(f"not a fan key or id: {key_or_id!r}")
        try:
            return self._by_id[i]
        except KeyError:
            raise KeyError(f"no fan with id {i}") from None

    def get(self, key_or_id: KeyOrId, default=None):
        try:
            return self[key_or_id]
        except KeyError:
            return default

    def __contains__(self, key_or_id: object) -> bool:
        if isinstance(key_or_id, Fan):
            return self._by_key.get(key_or_id.key) == key_or_id
        if isinstance(key_or_id, (str, int)):
            return self.get(key_or_id) is not None
        return False

    def __iter__(self) -> Iterator[Fan]:
        return iter(self._fans)

    def __len__(self) -> int:
        return len(self._fans)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FanTable) and self._fans == other._fans

    def __hash__(self) -> int:
        return hash(self._fans)

    def __repr__(self) -> str:
        name = f" {self.name!r}" if self.name else ""
        return f"<FanTable{name}: {len(self._fans)} fans>"

    # -- lookups -----------------------------------------------------------
    @property
    def fans(self) -> tuple[Fan, ...]:
        return self._fans

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self._fans)

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(f.id for f in self._fans)

    @property
    def names_en(self) -> tuple[str, ...]:
        return tuple(f.en for f in self._fans)

    @property
    def names_zh(self) -> tuple[str, ...]:
        return tuple(f.zh for f in self._fans)

    def index(self, key_or_id: KeyOrId) -> int:
        """Position of a fan in :attr:`fans` (= row/bit in the arrays)."""
        return self._index[self[key_or_id].key]

    def by_en(self, name: str) -> Fan:
        """Look a fan up by its English name (as the reference prints it)."""
        try:
            return self._by_en[name]
        except KeyError:
            raise KeyError(f"no fan named {name!r}") from None

    def excluded_by(self, key_or_id: KeyOrId) -> tuple[str, ...]:
        """Keys of the fans whose ``excludes`` list this one."""
        k = self[key_or_id].key
        return tuple(f.key for f in self._fans if k in f.excludes)

    # -- numpy views -------------------------------------------------------
    @property
    def n_words(self) -> int:
        """64-bit words per mask row (at least 2, so MCR's 82 fans fit)."""
        return max(2, (len(self._fans) + 63) // 64)

    @property
    def points(self):
        """``numpy.int16`` array of points, aligned with :attr:`fans` (read-only)."""
        if self._points is None:

            arr = np.array([f.points for f in self._fans], dtype=np.int16)
            arr.setflags(write=False)
            self._points = arr
        return self._points

    @property
    def exclusion_masks(self):
        """``numpy.uint64`` array, shape ``(len(self), n_words)`` (read-only).

        Bit ``j % 64`` of word ``j // 64`` in row ``i`` is set when fan ``i``
        excludes fan ``j`` (indices are positions in :attr:`fans`).
        """
        if self._masks is None:

            words = [[0] * self.n_words for _ in self._fans]
            for i, f in enumerate(self._fans):
                for k in f.excludes:
                    j = self._index[k]
                    words[i][j // 64] |= 1 << (j % 64)
            arr = np.array(words, dtype=np.uint64).reshape(len(self._fans), self.n_words)
            arr.setflags(write=False)
            self._masks = arr
        return self._masks

    # -- variants ----------------------------------------------------------
    def replace(self, key_or_id: KeyOrId, **changes) -> "FanTable":
        """A new table with one fan's fields changed (e.g. ``points=...``)."""
        old = self[key_or_id]
        new = _dc_replace(old, **changes)
        fans = [new if f is old else f for f in self._fans]
        if new.key != old.key:  # keep references to a renamed fan valid
            fans = [
                _dc_replace(f, excludes=tuple(new.key if k == old.key else k for k in f.excludes))
                for f in fans
            ]
        return FanTable(fans, name=self.name)

    def with_fans(self, *fans: Fan) -> "FanTable":
        """A new table with extra fans added (or same-key fans replaced)."""
        keys = {f.key for f in fans}
        return FanTable([f for f in self._fans if f.key not in keys] + list(fans), name=self.name)

    def without(self, *keys_or_ids: KeyOrId) -> "FanTable":
        """A new table without the given fans; exclusions naming them are dropped."""
        gone = {self[k].key for k in keys_or_ids}
        fans = [
            _dc_replace(f, excludes=tuple(k for k in f.excludes if k not in gone))
            for f in self._fans
            if f.key not in gone
        ]
        return FanTable(fans, name=self.name)

    def describe(self, key_or_id: KeyOrId) -> str:
        return describe(key_or_id, self)


# ---------------------------------------------------------------------------
# The table.
#
# Notes on the less obvious entries (the "why"; "(ref)" marks a place where
# the rule texts and the reference calculator disagree and the table follows
# the reference):
#
# * Nine Gates keeps Self-Drawn: the reference removes Fully Concealed Hand
#   and scores Self-Drawn in its place (ref), so a self-drawn Nine Gates is
#   88 + 1, not 88 + 4 and not 88 alone.  It only cancels ONE Pung of
#   Terminals or Honors (the 111 or 999 of the gates); the other may still
#   score, e.g. on a 2/5/8 win.
# * Four Concealed Pungs keeps Single Wait: the seed says a discard win
#   "不计单钓将", but the reference scores Single Wait whenever the wait was
#   unique (ref).  It demotes Fully Concealed Hand to Self-Drawn, like Nine
#   Gates.
# * Four Kongs removes Single Wait (the reference skips the wait pass for it)
#   but not Melded Hand: four melded kongs won on a discard score both (a
#   reference test vector).
# * Last Tile Draw, Out with Replacement Tile and Fully Concealed Hand all
#   remove Self-Drawn: each of them already is a self-drawn win.
# * Robbing The Kong removes Last Tile: the robbed tile is the fourth copy by
#   construction, so counting both would reward the same fact twice.
# * All Chows and All Simples remove No Honors: a suited pair with four chows,
#   or no terminal/honor at all, already implies no honors.
# * The special forms (Seven Pairs, Seven Shifted Pairs, Thirteen Orphans and
#   the two Honors-and-Knitted fans) never score Fully Concealed Hand or Single
#   Wait: the reference computes neither for them, only Self-Drawn from the
#   flags.  They are listed as exclusions and demote Fully Concealed Hand.
# * The big dragon/wind fans do NOT remove One Voided Suit in the reference
#   (only in its disabled strict-98 mode), although seed 000 says so (ref).
# * Pure Triple Chow <-> Pure Shifted Pungs exclude each other (the reference
#   reads 111 222 333 of a suit either way); a single reading never has both,
#   so masking both directions is safe.
# * Pure Triple Chow removes Pure Double Chow as a whole fan: the reference
#   clears it outright, and the fourth chow can never make a Pure Double Chow
#   with the triple without the hand becoming Quadruple Chow.
# ---------------------------------------------------------------------------

_WIN_FAN_SUB = "Fully Concealed Hand is demoted to Self-Drawn (not just removed)"

_FANS = (
    # ---- 88 points -------------------------------------------------------
    Fan(1, "big_four_winds", "Big Four Winds", "大四喜", 88,
        ("big_three_winds", "little_four_winds", "all_pungs", "prevalent_wind", "seat_wind",
         "pung_of_terminals_or_honors"),
        partial="no other pung-combination fan is formed from its four pungs",
        form="regular",
        definition="Pungs (or kongs) of all four winds plus any pair."),
    Fan(2, "big_three_dragons", "Big Three Dragons", "大三元", 88,
        ("two_dragons_pungs", "dragon_pung"),
        partial="One Voided Suit is still scored",
        form="regular",
        definition="Pungs (or kongs) of all three dragons."),
    Fan(3, "all_green", "All Green", "绿一色", 88,
        ("half_flush", "one_voided_suit"),
        form="any",
        definition="Every tile is one of 2s 3s 4s 6s 8s and Green Dragon, in any form; "
                   "without the Green Dragon it also scores Full Flush."),
    Fan(4, "nine_gates", "Nine Gates", "九莲宝灯", 88,
        ("full_flush", "concealed_hand", "fully_concealed_hand", "one_voided_suit", "no_honors"),
        partial="one Pung of Terminals or Honors (the 111 or 999 of the gates); " + _WIN_FAN_SUB,
        form="regular",
        definition="No melds; the 13 tiles before the win are 1112345678999 of one suit, "
                   "won on any tile of that suit."),
    Fan(5, "four_kongs", "Four Kongs", "四杠", 88,
        ("three_kongs", "two_melded_kongs", "two_concealed_kongs", "concealed_kong_and_melded_kong",
         "melded_kong", "concealed_kong", "all_pungs", "single_wait"),
        partial="Melded Hand is still scored; concealed kongs still give concealed-pung fans",
        form="regular",
        definition="Four kongs, melded or concealed in any mix."),
    Fan(6, "seven_shifted_pairs", "Seven Shifted Pairs", "连七对", 88,
        ("seven_pairs", "full_flush", "concealed_hand", "fully_concealed_hand", "one_voided_suit",
         "no_honors", "single_wait"),
        partial=_WIN_FAN_SUB + "; All Simples still scores for 2-8",
        form="seven_pairs",
        definition="Seven pairs of one suit with consecutive ranks (1-7, 2-8 or 3-9)."),
    Fan(7, "thirteen_orphans", "Thirteen Orphans", "十三幺", 88,
        ("all_types", "concealed_hand", "fully_concealed_hand", "single_wait", "outside_hand"),
        partial=_WIN_FAN_SUB,
        form="thirteen_orphans",
        definition="One of each terminal and honor plus a 14th tile pairing one of them."),
    # ---- 64 points -------------------------------------------------------
    Fan(8, "all_terminals", "All Terminals", "清幺九", 64,
        ("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
         "no_honors", "double_pung"),
        partial="Triple Pung is still scored (only Double Pung is removed)",
        form="any",
        definition="Every tile is a 1 or 9 of a suit (no honors): four pungs and a pair, or seven pairs."),
    Fan(9, "little_four_winds", "Little Four Winds", "小四喜", 64,
        ("big_three_winds", "pung_of_terminals_or_honors"),
        partial="Prevalent Wind, Seat Wind and One Voided Suit are still scored",
        form="regular",
        definition="Pungs of three winds plus a pair of the fourth wind."),
    Fan(10, "little_three_dragons", "Little Three Dragons", "小三元", 64,
        ("two_dragons_pungs", "dragon_pung"),
        partial="One Voided Suit is still scored",
        form="regular",
        definition="Pungs of two dragons plus a pair of the third dragon."),
    Fan(11, "all_honors", "All Honors", "字一色", 64,
        ("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
         "one_voided_suit"),
        partial="dragon and wind fans (Dragon Pung, Big Three Winds, Prevalent/Seat Wind, ...) still count",
        form="any",
        definition="Every tile is a wind or dragon: four pungs and a pair, or seven pairs."),
    Fan(12, "four_concealed_pungs", "Four Concealed Pungs", "四暗刻", 64,
        ("three_concealed_pungs", "two_concealed_pungs", "all_pungs", "concealed_hand",
         "fully_concealed_hand"),
        partial=_WIN_FAN_SUB + "; Single Wait is still scored when the wait was unique",
        form="regular",
        definition="Four concealed pungs; concealed kongs count as concealed pungs."),
    Fan(13, "pure_terminal_chows", "Pure Terminal Chows", "一色双龙会", 64,
        ("seven_pairs", "full_flush", "all_chows", "pure_double_chow", "two_terminal_chows",
         "one_voided_suit", "no_honors"),
        partial="its four chows form no chow-pair fan at all",
        form="regular",
        definition="123, 123, 789, 789 of one suit plus a pair of 5 of that suit."),
    # ---- 48 points -------------------------------------------------------
    Fan(14, "quadruple_chow", "Quadruple Chow", "一色四同顺", 48,
        ("pure_triple_chow", "pure_shifted_pungs", "pure_double_chow", "tile_hog"),
        partial="its four chows form no other chow fan; One Voided Suit is still scored",
        form="regular",
        definition="Four identical chows (same suit, same ranks)."),
    Fan(15, "four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一色四节高", 48,
        ("pure_shifted_pungs", "pure_triple_chow", "all_pungs"),
        partial="its four pungs form no other pung-combination fan; One Voided Suit is still scored",
        form="regular",
        definition="Four pungs of one suit with consecutive ranks, e.g. 333 444 555 666."),
    # ---- 32 points -------------------------------------------------------
    Fan(16, "four_pure_shifted_chows", "Four Pure Shifted Chows", "一色四步高", 32,
        ("pure_shifted_chows", "short_straight", "two_terminal_chows", "pure_double_chow"),
        partial="its four chows form no chow-pair fan; One Voided Suit is still scored",
        form="regular",
        definition="Four chows of one suit whose lowest ranks step up by 1 each or by 2 each."),
    Fan(17, "three_kongs", "Three Kongs", "三杠", 32,
        ("two_melded_kongs", "two_concealed_kongs", "concealed_kong_and_melded_kong", "melded_kong",
         "concealed_kong"),
        form="regular",
        definition="Exactly three kongs."),
    Fan(18, "all_terminals_and_honors", "All Terminals and Honors", "混幺九", 32,
        ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"),
        form="any",
        definition="Every tile is a terminal or an honor, both kinds present: "
                   "four pungs and a pair, or seven pairs."),
    # ---- 24 points -------------------------------------------------------
    Fan(19, "seven_pairs", "Seven Pairs", "七对", 24,
        ("concealed_hand", "fully_concealed_hand", "single_wait"),
        partial=_WIN_FAN_SUB,
        form="seven_pairs",
        definition="Seven pairs, no melds; four identical tiles count as two pairs."),
    Fan(20, "greater_honors_and_knitted_tiles", "Greater Honors and Knitted Tiles", "七星不靠", 24,
        ("lesser_honors_and_knitted_tiles", "all_types", "concealed_hand", "fully_concealed_hand",
         "single_wait"),
        partial=_WIN_FAN_SUB,
        form="honors_knitted",
        definition="All seven honors plus seven tiles of one knitted arrangement, all single."),
    Fan(21, "all_even_pungs", "All Even Pungs", "全双刻", 24,
        ("all_pungs", "all_simples", "no_honors"),
        form="regular",
        definition="Four pungs and the pair, all of rank 2, 4, 6 or 8."),
    Fan(22, "full_flush", "Full Flush", "清一色", 24,
        ("one_voided_suit", "no_honors"),
        form="any",
        definition="Every tile is from one suit, no honors."),
    Fan(23, "pure_triple_chow", "Pure Triple Chow", "一色三同顺", 24,
        ("pure_shifted_pungs", "pure_double_chow"),
        partial="its three chows form no chow-pair fan (the fourth chow can add one other)",
        form="regular",
        definition="Three identical chows."),
    Fan(24, "pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", 24,
        ("pure_triple_chow",),
        partial="the fourth pung may add one Double Pung or Two Dragons Pungs",
        form="regular",
        definition="Three pungs of one suit with consecutive ranks."),
    Fan(25, "upper_tiles", "Upper Tiles", "全大", 24,
        ("upper_four", "no_honors"),
        form="any",
        definition="Every tile is a 7, 8 or 9 of a suit."),
    Fan(26, "middle_tiles", "Middle Tiles", "全中", 24,
        ("all_simples", "no_honors"),
        form="any",
        definition="Every tile is a 4, 5 or 6 of a suit."),
    Fan(27, "lower_tiles", "Lower Tiles", "全小", 24,
        ("lower_four", "no_honors"),
        form="any",
        definition="Every tile is a 1, 2 or 3 of a suit."),
    # ---- 16 points -------------------------------------------------------
    Fan(28, "pure_straight", "Pure Straight", "清龙", 16,
        (),
        partial="Short Straight and Two Terminal Chows among its own three chows "
                "(the fourth chow may add one chow-pair fan)",
        form="regular",
        definition="123, 456 and 789 chows of one suit."),
    Fan(29, "three_suited_terminal_chows", "Three-Suited Terminal Chows", "三色双龙会", 16,
        ("all_chows", "mixed_double_chow", "two_terminal_chows", "no_honors"),
        partial="its four chows form no chow-pair fan",
        form="regular",
        definition="123 and 789 in one suit, 123 and 789 in a second, and a pair of 5 in the third."),
    Fan(30, "pure_shifted_chows", "Pure Shifted Chows", "一色三步高", 16,
        (),
        partial="chow-pair fans among its own three chows (the fourth chow may add one)",
        form="regular",
        definition="Three chows of one suit whose lowest ranks step up by 1 each or by 2 each."),
    Fan(31, "all_five", "All Five", "全带五", 16,
        ("all_simples", "no_honors"),
        form="regular",
        definition="Every set and the pair contain a 5."),
    Fan(32, "triple_pung", "Triple Pung", "三同刻", 16,
        (),
        partial="Double Pung among its own three pungs (the fourth pung may add one)",
        form="regular",
        definition="Pungs of the same rank in all three suits."),
    Fan(33, "three_concealed_pungs", "Three Concealed Pungs", "三暗刻", 16,
        ("two_concealed_pungs",),
        form="regular",
        definition="Three concealed pungs (concealed kongs count: docs/rulings.md, 7)."),
    # ---- 12 points -------------------------------------------------------
    Fan(34, "lesser_honors_and_knitted_tiles", "Lesser Honors and Knitted Tiles", "全不靠", 12,
        ("all_types", "concealed_hand", "fully_concealed_hand", "single_wait"),
        partial=_WIN_FAN_SUB + "; with all nine knitted tiles Knitted Straight is scored too",
        form="honors_knitted",
        definition="Fourteen single tiles: 7-9 from one knitted arrangement plus different honors."),
    Fan(35, "knitted_straight", "Knitted Straight", "组合龙", 12,
        (),
        partial="its nine tiles are not chows, so they form no chow fans "
                "(for All Chows they count as three chows)",
        form="knitted_straight",
        definition="147, 258, 369 in three different suits: with a set and a pair, "
                   "or inside Lesser Honors and Knitted Tiles."),
    Fan(36, "upper_four", "Upper Four", "大于五", 12,
        ("no_honors",),
        form="any",
        definition="Every tile is 6-9 of a suit, with at least one 6."),
    Fan(37, "lower_four", "Lower Four", "小于五", 12,
        ("no_honors",),
        form="any",
        definition="Every tile is 1-4 of a suit, with at least one 4."),
    Fan(38, "big_three_winds", "Big Three Winds", "三风刻", 12,
        (),
        partial="Pung of Terminals or Honors for its three wind pungs (none left to remove under "
                "All Honors / All Terminals and Honors); One Voided Suit is still scored",
        form="regular",
        definition="Pungs of three winds (the fourth wind is not the pair)."),
    # ---- 8 points --------------------------------------------------------
    Fan(39, "mixed_straight", "Mixed Straight", "花龙", 8,
        (),
        partial="chow-pair fans among its own three chows (the fourth chow may add one)",
        form="regular",
        definition="123, 456 and 789 chows, each in a different suit."),
    Fan(40, "reversible_tiles", "Reversible Tiles", "推不倒", 8,
        ("one_voided_suit",),
        form="any",
        definition="Every tile is one of 1p 2p 3p 4p 5p 8p 9p, 2s 4s 5s 6s 8s 9s and White Dragon."),
    Fan(41, "mixed_triple_chow", "Mixed Triple Chow", "三色三同顺", 8,
        (),
        partial="Mixed Double Chow among its own three chows (the fourth chow may add one chow-pair fan)",
        form="regular",
        definition="The same chow in all three suits."),
    Fan(42, "mixed_shifted_pungs", "Mixed Shifted Pungs", "三色三节高", 8,
        (),
        partial="the fourth pung may add one Double Pung or Two Dragons Pungs",
        form="regular",
        definition="Three pungs, one per suit, with consecutive ranks."),
    Fan(43, "chicken_hand", "Chicken Hand", "无番和", 8,
        (),
        partial="scored only when a regular win has no other fan; flowers are not fans here",
        form="regular",
        definition="A valid win that scores no other fan."),
    Fan(44, "last_tile_draw", "Last Tile Draw", "妙手回春", 8,
        ("self_drawn",),
        form="any",
        definition="Self-drawn win on the last tile of the wall."),
    Fan(45, "last_tile_claim", "Last Tile Claim", "海底捞月", 8,
        (),
        form="any",
        definition="Win on the final discard of the hand."),
    Fan(46, "out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", 8,
        ("self_drawn",),
        form="any",
        definition="Win on the replacement tile drawn after declaring a kong."),
    Fan(47, "robbing_the_kong", "Robbing The Kong", "抢杠和", 8,
        ("last_tile",),
        form="any",
        definition="Win on the tile another player adds to a melded pung to make a kong."),
    # ---- 6 points --------------------------------------------------------
    Fan(48, "all_pungs", "All Pungs", "碰碰和", 6,
        (),
        form="regular",
        definition="Four pungs (or kongs) and a pair."),
    Fan(49, "half_flush", "Half Flush", "混一色", 6,
        ("one_voided_suit",),
        form="any",
        definition="One suit plus honors, both present."),
    Fan(50, "mixed_shifted_chows", "Mixed Shifted Chows", "三色三步高", 6,
        (),
        partial="chow-pair fans among its own three chows (the fourth chow may add one)",
        form="regular",
        definition="One chow in each suit with consecutive lowest ranks, e.g. 123m 234s 345p."),
    Fan(51, "all_types", "All Types", "五门齐", 6,
        (),
        form="any",
        definition="Characters, bamboo, dots, a wind and a dragon all present."),
    Fan(52, "melded_hand", "Melded Hand", "全求人", 6,
        ("single_wait",),
        form="regular",
        definition="All four sets melded and the win on a discard (necessarily on the pair)."),
    Fan(53, "two_concealed_kongs", "Two Concealed Kongs", "双暗杠", 6,
        ("concealed_kong",),
        partial="Two Concealed Pungs for its two kongs (they still count toward Three/Four Concealed Pungs)",
        form="regular",
        definition="Exactly two kongs, both concealed."),
    Fan(54, "two_dragons_pungs", "Two Dragons Pungs", "双箭刻", 6,
        ("dragon_pung",),
        form="regular",
        definition="Pungs of two dragons."),
    # ---- 4 points --------------------------------------------------------
    Fan(55, "outside_hand", "Outside Hand", "全带幺", 4,
        (),
        form="regular",
        definition="Every set and the pair contain a terminal or an honor."),
    Fan(56, "fully_concealed_hand", "Fully Concealed Hand", "不求人", 4,
        ("concealed_hand", "self_drawn"),
        form="any",
        definition="No melded set (concealed kongs allowed) and a self-drawn win."),
    Fan(57, "two_melded_kongs", "Two Melded Kongs", "双明杠", 4,
        ("melded_kong",),
        form="regular",
        definition="Exactly two kongs, both melded."),
    Fan(58, "last_tile", "Last Tile", "和绝张", 4,
        (),
        form="any",
        definition="The winning tile is the last of its kind: the other three are already visible."),
    # ---- 2 points --------------------------------------------------------
    Fan(59, "dragon_pung", "Dragon Pung", "箭刻", 2,
        (),
        partial="a dragon pung never also scores Pung of Terminals or Honors",
        form="regular",
        definition="A pung of dragons; once per such pung."),
    Fan(60, "prevalent_wind", "Prevalent Wind", "圈风刻", 2,
        (),
        partial="Pung of Terminals or Honors for that pung (once, even if it is also the seat wind; "
                "nothing to remove under Big Three Winds, Little Four Winds, All Honors or "
                "All Terminals and Honors)",
        form="any",
        definition="A pung of the round wind."),
    Fan(61, "seat_wind", "Seat Wind", "门风刻", 2,
        (),
        partial="Pung of Terminals or Honors for that pung (once, even if it is also the round wind; "
                "nothing to remove under Big Three Winds, Little Four Winds, All Honors or "
                "All Terminals and Honors)",
        form="any",
        definition="A pung of the player's seat wind."),
    Fan(62, "concealed_hand", "Concealed Hand", "门前清", 2,
        (),
        form="any",
        definition="No melded set (concealed kongs allowed) and a win on a discard."),
    Fan(63, "all_chows", "All Chows", "平和", 2,
        ("no_honors",),
        form="any",
        definition="Four chows and a suited pair (a knitted straight counts as three chows)."),
    Fan(64, "tile_hog", "Tile Hog", "四归一", 2,
        (),
        form="any",
        definition="All four copies of a tile are used without forming a kong; once per such tile."),
    Fan(65, "double_pung", "Double Pung", "双同刻", 2,
        (),
        form="regular",
        definition="Two pungs of the same rank in two suits."),
    Fan(66, "two_concealed_pungs", "Two Concealed Pungs", "双暗刻", 2,
        (),
        form="regular",
        definition="Two concealed pungs (concealed kongs count: docs/rulings.md, 7)."),
    Fan(67, "concealed_kong", "Concealed Kong", "暗杠", 2,
        (),
        form="any",
        definition="One kong in the hand, and it is concealed."),
    Fan(68, "all_simples", "All Simples", "断幺", 2,
        ("no_honors",),
        form="any",
        definition="No terminals and no honors."),
    # ---- 1 point ---------------------------------------------------------
    Fan(69, "pure_double_chow", "Pure Double Chow", "一般高", 1,
        (),
        form="regular",
        definition="Two identical chows."),
    Fan(70, "mixed_double_chow", "Mixed Double Chow", "喜相逢", 1,
        (),
        form="regular",
        definition="Two chows of the same ranks in two suits."),
    Fan(71, "short_straight", "Short Straight", "连六", 1,
        (),
        form="regular",
        definition="Two chows of one suit making six consecutive tiles."),
    Fan(72, "two_terminal_chows", "Two Terminal Chows", "老少副", 1,
        (),
        form="regular",
        definition="123 and 789 of one suit."),
    Fan(73, "pung_of_terminals_or_honors", "Pung of Terminals or Honors", "幺九刻", 1,
        (),
        form="any",
        definition="A pung of a 1, a 9 or a wind; once per such pung."),
    Fan(74, "melded_kong", "Melded Kong", "明杠", 1,
        (),
        form="any",
        definition="One kong in the hand, and it is melded."),
    Fan(75, "one_voided_suit", "One Voided Suit", "缺一门", 1,
        (),
        form="any",
        definition="Exactly one of the three suits is missing."),
    Fan(76, "no_honors", "No Honors", "无字", 1,
        (),
        form="any",
        definition="No winds or dragons."),
    Fan(77, "edge_wait", "Edge Wait", "边张", 1,
        (),
        form="any",
        definition="The only wait was 3 with 12, or 7 with 89."),
    Fan(78, "closed_wait", "Closed Wait", "坎张", 1,
        (),
        form="any",
        definition="The only wait was the middle tile of a chow."),
    Fan(79, "single_wait", "Single Wait", "单钓将", 1,
        (),
        form="any",
        definition="The only wait was the pair tile."),
    Fan(80, "self_drawn", "Self-Drawn", "自摸", 1,
        (),
        form="any",
        definition="The winner drew the winning tile."),
    Fan(81, "flower_tiles", "Flower Tiles", "花牌", 1,
        (),
        partial="1 point per flower, added after the reading is chosen; not counted toward the "
                "8-point minimum and not a fan for Chicken Hand",
        form="any",
        definition="One point for each flower tile."),
    # ---- the reference's extra entry (added upstream in 2016) --------------
    Fan(82, "concealed_kong_and_melded_kong", "Concealed Kong and Melded Kong", "明暗杠", 5,
        ("concealed_kong", "melded_kong"),
        form="regular",
        definition="Exactly two kongs, one concealed and one melded (not in the 1998 table)."),
)

#: The MCR table, ids 1..82 in order.
MCR = FanTable(_FANS, name="mcr")

#: Fans under which a Fully Concealed Hand becomes a plain Self-Drawn (the
#: reference either converts it explicitly, or never forms it for these
#: special forms and scores Self-Drawn from the flag).  Apply before masking.
DEMOTES_FULLY_CONCEALED_HAND = frozenset({
    "nine_gates",
    "four_concealed_pungs",
    "seven_shifted_pairs",
    "thirteen_orphans",
    "seven_pairs",
    "greater_honors_and_knitted_tiles",
    "lesser_honors_and_knitted_tiles",
})

#: Chinese names the installed reference build prints where they differ from
#: the names in this table (it labels the wait fans 独听, "unique wait").  Useful when
#: comparing Chinese output with the reference.
REFERENCE_ZH: Mapping[str, str] = MappingProxyType({
    "edge_wait": "独听・边张",
    "closed_wait": "独听・嵌张",
    "single_wait": "独听・单钓",
})


def describe(key_or_id: KeyOrId, table: FanTable | None = None) -> str:
    """A readable summary of one fan, for ``mjfast fans`` and the REPL.

    >>> print(describe("robbing_the_kong"))  # doctest: +NORMALIZE_WHITESPACE
    #47 Robbing The Kong (抢杠和), 8 points
      Win on the tile another player adds to a melded pung to make a kong.
      Form: any
      Not scored with it: Last Tile
    """
    table = MCR if table is None else table
    fan = table[key_or_id]
    unit = "point" if fan.points == 1 else "points"
    if fan.key == "flower_tiles":
        unit += " each"
    lines = [f"#{fan.id} {fan.en} ({fan.zh}), {fan.points} {unit}"]
    if fan.definition:
        lines.append(f"  {fan.definition}")
    lines.append(f"  Form: {fan.form.replace('_', ' ')}")
    if fan.excludes:
        lines.append("  Not scored with it: " + ", ".join(table[k].en for k in fan.excludes))
    if fan.partial:
        lines.append(f"  Also: {fan.partial}")
    by = table.excluded_by(fan.key)
    if by:
        lines.append("  Removed by: " + ", ".join(table[k].en for k in by))
    return "\n".join(lines)
