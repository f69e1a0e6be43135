"""Wildcard arguments of the win / waits / shanten functions (docs/wildcards.md).

A wildcard may stand for any tile.  The functions of :mod:`mjfast.analysis.hands` take
them in one of two ways:

* ``wildcards=k``: the hand's real tiles plus ``k`` wildcards held apart
  (jokers that are not among the 136 tiles); in the batch forms an int for
  every row or one int per row;
* ``wildcard_tiles=[kind, ...]``: those kinds of the hand are wild (财神,
  百搭); their counts, taken from the hand's concealed tiles, are the
  wildcards.

By default a wildcard may not make a fifth copy of a kind (real + wild <= 4);
``wild_fifth=True`` lifts that.  At most :data:`MAX_WILDCARDS` per hand.

In the lists of :func:`~mjfast.waits` and :func:`~mjfast.useful_tiles`
:data:`WILDCARD` (34) stands for "a drawn wildcard"; with ``wildcard_tiles``
the wild kind itself is listed instead.  :func:`waits_any` reads a waits list:
True when every tile with a copy left completes the hand.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .. import _wild
from ..errors import InvalidArgument, InvalidHand
from ..scoring.records import show as _show
from ..tiles import tile_index

__all__ = ["WILDCARD", "MAX_WILDCARDS", "waits_any"]

#: The index that stands for a drawn wildcard in waits / useful-tile lists
#: (and column 34 of ``waits_batch(..., wildcards=...)``).
WILDCARD = 34

#: The most wildcards one hand may hold.
MAX_WILDCARDS = _wild.MAX_WILDCARDS


class WildArgs:
    """The checked wildcard arguments of one call."""

    __slots__ = ("k", "kinds", "fifth")

    def __init__(self, k, kinds, fifth):
        self.k = k            # int, an int64 array (batch) or None (kinds given)
        self.kinds = kinds    # tuple of tile indices, or None
        self.fifth = fifth


def is_plain(wildcards, wildcard_tiles, wild_fifth) -> bool:
    """True when a call asks for nothing wild (the fast paths stay as they are)."""
    return wildcards is None and wildcard_tiles is None and wild_fifth is False


def _kind(x):
    if isinstance(x, str):
        return tile_index(x)
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise InvalidArgument(f"wildcard_tiles: a tile is an index 0..33 or a name like '5m', got {_show(x)}")
    if not 0 <= x <= 33:
        raise InvalidArgument(f"wildcard_tiles: tile index {int(x)} is outside 0..33")
    return int(x)


def check(wildcards, wildcard_tiles, wild_fifth, *, batch=False) -> WildArgs:
    """Check the three wildcard arguments; raises TypeError / ValueError naming
    the argument."""
    if not isinstance(wild_fifth, (bool, np.bool_)):
        raise InvalidArgument(f"wild_fifth must be a bool, got {_show(wild_fifth)}")
    if wildcards is not None and wildcard_tiles is not None:
        raise InvalidArgument("pass wildcards=k or wildcard_tiles=[...], not both")
    kinds = None
    k: Optional[int] = 0
    if wildcard_tiles is not None:
        if isinstance(wildcard_tiles, (str, int, np.integer)):
            wildcard_tiles = [wildcard_tiles]
        try:
            items = list(wildcard_tiles)
        except TypeError:
            raise InvalidArgument(f"wildcard_tiles must be a list of tiles, got {_show(wildcard_tiles)}") from None
        kinds = tuple(sorted({_kind(x) for x in items}))
        k = None
    elif wildcards is not None:
        if batch and not isinstance(wildcards, (int, np.integer)):
            k = _k_column(wildcards)
        else:
            if isinstance(wildcards, (bool, np.bool_)) or not isinstance(wildcards, (int, np.integer)):
                raise InvalidArgument(f"wildcards must be an int 0..{MAX_WILDCARDS}, got {_show(wildcards)}")
            if not 0 <= wildcards <= MAX_WILDCARDS:
                raise InvalidArgument(f"wildcards must be 0..{MAX_WILDCARDS}, got {int(wildcards)}")
            k = int(wildcards)
    return WildArgs(k, kinds, bool(wild_fifth))


def _k_column(wildcards):
    a = np.asarray(wildcards)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise InvalidArgument("wildcards must be an int or a 1-d integer array (one count per row), "
                              f"got {_show(wildcards) if a.dtype == object else f'dtype {a.dtype}, shape {a.shape}'}")
    return a.astype(np.int64)


def split(counts, kinds):
    """(counts with the wild kinds emptied (a copy), their number of tiles)."""
    c = np.array(counts, dtype=np.uint8)
    k = int(c[list(kinds)].sum())
    c[list(kinds)] = 0
    if k > MAX_WILDCARDS:
        raise InvalidHand(f"wildcard_tiles: the hand holds {k} wild tiles, at most {MAX_WILDCARDS}")
    return c, k


def mask_tiles(mask: int, w: WildArgs, full) -> list:
    """A waits / useful-tiles list from the kernel's 35-bit mask (bit 34: a
    drawn wildcard), as the docs describe: real tiles with a copy left, then
    WILDCARD; with wildcard_tiles the wild kinds instead of WILDCARD."""
    out = []
    wild_kinds = set(w.kinds or ())
    drawn_wild = (mask >> 34) & 1
    for t in range(34):
        if full is not None and full[t] >= 4:
            continue
        if t in wild_kinds:
            if drawn_wild:
                out.append(t)
        elif (mask >> t) & 1:
            out.append(t)
    if drawn_wild and w.kinds is None:
        out.append(WILDCARD)
    return out


def waits_any(tiles, held=None) -> bool:
    """True when a waits list (with wildcards) holds every tile: the hand is
    complete but for one tile, whichever it is (a lone wildcard waiting for
    its pair, say).  ``held``: the 34 counts of the player's tiles (a kind
    whose four copies are held cannot be drawn, so it is not needed)."""
    s = set(tiles)
    return all(t in s for t in range(34) if held is None or held[t] < 4)
