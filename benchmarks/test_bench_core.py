"""Win check, shanten and waits: mjfast vs PyMahjongGB (vs riichi `mahjong`).

Groups (every row of a group runs on the same hands; see conftest.py):
  is_win random14 / is_win winning / shanten random13 / waits random13 /
  waits ready / shanten single call / *-large (mjfast only, 100k hands a round).
What each reference does is described in benchmarks/_common.py and README.md.
The riichi package follows riichi rules (no knitted forms): speed only.
"""
import pytest

import _common as C
from conftest import B_CORE, B_WAITS, B_SINGLE, B_LARGE, ROUNDS_LARGE


# --------------------------------------------------------------------------- is_win

@pytest.mark.benchmark(group="is_win random14 (2000 hands/round)")
@pytest.mark.parametrize("workers", [1, 2])
def test_is_win_random_mjfast(run, rand14, workers):
    run(C.mj_is_win, rand14, B_CORE, "mjfast", workers=workers)


@pytest.mark.benchmark(group="is_win random14 (2000 hands/round)")
def test_is_win_random_pymahjonggb(run, rand14):
    run(C.gb_is_win, rand14, B_CORE, "PyMahjongGB")


@pytest.mark.benchmark(group="is_win random14 (2000 hands/round)")
def test_is_win_random_riichi(run, rand14, skip_no_riichi):
    run(C.riichi_is_win, rand14, B_CORE, "riichi")


@pytest.mark.benchmark(group="is_win winning (2000 hands/round)")
def test_is_win_winning_mjfast(run, win_set):
    run(C.mj_is_win, win_set, B_CORE, "mjfast")


@pytest.mark.benchmark(group="is_win winning (2000 hands/round)")
def test_is_win_winning_pymahjonggb(run, win_set):
    run(C.gb_is_win, win_set, B_CORE, "PyMahjongGB")


@pytest.mark.benchmark(group="is_win winning (2000 hands/round)")
def test_is_win_winning_riichi(run, win_set, skip_no_riichi):
    run(C.riichi_is_win, win_set, B_CORE, "riichi")


# --------------------------------------------------------------------------- shanten

@pytest.mark.benchmark(group="shanten random13 (2000 hands/round)")
@pytest.mark.parametrize("workers", [1, 2])
def test_shanten_mjfast(run, rand13, workers):
    run(C.mj_shanten, rand13, B_CORE, "mjfast", workers=workers)


@pytest.mark.benchmark(group="shanten random13 (2000 hands/round)")
def test_shanten_pymahjonggb(run, rand13):
    run(C.gb_shanten, rand13, B_CORE, "PyMahjongGB")


@pytest.mark.benchmark(group="shanten random13 (2000 hands/round)")
def test_shanten_riichi(run, rand13, skip_no_riichi):
    run(C.riichi_shanten, rand13, B_CORE, "riichi")


# --------------------------------------------------------------------------- waits

@pytest.mark.benchmark(group="waits random13 (500 hands/round)")
def test_waits_random_mjfast(run, rand13):
    run(C.mj_waits, rand13, B_WAITS, "mjfast")


@pytest.mark.benchmark(group="waits random13 (500 hands/round)")
def test_waits_random_pymahjonggb_bruteforce(run, rand13):
    run(C.gb_waits, rand13, B_WAITS, "PyMahjongGB")


@pytest.mark.benchmark(group="waits random13 (500 hands/round)")
def test_waits_random_pymahjonggb_gated(run, rand13):
    run(C.gb_waits, rand13, B_WAITS, "PyMahjongGB", gated=True)


@pytest.mark.benchmark(group="waits random13 (500 hands/round)")
def test_waits_random_riichi_bruteforce(run, rand13, skip_no_riichi):
    run(C.riichi_waits, rand13, B_WAITS, "riichi")


@pytest.mark.benchmark(group="waits ready (500 hands/round)")
def test_waits_ready_mjfast(run, ready13):
    run(C.mj_waits, ready13, B_WAITS, "mjfast")


@pytest.mark.benchmark(group="waits ready (500 hands/round)")
def test_waits_ready_pymahjonggb_bruteforce(run, ready13):
    run(C.gb_waits, ready13, B_WAITS, "PyMahjongGB")


@pytest.mark.benchmark(group="waits ready (500 hands/round)")
def test_waits_ready_riichi_bruteforce(run, ready13, skip_no_riichi):
    run(C.riichi_waits, ready13, B_WAITS, "riichi")


# --------------------------------------------------------------------------- single calls

@pytest.mark.benchmark(group="shanten single call (1000 calls/round)")
def test_shanten_single_mjfast_str(run, rand13):
    # string parsing included: mjfast.shanten("2m48p3445679sEWP")
    run(C.mj_shanten_str, rand13, B_SINGLE, "mjfast", limit=rand13.n_ref)


@pytest.mark.benchmark(group="shanten single call (1000 calls/round)")
def test_shanten_single_mjfast_counts(run, rand13):
    # a (34,) uint8 row of a numpy array
    run(C.mj_shanten_counts, rand13, B_SINGLE, "mjfast", limit=rand13.n_ref)


@pytest.mark.benchmark(group="shanten single call (1000 calls/round)")
def test_shanten_single_pymahjonggb(run, rand13):
    # pre-built tuple of tile codes
    run(C.gb_shanten, rand13, B_SINGLE, "PyMahjongGB")


@pytest.mark.benchmark(group="shanten single call (1000 calls/round)")
def test_shanten_single_riichi(run, rand13, skip_no_riichi):
    run(C.riichi_shanten, rand13, B_SINGLE, "riichi")


# --------------------------------------------------------------------------- large batches (mjfast only)

@pytest.mark.benchmark(group="batch large: is_win random14 (100k hands/round)")
@pytest.mark.parametrize("workers", [1, 2])
def test_large_is_win(run, rand14, workers):
    run(C.mj_is_win, rand14, B_LARGE, "mjfast", rounds=ROUNDS_LARGE, workers=workers)


@pytest.mark.benchmark(group="batch large: shanten random13 (100k hands/round)")
@pytest.mark.parametrize("workers", [1, 2])
def test_large_shanten(run, rand13, workers):
    run(C.mj_shanten, rand13, B_LARGE, "mjfast", rounds=ROUNDS_LARGE, workers=workers)


@pytest.mark.benchmark(group="batch large: waits random13 (100k hands/round)")
@pytest.mark.parametrize("workers", [1, 2])
def test_large_waits(run, rand13, workers):
    run(C.mj_waits, rand13, B_LARGE, "mjfast", rounds=ROUNDS_LARGE, workers=workers)
