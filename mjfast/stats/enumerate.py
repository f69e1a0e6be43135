"""Exact fan statistics over every fully concealed winning hand.

A *hand* here is a distinct 34-count vector of 14 tiles (at most 4 of a
tile) that completes in a form.  Each hand is scored once per distinct tile
in it, that tile being the winning tile, self-drawn, seat and prevalent wind
East, no flowers, no melds.  Every (hand, winning tile) pair is one *row*.

Two weightings of the rows:

* unweighted — every row counts once;
* physical — a row counts ``c_t * prod_i C(4, c_i)``: the number of ways to
  pick the 14 physical tiles of the hand out of the 136 (``prod C(4, c_i)``)
  times the number of physical copies of the winning tile among them
  (``c_t``).  Shares under this weighting are the probabilities for a hand
  drawn uniformly among all physical concealed winning hands, its last tile
  uniform among its 14 tiles.

The vectors are generated per form, without searching:

* regular — per suit, the distinct 9-count vectors of ``k`` sets (chows and
  pungs) with or without the pair (a handful of small tables, built by
  combining the 16 possible sets of a suit), then every way to spread 4 sets
  and the pair over the three suits and the honors, combined by numpy
  Cartesian products, chunk by chunk.  A suit's tile count fixes its number of
  sets and whether it holds the pair, so two combinations never give the same
  vector: no deduplication is needed, and the count is a sum of products.
* seven pairs — 7 pairs of distinct tiles, or with a tile used twice as two
  pairs (allowed: four of a kind is two pairs, with Tile Hog).
* thirteen orphans — 13 hands; honors-and-knitted — 14 distinct tiles out
  of the 9 knitted tiles of one suit order plus the 7 honors (6 x 120);
  knitted straight — the 9 knitted tiles of one suit order plus a set and a
  pair (deduplicated with ``np.unique``).

The union of the forms counts a hand once: a hand of a later form (in the
order of :data:`FORM_NAMES`) that also completes in an earlier one (checked
with ``shanten_batch(form=...)``) is left to the earlier form.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from math import comb
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import numpy as np

from collections import deque
from .accumulate import FanStats, FORM_NAMES
from ..scoring.batch_result import on_mcr_columns as _on_mcr_columns
from ..analysis.hands import FORMS, shanten_batch
from ..rules import get
from ..scoring.batch import HandBatch, score_batch

__all__ = ["hands", "count_hands", "suit_table", "rows_of", "physical_weights",
           "enumerate_stats", "Enumeration", "FORM_NAMES"]

_C4 = np.array([comb(4, c) for c in range(5)], np.int64)


# ---------------------------------------------------------------------------
# per-suit tables


def _suit_sets(n: int):
    """The 3-tile sets of an n-rank suit (chows only for 9-rank suits)."""
    sets = []
    if n == 9:
        for r in range(7):
            v = np.zeros(n, np.uint8)
            v[r:r + 3] = 1
            sets.append(v)
    for r in range(n):
        v = np.zeros(n, np.uint8)
        v[r] = 3
        sets.append(v)
    return sets


_TABLES: Dict[tuple, np.ndarray] = {}


def suit_table(k: int, pair: bool, honors: bool = False) -> np.ndarray:
    """Distinct count vectors of one suit (9 ranks) or of the honors (7 tiles,
    pungs only) holding ``k`` sets and, if ``pair``, the pair.  ``(M, 9|7)`` uint8,
    sorted."""
    key = (k, pair, honors)
    t = _TABLES.get(key)
    if t is None:
        n = 7 if honors else 9
        sets = _suit_sets(n)
        pairs: list = [None]
        if pair:
            pairs = []
            for r in range(n):
                v: np.ndarray = np.zeros(n, np.uint8)
                v[r] = 2
                pairs.append(v)
        vecs = []
        for combo in itertools.combinations_with_replacement(range(len(sets)), k):
            base = np.zeros(n, np.int16)
            for i in combo:
                base += sets[i]
            for p in pairs:
                v = base + p if p is not None else base
                if v.max(initial=0) <= 4:
                    vecs.append(v.astype(np.uint8))
        arr = np.array(vecs, np.uint8).reshape(-1, n)
        t = np.unique(arr, axis=0)
        _TABLES[key] = t
    return t


def _assignments():
    """(k per part, index of the part holding the pair): parts m, p, s, honors."""
    out = []
    for ks in itertools.product(range(5), repeat=4):
        if sum(ks) == 4:
            for pair in range(4):
                out.append((ks, pair))
    return out


def _part_tables(ks, pair):
    return [suit_table(ks[i], pair == i, honors=(i == 3)) for i in range(4)]


def _regular_count() -> int:
    return sum(int(np.prod([len(t) for t in _part_tables(ks, p)], dtype=np.int64))
               for ks, p in _assignments())


def _product_chunks(tables, chunk: int) -> Iterator[np.ndarray]:
    """Cartesian product of the part tables as (N, 34) count vectors, chunk by
    chunk: row numbers decoded in mixed radix (last table fastest)."""
    sizes = [len(t) for t in tables]
    total = int(np.prod(sizes, dtype=np.int64))
    cols = [(0, 9), (9, 18), (18, 27), (27, 34)]
    for a in range(0, total, chunk):
        idx = np.arange(a, min(total, a + chunk), dtype=np.int64)
        out = np.empty((len(idx), 34), np.uint8)
        for t, n, (lo, hi) in zip(tables[::-1], sizes[::-1], cols[::-1]):
            out[:, lo:hi] = t[idx % n]
            idx //= n
        yield out


def _regular(chunk: int) -> Iterator[np.ndarray]:
    for ks, pair in _assignments():
        yield from _product_chunks(_part_tables(ks, pair), chunk)


# ---------------------------------------------------------------------------
# the special forms

_HONOR_TILES = np.arange(27, 34)
_TERMINALS_HONORS = np.array([0, 8, 9, 17, 18, 26, *range(27, 34)])


def _knitted_orders() -> List[np.ndarray]:
    """The 9 tiles of a knitted straight, for each of the 6 suit orders."""
    out = []
    for perm in itertools.permutations(range(3)):
        tiles = [9 * suit + r for suit, start in zip(perm, range(3)) for r in range(start, 9, 3)]
        out.append(np.array(sorted(tiles)))
    return out


_COMBOS: Dict[tuple, np.ndarray] = {}


def _combos(m: int, r: int) -> np.ndarray:
    """Every r-subset of range(m), as an (C(m, r), r) int8 array (cached)."""
    key = (m, r)
    c = _COMBOS.get(key)
    if c is None:
        n = comb(m, r)
        c = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(m), r)),
                        dtype=np.int8, count=n * r).reshape(n, r)
        _COMBOS[key] = c
    return c


def _seven_pairs(chunk: int) -> Iterator[np.ndarray]:
    # j tiles held four times (two pairs each), 7 - 2j tiles held twice
    for j in range(4):
        singles = 7 - 2 * j
        for q in itertools.combinations(range(34), j):
            rest = np.array([t for t in range(34) if t not in q], np.int64)
            if j == 0:
                # 5.4 million hands: one group per lowest pair tile
                for a in range(34 - singles + 1):
                    c = _combos(33 - a, singles - 1).astype(np.int64) + (a + 1)
                    h = np.zeros((len(c), 34), np.uint8)
                    h[:, a] = 2
                    h[np.arange(len(c))[:, None], c] = 2
                    yield h
            else:
                c = rest[_combos(34 - j, singles).astype(np.int64)]
                h = np.zeros((len(c), 34), np.uint8)
                h[np.arange(len(c))[:, None], c] = 2
                h[:, list(q)] = 4
                yield h


def _split(a, chunk):
    for s in range(0, len(a), chunk):
        yield a[s:s + chunk]


def _thirteen_orphans(chunk: int) -> Iterator[np.ndarray]:
    h = np.zeros((13, 34), np.uint8)
    h[:, _TERMINALS_HONORS] = 1
    h[np.arange(13), _TERMINALS_HONORS] = 2
    yield h


def _honors_knitted(chunk: int) -> Iterator[np.ndarray]:
    out = []
    for kn in _knitted_orders():
        pool = np.concatenate([kn, _HONOR_TILES])          # 16 tiles, choose 14
        for drop in itertools.combinations(range(16), 2):
            v = np.zeros(34, np.uint8)
            v[pool] = 1
            v[pool[list(drop)]] = 0
            out.append(v)
    yield np.array(out, np.uint8)


def _knitted_straight(chunk: int) -> Iterator[np.ndarray]:
    sets: Any = []          # the rows, then their (55, 34) array
    for t in range(34):
        v = np.zeros(34, np.uint8)
        v[t] = 3
        sets.append(v)
    for suit in range(3):
        for r in range(7):
            v = np.zeros(34, np.uint8)
            v[9 * suit + r: 9 * suit + r + 3] = 1
            sets.append(v)
    sets = np.array(sets, np.int16)                        # (55, 34)
    pairs = 2 * np.eye(34, dtype=np.int16)                 # (34, 34)
    extra = (sets[:, None, :] + pairs[None, :, :]).reshape(-1, 34)
    out = []
    for kn in _knitted_orders():
        base = np.zeros(34, np.int16)
        base[kn] = 1
        h = extra + base
        out.append(h[h.max(1) <= 4])
    yield np.unique(np.concatenate(out), axis=0).astype(np.uint8)


_GENERATORS: Dict[str, Callable[[int], Iterator[np.ndarray]]] = {
    "regular": _regular,
    "seven_pairs": _seven_pairs,
    "thirteen_orphans": _thirteen_orphans,
    "honors_knitted": _honors_knitted,
    "knitted_straight": _knitted_straight,
}


def _check_form(form: str) -> str:
    if form not in _GENERATORS:
        raise ValueError(f"unknown form {form!r}; expected one of {', '.join(FORM_NAMES)}")
    return form


def hands(form: str, chunk: int = 1 << 18) -> Iterator[np.ndarray]:
    """Every distinct fully concealed 14-tile hand that completes in ``form``,
    as ``(N, 34)`` uint8 chunks of at most ``chunk`` rows."""
    gen = _GENERATORS[_check_form(form)](chunk)
    # regroup the pieces (one per spread of the sets over the suits, many small)
    # into chunks of about ``chunk`` rows
    buf, n = [], 0
    for piece in gen:
        buf.append(piece)
        n += len(piece)
        if n >= chunk:
            yield from _split(np.concatenate(buf), chunk) if len(buf) > 1 else _split(buf[0], chunk)
            buf, n = [], 0
    if buf:
        yield np.concatenate(buf)


def count_hands(form: str) -> int:
    """The number of distinct hands of ``form``, computed without listing them
    where a formula exists (regular: a sum of products of the suit tables;
    seven pairs: sum over j of C(34, j) C(34 - j, 7 - 2j))."""
    _check_form(form)
    if form == "regular":
        return _regular_count()
    if form == "seven_pairs":
        return sum(comb(34, j) * comb(34 - j, 7 - 2 * j) for j in range(4))
    if form == "thirteen_orphans":
        return 13
    if form == "honors_knitted":
        return 6 * comb(16, 14)
    return sum(len(h) for h in hands(form))


# ---------------------------------------------------------------------------
# rows and weights


def physical_weights(h: np.ndarray) -> np.ndarray:
    """``prod_i C(4, c_i)``: the physical tile combinations of each hand (int64)."""
    return np.prod(_C4[h], axis=1, dtype=np.int64)


def rows_of(h: np.ndarray):
    """Expand hands into (hand, winning tile) rows: ``(counts, win_tile,
    hand_index)`` with one row per distinct tile of each hand, tiles in
    index order."""
    r, t = np.nonzero(h)
    return h[r], t.astype(np.uint8), r


# ---------------------------------------------------------------------------
# the enumeration


@dataclass
class FormResult:
    form: str
    hands: int = 0                 # distinct count vectors
    physical: int = 0              # sum of prod C(4, c_i)
    rows: int = 0                  # (hand, winning tile) rows scored
    stats: FanStats = field(default_factory=FanStats)
    weighted: FanStats = field(default_factory=lambda: FanStats(weighted=True))

    def merge(self, other: "FormResult") -> "FormResult":
        self.hands += other.hands
        self.physical += other.physical
        self.rows += other.rows
        self.stats.merge(other.stats)
        self.weighted.merge(other.weighted)
        return self


@dataclass
class Enumeration:
    """Per-form results, plus ``union`` (every hand once) when all forms ran."""
    forms: Dict[str, FormResult]
    union: Optional[FormResult]
    seconds: float = 0.0


def _score_rows(h, workers, rules=None):
    counts, win, idx = rows_of(h)
    n = len(counts)
    batch = HandBatch(counts, np.zeros((n, 4, 3), np.uint8), 0, win, 1, 0, 0, 0, validate=False)
    res = score_batch(batch, workers=workers, rules=rules)
    if res.errors.any():
        i = int(np.flatnonzero(res.errors)[0])
        raise RuntimeError(f"an enumerated hand did not score: {counts[i].tolist()} "
                           f"winning tile {int(win[i])}: {res.error_message(i)}")
    return res, win, idx


def _update(fr: FormResult, h, res, win, idx, keep=None):
    """Add the scored rows of hands ``h`` (only the hands where ``keep``)."""
    fc, tot, lg = _on_mcr_columns(res), res.totals, res.legal
    if keep is not None:
        rows = keep[idx]
        idx = (np.cumsum(keep) - 1)[idx[rows]]
        h, win, fc, tot, lg = h[keep], win[rows], fc[rows], tot[rows], lg[rows]
    pw = physical_weights(h)
    # a row stands for the hand's physical tile sets times the copies of the winning tile
    wrow = pw[idx] * h[idx, win].astype(np.int64)
    fr.hands += len(h)
    fr.physical += int(pw.sum())
    fr.rows += len(tot)
    fr.stats.update_arrays(fc, tot, lg)
    fr.weighted.update_arrays(fc, tot, lg, weights=wrow)


def _chunk_result(form, h, union: bool, workers: int = 1, rules=None):
    """One chunk of hands of ``form``, scored: (its FormResult, the part that
    goes into the union - the hands no earlier form completes - or None)."""
    res, win, idx = _score_rows(h, workers, rules)
    part = FormResult(form)
    _update(part, h, res, win, idx)
    if not union:
        return part, None
    keep = np.ones(len(h), bool)
    for e in FORM_NAMES[:FORM_NAMES.index(form)]:
        keep &= shanten_batch(h, form=e, workers=workers) != -1
    if keep.all():
        return part, part
    upart = FormResult("all")
    _update(upart, h, res, win, idx, keep)
    return part, upart


def _chunks_on_dask(forms, chunk, union, scheduler, rules=None):
    """(form, hands in the chunk, results) per chunk, in order, the scoring done
    by Dask workers; at most a few chunks in flight per worker, so memory stays
    bounded while the hands are generated here."""
    from .dask import client_for   # optional: needs dask
    with client_for(scheduler) as client:
        ahead = 2 * max(1, len(client.scheduler_info().get("workers", {})))
        pending = deque()
        for form in forms:
            for h in hands(form, chunk):
                pending.append((form, len(h), client.submit(_chunk_result, form, h, union, rules=rules,
                                                            pure=False)))
                while len(pending) > ahead:
                    f, n, fut = pending.popleft()
                    yield f, n, fut.result()
        while pending:
            f, n, fut = pending.popleft()
            yield f, n, fut.result()


def _enumerable_rules(rules):
    """``rules`` checked for the walk: None (plain MCR) or a rule set that
    plays every hand the walk produces and counts MCR's fans."""
    if rules is None:
        return None
    rs = get(rules)
    if not rs.impl.mcr_fans or len(rs.tiles) != 34 or not set(rs.forms) >= set(FORMS) or rs.hand_size != 13:
        raise ValueError(f"the enumeration walks MCR's tiles and winning forms and counts MCR's fans; "
                         f"rule set {rs.name!r} differs (its own tiles, forms or fan table)")
    return rs


def enumerate_stats(forms: Sequence[str] = FORM_NAMES, *, workers: int = 1, chunk: int = 1 << 17,
                    progress: Optional[Callable[[str, int], None]] = None,
                    scheduler: Optional[str] = None, rules=None) -> Enumeration:
    """Score every hand of each form in ``forms`` (see the module docstring).

    When ``forms`` covers all five forms, ``union`` counts every hand once.
    ``progress(form, hands_done)`` is called after each chunk.  ``scheduler``
    (a Dask scheduler address, or "local"): the chunks are scored by its
    workers (the same result; ``workers`` is then each task's threads).
    ``rules``: a rule set scored with the MCR fan table over all 34 tiles
    and every MCR form (``mcr`` with its options, ``dazhong``); another
    raises ``ValueError``.
    """
    forms = [_check_form(f) for f in forms]
    rules = _enumerable_rules(rules)
    all_forms = set(forms) == set(FORM_NAMES)
    t0 = time.perf_counter()
    order = [f for f in FORM_NAMES if f in forms]
    out = {f: FormResult(f) for f in order}
    union = FormResult("all") if all_forms else None
    if scheduler:
        chunks = _chunks_on_dask(order, chunk, all_forms, scheduler, rules)
    else:
        chunks = ((f, len(h), _chunk_result(f, h, all_forms, workers, rules))
                  for f in order for h in hands(f, chunk))
    done = dict.fromkeys(order, 0)
    for form, n, (part, upart) in chunks:
        out[form].merge(part)
        if upart is not None:
            assert union is not None    # a union part comes with all_forms
            union.merge(upart)
        done[form] += n
        if progress is not None:
            progress(form, done[form])
    return Enumeration(out, union, time.perf_counter() - t0)
