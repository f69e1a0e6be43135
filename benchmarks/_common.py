"""Shared workloads of the benchmarks: the same seeded hands, prepared once for
mjfast, for the reference calculator PyMahjongGB (``MahjongGB``) and, where it
does the same job, for the riichi ``mahjong`` package.

Used by ``benchmarks/test_bench_*.py`` (pytest-benchmark) and
``benchmarks/run_table.py`` (plain script).  Every input conversion (strings,
tile-code tuples, 34-lists) happens here, *outside* any timed region; the timed
functions ``run_*`` take a slice ``[a, b)`` of one workload so that every
implementation processes exactly the same hands in the same order.

What each reference does (stated in the README and the table):

* is_win   - PyMahjongGB has no win check of its own: ``MahjongFanCalculator``
  called on the 13 other tiles + the highest tile as winning tile (melds, if
  the concealed part is 14-3k tiles, become dummy pungs of absent tiles),
  ``TypeError('ERROR_NOT_WIN')`` = not a win.  This is how the test oracle
  checks wins and the cheapest route its API offers (the per-form shanten
  functions cost more).  For a winning hand it also computes the fans, so on
  winning hands it does more work than a pure win check.
  riichi: ``Agari.is_agari(tiles_34)`` (regular + seven pairs + thirteen
  orphans; no knitted forms -> answers differ on those, speed only).
* shanten  - ``MahjongShanten(packs, hand)`` (all five MCR forms) per hand;
  riichi: ``Shanten.calculate_shanten(tiles_34)`` (3 forms, speed only).
* waits    - PyMahjongGB brute force: ``MahjongFanCalculator`` on each of the
  34 candidate tiles (tiles already held 4 times skipped); a "gated" variant
  first calls ``MahjongShanten`` and probes only ready hands.  riichi: the same
  brute force with ``Agari.is_agari``.
* score    - ``MahjongFanCalculator(*args)`` with the argument tuple pre-built
  (by ``tests/oracle.record_to_reference_args``), non-verbose.
"""
from __future__ import annotations

import json
import os
import sys
from typing import List, Optional

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (ROOT, os.path.join(ROOT, "tests")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import mjfast  # noqa: E402
import handgen  # noqa: E402  (tests/handgen.py)
import oracle  # noqa: E402  (tests/oracle.py)
import MahjongGB as _gb  # noqa: E402

try:  # optional: the riichi-rules package `mahjong` (speed comparison only)
    from mahjong.agari import Agari as _Agari
    from mahjong.shanten import Shanten as _Shanten
    HAVE_RIICHI = True
except ImportError:  # pragma: no cover
    _Agari = _Shanten = None
    HAVE_RIICHI = False

# Fixed seeds: every run benchmarks the same hands.
SEED_RAND14 = 20240101
SEED_RAND13 = 20240102
SEED_RECORDS = 20240103

TILE_CODES = oracle.TILE_CODES
_REPEATS = tuple(tuple((code,) * n for n in range(5)) for code in TILE_CODES)

MFC = _gb.MahjongFanCalculator
MSH = _gb.MahjongShanten


# ---------------------------------------------------------------------------
# conversions (outside the timed regions)
# ---------------------------------------------------------------------------

def gb_tiles(counts) -> tuple:
    out: tuple = ()
    for i, n in enumerate(counts):
        if n:
            out += _REPEATS[i][n]
    return out


def gb_dummy_packs(counts, k: int) -> tuple:
    """k melded pungs of tiles absent from counts (so no count passes 4)."""
    packs = []
    for i in range(33, -1, -1):
        if len(packs) == k:
            break
        if counts[i] == 0:
            packs.append(("PENG", TILE_CODES[i], 1))
    return tuple(packs)


def gb_win_args(counts) -> tuple:
    """(packs, hand13, win_code) for a 14-3k concealed set: the highest tile is the winning tile."""
    c = list(counts)
    k = (14 - sum(c)) // 3
    w = max(i for i in range(34) if c[i])
    c[w] -= 1
    hand = gb_tiles(c)
    c[w] += 1
    return gb_dummy_packs(c, k), hand, TILE_CODES[w]


def gb_ready_args(counts) -> tuple:
    """(packs, hand, probe codes) for a 13-3k concealed set; probes skip tiles held 4 times."""
    c = list(counts)
    k = (13 - sum(c)) // 3
    probes = tuple((t, TILE_CODES[t]) for t in range(34) if c[t] < 4)
    return gb_dummy_packs(c, k), gb_tiles(c), probes


def score_kwargs(rec: dict) -> tuple:
    """mjfast.score(hand, **kwargs) arguments of a record."""
    return rec["hand"], dict(
        self_drawn=rec.get("self_drawn", False), fourth_tile=rec.get("fourth_tile", False),
        kong=rec.get("kong", False), last_tile=rec.get("last_tile", False),
        seat_wind=rec.get("seat_wind", "E"), round_wind=rec.get("round_wind", "E"),
        flowers=rec.get("flowers", 0))


def sub_batch(b: "mjfast.HandBatch", a: int, e: int) -> "mjfast.HandBatch":
    """Rows [a, e) of a HandBatch as a new HandBatch (views, no re-validation)."""
    msgs = {i - a: m for i, m in b.messages.items() if a <= i < e}
    return mjfast.HandBatch(b.counts[a:e], b.melds[a:e], b.n_melds[a:e], b.win_tile[a:e], b.flags[a:e],
                            b.seat[a:e], b.round[a:e], b.flowers[a:e], ids=None,
                            invalid=b.invalid[a:e], messages=msgs, validate=False)


def tile_batch(b: "mjfast.HandBatch", n: int) -> "mjfast.HandBatch":
    """A HandBatch of n rows made by repeating b's rows (mjfast has no cache,
    so repeated hands cost the same as fresh ones)."""
    reps = -(-n // len(b))

    def rep(x):
        return np.ascontiguousarray(np.concatenate([x] * reps)[:n])

    return mjfast.HandBatch(rep(b.counts), rep(b.melds), rep(b.n_melds), rep(b.win_tile), rep(b.flags),
                            rep(b.seat), rep(b.round), rep(b.flowers), ids=None,
                            invalid=rep(b.invalid), messages={}, validate=False)


# ---------------------------------------------------------------------------
# workloads
# ---------------------------------------------------------------------------

class HandSet:
    """n concealed tile sets (n, 34) uint8 + every reference's view of them."""

    def __init__(self, name: str, H: np.ndarray, size13: bool, n_ref: Optional[int] = None):
        self.name = name
        self.H = np.ascontiguousarray(H, dtype=np.uint8)
        self.n = len(self.H)
        n_ref = self.n if n_ref is None else min(n_ref, self.n)
        self.n_ref = n_ref
        rows = self.H[:n_ref].tolist()
        self.lists = rows                               # riichi: 34-count lists
        if size13:
            self.gb = [gb_ready_args(r) for r in rows]  # (packs, hand, probes)
            self.strings = [mjfast.counts_to_str(r) for r in rows]
        else:
            self.gb = [gb_win_args(r) for r in rows]    # (packs, hand, win)
            self.strings = None


def random_set(size: int, n: int, n_ref: Optional[int] = None) -> HandSet:
    seed = SEED_RAND14 if size == 14 else SEED_RAND13
    return HandSet(f"random {size}", handgen.random_hands(n, size, seed=seed), size13=(size == 13), n_ref=n_ref)


def records(n: int, seed: int = SEED_RECORDS) -> List[dict]:
    return handgen.random_winning_records(n, seed=seed)


def winning_set(b: "mjfast.HandBatch", n_ref: Optional[int] = None) -> HandSet:
    """Concealed tiles (14-3k, winning tile included) of a batch of winning records."""
    assert not b.invalid.any()
    return HandSet("winning 14-3k", b.counts, size13=False, n_ref=n_ref)


def ready_set(b: "mjfast.HandBatch", n_ref: Optional[int] = None) -> HandSet:
    """Ready hands: the concealed tiles of winning records minus the winning tile (13-3k)."""
    H = b.counts.copy()
    H[np.arange(len(H)), b.win_tile] -= 1
    return HandSet("ready 13-3k", H, size13=True, n_ref=n_ref)


class ScoreSet:
    """Winning records + a pre-built HandBatch + the reference's argument tuples."""

    def __init__(self, recs: List[dict], n_ref: Optional[int] = None, batch=None):
        self.recs = recs
        self.n = len(recs)
        self.n_ref = self.n if n_ref is None else min(n_ref, self.n)
        self.batch = mjfast.HandBatch.from_records(recs) if batch is None else batch
        assert not self.batch.invalid.any()
        self.gb = [oracle.record_to_reference_args(r) for r in recs[: self.n_ref]]
        self.mj = [score_kwargs(r) for r in recs[: self.n_ref]]


# ---------------------------------------------------------------------------
# timed operations: each processes items [a, b) and returns its answers
# ---------------------------------------------------------------------------

def mj_is_win(hs: HandSet, a: int, b: int, workers: int = 1):
    return mjfast.is_win_batch(hs.H[a:b], workers=workers)


def gb_is_win(hs: HandSet, a: int, b: int):
    out = []
    for packs, hand, win in hs.gb[a:b]:
        try:
            MFC(packs, hand, win, 0, False, False, False, False, 0, 0)
            out.append(True)
        except TypeError as e:
            if str(e) != "ERROR_NOT_WIN":
                raise
            out.append(False)
    return out


def riichi_is_win(hs: HandSet, a: int, b: int):
    f = _Agari.is_agari
    return [f(x) for x in hs.lists[a:b]]


def mj_shanten(hs: HandSet, a: int, b: int, workers: int = 1):
    return mjfast.shanten_batch(hs.H[a:b], workers=workers)


def gb_shanten(hs: HandSet, a: int, b: int):
    return [MSH(packs, hand) for packs, hand, _ in hs.gb[a:b]]


def riichi_shanten(hs: HandSet, a: int, b: int):
    f = _Shanten.calculate_shanten
    return [f(x) for x in hs.lists[a:b]]


def mj_waits(hs: HandSet, a: int, b: int, workers: int = 1):
    return mjfast.waits_batch(hs.H[a:b], workers=workers)


def gb_waits(hs: HandSet, a: int, b: int, gated: bool = False):
    out = []
    for packs, hand, probes in hs.gb[a:b]:
        w = []
        if not gated or MSH(packs, hand) == 0:
            for t, code in probes:
                try:
                    MFC(packs, hand, code, 0, False, False, False, False, 0, 0)
                    w.append(t)
                except TypeError as e:
                    if str(e) != "ERROR_NOT_WIN":
                        raise
        out.append(w)
    return out


def riichi_waits(hs: HandSet, a: int, b: int):
    f = _Agari.is_agari
    out = []
    for c in hs.lists[a:b]:
        c = list(c)
        w = []
        for t in range(34):
            if c[t] < 4:
                c[t] += 1
                if f(c):
                    w.append(t)
                c[t] -= 1
        out.append(w)
    return out


def mj_shanten_str(hs: HandSet, a: int, b: int):
    f = mjfast.shanten
    return [f(s) for s in hs.strings[a:b]]


def mj_shanten_counts(hs: HandSet, a: int, b: int):
    f = mjfast.shanten
    H = hs.H
    return [f(H[i]) for i in range(a, b)]


def mj_score_single(ss: ScoreSet, a: int, b: int):
    f = mjfast.score
    return [f(h, **kw).total for h, kw in ss.mj[a:b]]


def gb_score_single(ss: ScoreSet, a: int, b: int):
    return [MFC(*args) for args in ss.gb[a:b]]


def mj_score_batch(ss: ScoreSet, a: int, b: int, workers: int = 1):
    return mjfast.score_batch(sub_batch(ss.batch, a, b), workers=workers)


def mj_score_records(ss: ScoreSet, a: int, b: int, workers: int = 1):
    return mjfast.score_batch(mjfast.HandBatch.from_records(ss.recs[a:b]), workers=workers)


def gb_score_records(ss: ScoreSet, a: int, b: int):
    r2a = oracle.record_to_reference_args
    return [MFC(*r2a(r)) for r in ss.recs[a:b]]


def gb_total(res) -> int:
    """Total points of a non-verbose MahjongFanCalculator answer."""
    return sum(p for p, _ in res)


def write_jsonl(path: str, recs: List[dict], repeat: int = 1) -> int:
    """Write recs (repeated `repeat` times) as JSONL; returns the line count."""
    block = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs)
    with open(path, "w") as f:
        for _ in range(repeat):
            f.write(block)
    return len(recs) * repeat


def mj_score_jsonl(path: str, chunk_size: int = 65536, workers: int = 1) -> int:
    n = 0
    for batch in mjfast.HandBatch.from_jsonl(path, chunk_size=chunk_size):
        res = mjfast.score_batch(batch, workers=workers)
        n += len(res)
    return n


def gb_score_jsonl(path: str, limit: Optional[int] = None) -> int:
    try:
        import orjson
        loads = orjson.loads
    except ImportError:  # pragma: no cover
        loads = json.loads
    r2a = oracle.record_to_reference_args
    n = 0
    with open(path, "rb") as f:
        for line in f:
            MFC(*r2a(loads(line)))
            n += 1
            if limit is not None and n >= limit:
                break
    return n
