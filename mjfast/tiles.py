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
"""

import re

import numpy as np

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

_BOTZONE_TO_INDEX = {c: i for i, c in enumerate(BOTZONE_CODES)}
_FLOWER_CODES = frozenset(f"H{r}" for r in range(1, 9))

_DIGIT = {str(d): d - 1 for d in range(1, 10)}      # '1' -> rank offset 0
_SUIT_BASE = {"m": 0, "p": 9, "s": 18}
_HONOR_INDEX = {h: 27 + k for k, h in enumerate(_HONORS)}

# Compact fast path: whole-string validation, then group extraction.
_COMPACT_OK = re.compile(r"\s*(?:(?:[1-9]+[mps]|[ESWNCFP])\s*)*")
_COMPACT_GROUP = re.compile(r"([1-9]+)([mps])|([ESWNCFP])")
# Botzone detection: every whitespace-separated token is a letter + digit.
_BOTZONE_OK = re.compile(r"\s*[WBTFJH][1-9](?:\s+[WBTFJH][1-9])*\s*")
_BOTZONE_TOKEN = re.compile(r"[WBTFJH][1-9]")
_TOKEN = re.compile(r"\S+")

# Tile lists for a digit run + suit letter, cached: "345" + "m" -> [2, 3, 4].
_GROUP_CACHE = {}


def _group(digits, suit):
    key = digits + suit
    g = _GROUP_CACHE.get(key)
    if g is None:
        base = _SUIT_BASE[suit]
        g = [base + _DIGIT[d] for d in digits]
        if len(_GROUP_CACHE) < 4096:
            _GROUP_CACHE[key] = g
    return g


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
# tile strings


def _compact_error(text, offset, src):
    """Raise the InvalidHand describing the first error of ``text`` (found
    at 0-based ``offset`` in ``src``).  Only called when the fast regex
    rejected the string."""
    msg = _compact_error_msg(text, offset, src)
    if any(_BOTZONE_TOKEN.fullmatch(t) for t in text.split()):
        msg += " (Botzone codes cannot be mixed with compact notation)"
    raise InvalidHand(msg)


def _compact_error_msg(text, offset, src):
    pend_start = -1
    for k, ch in enumerate(text):
        pos = offset + k + 1  # 1-based position in src
        if ch in _DIGIT:
            if pend_start < 0:
                pend_start = pos
            continue
        if ch in _SUIT_BASE:
            if pend_start < 0:
                return (
                    f"suit letter {ch!r} at position {pos} in {src!r} has no "
                    f"digits before it"
                )
            pend_start = -1
            continue
        if ch == "0":
            return f"digit '0' at position {pos} in {src!r}: ranks are 1-9"
        if not (ch in _HONOR_INDEX or ch.isspace() or ch in "[]"):
            return f"unknown tile {ch!r} at position {pos} in {src!r}"
        if pend_start >= 0:
            run = src[pend_start - 1:pos - 1]
            return (
                f"digits {run!r} at position {pend_start} in {src!r} are not "
                f"followed by a suit letter (m, p or s)"
            )
        if ch in _HONOR_INDEX or ch.isspace():
            continue
        if ch in "[]":
            return (
                f"unexpected {ch!r} at position {pos} in {src!r}: melds in "
                f"brackets must come first (and only parse_hand reads them)"
            )
    if pend_start >= 0:
        run = src[pend_start - 1:offset + len(text)].rstrip()
        return (
            f"digits {run!r} at position {pend_start} in {src!r} are not "
            f"followed by a suit letter (m, p or s)"
        )
    # not reached: the regex and this scanner accept the same strings
    return f"cannot parse tiles {text!r} in {src!r}"


def _parse_botzone(text, offset, src):
    """Botzone tokens -> (tiles, flower codes).  Errors name the token."""
    tiles = []
    flowers = []
    get = _BOTZONE_TO_INDEX.get
    for tok in text.split():
        i = get(tok)
        if i is not None:
            tiles.append(i)
        elif tok in _FLOWER_CODES:
            if tok in flowers:
                raise InvalidHand(
                    f"flower {tok!r} appears twice in {src!r}"
                )
            flowers.append(tok)
        else:
            pos = offset + 1
            for m in _TOKEN.finditer(text):
                if m.group() == tok:
                    pos = offset + m.start() + 1
                    break
            if _BOTZONE_TOKEN.fullmatch(tok):
                raise InvalidHand(
                    f"unknown Botzone code {tok!r} at position {pos} in {src!r}"
                )
            raise InvalidHand(
                f"{tok!r} at position {pos} in {src!r} is not a Botzone code "
                f"(Botzone codes cannot be mixed with compact notation)"
            )
    return tiles, flowers


def _parse_any(text, offset=0, src=None):
    """Concealed tiles, compact or Botzone -> (tiles, flower codes).

    ``text`` is the part of ``src`` starting at 0-based ``offset``; used for
    error positions."""
    if src is None:
        src = text
    if _COMPACT_OK.fullmatch(text) is not None:
        tiles = []
        for digits, suit, honor in _COMPACT_GROUP.findall(text):
            if honor:
                tiles.append(_HONOR_INDEX[honor])
            else:
                tiles.extend(_group(digits, suit))
        return tiles, ()
    if _BOTZONE_OK.fullmatch(text) is not None:
        return _parse_botzone(text, offset, src)
    first = text.split(None, 1)
    if first and _BOTZONE_TOKEN.fullmatch(first[0]):
        # starts like Botzone codes: report the first token that is not one
        _parse_botzone(text, offset, src)
    _compact_error(text, offset, src)


def _parse_compact_meld(text, offset, src):
    """Tiles of a meld body (compact notation only), found at 0-based
    ``offset`` in ``src``."""
    if _COMPACT_OK.fullmatch(text) is not None:
        tiles = []
        for digits, suit, honor in _COMPACT_GROUP.findall(text):
            if honor:
                tiles.append(_HONOR_INDEX[honor])
            else:
                tiles.extend(_group(digits, suit))
        return tiles
    _compact_error(text, offset, src)


def parse_tiles(s):
    """Parse a string of concealed tiles (no brackets) into a list of indices.

    Compact (``"123m456p789sEESWN"``, whitespace between groups allowed) or
    Botzone codes separated by whitespace (``"W1 W2 B5 T9 F1 J3"``; ``B`` is
    dots, ``T`` is bamboo).  The order is preserved.  Flowers (``H1``..``H8``)
    are rejected here; :func:`mjfast.hand.parse_hand` counts them.
    """
    if not isinstance(s, str):
        raise InvalidHand(f"a tile string must be a str, got {type(s).__name__}")
    tiles, flowers = _parse_any(s)
    if flowers:
        raise InvalidHand(
            f"flower {flowers[0]!r} in {s!r} is not a tile; use parse_hand "
            f"to count flowers"
        )
    return tiles


def _fifth_copy(tile, n):
    return InvalidHand(
        f"fifth copy of {TILE_NAMES[tile]}: {n} copies, at most 4 exist"
    )


def _counts_of(x):
    """The body of :func:`mjfast.to_counts` for everything but melds: a
    string of concealed tiles, tile indices or 34 counts (see there)."""
    if isinstance(x, str):
        if "[" in x or "]" in x:
            raise InvalidHand(
                f"melds in brackets in {x!r}: mjfast.to_counts or parse_hand reads them"
            )
        tiles, _ = _parse_any(x)
        c = [0] * N_TILES
        for t in tiles:
            c[t] += 1
        for t in range(N_TILES):
            if c[t] > 4:
                raise _fifth_copy(t, c[t])
        return np.array(c, dtype=np.uint8)

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


def _counts_str(c):
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
