#!/usr/bin/env python
"""Games per second of mjfast.game, one process (one core).

    PYTHONPATH=. python benchmarks/bench_game.py [--games N] [--profile]

Rows: trivial players (tsumogiri: discard the drawn tile) through the fast
path (``act``, no request strings) and through request strings; seeded random
legal players; writing the records.  Each row plays the same seeds 0..N-1;
the best of 3 runs is reported.  ``--profile`` prints where the time goes
(cProfile, tottime) for the tsumogiri fast path.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from mjfast.game import play
from mjfast.game.players import RandomPlayer, Tsumogiri, tsumogiri


def _strings_only():
    t = Tsumogiri()
    return lambda req: t.respond(req)


def rate(fn, n, repeat=3):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        for seed in range(n):
            fn(seed)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return n / best


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args(argv)
    n = a.games
    s = _strings_only()
    rows = [
        ("tsumogiri, fast path (act)", lambda seed: play([tsumogiri] * 4, seed=seed), n),
        ("tsumogiri, request strings", lambda seed: play([s] * 4, seed=seed), n),
        ("random legal players, fast path", lambda seed: play([RandomPlayer(seed * 4 + k) for k in range(4)],
                                                             seed=seed), max(n // 10, 20)),
        ("tsumogiri + to_botzone_text", lambda seed: play([tsumogiri] * 4, seed=seed).to_botzone_text(), n),
        ("tsumogiri + to_botzone_json", lambda seed: play([tsumogiri] * 4, seed=seed).to_botzone_json(), n // 5),
    ]
    print("| players | games/s (1 core) |\n|---|---:|")
    for name, fn, k in rows:
        print(f"| {name} | {rate(fn, k):,.0f} |")
        sys.stdout.flush()
    if a.profile:
        pr = cProfile.Profile()
        pr.enable()
        for seed in range(n):
            play([tsumogiri] * 4, seed=seed)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
