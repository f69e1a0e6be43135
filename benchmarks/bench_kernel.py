"""score_batch against PyMahjongGB's MahjongFanCalculator on the generator's
mix, side by side in one process, and where the kernel's time goes.

    PYTHONPATH=. python benchmarks/bench_kernel.py [--rounds 7] [--n 100000]
    PYTHONPATH=. python benchmarks/bench_kernel.py --baseline DIR   # + another build, alternating processes

Same hands for both: ``tests/handgen.py``'s winning records (seed 20240103),
a pre-built HandBatch for mjfast (``mjfast.score_batch``, workers=1, the whole
public call: the result object included), the reference's argument tuples
pre-built (``tests/oracle.record_to_reference_args``) for
``MahjongFanCalculator``.  Each round times mjfast on a disjoint slice of the
records and the reference on its own disjoint slice; the best round of each
counts.  Two orders, both printed: *interleaved* (one round of each in turn:
each library starts every round on caches and branch predictors the other
has just filled) and *blocked* (each library's rounds back to back, twice,
alternating which goes first: the steady state of a bulk run).  The
interleaved figure charges mjfast's short rounds (about 4 ms) a cold start
that the reference's 15 ms rounds hardly notice.  Time is the CPU time of this thread (the machine is
shared: wall time also counts other jobs' turns on the core); wall time is
printed beside it.  The totals of the two are compared on the reference's
hands.

``--baseline DIR`` (a directory holding a built ``mjfast`` package, e.g. a
copy of main's) runs this script's measurement in fresh processes, the
baseline and this checkout alternating, ``--pairs`` times (3), prints each
and then each build's range and median of the ratios.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def measure(n: int, rounds: int, n_ref: int) -> dict:
    import numpy as np
    import mjfast
    import handgen
    import oracle
    import MahjongGB
    recs = handgen.random_winning_records(n, seed=20240103)
    batch = mjfast.HandBatch.from_records(recs)
    k = n // rounds                                 # mjfast's slice per round
    ref_args = [oracle.record_to_reference_args(r) for r in recs[: n_ref]]
    kr = n_ref // rounds
    mfc = MahjongGB.MahjongFanCalculator

    def sub_batch(b, s, e):
        return mjfast.HandBatch(b.counts[s:e], b.melds[s:e], b.n_melds[s:e], b.win_tile[s:e], b.flags[s:e],
                                b.seat[s:e], b.round[s:e], b.flowers[s:e], ids=None, invalid=b.invalid[s:e],
                                messages={}, validate=False)
    subs = [sub_batch(batch, i * k, (i + 1) * k) for i in range(rounds)]
    best = {"mj_cpu": 1e9, "mj_wall": 1e9, "gb_cpu": 1e9, "gb_wall": 1e9}

    def run_mj(r, into):
        w, c = time.perf_counter_ns(), time.thread_time_ns()
        mjfast.score_batch(subs[r])
        into["mj_cpu"] = min(into["mj_cpu"], (time.thread_time_ns() - c) / k)
        into["mj_wall"] = min(into["mj_wall"], (time.perf_counter_ns() - w) / k)

    def run_gb(r, into):
        part = ref_args[r * kr:(r + 1) * kr]
        w, c = time.perf_counter_ns(), time.thread_time_ns()
        for a in part:
            mfc(*a)
        into["gb_cpu"] = min(into["gb_cpu"], (time.thread_time_ns() - c) / kr)
        into["gb_wall"] = min(into["gb_wall"], (time.perf_counter_ns() - w) / kr)

    # interleaved: one round of each in turn, so each starts on caches and
    # branch predictors the other has just used (a cold start every round)
    for r in range(rounds):
        run_mj(r, best)
        run_gb(r, best)
    # blocked: each library's rounds back to back, as in a bulk run (the
    # steady state); twice, alternating which goes first
    blk = {"mj_cpu": 1e9, "mj_wall": 1e9, "gb_cpu": 1e9, "gb_wall": 1e9}
    for first_mj in (True, False):
        for lib in ((run_mj, run_gb) if first_mj else (run_gb, run_mj)):
            for r in range(rounds):
                lib(r, blk)
    best["blocked"] = blk
    res = mjfast.score_batch(sub_batch(batch, 0, n_ref))
    agree = sum(sum(p for p, _ in mfc(*a)) == int(res.totals[i]) for i, a in enumerate(ref_args))
    best["agree"] = agree
    best["n_ref"] = n_ref
    best["load"] = os.getloadavg()[0]
    best["mjfast"] = mjfast.__file__
    return best


def show(tag: str, b: dict) -> None:
    for mode, x in (("interleaved", b), ("blocked", b["blocked"])):
        print(f"| {tag}, {mode} | {x['mj_cpu']:.0f} ({x['mj_wall']:.0f}) | {x['gb_cpu']:.0f} ({x['gb_wall']:.0f}) "
              f"| {x['gb_cpu'] / x['mj_cpu']:.1f}x ({x['gb_wall'] / x['mj_wall']:.1f}x) | {b['load']:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--n", type=int, default=140000)
    ap.add_argument("--n-ref", type=int, default=35000)
    ap.add_argument("--baseline", help="directory holding another built mjfast package")
    ap.add_argument("--pairs", type=int, default=3, help="alternating process pairs with --baseline")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    head = ("| build | mjfast score_batch ns/hand: CPU (wall) | MahjongFanCalculator ns/hand: CPU (wall) "
            "| ratio: CPU (wall) | load |\n|---|---:|---:|---:|---:|")
    if a.child:
        sys.path[:0] = [a.child, os.path.join(ROOT, "tests")]
        print(json.dumps(measure(a.n, a.rounds, a.n_ref)))
        return
    if not a.baseline:
        sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
        b = measure(a.n, a.rounds, a.n_ref)
        print(head)
        show("this checkout", b)
        print(f"\ntotals equal to the reference's on {b['agree']:,}/{b['n_ref']:,} hands")
        return
    print(head)
    ratios = {}
    for _ in range(a.pairs):
        for tag, d in (("baseline", a.baseline), ("this checkout", ROOT)):
            out = subprocess.run([sys.executable, __file__, "--child", d, "--n", str(a.n), "--rounds", str(a.rounds),
                                  "--n-ref", str(a.n_ref)], capture_output=True, text=True, check=True).stdout
            b = json.loads(out.strip().splitlines()[-1])
            assert b["mjfast"].startswith(os.path.abspath(d)), b["mjfast"]
            show(tag, b)
            for mode, x in (("interleaved", b), ("blocked", b["blocked"])):
                ratios.setdefault((tag, mode), []).append((x["mj_cpu"], x["gb_cpu"] / x["mj_cpu"]))
    print("\n| build | order | score_batch ns/hand (CPU): range, median | ratio: range, median |\n|---|---|---:|---:|")
    for (tag, mode), v in ratios.items():
        ns = sorted(t for t, _ in v)
        rs = sorted(r for _, r in v)
        print(f"| {tag} | {mode} | {ns[0]:.0f}-{ns[-1]:.0f}, {ns[len(ns) // 2]:.0f} "
              f"| {rs[0]:.1f}x-{rs[-1]:.1f}x, {rs[len(rs) // 2]:.1f}x |")


if __name__ == "__main__":
    main()
