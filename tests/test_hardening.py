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
from mjfast import _core
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
            _core.shanten_batch(H, m, np.zeros(3, np.int8), -1, bad)


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
    from mjfast import _core
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
    assert _core.build_tables() == 0.0     # built exactly once, already
    print("ok")
"""


@pytest.mark.parametrize("run", range(6))
def test_first_calls_from_many_threads(run):
    # two threads making their first call at once segfaulted in 4 runs of 10
    assert run_child(_FIRST_CALLS).strip() == "ok"


def test_fan_table_is_loaded_once():
    with pytest.raises(RuntimeError, match="already loaded"):
        _core.set_fan_table([0] * 83, [[0, 0]] * 83, [0] * 83)
    # and the real table is untouched
    assert mjfast.score("123m456m789m123p5p5p").total == 23
