#!/usr/bin/env python
"""Response times of the Botzone bot (``python -m mjfast.botzone``).

    PYTHONPATH=. python benchmarks/bench_botzone.py [--games N] [--starts N]

* first turn: a fresh process (interpreter start, imports, the lookup tables
  built by the first shanten call) answering its first draw, timed from
  writing the input to reading the answer, as the judge times it (limit 2 x
  6 s for Python, 2 x 1 s for C/C++);
* first turn late in a game: a fresh process given the whole history (the
  judge's mode without keep-running), the longest replay of a game;
* later turns, keep-running: the round trip of one request through the pipe;
* decisions in process: ``SampleBot.respond`` on its own draws (the turns
  that need a decision), and the baseline's.

The machine's load average is printed: the figures are wall-clock times.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from mjfast.botzone.match import InProcessBot, SubprocessBot, play_game
from mjfast.game import random_walls

BOT = [sys.executable, "-m", "mjfast.botzone"]


def _history(seed=3, seat=0):
    rec = play_game([InProcessBot("sample") for _ in range(4)], random_walls(seed), 0)
    reqs = []

    def on_request(st, kind, resp):
        reqs.append(st.init_request(seat) if kind == "INIT" else st.deal_request(seat) if kind == "DEAL"
                    else st.request(seat))
    rec.replay(on_request=on_request)
    return reqs, [r[seat] for r in rec.rounds]


def first_turn(reqs, resps, k, starts):
    """Seconds from writing the input of turn k to reading the answer, fresh processes."""
    inp = json.dumps({"requests": reqs[:k], "responses": resps[:k - 1]}) + "\n"
    out = []
    for _ in range(starts):
        t0 = time.perf_counter()
        p = subprocess.Popen(BOT + ["--once"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write(inp)
        p.stdin.flush()
        line = p.stdout.readline()
        out.append(time.perf_counter() - t0)
        p.stdin.close()
        p.wait()
        assert json.loads(line)["response"] == resps[k - 1]
    return out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--starts", type=int, default=7)
    a = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    reqs, resps = _history()
    k_draw = next(i for i, r in enumerate(reqs) if r.startswith("2 ")) + 1
    ft = first_turn(reqs, resps, k_draw, a.starts)
    print(f"first turn (fresh process, first own draw): median {statistics.median(ft) * 1e3:.0f} ms, "
          f"max {max(ft) * 1e3:.0f} ms over {a.starts} starts")
    fl = first_turn(reqs, resps, len(reqs), a.starts)
    print(f"fresh process given a whole game's history ({len(reqs)} requests): "
          f"median {statistics.median(fl) * 1e3:.0f} ms, max {max(fl) * 1e3:.0f} ms")
    sub = SubprocessBot(" ".join(BOT), mode="json", time_limit=60)
    times = []
    for g in range(max(1, a.games // 4)):
        play_game([sub, InProcessBot("baseline"), InProcessBot("baseline"), InProcessBot("baseline")],
                  random_walls(100 + g), 0)
        times += sub.times
        sub.times = []
    print(f"keep-running turns (pipe round trip, {len(times)} turns): median {statistics.median(times) * 1e3:.2f} ms, "
          f"p99 {pct(times, 0.99) * 1e3:.2f} ms, max {max(times) * 1e3:.2f} ms")
    for kind in ("sample", "baseline"):
        dec = []
        for g in range(a.games):
            bots = [InProcessBot(kind) for _ in range(4)]
            orig = bots[0].bot.respond
            # time only the requests that leave a choice (own draws, others' discards)

            def timed(req, orig_bot=bots[0]):
                t0 = time.perf_counter()
                r = orig_bot.bot.__class__.respond(orig_bot.bot, req)
                if req[0] == "2" or (" PLAY " in req or " PENG " in req or " CHI " in req):
                    dec.append(time.perf_counter() - t0)
                return r
            bots[0].respond = timed
            del orig
            play_game(bots, random_walls(200 + g), 0)
        print(f"{kind} in process, per decision request ({len(dec)}): median {statistics.median(dec) * 1e3:.3f} ms, "
              f"p99 {pct(dec, 0.99) * 1e3:.2f} ms, max {max(dec) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
