"""Streaming fan statistics: one accumulator, fed chunk by chunk.

:class:`FanStats` keeps only sums — per-fan counts, sums of totals, a
histogram of totals, an 82 x 82 co-occurrence matrix, counts per winning form
— so its memory does not grow with the number of hands, and two accumulators
over disjoint data merge into the one of their union (``a.merge(b)``), which
is what a parallel or distributed run needs.  Every sum is an exact integer
(int64), so the order of chunks and of merges never changes a result.

Rows are the scored hands of a :class:`mjfast.BatchResult` (or a DataFrame
with its columns); rows with an error are counted as such and left out of
every statistic.  Optional integer ``weights`` count a row that many times
(the exact enumeration weights each hand by its number of physical tile
combinations).
"""
from __future__ import annotations

import contextlib
import math
from typing import Optional

import numpy as np

from .._extras import require
from ..rules.mcr import MCR
from ..rules.mcr.sets import MCR_RULES
from .sources import frame_arrays

__all__ = ["FanStats", "wilson_interval", "FORM_NAMES", "forms_of", "self_drawn_of", "Z95"]

#: Winning forms, in the order of :meth:`FanStats.summary` ``forms``.
FORM_NAMES = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054

N_FANS = len(MCR)
_I = MCR.index
_SEVEN_PAIRS = (_I("seven_pairs"), _I("seven_shifted_pairs"))
_ORPHANS = _I("thirteen_orphans")
_HONORS_KNITTED = (_I("greater_honors_and_knitted_tiles"), _I("lesser_honors_and_knitted_tiles"))
_KNITTED_STRAIGHT = _I("knitted_straight")
_FORM_FANS = [*_SEVEN_PAIRS, _ORPHANS, *_HONORS_KNITTED, _KNITTED_STRAIGHT]
# The fans that mean "won on a self-drawn tile".  Self-Drawn itself is
# switched off by Fully Concealed Hand, Last Tile Draw and Out with
# Replacement Tile, which all imply a self-drawn win; a fully concealed
# special form keeps Self-Drawn (Fully Concealed Hand is demoted to it).
_SELF_DRAWN = tuple(_I(k) for k in ("self_drawn", "fully_concealed_hand", "last_tile_draw",
                                     "out_with_replacement_tile"))

# Rows per internal block (bounded temporaries; with weights up to 2**36 a
# block's weighted sums stay below 2**53, where float64 is still exact).
_BLOCK = 1 << 16
_MAX_WEIGHT = 1 << 36


_controller = None


def _one_blas_thread():
    """A context with BLAS on one thread (threadpoolctl, when installed).

    The products here are small (84 x 84 from 65536 rows); a multi-threaded
    BLAS gains little on them and, on a busy machine or beside other worker
    processes, its spinning threads make it many times slower.  Parallelism
    belongs one level up (processes, Dask workers).
    """
    global _controller
    if _controller is None:
        try:
            from threadpoolctl import ThreadpoolController
            _controller = ThreadpoolController()
        except ImportError:
            _controller = False
    if _controller is False:
        return contextlib.nullcontext()
    return _controller.limit(limits=1, user_api="blas")


def wilson_interval(k, n, z: float = Z95):
    """Wilson score interval for a proportion ``k / n`` (arrays broadcast).

    Returns ``(low, high)``; NaN where ``n == 0``.  Unlike the normal
    approximation it stays inside [0, 1] and is sensible for ``k = 0``.
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2n = z * z / n
        centre = (p + z2n / 2) / (1 + z2n)
        half = z / (1 + z2n) * np.sqrt(p * (1 - p) / n + z2n / (4 * n))
    return centre - half, centre + half


def forms_of(presence: np.ndarray) -> np.ndarray:
    """The winning form (index into :data:`FORM_NAMES`) of each row of a fan
    presence matrix ``(N, 82) bool``.

    Read from the fans, i.e. the form of the reading that scored best: Seven
    Pairs / Seven Shifted Pairs -> seven pairs; Thirteen Orphans; Greater /
    Lesser Honors and Knitted Tiles -> honors-and-knitted (a knitted straight
    inside it stays this form); Knitted Straight without them -> knitted
    straight (straight + a set + a pair); anything else is regular.  A hand
    that also reads as seven pairs but scores better as a regular hand (Pure
    Terminal Chows) is regular.
    """
    p = presence
    form = np.zeros(p.shape[0], np.int8)
    form[p[:, _KNITTED_STRAIGHT]] = 4
    form[p[:, _HONORS_KNITTED[0]] | p[:, _HONORS_KNITTED[1]]] = 3
    form[p[:, _ORPHANS]] = 2
    form[p[:, _SEVEN_PAIRS[0]] | p[:, _SEVEN_PAIRS[1]]] = 1
    return form


def self_drawn_of(presence: np.ndarray) -> np.ndarray:
    """True where a row's fans show a self-drawn win (see ``_SELF_DRAWN``)."""
    return np.asarray(presence[:, list(_SELF_DRAWN)].any(1))


_HASH_KEYS = np.random.default_rng(20261201).integers(1, 2 ** 63, 11, dtype=np.uint64) | np.uint64(1)


def _distinct_rows(fc, tot, legal, w):
    """The distinct (fan counts, total, legal) rows of a block and their
    summed weights (``w`` None = 1 each).  Rows are grouped by a 64-bit hash of
    their bytes; the grouping is then verified row by row, and on a collision
    (never seen, but possible) exact byte-wise grouping is used instead."""
    n = fc.shape[0]
    buf = np.zeros((n, 88), np.uint8)
    buf[:, :82] = fc
    buf[:, 82:84] = tot.astype("<u2").view(np.uint8).reshape(n, 2)
    buf[:, 84] = legal
    words = buf.view(np.uint64)
    with np.errstate(over="ignore"):
        h = (words * _HASH_KEYS).sum(1, dtype=np.uint64)
    _, first, inv = np.unique(h, return_index=True, return_inverse=True)
    inv = inv.ravel()
    if not np.array_equal(words[first][inv], words):
        _, first, inv = np.unique(buf.view(np.dtype((np.void, 88))).ravel(), return_index=True,
                                  return_inverse=True)
        inv = inv.ravel()
    if w is None:
        mult = np.bincount(inv, minlength=len(first)).astype(np.int64)
    else:
        mult = np.rint(np.bincount(inv, weights=w.astype(np.float64), minlength=len(first))).astype(np.int64)
    return fc[first], tot[first], legal[first], mult


def _as_int_weights(weights, n):
    if weights is None:
        return None
    w = np.asarray(weights)
    if w.shape != (n,):
        raise ValueError(f"weights must have shape ({n},); got {w.shape}")
    if w.dtype.kind not in "iub":
        raise TypeError(f"weights must be integers (how many times each row counts); got dtype {w.dtype}")
    w = w.astype(np.int64)
    if n and (w.min() < 0 or w.max() > _MAX_WEIGHT):
        raise ValueError(f"weights must be 0-{_MAX_WEIGHT} (sums of a block stay exact in float64)")
    return w


class FanStats:
    """Fan statistics accumulated over any number of chunks of scored hands.

    >>> acc = FanStats()
    >>> for batch in HandBatch.from_jsonl("hands.jsonl"):     # doctest: +SKIP
    ...     acc.update(score_batch(batch))
    >>> acc.table()            # one row per fan (a pandas DataFrame)  # doctest: +SKIP
    >>> acc.summary()          # wins, forms, self-drawn share, totals  # doctest: +SKIP

    ``weighted``: whether rows carry integer weights (fixed at creation, so
    that merged accumulators agree on what they count).
    """

    def __init__(self, weighted: bool = False):
        self.weighted = bool(weighted)
        self.rows = 0                 # rows seen, errors included (never weighted)
        self.invalid = 0              # rows with errors == 1 (malformed)
        self.not_winning = 0          # rows with errors == 2
        self.wins = 0                 # (weighted) scored rows
        self.legal = 0                # (weighted) rows with >= 8 points without flowers
        self.self_drawn = 0
        self.total_sum = 0            # (weighted) sum of totals
        self.fan_wins = np.zeros(N_FANS, np.int64)       # wins that have the fan
        self.fan_count = np.zeros(N_FANS, np.int64)      # sum of the fan's counts
        self.fan_total = np.zeros(N_FANS, np.int64)      # sum of totals of the wins with it
        self.forms = np.zeros(len(FORM_NAMES), np.int64)
        self.form_total = np.zeros(len(FORM_NAMES), np.int64)
        self.cooc = np.zeros((N_FANS, N_FANS), np.int64)  # wins with both fans
        self.hist = np.zeros(0, np.int64)                 # hist[t] = wins with total t

    # -- feeding ---------------------------------------------------------------

    def update(self, result, weights=None) -> "FanStats":
        """Add a :class:`mjfast.BatchResult` or a DataFrame with its columns
        (``total``, one column per fan named as in ``BatchResult.fan_names``
        or by key; optional ``error`` and ``legal``)."""
        if hasattr(result, "fan_counts") and hasattr(result, "totals"):
            return self.update_arrays(result.fan_counts, result.totals, result.legal, result.errors, weights)
        if hasattr(result, "columns"):
            fc, tot, legal, err = frame_arrays(result)
            return self.update_arrays(fc, tot, legal, err, weights)
        raise TypeError(f"expected a BatchResult or a DataFrame, got {type(result).__name__}")

    def update_arrays(self, fan_counts, totals, legal=None, errors=None, weights=None) -> "FanStats":
        """Add rows given as arrays: ``fan_counts (N, 82)``, ``totals (N,)``,
        ``legal (N,)`` bool (default: total >= 8), ``errors (N,)`` (0 = scored;
        default all 0)."""
        fc = np.asarray(fan_counts)
        if fc.ndim != 2 or fc.shape[1] != N_FANS:
            raise ValueError(f"fan_counts must be (N, {N_FANS}); got {fc.shape}")
        n = fc.shape[0]
        if fc.dtype != np.uint8:
            if fc.dtype.kind not in "iub":
                raise TypeError(f"fan_counts must be integers; got dtype {fc.dtype}")
            if n and (fc.min() < 0 or fc.max() > 255):
                raise ValueError("fan counts must be 0-255")
            fc = fc.astype(np.uint8)
        tot = np.asarray(totals)
        if tot.dtype.kind not in "iu":
            raise TypeError(f"totals must be integers; got dtype {tot.dtype}")
        if tot.shape != (n,):
            raise ValueError(f"totals must have shape ({n},); got {tot.shape}")
        err = np.zeros(n, np.uint8) if errors is None else np.asarray(errors)
        if err.shape != (n,):
            raise ValueError(f"errors must have shape ({n},); got {err.shape}")
        w = _as_int_weights(weights, n)
        if w is not None and not self.weighted:
            raise ValueError("weights given to an unweighted FanStats (create it with weighted=True)")
        if legal is None:
            legal = tot >= MCR_RULES.min_points
        legal = np.asarray(legal, bool)
        if legal.shape != (n,):
            raise ValueError(f"legal must have shape ({n},); got {legal.shape}")
        self.rows += n
        self.invalid += int(np.count_nonzero(err == 1))
        self.not_winning += int(np.count_nonzero(err == 2))
        ok = err == 0
        if not ok.all():
            fc, tot, legal = fc[ok], tot[ok], legal[ok]
            w = None if w is None else w[ok]
        with _one_blas_thread():
            for s in range(0, fc.shape[0], _BLOCK):
                e = s + _BLOCK
                self._block(fc[s:e], tot[s:e].astype(np.int64), legal[s:e], None if w is None else w[s:e])
        return self

    def _block(self, fc, tot, legal, w):
        n = fc.shape[0]
        if n == 0:
            return
        if tot.min() < 0:
            raise ValueError("a scored row has a negative total (mark it with errors != 0)")
        if tot.max() >= 1 << 14:
            raise ValueError(f"a total of {int(tot.max())} points is not a score")
        # Scored hands repeat the same few thousand fan patterns: collapse the
        # block to its distinct rows (fans, total, legal) with multiplicities,
        # then every statistic is a weighted sum over the distinct rows.
        fc, tot, legal, w = _distinct_rows(fc, tot, legal, w)
        pres = fc > 0
        sd = self_drawn_of(pres)
        hmax = int(tot.max()) + 1
        if hmax > self.hist.size:
            self.hist = np.concatenate([self.hist, np.zeros(hmax - self.hist.size, np.int64)])
        wt = w * tot
        self.wins += int(w.sum())
        self.legal += int(w[legal].sum())
        self.self_drawn += int(w[sd].sum())
        self.total_sum += int(wt.sum())
        wf = w.astype(np.float64)
        # float64 sums below are exact: a block's weights sum to less than 2**53
        self.hist[:hmax] += np.rint(np.bincount(tot, weights=wf, minlength=hmax)).astype(np.int64)
        self.fan_count += np.rint(wf @ fc.astype(np.float64)).astype(np.int64)
        # The special forms are rare: read the form only where one of their fans is.
        special = np.flatnonzero(pres[:, _FORM_FANS].any(1))
        forms = forms_of(pres[special])
        sw, swt = w[special], wt[special]
        for f in range(1, len(FORM_NAMES)):
            sel = forms == f
            self.forms[f] += int(sw[sel].sum())
            self.form_total[f] += int(swt[sel].sum())
        self.forms[0] = self.wins - int(self.forms[1:].sum())
        self.form_total[0] = self.total_sum - int(self.form_total[1:].sum())
        # Co-occurrence (its diagonal: the wins with each fan) and the sums of
        # totals per fan in one product.
        if int(w.sum()) <= 1 << 16:
            # [presence | total % 64 | total // 64] in float32: every sum stays
            # below 2**24 (exact) while the block's weights sum to <= 65536
            a = np.empty((len(w), N_FANS + 2), np.float32)
            a[:, :N_FANS] = pres
            a[:, N_FANS] = tot & 63
            a[:, N_FANS + 1] = tot >> 6
            m = np.rint(a[:, :N_FANS].T @ (a * w[:, None].astype(np.float32))).astype(np.int64)
            self.cooc += m[:, :N_FANS]
            self.fan_total += m[:, N_FANS] + 64 * m[:, N_FANS + 1]
        else:
            # float64 over runs of rows whose weighted sums stay below 2**52
            cum = np.cumsum(w * np.maximum(tot, 1), dtype=np.int64)
            d = len(w)
            s = 0
            while s < d:
                base = int(cum[s - 1]) if s else 0
                e = s + max(1, int(np.searchsorted(cum[s:], base + 2 ** 52, side="right")))
                a = np.empty((e - s, N_FANS + 1), np.float64)
                a[:, :N_FANS] = pres[s:e]
                a[:, N_FANS] = tot[s:e]
                m = np.rint(a[:, :N_FANS].T @ (a * wf[s:e, None])).astype(np.int64)
                self.cooc += m[:, :N_FANS]
                self.fan_total += m[:, N_FANS]
                s = e
        self.fan_wins = np.diagonal(self.cooc).copy()

    def merge(self, other: "FanStats") -> "FanStats":
        """Add another accumulator (over disjoint rows) into this one."""
        if not isinstance(other, FanStats):
            raise TypeError(f"can only merge a FanStats, got {type(other).__name__}")
        if other.weighted != self.weighted:
            raise ValueError("cannot merge a weighted and an unweighted FanStats")
        for name in ("rows", "invalid", "not_winning", "wins", "legal", "self_drawn", "total_sum"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("fan_wins", "fan_count", "fan_total", "forms", "form_total", "cooc"):
            getattr(self, name).__iadd__(getattr(other, name))
        if other.hist.size > self.hist.size:
            self.hist = np.concatenate([self.hist, np.zeros(other.hist.size - self.hist.size, np.int64)])
        self.hist[:other.hist.size] += other.hist
        return self

    def __add__(self, other):
        out = FanStats(self.weighted)
        return out.merge(self).merge(other)

    def __eq__(self, other):
        if not isinstance(other, FanStats):
            return NotImplemented
        a, b = self.state(), other.state()
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)

    def __repr__(self) -> str:
        # what a prompt wants: how many rows and wins, the points, the commonest fans
        kind = "FanStats(weighted" if self.weighted else "FanStats("
        sep = ", " if self.weighted else ""
        if self.rows == 0:
            return f"{kind}{sep}empty)"
        bad = [f"{n:,} {what}" for n, what in ((self.invalid, "invalid"), (self.not_winning, "not winning")) if n]
        head = f"{kind}{sep}{self.rows:,} row{'s' if self.rows != 1 else ''}" + (f" ({', '.join(bad)})" if bad else "")
        if not self.wins:
            return head + ", no wins)"
        wins = f"{self.wins:,} win{'s' if self.wins != 1 else ''}" + (" (weighted)" if self.weighted else "")
        mean = self.total_sum / self.wins
        top = ", ".join(f"{MCR.keys[j]} {100 * self.fan_wins[j] / self.wins:.1f}%" for j in self.top_fans(3))
        return (f"{head}: {wins}, {100 * self.legal / self.wins:.1f}% legal, mean total {mean:.1f}; "
                f"top fans {top})")

    # -- persistence (plain arrays: npz, pickling, shipping between workers) -------

    def state(self) -> dict:
        """Every accumulated number, as plain ints and int64 arrays."""
        return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in vars(self).items()}

    @classmethod
    def from_state(cls, state: dict) -> "FanStats":
        out = cls(bool(state["weighted"]))
        for k, v in state.items():
            setattr(out, k, np.asarray(v, np.int64).copy() if isinstance(v, np.ndarray) else type(getattr(out, k))(v))
        return out

    def __getstate__(self):
        return self.state()

    def __setstate__(self, state):
        self.__dict__.update(FanStats.from_state(state).__dict__)

    # -- results ---------------------------------------------------------------

    def columns(self) -> dict:
        """The per-fan table as a dict of numpy columns (one entry per fan, in
        the fan table's order; no pandas needed)."""
        wins = self.wins
        fw = self.fan_wins
        with np.errstate(invalid="ignore", divide="ignore"):
            share = fw / wins if wins else np.full(N_FANS, np.nan)
            mean_with = np.where(fw > 0, self.fan_total / np.maximum(fw, 1), np.nan)
            rest = wins - fw
            mean_without = np.where(rest > 0, (self.total_sum - self.fan_total) / np.maximum(rest, 1), np.nan)
        if self.weighted:
            # weights are counts of physical combinations, not independent draws:
            # a sampling interval means nothing for an exact enumeration
            lo = hi = np.full(N_FANS, np.nan)
        else:
            lo, hi = wilson_interval(fw, wins)
        points = np.asarray(MCR.points, np.int64)
        return {
            "id": np.asarray(MCR.ids, np.int64),
            "key": np.array(MCR.keys, dtype=object),
            "name": np.array(MCR.names_en, dtype=object),
            "zh": np.array(MCR.names_zh, dtype=object),
            "points": points,
            "wins": fw.copy(),
            "count": self.fan_count.copy(),
            "share": share,
            "share_low": lo,
            "share_high": hi,
            "mean_total_with": mean_with,
            "mean_total_without": mean_without,
            # the fan's part of all points scored (its points x count / sum of totals)
            "points_share": (points * self.fan_count) / self.total_sum if self.total_sum else np.full(N_FANS, np.nan),
        }

    def table(self, sort: Optional[str] = None):
        """The per-fan table as a pandas DataFrame (``sort="share"`` for most
        frequent first; default: the fan table's order).  Needs pandas."""
        require("pandas", "FanStats.table() (FanStats.columns() has the same columns as numpy arrays)")
        import pandas as pd
        df = pd.DataFrame(self.columns())
        if sort:
            df = df.sort_values([sort, "id"], ascending=[False, True], kind="stable").reset_index(drop=True)
        return df

    def totals_quantile(self, q) -> float:
        """Quantile ``q`` (0-1) of the totals, from the exact histogram."""
        if self.wins == 0:
            return math.nan
        cum = np.cumsum(self.hist)
        return int(np.searchsorted(cum, q * cum[-1], side="left"))

    def summary(self) -> dict:
        """Everything that is not per fan: counts, the self-drawn share with its
        interval, wins by form, and the distribution of totals."""
        wins = self.wins
        t = np.arange(self.hist.size)
        mean = self.total_sum / wins if wins else math.nan
        var = float((self.hist * (t - mean) ** 2).sum() / wins) if wins else math.nan
        out: dict = {
            "weighted": self.weighted,
            "rows": self.rows,
            "invalid": self.invalid,
            "not_winning": self.not_winning,
            "wins": wins,
            "legal": self.legal,
            "legal_share": self.legal / wins if wins else math.nan,
            "self_drawn": self.self_drawn,
            "self_drawn_share": self.self_drawn / wins if wins else math.nan,
            "forms": {},
            "totals": {
                "mean": mean,
                "std": math.sqrt(var) if wins else math.nan,
                "min": int(np.flatnonzero(self.hist)[0]) if wins else None,
                "median": self.totals_quantile(0.5),
                "p90": self.totals_quantile(0.9),
                "p99": self.totals_quantile(0.99),
                "max": int(np.flatnonzero(self.hist)[-1]) if wins else None,
                "at_least_8": int(self.hist[8:].sum()),
            },
        }
        if not self.weighted:
            out["self_drawn_interval"] = tuple(float(x) for x in wilson_interval(self.self_drawn, wins))
        for f, name in enumerate(FORM_NAMES):
            k = int(self.forms[f])
            d: dict = {"wins": k, "share": k / wins if wins else math.nan,
                 "mean_total": int(self.form_total[f]) / k if k else math.nan}
            if not self.weighted:
                d["interval"] = tuple(float(x) for x in wilson_interval(k, wins))
            out["forms"][name] = d
        return out

    def histogram(self) -> np.ndarray:
        """``h[t]`` = number (or weight) of wins with total ``t``."""
        return self.hist.copy()

    def top_fans(self, n: int = 20) -> np.ndarray:
        """Indices (into the fan table) of the ``n`` fans present in the most
        wins, most frequent first (ties by table order); fans never seen are left out."""
        order = np.lexsort((np.arange(N_FANS), -self.fan_wins))
        order = order[self.fan_wins[order] > 0]
        return order[:n]

    def cooccurrence(self, n: int = 20, conditional: bool = False):
        """Co-occurrence of the ``n`` most frequent fans: ``(keys, M)`` with
        ``M[i, j]`` = wins having both fans (``conditional``: the share of the
        wins with fan i that also have fan j)."""
        idx = self.top_fans(n)
        m = self.cooc[np.ix_(idx, idx)]
        keys = [MCR.keys[i] for i in idx]
        if conditional:
            d = np.diag(m).astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                return keys, m / d[:, None]
        return keys, m.copy()
