"""pytest-benchmark setup: seeded data sets shared by every benchmark of a run,
a runner that feeds each round *new* hands, and a hands/s summary.

Run (from the repo root):

    PYTHONPATH=. python -m pytest benchmarks -p no:cacheprovider -o addopts="" --benchmark-only

Every benchmark of one group processes the same hands (same seed, same order:
round r gets hands [r*B, (r+1)*B) of the group's pool), so the rows of a group
are directly comparable; no round sees a hand that an earlier round saw.
"""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402

# ---------------------------------------------------------------------------
# sizes (keep the whole run under ~3 minutes on 2 busy cores)
# ---------------------------------------------------------------------------

ROUNDS_MJ = 40        # rounds of an mjfast benchmark
ROUNDS_REF = 15       # rounds of a (much slower) reference benchmark
WARMUP = 1
B_CORE = 2000         # hands per round: is_win / shanten groups
B_WAITS = 500         # hands per round: waits groups
B_SINGLE = 1000       # calls per round: single-call groups
B_SCORE = 5000        # hands per round: score_batch group
B_RECORDS = 2000      # records per round: from-records group
B_LARGE = 100_000     # hands per round: mjfast-only large-batch groups
ROUNDS_LARGE = 5
N_RECORDS = 210_000   # winning records generated

N_RAND = max(B_LARGE * (ROUNDS_LARGE + WARMUP), B_CORE * (ROUNDS_MJ + WARMUP))
N_REF = B_CORE * (ROUNDS_REF + WARMUP)


# ---------------------------------------------------------------------------
# data sets (session scope: built once, before any timing)
# ---------------------------------------------------------------------------

@pytest.fixture(scope="session")
def rand14():
    return C.random_set(14, N_RAND, n_ref=N_REF)


@pytest.fixture(scope="session")
def rand13():
    return C.random_set(13, N_RAND, n_ref=max(N_REF, B_SINGLE * (ROUNDS_MJ + WARMUP)))


@pytest.fixture(scope="session")
def score_set():
    recs = C.records(N_RECORDS)
    return C.ScoreSet(recs, n_ref=max(B_SCORE * (ROUNDS_REF + WARMUP), B_SINGLE * (ROUNDS_MJ + WARMUP)))


@pytest.fixture(scope="session")
def win_set(score_set):
    return C.winning_set(score_set.batch, n_ref=N_REF)


@pytest.fixture(scope="session")
def ready13(score_set):
    return C.ready_set(score_set.batch, n_ref=N_REF)


# ---------------------------------------------------------------------------
# runner
# ---------------------------------------------------------------------------

class Runner:
    """run(fn, data, per_round, impl, ...): time fn(data, a, b, **kw) on
    successive disjoint slices [a, b) of `limit` items (wrapping around only if
    the pool is too small, which extra_info records)."""

    def __init__(self, benchmark):
        self.benchmark = benchmark

    def __call__(self, fn, data, per_round, impl, *, limit=None, rounds=None, **kw):
        if rounds is None:
            rounds = ROUNDS_MJ if impl == "mjfast" else ROUNDS_REF
        if limit is None:
            limit = data.n if impl == "mjfast" else data.n_ref
        pos = [0]
        wrapped = [False]

        def setup():
            a = pos[0]
            if a + per_round > limit:
                a = 0
                wrapped[0] = True
            pos[0] = a + per_round
            return (data, a, a + per_round), kw

        bm = self.benchmark
        bm.extra_info["impl"] = impl
        bm.extra_info["hands"] = per_round
        bm.extra_info["workers"] = kw.get("workers", 1)
        bm.pedantic(fn, setup=setup, rounds=rounds, warmup_rounds=WARMUP, iterations=1)
        bm.extra_info["reused_hands"] = wrapped[0]


@pytest.fixture
def run(benchmark):
    return Runner(benchmark)


@pytest.fixture
def skip_no_riichi():
    if not C.HAVE_RIICHI:
        pytest.skip("the riichi `mahjong` package is not installed (pip install mahjong)")


# ---------------------------------------------------------------------------
# hands/s summary after pytest-benchmark's own tables
# ---------------------------------------------------------------------------

@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    bs = getattr(config, "_benchmarksession", None)
    benches = [b for b in getattr(bs, "benchmarks", []) or [] if b and "hands" in b.extra_info]
    if not benches:
        return
    tr = terminalreporter
    tr.write_sep("=", "hands per second (median round; ratio = mjfast workers=1 / this)")
    groups = {}
    for b in benches:
        groups.setdefault(b.group or "", []).append(b)
    for g in sorted(groups):
        rows = groups[g]
        mj = [r for r in rows if r.extra_info.get("impl") == "mjfast" and r.extra_info.get("workers", 1) == 1]
        base = max((r.extra_info["hands"] / r.stats.median for r in mj), default=None)
        tr.write_line(f"[{g}]")
        for r in sorted(rows, key=lambda r: r.stats.median / r.extra_info["hands"]):
            hps = r.extra_info["hands"] / r.stats.median
            ratio = f"{base / hps:8.1f}x" if base and r.extra_info.get("impl") != "mjfast" else "         "
            note = "  (hands reused)" if r.extra_info.get("reused_hands") else ""
            tr.write_line(f"  {r.name:52s} {r.extra_info['impl']:12s} {hps:14,.0f} hands/s {ratio}{note}")
