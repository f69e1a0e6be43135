"""Scoring: mjfast vs PyMahjongGB's MahjongFanCalculator on the same winning records
(tests/handgen.random_winning_records, fixed seed).

Groups:
  score single call    mjfast.score("[567m2]...", flags) (string parsed in the call)
                       vs MahjongFanCalculator(*pre-built tuples)
  score_batch          mjfast.score_batch(pre-built HandBatch, workers=1/2)
                       vs a Python loop of MahjongFanCalculator(*pre-built tuples)
  score from records   HandBatch.from_records + score_batch (parsing included)
                       vs record_to_reference_args + MahjongFanCalculator
  score jsonl          a 20,000-line JSONL file read end to end: HandBatch.from_jsonl
                       + score_batch vs line -> json -> args -> MahjongFanCalculator
  score_batch large    mjfast only, 100k hands a round, workers=1/2
"""
import os
import tempfile

import pytest

import _common as C
from conftest import B_SINGLE, B_SCORE, B_RECORDS, B_LARGE, ROUNDS_LARGE, WARMUP

N_JSONL = 20_000


@pytest.mark.benchmark(group="score single call (1000 calls/round)")
def test_score_single_mjfast(run, score_set):
    run(C.mj_score_single, score_set, B_SINGLE, "mjfast", limit=score_set.n_ref)


@pytest.mark.benchmark(group="score single call (1000 calls/round)")
def test_score_single_pymahjonggb(run, score_set):
    run(C.gb_score_single, score_set, B_SINGLE, "PyMahjongGB")


@pytest.mark.benchmark(group="score_batch pre-built (5000 hands/round)")
@pytest.mark.parametrize("workers", [1, 2])
def test_score_batch_mjfast(run, score_set, workers):
    run(C.mj_score_batch, score_set, B_SCORE, "mjfast", workers=workers)


@pytest.mark.benchmark(group="score_batch pre-built (5000 hands/round)")
def test_score_batch_pymahjonggb(run, score_set):
    run(C.gb_score_single, score_set, B_SCORE, "PyMahjongGB")


@pytest.mark.benchmark(group="score from records (2000 records/round)")
def test_score_records_mjfast(run, score_set):
    run(C.mj_score_records, score_set, B_RECORDS, "mjfast")


@pytest.mark.benchmark(group="score from records (2000 records/round)")
def test_score_records_pymahjonggb(run, score_set):
    run(C.gb_score_records, score_set, B_RECORDS, "PyMahjongGB")


@pytest.fixture(scope="module")
def jsonl_file(score_set):
    fd, path = tempfile.mkstemp(prefix="mjfast_bench_", suffix=".jsonl")
    os.close(fd)
    C.write_jsonl(path, score_set.recs[:N_JSONL])
    yield path
    os.unlink(path)


def _jsonl(benchmark, fn, path, impl, rounds, **kw):
    benchmark.extra_info["impl"] = impl
    benchmark.extra_info["hands"] = N_JSONL
    benchmark.extra_info["workers"] = kw.get("workers", 1)
    n = benchmark.pedantic(fn, args=(path,), kwargs=kw, rounds=rounds, warmup_rounds=WARMUP, iterations=1)
    assert n == N_JSONL


@pytest.mark.benchmark(group="score jsonl end-to-end (20000 lines/round, same file)")
def test_score_jsonl_mjfast(benchmark, jsonl_file):
    _jsonl(benchmark, C.mj_score_jsonl, jsonl_file, "mjfast", 5, chunk_size=8192)


@pytest.mark.benchmark(group="score jsonl end-to-end (20000 lines/round, same file)")
def test_score_jsonl_pymahjonggb(benchmark, jsonl_file):
    _jsonl(benchmark, C.gb_score_jsonl, jsonl_file, "PyMahjongGB", 3)


@pytest.fixture(scope="module")
def big_score_set(score_set):
    """600k rows made by repeating the records' batch (no cache in mjfast:
    a repeated hand costs what a new one does)."""
    b = C.tile_batch(score_set.batch, B_LARGE * (ROUNDS_LARGE + WARMUP))
    ss = C.ScoreSet.__new__(C.ScoreSet)
    ss.recs, ss.batch, ss.n, ss.n_ref, ss.gb, ss.mj = None, b, len(b), 0, [], []
    return ss


@pytest.mark.benchmark(group="score_batch large (100k hands/round)")
@pytest.mark.parametrize("workers", [1, 2])
def test_large_score_batch(run, big_score_set, workers):
    run(C.mj_score_batch, big_score_set, B_LARGE, "mjfast", rounds=ROUNDS_LARGE, workers=workers)
