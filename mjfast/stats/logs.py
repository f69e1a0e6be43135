"""Fan statistics of match archives: logs -> replay -> bulk scoring -> FanStats.

    from mjfast.stats.logs import stats_of_logs
    acc, summary = stats_of_logs(["data.txt", "matches/"], workers=2)
    acc.table()

The matches are read, replayed and their wins scored in bulk by
:mod:`mjfast.logs` (``mjfast logs score``'s path: the same units of work, in
the same order, for any worker count, and the same summary - matches
skipped with the reason, agreement with the recorded fans); the rows of each
unit go into the accumulator as arrays and are dropped, so memory holds one
unit at a time.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Tuple

import numpy as np

from ..rules.mcr.sets import MCR_RULES
from .accumulate import FanStats, N_FANS
from .sources import fill_fans as _fill_fans

if TYPE_CHECKING:       # the annotation only: mjfast.logs is loaded when a run needs it
    from ..logs.scoring import Summary

__all__ = ["stats_of_logs", "rows_arrays"]


def rows_arrays(rows) -> tuple:
    """``(fan_counts, totals, legal, errors)`` of result rows of
    :mod:`mjfast.logs` (``total`` and ``fans`` {key: count}; a row with an
    ``error`` or no total is invalid)."""
    n = len(rows)
    fc = np.zeros((n, N_FANS), np.uint8)
    tot = np.full(n, -1, np.int32)
    err = np.zeros(n, np.uint8)
    for i, r in enumerate(rows):
        if r.get("error") or r.get("total") is None or not _fill_fans(fc, i, r.get("fans")):
            err[i] = 1
            fc[i] = 0
        else:
            tot[i] = r["total"]
    # the archives' wins have no flowers: legal is the mcr rule set's minimum
    return fc, tot, (tot >= MCR_RULES.min_points) & (err == 0), err


def stats_of_logs(paths, workers: int = 1, progress=None, on_dask: bool = False,
                  bytes_bar=None) -> Tuple[FanStats, Optional[Summary]]:
    """(:class:`FanStats` of every win of the archives, the
    :class:`mjfast.logs.Summary` of the run).  Wins that could not be scored
    count as invalid rows (and are listed in the summary).  ``on_dask``: the
    units of work run on the current dask.distributed client.  ``progress``
    and ``bytes_bar``: as :func:`mjfast.logs.scoring.process`'s."""
    from ..logs import Summary, path_list as _paths   # start-up: the logs load for a logs job only
    acc = FanStats()
    total = Summary()
    if on_dask:
        from .dask import process_logs   # optional: needs dask
        units = process_logs(_paths(paths), bytes_bar=bytes_bar)
    else:
        from ..logs.scoring import process   # start-up: the logs load for a logs job only
        units = process(_paths(paths), workers=workers, progress=progress, bytes_bar=bytes_bar)
    for rows, _wins, s in units:
        total.add(s)
        if rows:
            acc.update_arrays(*rows_arrays(rows))
    return acc, total
