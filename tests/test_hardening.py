"""The compiled core at its edges: no argument, thread or array change crashes it.

Anything that could kill the interpreter runs in a fresh subprocess, so a crash
fails the test (with the child's exit status) instead of killing pytest.

* ``workers``: one validator for every batch function; huge counts are clamped;
* first calls from many threads at once (the lookup tables are built lazily);
* the fan table is loaded once;
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mjfast
from mjfast import InvalidHand, _core, _decide, _fans, _tables
from mjfast.core import resolve_workers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_child(code: str, timeout: float = 300) -> str:
    """Run `code` in a fresh interpreter importing this checkout's mjfast; fail
    the test on any non-zero exit (a segfault shows as -11) and return stdout."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, (
        f"child exited with {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}")
    return proc.stdout


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        return os.cpu_count() or 1


# ---------------------------------------------------------------------------
# workers
# ---------------------------------------------------------------------------

def test_resolve_workers_values(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    cores = _cores()
    assert resolve_workers(1) == 1
    assert resolve_workers(np.int64(1)) == 1
    assert resolve_workers(np.uint8(1)) == 1
    assert resolve_workers(-1) == cores
    assert resolve_workers(np.int32(-1)) == cores
    for huge in (cores + 1, 100000, 10**6, 2**31, 2**63, 10**20, np.uint64(2**64 - 1), np.int64(2**62)):
        assert resolve_workers(huge) == cores
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert resolve_workers(-1) == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "100000")
    assert resolve_workers(-1) == cores


@pytest.mark.parametrize("bad", [0, -2, -100, -(2**63), -(10**20), np.int64(0), np.int8(-5)])
def test_resolve_workers_rejects_values(bad):
    with pytest.raises(ValueError, match=r"workers must be -1 \(all cores\) or a count >= 1"):
        resolve_workers(bad)


@pytest.mark.parametrize("bad", [True, False, np.bool_(True), 1.0, 2.5, "2", None, [2], np.array([2]), 1j])
def test_resolve_workers_rejects_types(bad):
    with pytest.raises(TypeError, match="workers must be an int"):
        resolve_workers(bad)


@pytest.mark.parametrize("fn", ["is_win_batch", "shanten_batch", "waits_batch", "score_batch"])
def test_every_batch_function_checks_workers(fn):
    H = np.zeros((2, 34), np.uint8)
    arg = ["123m456m789m123p5p5p"] if fn == "score_batch" else H
    with pytest.raises(ValueError, match="workers"):
        getattr(mjfast, fn)(arg, workers=0)
    with pytest.raises(TypeError, match="workers"):
        getattr(mjfast, fn)(arg, workers=True)
    with pytest.raises(TypeError, match="workers"):
        getattr(mjfast, fn)(arg, workers=2.0)


def test_compiled_kernels_refuse_and_clamp_thread_counts():
    H = np.zeros((3, 34), np.uint8)
    H[:, 0] = 3
    H[:, 9] = 3
    H[:, 18] = 3
    H[:, 27] = 3
    H[:, 33] = 1
    m = np.zeros(3, np.uint8)
    err = np.zeros(3, np.uint8)
    for bad in (0, -1, -(2**31)):
        with pytest.raises(ValueError, match="nthreads"):
            _core.shanten_batch(H, m, err, np.zeros(3, np.int8), -1, bad)


def test_huge_worker_counts_do_not_crash():
    # workers=100000 used to segfault, 40000 to end in "libgomp: Thread creation failed"
    out = run_child("""
        import numpy as np, mjfast
        H14 = np.zeros((50, 34), np.uint8); H14[:, 0] = 3; H14[:, 9] = 3; H14[:, 18] = 3; H14[:, 27] = 3; H14[:, 33] = 2
        H13 = H14.copy(); H13[:, 33] = 1
        hands = ["123m456m789m123p5p5p"] * 50
        want = (mjfast.is_win_batch(H14), mjfast.shanten_batch(H13), mjfast.waits_batch(H13),
                mjfast.score_batch(hands).totals)
        for w in (100000, 10**6, 2**63, 10**20, np.int64(2**62)):
            got = (mjfast.is_win_batch(H14, workers=w), mjfast.shanten_batch(H13, workers=w),
                   mjfast.waits_batch(H13, workers=w), mjfast.score_batch(hands, workers=w).totals)
            for a, b in zip(want, got):
                assert (a == b).all(), (w, a, b)
        print("ok", want[3][0])
    """)
    assert out.split() == ["ok", "23"]


# ---------------------------------------------------------------------------
# threads: first calls at once; the fan table
# ---------------------------------------------------------------------------

_FIRST_CALLS = """
    import threading, numpy as np
    import mjfast
    from mjfast import _core, _decide, _fans, _tables
    H14 = np.zeros((2000, 34), np.uint8); H14[:, 0] = 3; H14[:, 9] = 3; H14[:, 18] = 3; H14[:, 27] = 3; H14[:, 33] = 2
    H13 = H14.copy(); H13[:, 33] = 1
    n = 16
    barrier = threading.Barrier(n)
    results, errors = [None] * n, []

    def work(k):
        try:
            barrier.wait()
            # the very first compiled call of the process, from n threads at once
            if k % 4 == 0:
                r = bool(mjfast.is_win_batch(H14).all())
            elif k % 4 == 1:
                r = bool((mjfast.shanten_batch(H13) == 0).all())
            elif k % 4 == 2:
                r = mjfast.score("123m456m789m123p5p5p").total == 23
            else:
                r = mjfast.waits("1112345678999m") == list(range(9))
            results[k] = r
        except Exception as exc:  # reported, then the test fails
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert all(results), results
    assert _tables.build_tables() == 0.0     # built exactly once, already
    print("ok")
"""


@pytest.mark.parametrize("run", range(6))
def test_first_calls_from_many_threads(run):
    # two threads making their first call at once segfaulted in 4 runs of 10
    assert run_child(_FIRST_CALLS).strip() == "ok"


def test_fan_table_is_loaded_once():
    with pytest.raises(RuntimeError, match="already loaded"):
        _fans.set_fan_table([0] * 83, [[0, 0]] * 83, [0] * 83)
    # and the real table is untouched
    assert mjfast.score("123m456m789m123p5p5p").total == 23


# ---------------------------------------------------------------------------
# arrays changed by another thread while a kernel reads them
# ---------------------------------------------------------------------------

_MUTATE = """
    import threading, numpy as np, mjfast
    from mjfast import InvalidHand
    rng = np.random.default_rng(%(seed)d)
    n = 200_000
    base14 = mjfast.to_counts("123m456m789m123p55p").astype(np.uint8)
    base13 = mjfast.to_counts("1112345678999m").astype(np.uint8)
    H14 = np.tile(base14, (n, 1))
    H13 = np.tile(base13, (n, 1))
    batch = mjfast.HandBatch.from_strings(["123m456m789m123p55p", "[123s]456m789m123p55p"] * 5000)
    stop = threading.Event()

    def mutate():
        r = np.random.default_rng(1)
        while not stop.is_set():
            rows = r.integers(0, n, 256)
            col = int(r.integers(0, 34))
            H14[rows, col] = 255
            H13[rows, col] = 200
            b = r.integers(0, len(batch), 16)
            batch.counts[b, col] = 250
            batch.n_melds[b] = 200
            batch.melds[b, 0] = (9, 250, 7)
            H14[rows] = base14
            H13[rows] = base13

    t = threading.Thread(target=mutate)
    t.start()
    flagged = 0
    try:
        for k in range(%(rounds)d):
            w = 1 + k %% 2
            s, err = mjfast.shanten_batch(H13, errors="mask", workers=w)
            assert ((s == 0) | ((s == -128) & (err != 0))).all()
            flagged += int((err != 0).sum())
            wt, err = mjfast.waits_batch(H13, errors="mask", workers=w)
            good = err == 0
            assert wt[good, :9].all() and not wt[good, 9:].any() and not wt[~good].any()
            iw, err = mjfast.is_win_batch(H14, errors="mask", workers=w)
            assert (iw == (err == 0)).all()
            for fn, arr in ((mjfast.shanten_batch, H13), (mjfast.waits_batch, H13), (mjfast.is_win_batch, H14)):
                try:
                    fn(arr, workers=w)
                except InvalidHand:
                    pass
            res = mjfast.score_batch(batch, workers=w)
            ok = res.errors == 0
            assert (res.totals[ok] > 0).all() and (res.totals[~ok] == -1).all()
    finally:
        stop.set()
        t.join()
    print("ok", flagged)
"""


@pytest.mark.parametrize("seed", range(3))
def test_arrays_changed_during_batch_calls(seed):
    # shanten_batch / waits_batch read the caller's array again, without the
    # GIL, after validating it: a count of 255 then indexed far past the tables
    out = run_child(_MUTATE % {"seed": seed, "rounds": 6})
    assert out.split()[0] == "ok"


def test_changed_row_is_flagged_with_its_error_code():
    # the kernel's re-check, driven directly: a row that validation passed but
    # that holds a fifth copy when the kernel reads it
    H = np.tile(mjfast.to_counts("1112345678999m").astype(np.uint8), (3, 1))
    m = np.zeros(3, np.uint8)
    err = np.zeros(3, np.uint8)
    H[1, 0] = 5
    out = np.empty(3, np.int8)
    assert _core.shanten_batch(H, m, err, out, -1, 1) == 1
    assert err.tolist() == [0, 1, 0] and out.tolist() == [0, -128, 0]
    err[:] = (0, 0, 2)          # row 2 flagged by validation: skipped, not counted
    W = np.full((3, 34), 7, np.uint8)
    assert _core.waits_batch(H, m, err, W, 1) == 1
    assert err.tolist() == [0, 1, 2] and W[0, :9].all() and not W[1:].any()
    m[0] = 9                    # melds out of range
    err[:] = 0
    assert _core.shanten_batch(H, m, err, out, -1, 1) == 2
    assert err.tolist() == [3, 1, 0]


# ---------------------------------------------------------------------------
# HandBatch columns
# ---------------------------------------------------------------------------

def _batch(n=6):
    return mjfast.HandBatch.from_strings(["123m456m789m123p55p", "[123s]456m789m123p55p"] * (n // 2))


@pytest.mark.parametrize("column", ["counts", "melds", "n_melds", "win_tile", "flags", "seat", "round", "flowers",
                                    "invalid", "rule_flags", "wildcards", "wild_kinds"])
def test_replaced_batch_column_is_refused(column):
    b = _batch()
    col = getattr(b, column)
    for bad in (col[:3], np.concatenate([col, col]), col.astype(np.int64), np.repeat(col, 2, axis=0)[::2], list(col)):
        setattr(b, column, bad)
        # a counts column of another length changes N: then the next column is named
        with pytest.raises(InvalidHand, match=r"batch\.\w+ must be" if column == "counts" else f"batch.{column} must be"):
            mjfast.score_batch(b)
    setattr(b, column, col)
    assert (mjfast.score_batch(b).errors == 0).all()


def test_changed_batch_values_are_flagged_not_read():
    b = _batch(8)
    want = mjfast.score_batch(b).totals.copy()
    b.n_melds[0] = 200          # would loop over 200 melds of a 4-meld row
    b.melds[1, 0] = (0, 250, 1)  # b row 1 has one meld: a chow of tile 250
    b.n_melds[1] = 1
    b.counts[2, 0] = 9
    b.win_tile[3] = 99
    b.seat[4] = 7
    res = mjfast.score_batch(b)
    assert res.errors.tolist() == [1] * 5 + [0] * 3
    assert res.totals.tolist() == [-1] * 5 + want[5:].tolist()
    assert "changed" in res.error_message(0)


def test_score_kernel_checks_its_shapes():
    b = _batch(4)
    n = len(b)
    args = dict(counts=b.counts, melds=b.melds, n_melds=b.n_melds, win=b.win_tile, flags=b.flags, seat=b.seat,
                rnd=b.round, flowers=b.flowers, skip=np.zeros(n, np.uint8), totals=np.zeros(n, np.int32),
                fans=np.zeros((n, 82), np.uint8))
    _fans.score_batch_kernel(*args.values(), 1)
    assert (args["totals"] > 0).all()
    for name, a in list(args.items()):
        short = a[: n - 1]
        with pytest.raises(ValueError):
            _fans.score_batch_kernel(*[short if k == name else v for k, v in args.items()], 1)
    with pytest.raises(ValueError, match="34 columns"):
        _fans.score_batch_kernel(np.zeros((n, 20), np.uint8), *list(args.values())[1:], 1)
    with pytest.raises(ValueError, match="fans_out"):
        _fans.score_batch_kernel(*list(args.values())[:-1], np.zeros((n, 40), np.uint8), 1)


# ---------------------------------------------------------------------------
# every compiled entry point, called directly with hostile arguments
# ---------------------------------------------------------------------------

#: every callable of the compiled modules that take hands, by module; a new
#: one must be added to the walk below
COMPILED_CALLABLES = {
    "_core": {
        "_openmp_flag", "counts_info", "is_win_checked", "is_win_one", "shanten_batch", "shanten_one", "useful_one",
        "validate_batch", "waits_batch", "waits_checked", "waits_one", "shanten_exact_one", "shanten_plain_batch",
        "shanten_checked",
        # the notation parser and the records (mjfast.tiles / mjfast.hand / mjfast.records word their errors)
        "parse_counts_fast", "parse_rows_fast", "parse_notation", "read_records", "write_results", "scan_lines",
        "wind_code", "context_code", "flowers_code",
        # wider tile counts narrowed for the batch functions; HandBatch's array checks
        "narrow_rows", "batch_row_codes",
    },
    # the lookup tables and their disk cache: where they came from, where it is, and their bytes (tests)
    "_tables": {"build_tables", "table_nbytes", "_table_sections"},
    "_tablecache": {"table_source", "cache_dir"},
    "_fans": {
        "decompose_one", "score_batch_kernel", "score_batch_mcr", "score_one", "score_str", "set_fan_table",
        # the MCR settlement (mjfast.rules.mcr.sets words its errors)
        "settle_mcr",
        # the two-player rule set's compiled predicates
        "two_player_score_one", "two_player_batch_kernel",
        # the fan kernel's unique-wait test and the knitted straight's four-tile wait, against the full computation
        "unique_wait_check", "knit_wait_check", "four_tile_waits_check",
        # the flags that cannot hold for a hand (mjfast.rules.base words them)
        "impossible_flags", "impossible_flags_batch",
        "__pyx_unpickle_Enum",
    },
    # per-call decisions
    "_decide": {"shanten", "useful_tiles", "best_discards", "useful_mask", "discards_core", "discards_batch",
                "_set_slow", "_table_sections"},
    # fan targets
    "_targets": {"build_restricted", "target_dists"},
}


def test_the_walk_covers_every_compiled_callable():
    import importlib
    for mod, names in COMPILED_CALLABLES.items():
        m = importlib.import_module(f"mjfast.{mod}")
        found = {n for n in dir(m) if callable(getattr(m, n)) and not isinstance(getattr(m, n), type)
                 and not (n.startswith("__") and n.endswith("__"))}
        # Cython's pickle helper of the modules with cdef enums (walked once, in _fans)
        assert found - {"__pyx_unpickle_Enum"} == names - {"__pyx_unpickle_Enum"}, mod


_HOSTILE = r"""
    import itertools, random
    import numpy as np
    import mjfast
    import importlib
    MODS = {m: importlib.import_module(f"mjfast.{m}") for m in %(mods)r}

    def fn(key):
        # "module.name", or a name only one module has
        mod, _, name = key.rpartition(".")
        return getattr(MODS[mod] if mod else next(m for m in MODS.values() if hasattr(m, name)), name)
    _core, _decide, _fans = MODS["_core"], MODS["_decide"], MODS["_fans"]

    c14 = mjfast.to_counts("123m456m789m123p55p").astype(np.uint8)
    c13 = mjfast.to_counts("1112345678999m").astype(np.uint8)
    tp14 = mjfast.to_counts("123m456m789mEEE55m").astype(np.uint8)
    N = 4
    H14 = np.tile(c14, (N, 1))
    H13 = np.tile(c13, (N, 1))
    meld = np.zeros((4, 3), np.uint8)
    b = mjfast.HandBatch.from_strings(["123m456m789m123p55p"] * N)
    from mjfast import targets
    TT = targets._get_tables()          # the real restricted tables first
    slow_shanten = _decide._slow["shanten"]
    from mjfast.io import jsonl
    FRAGS = jsonl._fan_frags()

    def valid():
        # one well-formed call of each entry point (fresh output arrays each time)
        u = lambda *s: np.zeros(s, np.uint8)
        return {
            "_openmp_flag": (), "build_tables": (), "table_nbytes": (),
            "counts_info": (c14.copy(),),
            "decompose_one": (c14.copy(), 0),
            "is_win_checked": (H14.copy(), None, u(N), u(N), 1),
            "is_win_one": (c14.copy(),),
            "narrow_rows": (H14.astype(np.int64), u(N, 34), u(N)),
            "batch_row_codes": (b.counts.copy(), b.melds.copy(), b.n_melds.copy(), b.win_tile.copy(), b.flags.copy(),
                                b.seat.copy(), b.round.copy(), b.flowers.copy(), u(N, 4), u(N), u(N)),
            "parse_counts_fast": ("[123s]456m55p", u(34), u(34)),
            "parse_notation": ("[123s][EEEE5] W1 W1 H2", 0),
            "wind_code": ("s",),
            "flowers_code": (np.int16(8),),
            "context_code": (True, False, False, True, "N", 2, np.int64(3)),
            "parse_rows_fast": (["123m456m789m123p55p"] * N, u(N, 34), u(N, 4, 3), u(N), u(N), u(N)),
            "read_records": ([{"hand": "123m456m789m123p55p", "seat_wind": "s", "flowers": 2}] * N, u(N, 34),
                             u(N, 4, 3), u(N), u(N), u(N), u(N), u(N), u(N), u(N), u(N), [None] * N),
            "scan_lines": ([b'{"hand":"123m456m789m123p55p","id":1}', b"{", b'{"id":"x"}', b""], u(N, 34),
                           u(N, 4, 3), u(N), u(N), u(N), u(N), u(N), u(N), u(N), u(N), [None] * N),
            "write_results": ([1, "a", None, 2.5], u(N), np.zeros(N, np.int32), u(N), u(N, 82), FRAGS[0].copy(),
                              FRAGS[1], lambda i: b"{}\n"),
            "score_batch_kernel": (b.counts.copy(), b.melds.copy(), b.n_melds.copy(), b.win_tile.copy(),
                                   b.flags.copy(), b.seat.copy(), b.round.copy(), b.flowers.copy(), u(N),
                                   np.zeros(N, np.int32), u(N, 82), 1),
            "score_batch_mcr": (b.counts.copy(), b.melds.copy(), b.n_melds.copy(), b.win_tile.copy(),
                                b.flags.copy(), b.seat.copy(), b.round.copy(), b.flowers.copy(), u(N),
                                np.zeros(N, np.int32), u(N, 82), u(N), u(N), u(N), 1, 0, 8, True),
            "two_player_batch_kernel": (b.counts.copy(), b.melds.copy(), b.n_melds.copy(), u(N, 4),
                                        b.win_tile.copy(), b.flags.copy(), u(N), u(N), 0,
                                        np.zeros(N, np.int32), u(N, 51), u(N), 1),
            "score_one": (c14.copy(), meld.copy(), 0, 16, 0, 0, 0, 0, np.zeros(84, np.int16)),
            "score_str": ("123m456m789m123p55p", 0, 0, 0, 0, np.zeros(100, np.int16)),
            "impossible_flags": (c14.copy(), meld.copy(), 0, 16, 6),
            "impossible_flags_batch": (b.counts.copy(), b.melds.copy(), b.n_melds.copy(), b.win_tile.copy(),
                                       b.flags.copy() | 6, u(N)),
            "set_fan_table": ([0] * 83, [[0, 0]] * 83, [0] * 83),
            "shanten_batch": (H13.copy(), u(N), u(N), np.zeros(N, np.int8), -1, 1),
            "shanten_one": (c13.copy(), 0, -1),
            "useful_one": (c13.copy(), 0, -1),
            "validate_batch": (H13.copy(), None, 1, u(N), u(N)),
            "waits_batch": (H13.copy(), u(N), u(N), u(N, 34), 1),
            "waits_checked": (H13.copy(), None, u(N, 34), u(N), 1),
            "waits_one": (c13.copy(), 0),
            "__pyx_unpickle_Enum": (object, 0, None),
            "shanten": (c13.copy(),), "useful_tiles": (c13.copy(),), "best_discards": (c14.copy(),),
            "useful_mask": (c13.copy(), 0, -1, c13.copy()),
            "discards_core": (c14.copy(), 0, c14.copy(), c14.copy()),
            "discards_batch": (H14.copy(), u(N), u(N), H14.copy(), np.zeros((N, 34), np.int8), u(N, 34),
                               u(N, 34), 1),
            "shanten_exact_one": (c13.copy(), 0, -1),
            "shanten_plain_batch": (H13.copy(), u(N), -1, np.zeros(N, np.int8)),
            "shanten_checked": (H13.copy(), None, -1, np.zeros(N, np.int8), u(N), u(N), 1, True),
            "build_restricted": ([targets._RSPECS[n] for n in targets._RNAMES],),
            "target_dists": (c13.copy(), 0, u(34), TT.F0.copy(), TT.RP0.copy(), TT.fan0.copy(), TT.rspec.copy(),
                             TT.rfan.copy(), TT.pallow.copy(), TT.pfan.copy(), TT.form_fan.copy(),
                             np.zeros(len(TT.keys), np.int16), True, np.zeros(len(TT.keys), np.int64)),
            "_set_slow": ("shanten", slow_shanten),
            "table_source": (), "cache_dir": (), "_tables._table_sections": (), "_decide._table_sections": (),
            "settle_mcr": (23, False, 2),
            "two_player_score_one": (tp14.copy(), np.zeros((4, 4), np.uint8), 0, 4, 0, 0, np.zeros(52, np.int16)),
            "unique_wait_check": (H14.copy(), u(N), u(N), np.zeros((N, 2), np.int8)),
            "knit_wait_check": (0, 0, 13, 1),
            "four_tile_waits_check": (0, 1, 13, 13),
        }

    INTS = [-2**63, -2**31, -40, -1, 0, 1, 3, 4, 5, 14, 33, 34, 84, 99, 100, 250, 255, 256, 2**31 - 1, 2**31, 2**63,
            10**20, True, 1.5, None, "1"]
    STRS = ["", "[", "]]]]", "[" * 50, "1" * 300 + "m", "\x00", "\U0001F004", "[1111m9]", "[EEEE]" * 5 + "E",
            "9" * 16 + "m", "1m" * 15, "[123m][123m][123m][123m][123m]55p", "[123m" , "0m", None, 5, b"123m"]

    def hostile_arrays(a):
        out = [None, 5, [1, 2], a.tolist(), np.zeros(0, a.dtype), a[:1], a[:-1], np.concatenate([a, a[:1]]),
               a.astype(np.int64), a.astype(np.float64), np.full_like(a, -1 if a.dtype.kind == 'i' else 255), np.full_like(a, 5), np.full_like(a, 4),
               np.repeat(a, 2, axis=0)[::2], a[..., None], np.ascontiguousarray(a.T) if a.ndim > 1 else a[None]]
        ro = a.copy(); ro.setflags(write=False)
        out.append(ro)
        if a.ndim >= 2:
            out += [a[:, :-1].copy(), np.concatenate([a, a[:, :1]], axis=1), np.zeros((0,) + a.shape[1:], a.dtype)]
        if a.ndim == 3:
            out += [a[:, :, :2].copy(), a[:, :3].copy()]
        return out

    def variants(x):
        if isinstance(x, np.ndarray):
            return hostile_arrays(x)
        if isinstance(x, str):
            return STRS
        if isinstance(x, list):
            return [[], [None], [b"x"], x[:1], x + x, [5] * len(x), [[0, 0]] * len(x), x * 3]
        if isinstance(x, int) or x is None:
            return INTS + [np.full(N, v, np.int64) for v in (-1, 5, 10**18, -(2**63))] + [np.zeros(N + 3, np.int64),
                                                                                           np.zeros(N, np.int32)]
        return [None, 0, "x"]

    calls = 0
    for name, args in valid().items():
        try:
            fn(name)(*args)
        except Exception:
            assert name in ("set_fan_table", "__pyx_unpickle_Enum"), name  # loaded once / not ours
        for k in range(len(args)):
            for bad in variants(args[k]):
                a = list(valid()[name])
                a[k] = bad
                try:
                    fn(name)(*a)
                except Exception:
                    pass
                calls += 1
    # and random pairs of hostile arguments
    rnd = random.Random(%(seed)d)
    for _ in range(3000):
        name = rnd.choice(sorted(valid()))
        a = list(valid()[name])
        if len(a) < 2:
            continue
        for k in rnd.sample(range(len(a)), 2):
            a[k] = rnd.choice(variants(a[k]))
        try:
            fn(name)(*a)
        except Exception:
            pass
        calls += 1

    # the reported ones raise ValueError now
    for call in (lambda: _core.shanten_one(c13, -40, 0), lambda: _core.shanten_one(c13, 0, 99),
                 lambda: _fans.score_one(c14, np.array([[0, 250, 1]] * 4, np.uint8), 1, 16, 0, 0, 0, 0,
                                         np.zeros(84, np.int16)),
                 lambda: _fans.score_one(c14, meld, 0, 250, 0, 0, 0, 0, np.zeros(84, np.int16)),
                 lambda: _core.is_win_one(np.zeros(3, np.uint8)), lambda: _fans.decompose_one(c14, -40),
                 lambda: _fans.score_str("123m456m789m123p55p", 0, 0, 0, 0, np.zeros(5, np.int16))):
        try:
            call()
        except ValueError:
            pass
        else:
            raise AssertionError("no ValueError")
    print("ok", calls)
"""


@pytest.mark.parametrize("seed", range(2))
def test_hostile_arguments_to_every_compiled_function(seed):
    out = run_child(_HOSTILE % {"seed": seed, "mods": sorted(COMPILED_CALLABLES)}).split()
    assert out[0] == "ok" and int(out[1]) > 3000


# ---------------------------------------------------------------------------
# the debug build
# ---------------------------------------------------------------------------

def test_source_headers_leave_the_checks_to_setup_py():
    # a "# cython:" header directive overrides setup.py: boundscheck=False in
    # the header made MJFAST_DEBUG=1 builds byte-identical to release builds
    for name in os.listdir(os.path.join(ROOT, "src")):
        if name.endswith((".pyx", ".pxi", ".pxd")):
            with open(os.path.join(ROOT, "src", name)) as f:
                for line in f:
                    if line.replace(" ", "").startswith("#cython:"):
                        for d in ("boundscheck", "initializedcheck", "wraparound"):
                            assert d not in line, f"src/{name}: {line.strip()}"
    assert _core.DEBUG_BUILD in (True, False)


@pytest.mark.slow
def test_suite_passes_on_a_debug_build():
    # builds with MJFAST_DEBUG=1 in a temporary copy and runs the default suite there (~15-30 min)
    proc = subprocess.run(["bash", os.path.join(ROOT, ".ci", "debug-build"), "-q", "-x",
                           "--deselect", "tests/test_hardening.py::test_suite_passes_on_a_debug_build"],
                          cwd=ROOT, capture_output=True, text=True, timeout=3 * 3600)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
    assert "debug build:" in proc.stdout
