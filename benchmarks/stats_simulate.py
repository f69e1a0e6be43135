#!/usr/bin/env python
"""Self-play statistics: throughput, and how stable the shares are across seeds.

    PYTHONPATH=. python benchmarks/stats_simulate.py [--games 20000]            # throughput
    PYTHONPATH=. python benchmarks/stats_simulate.py --stability 1000000 --seeds 0 1 [--workers 2]

Throughput (one run, rows side by side): the compiled engine alone for each
policy (``selfplay_series`` without hands), then ``simulate`` (play + record
the winners' hands + ``score_batch`` + ``FanStats``) with 1 and 2 worker
processes.  Games/s are wall-clock (on a shared machine: upper bounds of the
time, read the ratios); per-core = games/s / processes.

Stability: ``simulate`` with ``--stability N`` games for each seed, then per
fan the shares side by side, whether they agree to 3 significant digits, and
the difference in units of its standard error (sqrt(p(1-p)/wins), the
Wilson width / 3.92): two independent runs differ by about sqrt(2) of them,
so a fan's share is stable to 3 significant digits only where the standard
error is well below half a unit of the third digit.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

from mjfast.game.fast import selfplay_series
from mjfast.stats.simulate import simulate


def rate(fn, n, repeat=3):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(n)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return n / best


def throughput(n):
    print("| what | processes | games/s | games/s per process | ratio to `simulate` 1 process |")
    print("|---|---:|---:|---:|---:|")
    rows = []
    for pol, k in (("tsumogiri", 10 * n), ("random", n), ("baseline", n)):
        r = rate(lambda m, p=pol: selfplay_series(m, p, seed=1, hands=False), k)
        rows.append((f"engine only, `selfplay_series`, {pol}", 1, r))
    r = rate(lambda m: selfplay_series(m, "baseline", seed=1, hands=True), n)
    rows.append(("engine + winners' hands recorded, baseline", 1, r))
    base = rate(lambda m: simulate(m, seed=1, chunk_size=20000), n)
    rows.append(("`simulate` (play, record, `score_batch`, `FanStats`), baseline", 1, base))
    # 2 processes: 4x the games so that starting the processes (spawn, import) weighs less
    two = rate(lambda m: simulate(m, seed=1, workers=2, chunk_size=max(1, m // 8)), 4 * n, repeat=1)
    rows.append(("`simulate --workers 2`, baseline (process start included)", 2, two))
    for what, procs, r in rows:
        print(f"| {what} | {procs} | {r:,.0f} | {r / procs:,.0f} | {r / base:.2f} |")
    # CPU time: what one core does, whatever else runs on the machine
    one = simulate(n, seed=1)
    two = simulate(4 * n, seed=1, workers=2, chunk_size=max(1, n // 2))
    print()
    print(f"games per CPU second (`simulate`, baseline): 1 process {one.games_per_cpu_second:,.0f}; "
          f"2 processes {two.games_per_cpu_second:,.0f} each (their chunks' CPU time summed); "
          f"wall-clock speed-up of 2 processes over 1: {two.games_per_second / one.games_per_second:.2f}x")
    sys.stdout.flush()


def stability(n, seeds, workers):
    runs = []
    for s in seeds:
        t0 = time.perf_counter()
        sim = simulate(n, seed=s, workers=workers)
        dt = time.perf_counter() - t0
        print(f"seed {s}: {n:,} games, {sim.wins:,} wins, {dt:.0f} s ({n / dt:,.0f} games/s, {workers} "
              f"process{'es' if workers > 1 else ''}), mismatches {sim.mismatches}", file=sys.stderr, flush=True)
        runs.append(sim)
    tabs = [r.stats.table() for r in runs]
    names = tabs[0]["name"].tolist()
    shares = np.array([t["share"].to_numpy() for t in tabs])
    wins = np.array([r.stats.wins for r in runs])
    seen = (np.array([t["wins"].to_numpy() for t in tabs]) > 0).any(0)

    def sig3(x):
        return float(f"{x:.3g}") if x > 0 else 0.0
    agree = [len({sig3(x) for x in shares[:, j]}) == 1 for j in range(len(names))]
    order = np.argsort(-shares.mean(0))
    print(f"| fan | " + " | ".join(f"share, seed {s}" for s in seeds) + " | same to 3 s.f. | max diff / s.e. |")
    print("|---|" + "---:|" * len(seeds) + ":---:|---:|")
    n_seen = n_agree = n_agree_1pct = n_1pct = 0
    for j in order:
        if not seen[j]:
            continue
        p = shares[:, j].mean()
        se = math.sqrt(p * (1 - p) / wins.mean()) if p > 0 else math.nan
        d = (shares[:, j].max() - shares[:, j].min()) / se if se > 0 else 0.0
        n_seen += 1
        n_agree += agree[j]
        if p >= 0.01:
            n_1pct += 1
            n_agree_1pct += agree[j]
        print(f"| {names[j]} | " + " | ".join(f"{x:.5f}" for x in shares[:, j]) +
              f" | {'yes' if agree[j] else 'no'} | {d:.2f} |")
    print()
    print(f"fans seen: {n_seen}; same to 3 significant digits in every seed: {n_agree}; "
          f"among the {n_1pct} fans with a share >= 1 %: {n_agree_1pct}")
    summ = [r.summary() for r in runs]
    print(json.dumps([{k: s[k] for k in ("seed", "games", "wins", "win_share", "games_per_second")} for s in summ]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000, help="games per throughput row (default 20000)")
    ap.add_argument("--stability", type=int, default=0, metavar="N", help="games per seed for the stability run")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    if a.stability:
        stability(a.stability, a.seeds, a.workers)
    else:
        throughput(a.games)


if __name__ == "__main__":
    main()
