#!/usr/bin/env python
"""Games per second of mjfast.game, one process (one core).

    PYTHONPATH=. python benchmarks/bench_game.py [--games N] [--profile]

Each row plays the same seeds 0..N-1 (fewer for the slow rows); the best of 3
runs is reported.  Trivial players = tsumogiri (discard the drawn tile):

* selfplay(): the compiled engine, numpy walls in, numpy results out;
* play(): the compiled engine behind play(), with a Python-shuffled wall and a
  GameRecord (its log and responses built only when read);
* GameState (the engine's Python face) with players' ``act`` fast path,
  stepped directly (draw / legal_actions / turn / claim: what a judge or a
  replay pays per step), and with request strings (what an external bot
  costs at least).

``--profile`` prints where the time goes (cProfile, tottime) for play() with
tsumogiri and for `GameState` driven from Python.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from mjfast.game import CODES, GameState, play, random_walls
from mjfast.game.fast import selfplay
from mjfast.game.players import RandomPlayer, Tsumogiri, tsumogiri


class PyTsumogiri(Tsumogiri):
    """tsumogiri without the compiled policy: `play()` drives a `GameState`."""
    compiled_policy = None


py_tsumogiri = PyTsumogiri()


def _strings_only():
    t = Tsumogiri()
    return lambda req: t.respond(req)


def gamestate_steps(seed):
    """One game stepped through GameState from Python, the way a judge or a
    replay does: draw(), legal_actions() of the seat to answer, turn("PLAY
    t") of the drawn tile, claim() with every seat passing."""
    st = GameState(0, walls=random_walls(seed))
    passes = ["PASS"] * 4
    while st.phase != "over":
        ph = st.phase
        if ph == "draw":
            st.draw()
        elif ph == "turn":
            st.legal_actions(st.current)
            st.turn("PLAY " + CODES[st.last_tile])
        else:
            st.claim(passes)


def rate(fn, n, repeat=3):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(n)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return n / best


def each(f):
    def run(n):
        for seed in range(n):
            f(seed)
    return run


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args(argv)
    n = a.games
    s = _strings_only()
    rows = [
        ("tsumogiri, `selfplay()` (compiled, arrays out)", lambda k: selfplay(k, "tsumogiri", seed=1), 5 * n),
        ("tsumogiri, `play()` (compiled, GameRecord)", each(lambda seed: play([tsumogiri] * 4, seed=seed)), n),
        ("tsumogiri, `GameState`, `act` fast path", each(lambda seed: play([py_tsumogiri] * 4, seed=seed)),
         n // 4),
        ("tsumogiri, `GameState` stepped from Python (draw / legal_actions / turn / claim)",
         each(gamestate_steps), n // 4),
        ("tsumogiri, `GameState`, request strings", each(lambda seed: play([s] * 4, seed=seed)), n // 8),
        ("random policy, `selfplay()` (compiled)", lambda k: selfplay(k, "random", seed=1), n // 4),
        ("baseline policy, `selfplay()` (compiled)", lambda k: selfplay(k, "baseline", seed=1), n // 4),
        ("`RandomPlayer` x4, `GameState`", each(lambda seed: play([RandomPlayer(seed * 4 + j) for j in range(4)],
                                                                  seed=seed)), n // 40),
        ("tsumogiri `play()` + `to_botzone_text()`",
         each(lambda seed: play([tsumogiri] * 4, seed=seed).to_botzone_text()), n // 4),
        ("tsumogiri `play()` + `to_botzone_json()`",
         each(lambda seed: play([tsumogiri] * 4, seed=seed).to_botzone_json()), n // 20),
    ]
    print("| game loop | games/s (1 core) |\n|---|---:|")
    for name, fn, k in rows:
        print(f"| {name} | {rate(fn, max(k, 10)):,.0f} |")
        sys.stdout.flush()
    if a.profile:
        for label, f in (("play() compiled", lambda seed: play([tsumogiri] * 4, seed=seed)),
                         ("GameState, act", lambda seed: play([py_tsumogiri] * 4, seed=seed))):
            print(f"\n### profile: {label}, tsumogiri, {n // 4} games")
            pr = cProfile.Profile()
            pr.enable()
            each(f)(n // 4)
            pr.disable()
            pstats.Stats(pr).sort_stats("tottime").print_stats(10)


if __name__ == "__main__":
    main()
