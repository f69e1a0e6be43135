"""Helpers for bots: which tile to discard, and what each wait is worth.

Both sit on the compiled core (shanten, useful tiles, the fan engine); they
are small Python loops over at most 14 discards / 34 tiles.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from . import _core
from .core import _concealed, useful_of
from .errors import InvalidArgument, InvalidHand, NotWinning
from .records import _show
from .hand import Hand, format_hand, parse_hand
from .score import score

__all__ = ["Discard", "WinningTile", "best_discards", "winning_tiles"]


class Discard(NamedTuple):
    tile: int           # the tile to discard (index)
    shanten: int        # shanten of the 13-3k tiles left
    useful_kinds: int   # kinds of tile that would lower it
    useful_left: int    # copies of those still unseen (4 - in hand - visible)


class WinningTile(NamedTuple):
    tile: int                 # the wait (index)
    discard_total: int        # points when won on a discard (flowers included)
    self_drawn_total: int     # points when self-drawn
    discard_legal: bool       # >= 8 points without flowers on a discard
    self_drawn_legal: bool


def best_discards(hand, *, melds: Optional[int] = None, visible=None) -> list:
    """For a 14-3k tile hand, every distinct discard with the shanten left and
    the useful tiles it keeps, best first (lowest shanten, then most useful
    copies left).  ``visible``: optional 34 counts of tiles seen elsewhere
    (discards, other players' melds) that can no longer be drawn."""
    counts, melds, full = _concealed(hand, melds, "win")
    seen = np.array(full if full is not None else counts, dtype=np.int64)
    if visible is not None:
        vis = np.asarray(visible)
        if vis.dtype == object or vis.dtype.kind not in "iu":
            raise InvalidArgument(f"visible must be 34 integer counts 0..4 (tiles seen elsewhere), "
                                  f"got {_show(visible)}")
        if vis.shape != (34,) or (vis < 0).any() or (vis > 4).any():
            raise InvalidHand(f"visible must be 34 integer counts 0..4 (tiles seen elsewhere), "
                              f"got {_show(visible)}")
        vis = vis.astype(np.int64)
        seen = seen + vis
        if (seen > 4).any():
            bad = int(np.flatnonzero(seen > 4)[0])
            raise InvalidHand(f"more than 4 copies of tile {bad} between the hand and the visible tiles")
    held = np.array(full if full is not None else counts, dtype=np.int64)
    out = []
    for t in np.flatnonzero(counts):
        c = counts.copy()
        c[t] -= 1
        held[t] -= 1
        sh = _core.shanten_one(c, melds, -1)
        # the one definition of "useful" (mjfast.useful_tiles): lowers the
        # shanten, and the player does not already hold all four copies
        useful = useful_of(c, melds, -1, held)
        held[t] += 1
        # copies still unseen: the discarded tile counts as seen (it is on the table)
        left = sum(max(0, 4 - int(seen[u])) for u in useful)
        out.append(Discard(int(t), int(sh), len(useful), int(left)))
    out.sort(key=lambda d: (d.shanten, -d.useful_left, -d.useful_kinds, d.tile))
    return out


def winning_tiles(hand, **context) -> list:
    """For a ready hand (notation with melds, 13 tiles counting 3 per meld),
    each winning tile with the total it scores on a discard and self-drawn.

    ``context``: the keyword arguments of :func:`mjfast.score` other than
    ``self_drawn`` (seat_wind, round_wind, flowers, fourth_tile, kong, last_tile).
    A wait that cannot score at all (not a win under the fan engine) is left out.
    """
    if "self_drawn" in context:
        raise TypeError("winning_tiles scores both ways; do not pass self_drawn")
    h = parse_hand(hand) if isinstance(hand, str) else hand
    if not isinstance(h, Hand):
        raise InvalidArgument(f"hand must be a notation string or a Hand, got {type(hand).__name__}")
    if h.n_tiles != 13:
        raise InvalidHand(f"a ready hand has 13 tiles counting 3 per meld; got {h.n_tiles}")
    full = h.all_counts
    counts = np.ascontiguousarray(h.counts, dtype=np.uint8)
    out = []
    for t in _core.waits_one(counts, len(h.melds)):
        if full[t] >= 4:
            continue
        won = Hand(h.melds, tuple(h.tiles) + (t,), h.flowers)
        text = format_hand(won)
        try:
            d = score(text, self_drawn=False, **context)
            s = score(text, self_drawn=True, **context)
        except NotWinning:
            continue
        out.append(WinningTile(int(t), d.total, s.total, d.is_legal_win, s.is_legal_win))
    return out
