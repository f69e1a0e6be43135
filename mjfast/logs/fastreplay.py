"""Kept for compatibility: the old names of the compiled replay's first try.

There is one replay driver now (``mjfast._replay``, behind
:func:`mjfast.logs.replay`); these give its answer in the old shape: None for
a match the driver refuses or that does not end in a Hu or a Huang (flowers,
an error ending), ``("huang", None)``, or ``("hu", (winner, from_seat, tile,
hand, melds, self_drawn, fourth_tile, last_tile, kong))``.
"""
from __future__ import annotations

from .. import _replay
from ..game.state import read_answer
from .model import TILE_CODES

__all__ = ["AVAILABLE", "replay_fast", "replay_compiled"]

AVAILABLE = True
_IDX = {c: i for i, c in enumerate(TILE_CODES)}


def replay_compiled(m, walls_known=None):
    """The driver's answer for ``m`` (walls ``walls_known``, 4 lists of codes, or None), in the old shape."""
    if m.problem is not None or m.quan is None or m.end not in ("hu", "huang") or any(m.flowers) \
            or any(d is None for d in m.deals):
        return None
    r = _replay.replay_match(m, walls_known, _IDX, read_answer)
    if r is None or r[0] not in (1, 2):
        return None
    return ("huang", None) if r[0] == 1 else ("hu", r[1:])


#: the same answer (the loop in Python is gone)
replay_fast = replay_compiled
