"""The two enumerators of regular-form readings side by side on the same hands.

    PYTHONPATH=. python benchmarks/bench_readings.py [--rounds 15]

``_core.readings_kernel`` runs one enumerator over a (N, 34) array of concealed
counts: method 0 is the depth-first split of the 14 - 3k tiles (then sorted into
the reference's order), method 1 the product of the per-suit split tables (src/fankernel/readings.pxd).
Both fill the same Division records; ``| 2`` skips the digest so only the
enumeration is timed.  Each figure is the best of several rounds of CPU time
of this thread (the machine is shared: wall time counts the other jobs),
the two methods interleaved round by round.  Before timing, the digests of the
two are compared on every hand (same readings, same order).
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (ROOT, os.path.join(ROOT, "tests")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import mjfast  # noqa: E402
from mjfast import _core  # noqa: E402
import handgen  # noqa: E402

SEED = 20240103


def hand_sets(n_mix: int):
    recs = handgen.random_winning_records(n_mix, seed=SEED)
    b = mjfast.HandBatch.from_records(recs)
    C, M = np.ascontiguousarray(b.counts), np.ascontiguousarray(b.n_melds)
    n_dfs = counts_of(C, M, 2)
    sets = {"generator's mix (every row, specials included)": (C, M)}
    reg = n_dfs > 0
    sets["generator's mix, rows with a regular reading"] = (C[reg], M[reg])
    # every one-suit winning hand of 14 tiles (no melds), in each suit
    rows = []
    for c in itertools.product(range(5), repeat=9):
        if sum(c) != 14:
            continue
        for s in range(3):
            r = [0] * 34
            r[9 * s: 9 * s + 9] = c
            rows.append(r)
    P = np.array(rows, np.uint8)
    PM = np.zeros(len(P), np.uint8)
    win = counts_of(P, PM, 2) > 0
    sets["pure-suit winning hands (all of them, 14 tiles)"] = (P[win], PM[win])
    # 1112345678999 + any tile of the suit, 27 hands
    nine = []
    for s in range(3):
        for x in range(9):
            r = [0] * 34
            for k, v in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
                r[9 * s + k] = v
            r[9 * s + x] += 1
            nine.append(r)
    N9 = np.array(nine * 2000, np.uint8)
    sets["1112345678999 + X (27 hands, repeated)"] = (N9, np.zeros(len(N9), np.uint8))
    allC = np.concatenate([C, P[win]])
    allM = np.concatenate([M, PM[win]])
    many = counts_of(allC, allM, 2) >= 2
    sets["hands with 2+ readings (from the sets above)"] = (allC[many], allM[many])
    return sets


def counts_of(C, M, method):
    out = np.zeros(len(C), np.uint64)
    _core.readings_kernel(C, M, method, out)
    return out


def best_ns(C, M, rounds):
    best = [float("inf")] * 2
    out = np.zeros(len(C), np.uint64)
    for _ in range(rounds):
        for m in (0, 1):
            t = time.thread_time_ns()
            _core.readings_kernel(C, M, m | 2, out)
            best[m] = min(best[m], time.thread_time_ns() - t)
    return [b / len(C) for b in best]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--n-mix", type=int, default=100000)
    a = ap.parse_args()
    _core.build_tables()
    sets = hand_sets(a.n_mix)
    print(f"load average {os.getloadavg()[0]:.1f}; best of {a.rounds} rounds, CPU time of this thread\n")
    print("| hands | N | readings / hand | depth-first split ns | suit tables ns | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (C, M) in sets.items():
        d0, d1 = counts_of(C, M, 0), counts_of(C, M, 1)
        assert (d0 == d1).all(), f"{name}: the enumerators differ on {int((d0 != d1).sum())} hands"
        dfs, tab = best_ns(C, M, a.rounds)
        print(f"| {name} | {len(C):,} | {float((d0 & 63).mean()):.2f} | {dfs:.1f} | {tab:.1f} | {dfs / tab:.2f}x |")


if __name__ == "__main__":
    main()
