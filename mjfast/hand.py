"""Hands: melds + concealed tiles, their notation, parsing and formatting.

Notation (docs/notation.md)::

    [567m2][EEE1]45m678pFF6m

melds first, each in brackets, then the concealed tiles; for a win the last
concealed tile is the winning tile.  Meld digits:

* chow ``[567m]`` / ``[567m2]``: the claimed tile, 1-3 (1 = lowest);
* pung ``[EEE]`` / ``[EEE1]``: the discarder, 1 = left, 2 = opposite,
  3 = right;
* kong ``[EEEE1]``..``[EEEE3]`` melded from a discard, ``[EEEE5]``..
  ``[EEEE7]`` added to an earlier pung claimed from player digit-4,
  ``[EEEE]`` concealed.

A string without brackets may also use Botzone codes (``W1 B5 T9 F1 J3``,
``H1``..``H8`` flowers are counted).  Positions in error messages are 1-based.
"""

from dataclasses import dataclass

import numpy as np

from .errors import InvalidHand
from .tiles import (N_TILES, TILE_NAMES, BOTZONE_CODES, counts_of as _counts_of, parse_compiled as _parse,
                    counts_str as _counts_str)

__all__ = ["Meld", "Hand", "parse_hand", "format_hand", "check_size", "to_counts", "counts_to_str"]

_KIND_ORDER = {"chow": 0, "pung": 1, "kong": 2}


@dataclass(frozen=True)
class Meld:
    """A meld.  ``tile`` is the lowest tile of a chow, the tile of a pung or
    kong.  ``claimed``: for a chow which of its tiles was claimed (1-3,
    1 = lowest); for a pung or a melded kong who discarded it (1 = left,
    2 = opposite, 3 = right); 0 = not given.  ``concealed`` only for a kong
    (``[EEEE]``); ``added`` only for a kong added to a melded pung
    (``[EEEE5]``..``[EEEE7]``, which needs ``claimed`` 1-3)."""

    kind: str
    tile: int
    concealed: bool = False
    claimed: int = 0
    added: bool = False

    def __post_init__(self):
        kind, tile, claimed = self.kind, self.tile, self.claimed
        if kind not in _KIND_ORDER:
            raise InvalidHand(
                f"unknown meld kind {kind!r}: expected 'chow', 'pung' or 'kong'"
            )
        if (
            isinstance(tile, bool)
            or not isinstance(tile, (int, np.integer))
            or not 0 <= tile < N_TILES
        ):
            raise InvalidHand(f"meld tile must be an index 0-33, got {tile!r}")
        if type(tile) is not int:
            object.__setattr__(self, "tile", int(tile))
        if (
            isinstance(claimed, bool)
            or not isinstance(claimed, (int, np.integer))
            or not 0 <= claimed <= 3
        ):
            raise InvalidHand(
                f"{kind} {TILE_NAMES[tile]}: claimed must be 0-3, got {claimed!r}"
            )
        if type(claimed) is not int:
            object.__setattr__(self, "claimed", int(claimed))
        object.__setattr__(self, "concealed", bool(self.concealed))
        object.__setattr__(self, "added", bool(self.added))
        if kind == "chow":
            if tile >= 27:
                raise InvalidHand(
                    f"honors cannot form a chow (chow of {TILE_NAMES[tile]})"
                )
            if tile % 9 > 6:
                raise InvalidHand(
                    f"a chow cannot start at {TILE_NAMES[tile]}: it would "
                    f"go past 9"
                )
        if kind != "kong":
            if self.concealed:
                raise InvalidHand(
                    f"only a kong can be concealed, not a {kind} "
                    f"({TILE_NAMES[tile]})"
                )
            if self.added:
                raise InvalidHand(
                    f"only a kong can be added, not a {kind} ({TILE_NAMES[tile]})"
                )
        else:
            if self.concealed and (self.added or claimed):
                raise InvalidHand(
                    f"concealed kong of {TILE_NAMES[tile]} cannot have a "
                    f"discarder or be added"
                )
            if self.added and not claimed:
                raise InvalidHand(
                    f"added kong of {TILE_NAMES[tile]} needs claimed 1-3 "
                    f"(who discarded the original pung)"
                )

    def tiles(self):
        """The meld's tile indices: 3, or 4 for a kong."""
        t = self.tile
        k = self.kind
        if k == "chow":
            return (t, t + 1, t + 2)
        if k == "pung":
            return (t, t, t)
        return (t, t, t, t)

    def _key(self):
        return (_KIND_ORDER[self.kind], self.tile, self.concealed,
                self.claimed, self.added)

    def notation(self):
        """The meld in bracket notation, e.g. ``"[567m2]"``, ``"[EEEE5]"``."""
        t = self.tile
        if self.kind == "chow":
            body = f"{t % 9 + 1}{t % 9 + 2}{t % 9 + 3}{'mps'[t // 9]}"
        else:
            n = 3 if self.kind == "pung" else 4
            name = TILE_NAMES[t]
            if t < 27:
                body = name[0] * n + name[1]
            else:
                body = name * n
        if self.claimed:
            body += str(self.claimed + 4 if self.added else self.claimed)
        return f"[{body}]"

    __str__ = notation


# --------------------------------------------------------------------------


def _validate_counts(melds, tiles):
    """Count melds + concealed tiles; raise on too many tiles or a fifth
    copy.  Returns the list of concealed counts."""
    n = 3 * len(melds) + len(tiles)
    if n > 14:
        raise InvalidHand(
            f"too many tiles: {n} (counting 3 per meld; at most 14)"
        )
    c = [0] * N_TILES
    for t in tiles:
        c[t] += 1
    if melds:
        total = c[:]
        for m in melds:
            for t in m.tiles():
                total[t] += 1
    else:
        total = c
    if max(total) > 4:
        for t in range(N_TILES):
            if total[t] > 4:
                raise InvalidHand(
                    f"fifth copy of {TILE_NAMES[t]}: {total[t]} copies counting "
                    f"melds and concealed tiles, at most 4 exist"
                )
    return c


@dataclass(frozen=True, eq=False)
class Hand:
    """A hand: melds and concealed tiles (for a win the last concealed tile
    is the winning tile) and a flower count.

    Two hands are equal when their melds are equal as a multiset, their
    concealed counts are equal, their winning tiles (last concealed tile)
    are equal and their flower counts are equal.
    """

    melds: tuple
    tiles: tuple
    flowers: int = 0

    def __post_init__(self):
        melds = tuple(self.melds)
        for m in melds:
            if not isinstance(m, Meld):
                raise InvalidHand(f"melds must be Meld objects, got {m!r}")
        if len(melds) > 4:
            raise InvalidHand(f"more than 4 melds: {len(melds)}")
        tiles = []
        for t in self.tiles:
            if (
                isinstance(t, bool)
                or not isinstance(t, (int, np.integer))
                or not 0 <= t < N_TILES
            ):
                raise InvalidHand(f"tile must be an index 0-33, got {t!r}")
            tiles.append(int(t))
        tiles = tuple(tiles)
        f = self.flowers
        if isinstance(f, bool) or not isinstance(f, (int, np.integer)) or not 0 <= f <= 8:
            raise InvalidHand(f"flowers must be 0-8, got {f!r}")
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "flowers", int(f))
        object.__setattr__(self, "_c", _validate_counts(melds, tiles))

    @classmethod
    def _trusted(cls, melds, tiles, flowers, c):
        """Build without re-checking types (parse_hand already did)."""
        h = object.__new__(cls)
        object.__setattr__(h, "melds", melds)
        object.__setattr__(h, "tiles", tiles)
        object.__setattr__(h, "flowers", flowers)
        object.__setattr__(h, "_c", c)
        return h

    # -- derived values ----------------------------------------------------

    @property
    def counts(self):
        """(34,) uint8 counts of the concealed tiles, winning tile included.
        The array is cached and read-only; copy it to modify."""
        a = self.__dict__.get("_counts")
        if a is None:
            a = np.array(self._c, dtype=np.uint8)
            a.flags.writeable = False
            object.__setattr__(self, "_counts", a)
        return a

    @property
    def all_counts(self):
        """(34,) uint8 counts of concealed and meld tiles (a kong gives 4)."""
        c = self._c[:]
        for m in self.melds:
            for t in m.tiles():
                c[t] += 1
        return np.array(c, dtype=np.uint8)

    @property
    def win_tile(self):
        """The winning tile: the last concealed tile."""
        if not self.tiles:
            raise InvalidHand("the hand has no concealed tiles, so no winning tile")
        return self.tiles[-1]

    @property
    def n_tiles(self):
        """3 per meld (a kong too) plus the concealed tiles: 14 for a win."""
        return 3 * len(self.melds) + len(self.tiles)

    # -- equality ----------------------------------------------------------

    def _eqkey(self):
        k = self.__dict__.get("_k")
        if k is None:
            k = (
                tuple(sorted(m._key() for m in self.melds)),
                tuple(self._c),
                self.tiles[-1] if self.tiles else -1,
                self.flowers,
            )
            object.__setattr__(self, "_k", k)
        return k

    def __eq__(self, other):
        if not isinstance(other, Hand):
            return NotImplemented
        return self._eqkey() == other._eqkey()

    def __ne__(self, other):
        if not isinstance(other, Hand):
            return NotImplemented
        return self._eqkey() != other._eqkey()

    def __hash__(self):
        return hash(self._eqkey())

    def __reduce__(self):
        # rebuild through __init__ so the cached read-only arrays are not
        # pickled (and are read-only again after unpickling)
        return (Hand, (self.melds, self.tiles, self.flowers))

    # -- conveniences ------------------------------------------------------

    @classmethod
    def parse(cls, s, expect=None):
        """Same as :func:`parse_hand`."""
        return parse_hand(s, expect)

    def format(self, style="compact"):
        """Same as :func:`format_hand`."""
        return format_hand(self, style)

    def __str__(self):
        return format_hand(self)

    def __repr__(self):
        extra = f", flowers={self.flowers}" if self.flowers else ""
        return f"Hand({format_hand(self)!r}{extra})"


# --------------------------------------------------------------------------
# parsing

_KINDS = ("chow", "pung", "kong")
# the compiled parser's meld codes (kind | claimed << 2 | flags << 4 | tile << 6)
# -> Meld; a Meld is immutable, so every hand shares them
_MELDS: dict = {}


def _meld_of(code):
    m = _MELDS.get(code)
    if m is None:
        flags = code >> 4 & 3
        m = Meld(_KINDS[code & 3], code >> 6, concealed=bool(flags & 1), claimed=code >> 2 & 3,
                 added=bool(flags & 2))
        _MELDS[code] = m
    return m


def parse_hand(s, expect=None):
    """Parse a hand string into a :class:`Hand`.

    ``expect``: ``None`` (any size up to 14), ``"win"`` (exactly 14 tiles
    counting 3 per meld) or ``"ready"`` (exactly 13).
    Raises :class:`~mjfast.errors.InvalidHand` naming the problem and where.
    """
    if not isinstance(s, str):
        raise InvalidHand(f"a hand must be a string, got {type(s).__name__}")
    _, codes, tiles, flowers, c = _parse(s, 0)
    melds = tuple([_meld_of(code) for code in codes]) if codes else ()
    h = Hand._trusted(melds, tiles, flowers, c)
    if expect is not None:
        check_size(h, expect)
    return h


_EXPECT = {"win": (14, "a winning hand"), "ready": (13, "a ready hand")}


def check_size(h, expect):
    """Raise :class:`InvalidHand` unless ``h`` has the expected size.

    ``expect`` is ``"win"`` (14 tiles counting 3 per meld), ``"ready"`` (13),
    an int or a collection of ints.  Returns ``h``.
    """
    n = h.n_tiles
    if isinstance(expect, str):
        try:
            want, what = _EXPECT[expect]
        except KeyError:
            raise ValueError(
                f"expect must be 'win', 'ready', an int or ints, got {expect!r}"
            ) from None
        if n != want:
            raise InvalidHand(
                f"{what} has {want} tiles counting 3 per meld; got {n}"
            )
        return h
    if isinstance(expect, (int, np.integer)):
        sizes = (int(expect),)
    else:
        sizes = tuple(sorted(int(x) for x in expect))
    if n not in sizes:
        want = " or ".join(str(x) for x in sizes)
        raise InvalidHand(
            f"the hand has {n} tiles counting 3 per meld; expected {want}"
        )
    return h


# --------------------------------------------------------------------------
# formatting


def format_hand(h, style="compact"):
    """Canonical string of a hand.

    ``"compact"``: melds in stored order, then the concealed tiles except
    the winning tile sorted (m, p, s, then ``ESWNCFP``), then the winning
    tile on its own: ``"[567m2][EEE1]45m678pFF6m"``.  Flowers cannot be
    written in compact notation and are left out.

    ``"botzone"``: space-separated Botzone codes, flowers first as
    ``H1``..``Hn``, winning tile last.  A hand with melds cannot be written
    this way (InvalidHand).
    """
    if not isinstance(h, Hand):
        raise TypeError(f"format_hand needs a Hand, got {type(h).__name__}")
    tiles = h.tiles
    if style == "compact":
        out = "".join(m.notation() for m in h.melds)
        if tiles:
            c = h._c[:]
            w = tiles[-1]
            c[w] -= 1
            out += _counts_str(c) + TILE_NAMES[w]
        return out
    if style == "botzone":
        if h.melds:
            raise InvalidHand(
                "a hand with melds cannot be written with Botzone codes"
            )
        parts = [f"H{k}" for k in range(1, h.flowers + 1)]
        if tiles:
            c = h._c
            w = tiles[-1]
            for t in range(N_TILES):
                n = c[t] - (t == w)
                if n:
                    parts.extend([BOTZONE_CODES[t]] * n)
            parts.append(BOTZONE_CODES[w])
        return " ".join(parts)
    raise ValueError(f"style must be 'compact' or 'botzone', got {style!r}")


# --------------------------------------------------------------------------
# count arrays (here rather than in tiles.py because a string may hold melds,
# which only this module reads: imports flow tiles -> hand)


def to_counts(x):
    """A (34,) uint8 count array of concealed tiles.

    * ``str``: compact notation or Botzone codes; when the string has melds
      in brackets, only its concealed part is counted.
    * a :class:`Hand`: its concealed counts.
    * a sequence (list, tuple, ndarray) of length 34: counts, validated
      (integers 0..4).
    * a ``uint8`` ndarray is always read as counts (so needs length 34).
    * any other sequence: tile indices 0..33.

    Raises :class:`InvalidHand` for a fifth copy, a bad index or count,
    a bad length or a non-integer.
    """
    if isinstance(x, Hand):
        return np.array(x.counts, dtype=np.uint8)
    if isinstance(x, str) and ("[" in x or "]" in x):
        return parse_hand(x).counts.copy()
    return _counts_of(x)


def counts_to_str(counts):
    """Canonical compact string of 34 counts: suits m, p, s then honors
    ``ESWNCFP``, e.g. ``"123m456p789sEE"``.  Also accepts anything
    :func:`to_counts` does."""
    return _counts_str(to_counts(counts))
