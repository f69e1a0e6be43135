"""Tile tables and tile-string parsing (no melds: brackets are read by
:mod:`mjfast.hand`, which builds on this module; this module imports nothing
of mjfast but the errors).

Tiles are numbered 0-33 (the slots of a 34-entry count array):

* 0-8    characters ``1m``..``9m``  (Botzone ``W1``..``W9``)
* 9-17   dots       ``1p``..``9p``  (Botzone ``B1``..``B9``)
* 18-26  bamboo     ``1s``..``9s``  (Botzone ``T1``..``T9``)
* 27-30  winds      ``E S W N``     (Botzone ``F1``..``F4``)
* 31-33  dragons    ``C F P``       (Botzone ``J1``..``J3``; red, green, white)

Flowers (Botzone ``H1``..``H8``) never occupy a slot.

Positions in error messages are 1-based character positions in the string
that was given.

The notation (this module's tile strings and :mod:`mjfast.hand`'s melds) is
read by one parser, compiled (src/_notation.pxi): it returns the tiles or an
error code with the positions that name the problem, and only the wording of
the message is here (:func:`_notation_error`).
"""

import numpy as np

from . import _core
from .errors import InvalidHand

__all__ = [
    "N_TILES",
    "TILE_NAMES",
    "BOTZONE_CODES",
    "ZH_NAMES",
    "tile_name",
    "tile_index",
    "set_text",
    "parse_tiles",
]

N_TILES = 34

_SUITS = "mps"
_HONORS = "ESWNCFP"

TILE_NAMES = tuple(
    [f"{r}{s}" for s in _SUITS for r in range(1, 10)] + list(_HONORS)
)

BOTZONE_CODES = tuple(
    [f"{s}{r}" for s in "WBT" for r in range(1, 10)]
    + [f"F{r}" for r in range(1, 5)]
    + [f"J{r}" for r in range(1, 4)]
)

_ZH_RANKS = "一二三四五六七八九"
ZH_NAMES = tuple(
    [f"{r}{s}" for s in "万饼条" for r in _ZH_RANKS] + list("东南西北中发白")
)

# --------------------------------------------------------------------------
# lookup tables

_NAME_TO_INDEX = {}
for _i, _n in enumerate(TILE_NAMES):
    _NAME_TO_INDEX[_n] = _i
for _i, _n in enumerate(BOTZONE_CODES):
    _NAME_TO_INDEX[_n] = _i
for _i, _n in enumerate(ZH_NAMES):
    _NAME_TO_INDEX[_n] = _i
# common alternative Chinese suit names: 筒 for dots, 索 for bamboo
for _r in range(9):
    _NAME_TO_INDEX[_ZH_RANKS[_r] + "筒"] = 9 + _r
    _NAME_TO_INDEX[_ZH_RANKS[_r] + "索"] = 18 + _r
del _i, _n, _r

_FLOWER_CODES = frozenset(f"H{r}" for r in range(1, 9))

# --------------------------------------------------------------------------
# single tiles


def tile_name(i):
    """Compact name of tile index ``i`` (0-33): ``tile_name(5) == "6m"``."""
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
        raise InvalidHand(f"a tile index must be an int 0-33, got {i!r}")
    if not 0 <= i < N_TILES:
        raise InvalidHand(f"tile index {int(i)} is out of range 0-33")
    return TILE_NAMES[i]


_SET_SIZE = {"single": 1, "pair": 2, "pung": 3, "kong": 4}


def set_text(kind: str, tile: int) -> str:
    """A set in notation: ``set_text("chow", 3)`` is "456m" (a chow is named
    by its lowest tile), ``set_text("pung", 31)`` "CCC", ``("pair", 8)`` "99m"."""
    name = TILE_NAMES[tile]
    if kind == "chow":
        return name[0] + TILE_NAMES[tile + 1][0] + TILE_NAMES[tile + 2]
    n = _SET_SIZE[kind]
    return name[0] * n + name[1] if tile < 27 else name * n


def tile_index(name):
    """Index 0-33 of a tile name.

    Accepts a compact name (``"6m"``, ``"E"``, ``"C"``), a Botzone code
    (``"W6"``, ``"F1"``, ``"J1"``) or a Chinese name (``"六万"``, ``"东"``).
    Note ``"W"`` is the West wind while ``"W1"`` is 1m, and ``"F"`` is the
    green dragon while ``"F1"`` is East.
    """
    if not isinstance(name, str):
        raise InvalidHand(f"a tile name must be a string, got {name!r}")
    i = _NAME_TO_INDEX.get(name)
    if i is None:
        if name in _FLOWER_CODES:
            raise InvalidHand(
                f"{name!r} is a flower, not a tile (flowers have no slot)"
            )
        raise InvalidHand(f"unknown tile {name!r}")
    return i


# --------------------------------------------------------------------------
# tile strings: the compiled parser reads them (src/_notation.pxi) and names
# a problem by a code and positions; the messages are worded here


def _notation_error(src, err, a, b, c, d):
    """The message of the compiled parser's error ``err`` on ``src``; ``a``..``d``
    are its positions (0-based) and values, as src/_notation.pxi defines them
    for each code.  Positions in messages are 1-based."""
    if err < 20 and err > 4:
        if err == 5:
            return f"empty meld '[]' at position {a + 1} in {src!r}"
        body = src[a + 1:b]
        return f"meld '[{body}]' at position {a + 1} in {src!r}: {_meld_problem(err, c, d)}"
    if 20 <= err <= 25:
        return _tile_problem(src, err, a, b) + (
            " (Botzone codes cannot be mixed with compact notation)" if c else "")
    if err == 1:
        return f"unclosed '[' at position {a + 1} in {src!r}"
    if err == 2:
        return f"more than 4 melds: '{src[a:b + 1]}' at position {a + 1} in {src!r} is the fifth"
    if err == 3:
        return f"meld at position {a + 1} in {src!r} comes after concealed tiles; melds must come first"
    if err == 4:
        return f"unmatched ']' at position {a + 1} in {src!r}"
    if err == 30:
        return f"flower {src[a:a + 2]!r} appears twice in {src!r}"
    if err == 31:
        return f"unknown Botzone code {src[a:a + 2]!r} at position {a + 1} in {src!r}"
    if err == 32:
        return (f"{src[a:b]!r} at position {a + 1} in {src!r} is not a Botzone code "
                f"(Botzone codes cannot be mixed with compact notation)")
    if err == 40:
        return f"too many tiles: {a} (counting 3 per meld; at most 14)"
    if err == 41:
        return (f"fifth copy of {TILE_NAMES[a]}: {b} copies counting melds and concealed tiles, "
                f"at most 4 exist")
    if err == 42:
        return str(_fifth_copy(a, b))
    if err == 43:
        return f"melds in brackets in {src!r}: mjfast.to_counts or parse_hand reads them"
    if err == 44:
        return (f"flower {src[a:a + 2]!r} in {src!r} is not a tile; use parse_hand "
                f"to count flowers")
    return f"cannot parse {src!r} (parser error {err})"  # pragma: no cover - every code is above


def _meld_problem(err, c, d):
    """What is wrong inside a meld (codes 6-14)."""
    if err == 6:
        return "no whitespace inside a meld"
    if err == 7:
        note = f" (the final digit {d} is the meld's digit, not a tile)" if d >= 0 else ""
        return f"{c} tile{'s' if c != 1 else ''}; a meld has 3 (chow, pung) or 4 (kong){note}"
    if err == 8:
        return f"bad digit {d}: a pung's discarder is 1-3"
    if err == 9:
        return f"bad digit {d}: a kong's digit is 1-3 (melded), 5-7 (added to a pung) or none (concealed)"
    if err == 10:
        return "4 tiles that are not one kong"
    if err == 11:
        return "not a chow, pung or kong (honors cannot form a chow)"
    if err == 12:
        return "write a chow's tiles in ascending order (the digit gives the claimed tile)"
    if err == 13:
        return "not a chow, pung or kong" + (" (a chow cannot wrap past 9)" if c else "")
    return f"bad digit {d}: a chow's claimed tile is 1-3"


def _tile_problem(src, err, a, b):
    """The first wrong character of tiles that are not compact notation (codes 20-25)."""
    if err == 20:
        return f"suit letter {src[a]!r} at position {a + 1} in {src!r} has no digits before it"
    if err == 21:
        return f"digit '0' at position {a + 1} in {src!r}: ranks are 1-9"
    if err == 22:
        return f"unknown tile {src[a]!r} at position {a + 1} in {src!r}"
    if err == 23:
        return (f"digits {src[a:b]!r} at position {a + 1} in {src!r} are not "
                f"followed by a suit letter (m, p or s)")
    if err == 24:
        return (f"unexpected {src[a]!r} at position {a + 1} in {src!r}: melds in "
                f"brackets must come first (and only parse_hand reads them)")
    return f"cannot parse tiles {src[a:b]!r} in {src!r}"  # pragma: no cover - the scanners agree


def parse_compiled(s, mode):
    """The compiled parser's result (see _core.parse_notation), or InvalidHand."""
    r = _core.parse_notation(s, mode)
    if r[0]:
        raise InvalidHand(_notation_error(s, *r))
    return r


def parse_tiles(s):
    """Parse a string of concealed tiles (no brackets) into a list of indices.

    Compact (``"123m456p789sEESWN"``, whitespace between groups allowed) or
    Botzone codes separated by whitespace (``"W1 W2 B5 T9 F1 J3"``; ``B`` is
    dots, ``T`` is bamboo).  The order is preserved.  Flowers (``H1``..``H8``)
    are rejected here; :func:`mjfast.hand.parse_hand` counts them.
    """
    if not isinstance(s, str):
        raise InvalidHand(f"a tile string must be a str, got {type(s).__name__}")
    return list(parse_compiled(s, 1)[2])


def _fifth_copy(tile, n):
    return InvalidHand(
        f"fifth copy of {TILE_NAMES[tile]}: {n} copies, at most 4 exist"
    )


def counts_of(x):
    """The body of :func:`mjfast.to_counts` for everything but melds: a
    string of concealed tiles, tile indices or 34 counts (see there)."""
    if isinstance(x, str):
        return np.array(parse_compiled(x, 2)[4], dtype=np.uint8)

    if isinstance(x, np.ndarray):
        if x.ndim != 1:
            raise InvalidHand(
                f"tile counts must be a 1-D array of 34, got shape {x.shape}"
            )
        if x.dtype.kind not in "iu":
            raise InvalidHand(
                f"tile counts/indices must be integers, got dtype {x.dtype}"
            )
        if x.dtype == np.uint8 and len(x) != N_TILES:
            raise InvalidHand(
                f"a uint8 array is read as tile counts and needs length 34, "
                f"got length {len(x)}"
            )
        arr = x
    else:
        try:
            seq = list(x)
        except TypeError:
            raise InvalidHand(
                f"cannot read tiles from a {type(x).__name__}: expected a "
                f"string, a list of tile indices or 34 counts"
            ) from None
        for k, v in enumerate(seq):
            if isinstance(v, (bool, np.bool_)) or not isinstance(
                v, (int, np.integer)
            ):
                raise InvalidHand(
                    f"item {k} is {v!r}: tile counts/indices must be integers"
                )
            if not -256 <= v <= 256:  # before numpy meets an int it cannot hold
                raise InvalidHand(
                    f"item {k} is {v}: out of range for a tile count (0-4) or index (0-33)"
                )
        arr = seq

    if len(arr) == N_TILES:  # counts
        a = np.asarray(arr, dtype=np.int64)
        if (a < 0).any():
            t = int(np.flatnonzero(a < 0)[0])
            raise InvalidHand(
                f"negative count {int(a[t])} for {TILE_NAMES[t]} (slot {t})"
            )
        if (a > 4).any():
            t = int(np.flatnonzero(a > 4)[0])
            raise _fifth_copy(t, int(a[t]))
        return a.astype(np.uint8)

    # tile indices
    a = np.asarray(arr, dtype=np.int64).reshape(-1)
    if a.size and (a.min() < 0 or a.max() >= N_TILES):
        k = int(np.flatnonzero((a < 0) | (a >= N_TILES))[0])
        raise InvalidHand(
            f"tile index {int(a[k])} at item {k} is out of range 0-33 "
            f"(a sequence of exactly 34 items is read as counts)"
        )
    c = np.bincount(a, minlength=N_TILES)
    if c.max(initial=0) > 4:
        t = int(np.flatnonzero(c > 4)[0])
        raise _fifth_copy(t, int(c[t]))
    return c.astype(np.uint8)


def counts_str(c):
    """Compact string of a validated list/array of 34 counts."""
    parts = []
    for base, suit in ((0, "m"), (9, "p"), (18, "s")):
        run = "".join(
            str(r + 1) * int(c[base + r]) for r in range(9) if c[base + r]
        )
        if run:
            parts.append(run + suit)
    for k, h in enumerate(_HONORS):
        n = c[27 + k]
        if n:
            parts.append(h * int(n))
    return "".join(parts)
