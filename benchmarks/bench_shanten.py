"""shanten_batch over every MCR form: hands/s on one thread, side by side.

    PYTHONPATH=. python benchmarks/bench_shanten.py [--n 200000] [--repeat 7] [--baseline DIR]

Hands (seeded, tests/handgen.py): uniform random 13 tiles, 14 tiles, 10
tiles beside one meld, and 13 tiles drawn with the generator's biases
(knitted, one suit, pairs).  For each set, round by round (every row timed
once per round, rows interleaved; the best of ``--repeat`` rounds is kept):

* ``shanten_batch(workers=1)`` over every form, and restricted to each form;
* the compiled kernel alone (``_core.shanten_batch`` on pre-validated rows):
  the rest of the Python call is its validation pass;
* the same call on int64 and int8 arrays (converted inside the call);
* ``waits_batch`` / ``is_win_batch`` on the same hands (13- or 14-tile sets);
* ``--baseline DIR``: the compiled kernel of another build (a checkout of an
  older commit, built in place in DIR), loaded into this process beside the
  current one: the before/after ratio of one run.  Its answers are compared.
* the xiangting package (``pip install xiangting``; riichi forms only, so a
  speed comparison of a narrower job), one ``calculate_replacement_number``
  call per hand in a Python loop (it has no batch call), beside
  ``mjfast.shanten`` called the same way and ``shanten_batch``.

Everything runs on one thread (``workers=1``; the kernels' one-thread path
has no OpenMP region).  Absolute figures move with the machine's load; the
ratios of one run are what to compare.  Prints Markdown.
"""
from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import mjfast  # noqa: E402
from mjfast import _core  # noqa: E402
from handgen import random_hands  # noqa: E402

FORMS = (None,) + mjfast.core.FORMS


def _load_core(directory):
    """The compiled _core of another in-place build (it imports nothing of mjfast)."""
    paths = glob.glob(os.path.join(directory, "mjfast", "_core.*.so")) + \
        glob.glob(os.path.join(directory, "mjfast", "_core.*.pyd"))
    if not paths:
        raise SystemExit(f"no built mjfast/_core in {directory} (run setup.py build_ext --inplace there)")
    spec = importlib.util.spec_from_file_location("_core", paths[0])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.build_tables()
    return mod


def _kernel(core, H, melds, code):
    err = np.zeros(len(H), np.uint8)
    out = np.empty(len(H), np.int8)

    def run():
        core.shanten_batch(H, melds, err, out, code, 1)
        return out
    return run


def _fmt(rate):
    return f"{rate / 1e6:.2f} M" if rate >= 1e6 else f"{rate / 1e3:.0f} k"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000, help="hands per set")
    ap.add_argument("--repeat", type=int, default=7, help="rounds (best kept)")
    ap.add_argument("--baseline", help="directory of an older in-place build to compare with")
    ap.add_argument("--calls", type=int, default=2000, help="hands for the one-call-per-hand rows")
    ap.add_argument("--sets", default="r13,r14,r10m1,knitted13,one_suit13,pairs13")
    args = ap.parse_args(argv)
    n = args.n
    base = _load_core(args.baseline) if args.baseline else None
    mjfast.shanten_batch(random_hands(2, 13, seed=0))          # tables built before timing
    try:
        import xiangting as xt
        four = xt.PlayerCount.FOUR
    except ImportError:
        xt = None

    all_sets = {
        "r13": ("uniform random, 13 tiles", 13, None, 1),
        "r14": ("uniform random, 14 tiles", 14, None, 2),
        "r10m1": ("uniform random, 10 tiles + 1 meld", 10, None, 3),
        "knitted13": ("biased 'knitted', 13 tiles", 13, "knitted", 4),
        "one_suit13": ("biased 'one_suit', 13 tiles", 13, "one_suit", 5),
        "pairs13": ("biased 'pairs', 13 tiles", 13, "pairs", 6),
    }
    print(f"platform: {platform.platform()}, python {platform.python_version()}, numpy {np.__version__}, "
          f"one thread, {n:,} hands a set, best of {args.repeat} interleaved rounds; "
          f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    for key in args.sets.split(","):
        label, size, bias, seed = all_sets[key]
        H = random_hands(n, size, seed=seed, bias=bias)
        melds = np.full(n, (14 - size) // 3 if size % 3 == 2 else (13 - size) // 3, np.uint8)
        rows = {}
        for form in FORMS:
            code = -1 if form is None else mjfast.core.FORMS.index(form)
            if (code in (1, 2, 3) and melds[0] > 0) or (code == 4 and melds[0] > 1):
                continue
            name = "every form" if form is None else form
            rows[f"shanten_batch, {name}"] = (lambda f=form: mjfast.shanten_batch(H, form=f, workers=1))
            rows[f"kernel alone, {name}"] = _kernel(_core, H, melds, code)
            if base is not None:
                rows[f"baseline kernel, {name}"] = _kernel(base, H, melds, code)
        H64 = H.astype(np.int64)
        H8 = H.astype(np.int8)
        rows["shanten_batch, every form, int64 input"] = lambda: mjfast.shanten_batch(H64, workers=1)
        rows["shanten_batch, every form, int8 input"] = lambda: mjfast.shanten_batch(H8, workers=1)
        if size % 3 == 1:
            rows["waits_batch"] = lambda: mjfast.waits_batch(H, workers=1)
            rows["waits kernel alone"] = (lambda: _core.waits_batch(
                H, melds, np.zeros(n, np.uint8), np.empty((n, 34), np.uint8), 1))
            if base is not None:
                rows["baseline waits kernel"] = (lambda: base.waits_batch(
                    H, melds, np.zeros(n, np.uint8), np.empty((n, 34), np.uint8), 1))
        else:
            rows["is_win_batch"] = lambda: mjfast.is_win_batch(H, workers=1)
            rows["is_win kernel alone"] = (lambda: _core.is_win_checked(
                H, None, np.empty(n, np.uint8), np.empty(n, np.uint8), 1))
            if base is not None:
                rows["baseline is_win kernel"] = (lambda: base.is_win_checked(
                    H, None, np.empty(n, np.uint8), np.empty(n, np.uint8), 1))
        few = None
        if key == "r13":
            few = [h.tolist() for h in H[:args.calls]]
            f1 = mjfast.shanten
            rows["mjfast.shanten, one call per hand (list)"] = (lambda: [f1(h) for h in few], len(few))
            if xt is not None:
                f2 = xt.calculate_replacement_number
                rows["xiangting, one call per hand (list; riichi forms)"] = (
                    lambda: [f2(h, four) for h in few], len(few))
        # answers: before == after, batch == kernel
        if base is not None:
            for form in FORMS:
                code = -1 if form is None else mjfast.core.FORMS.index(form)
                if (code in (1, 2, 3) and melds[0] > 0) or (code == 4 and melds[0] > 1):
                    continue
                a = _kernel(_core, H, melds, code)().copy()
                b = _kernel(base, H, melds, code)().copy()
                if not np.array_equal(a, b):
                    raise SystemExit(f"{label}, form {form}: {int((a != b).sum())} answers differ from the baseline")
        best = {}
        for _ in range(args.repeat):
            for name, job in rows.items():
                fn, cnt = job if isinstance(job, tuple) else (job, n)
                t = time.perf_counter()
                fn()
                dt = time.perf_counter() - t
                best[name] = max(best.get(name, 0.0), cnt / dt)
        print(f"### {label}\n")
        print("| row | hands/s | ns/hand | vs shanten_batch, every form |")
        print("|---|---:|---:|---:|")
        ref = best["shanten_batch, every form"]
        for name, rate in best.items():
            print(f"| {name} | {_fmt(rate)} | {1e9 / rate:.0f} | {rate / ref:.2f}x |")
        if base is not None:
            print("\nbefore -> after (this build's kernel / the baseline's, same run):\n")
            for name in best:
                if name.startswith("kernel alone, "):
                    form = name[len("kernel alone, "):]
                    print(f"- {form}: {best[name] / best['baseline kernel, ' + form]:.2f}x")
            for mine, theirs in (("waits kernel alone", "baseline waits kernel"),
                                 ("is_win kernel alone", "baseline is_win kernel")):
                if mine in best:
                    print(f"- {mine}: {best[mine] / best[theirs]:.2f}x")
        print()
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
