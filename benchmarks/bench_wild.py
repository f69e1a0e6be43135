"""Wildcard win check and shanten: hands/s, side by side with baselines.

    PYTHONPATH=. python benchmarks/bench_wild.py [--n 400000] [--n-ref 300]

For each wildcard count k (0, 1, 2, 4, 8) on the same seeded hands (random
real tiles from the wall, 14 - k of them; 13 - k for shanten):

* ``is_win_batch(wildcards=k)`` and ``shanten_batch(wildcards=k)`` on one
  thread (``workers=1``);
* the substitution search of tests/wild_oracle.py (pure Python, exact): the
  kind of search the tables replace; run on the first ``--n-ref`` hands,
  whose answers are compared.  For shanten it is given the answer and only
  proves it (a witness plus "nothing lower"), so its column flatters it;
* the plain batch kernels over *every* substitution (for k <= 2: 34 / 595
  rows per hand; the rows are built beforehand and not timed), which is what
  a substitution loop over a fast plain checker costs at best.

``--baseline DIR`` (a checkout of an older commit, built in place there)
adds the shanten rows of both builds, timed in fresh processes that
alternate between the two builds (three rounds, best kept): the
before/after ratio.

Absolute figures depend on the machine and its load; the ratios in one run
are what to compare.  Prints Markdown.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import mjfast  # noqa: E402
import wild_oracle as O  # noqa: E402
from handgen import random_hands  # noqa: E402


def best_of(fn, repeats=3):
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


_CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import mjfast
from handgen import random_hands
n = int(sys.argv[3])
for k in (0, 1, 2, 4, 8):
    H = random_hands(n, 13 - k, seed=200 + k)
    mjfast.shanten_batch(H[:2], wildcards=k)
    best = min(_t(mjfast, H, k) for _ in range(3))
    print(k, n / best)
"""


def _t(mjfast, H, k):
    t = time.perf_counter()
    mjfast.shanten_batch(H, wildcards=k, workers=1)
    return time.perf_counter() - t


def compare(baseline, n, rounds=3):
    """shanten_batch with k wildcards: {build: {k: best hands/s}}, fresh
    processes alternating between the builds."""
    import subprocess
    here = os.path.join(HERE, "..")
    code = "import time\n" + "def _t(mjfast, H, k):\n    t = time.perf_counter()\n" \
        "    mjfast.shanten_batch(H, wildcards=k, workers=1)\n    return time.perf_counter() - t\n" + _CHILD
    best = {"baseline": {}, "this build": {}}
    for _ in range(rounds):
        for name, root in (("baseline", baseline), ("this build", here)):
            out = subprocess.run([sys.executable, "-c", code, os.path.abspath(root), os.path.join(HERE, "..", "tests"),
                                  str(n)], capture_output=True, text=True, check=True, cwd=os.path.abspath(root)).stdout
            for line in out.split("\n"):
                if line.strip():
                    k, r = line.split()
                    best[name][int(k)] = max(best[name].get(int(k), 0.0), float(r))
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=400_000)
    ap.add_argument("--n-ref", type=int, default=300)
    ap.add_argument("--baseline", help="directory of an older in-place build: shanten before/after")
    args = ap.parse_args()
    if args.baseline:
        best = compare(args.baseline, args.n // 4)
        print("| k | shanten_batch before, M hands/s | after | after / before |")
        print("|---|---:|---:|---:|")
        for k in sorted(best["this build"]):
            b, a = best["baseline"][k], best["this build"][k]
            print(f"| {k} | {b / 1e6:.3f} | {a / 1e6:.3f} | {a / b:.1f}x |")
        print()
    mjfast.is_win_batch(random_hands(2, 14, seed=0), wildcards=0)       # tables built before timing
    mjfast.shanten_batch(random_hands(2, 13, seed=0), wildcards=0)
    print(f"platform: {platform.platform()}, {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}, one thread\n")
    print("| k | is_win_batch M hands/s | search (Python) hands/s | ratio | plain kernel over every substitution hands/s | ratio |"
          " shanten_batch M hands/s | shanten proof (Python) hands/s | ratio | plain shanten over every substitution hands/s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for k in (0, 1, 2, 4, 8):
        H = random_hands(args.n, 14 - k, seed=100 + k)
        dt = best_of(lambda: mjfast.is_win_batch(H, wildcards=k, workers=1))
        rate = args.n / dt
        ref = H[: args.n_ref]
        claim = mjfast.is_win_batch(ref, wildcards=k)
        t = time.perf_counter()
        truth = [O.wins(c, k, 0, False) for c in ref]
        rref = len(ref) / (time.perf_counter() - t)
        assert truth == claim.tolist()
        sub_rate = ""
        sub_ratio = ""
        if k <= 2:
            subs = O.all_subs(k)
            rows = [c[None, :] + subs for c in ref]
            t = time.perf_counter()
            # a row with a fifth copy is flagged (errors="mask") and counts as no win
            got = [bool(mjfast.is_win_batch(r, errors="mask")[0].any()) for r in rows]
            sr = len(ref) / (time.perf_counter() - t)
            assert got == claim.tolist()
            sub_rate = f"{sr:,.0f}"
            sub_ratio = f"{rate / sr:,.0f}x"
        H13 = random_hands(args.n // 4, 13 - k, seed=200 + k)
        dts = best_of(lambda: mjfast.shanten_batch(H13, wildcards=k, workers=1))
        srate = len(H13) / dts
        ref13 = H13[: args.n_ref]
        sclaim = mjfast.shanten_batch(ref13, wildcards=k)
        t = time.perf_counter()
        proved = [O.shanten(c, k, 0, False, int(v)) for c, v in zip(ref13, sclaim)]
        sref = len(ref13) / (time.perf_counter() - t)
        assert proved == sclaim.tolist()
        ssub_rate = ssub_ratio = ""
        if k <= 2:
            subs = O.all_subs(k)
            rows = [c[None, :] + subs for c in ref13]
            t = time.perf_counter()
            got = []
            for r in rows:
                v, e = mjfast.shanten_batch(r, errors="mask")
                got.append(int(v[e == 0].min()))
            ssr = len(ref13) / (time.perf_counter() - t)
            assert got == sclaim.tolist()
            ssub_rate = f"{ssr:,.0f}"
            ssub_ratio = f"{srate / ssr:,.0f}x"
        print(f"| {k} | {rate / 1e6:.2f} | {rref:,.0f} | {rate / rref:,.0f}x | {sub_rate} | {sub_ratio} |"
              f" {srate / 1e6:.2f} | {sref:,.0f} | {srate / sref:,.0f}x | {ssub_rate} | {ssub_ratio} |")
    H = random_hands(args.n, 14, seed=99)
    dt = best_of(lambda: mjfast.is_win_batch(H, workers=1))
    print(f"\nplain is_win_batch (no wildcard arguments): {args.n / dt / 1e6:.2f} M hands/s")


if __name__ == "__main__":
    main()
