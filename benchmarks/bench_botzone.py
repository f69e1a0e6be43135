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

``--ab OLD_ROOT NEW_ROOT`` instead times a ``BotState`` update in two builds
side by side (each root a built checkout): the request streams of every seat
of ``--games`` seeded games, fed to a fresh ``BotState`` per stream
(``update`` + ``note_response``, then also ``legal_actions`` and
``hu_total`` after each request, as a bot asks them), in alternating
subprocesses (A B, B A, ...), CPU time, the best of ``--rounds``; the ratio
is NEW / OLD in requests per second (above 1: faster).

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


AB_CHILD = r"""
import json, sys, time
sys.path.insert(0, __ROOT__)
from mjfast.botzone import BotState
streams = json.load(open(__FILE__))
n = sum(len(r) for r, _ in streams)
def updates():
    for reqs, resps in streams:
        st = BotState()
        for q, a in zip(reqs, resps):
            st.update(q)
            st.note_response(a)
def asked():
    for reqs, resps in streams:
        st = BotState()
        for q, a in zip(reqs, resps):
            st.update(q)
            st.legal_actions()
            st.hu_total()
            st.note_response(a)
def best(fn):
    fn()
    t = []
    for _ in range(__REPS__):
        t0 = time.process_time(); fn(); t.append(time.process_time() - t0)
    return min(t)
print(json.dumps({"update": n / best(updates), "update + legal_actions + hu_total": n / best(asked), "n": n}))
"""


def ab(old, new, games, rounds):
    """BotState updates per second in two builds, alternating subprocesses."""
    import tempfile
    from _child import run_child
    streams = []
    for g in range(games):
        reqs = [[] for _ in range(4)]
        resps = [[] for _ in range(4)]

        def on_request(st, kind, resp):
            for s in range(4):
                reqs[s].append(st.init_request(s) if kind == "INIT" else st.deal_request(s) if kind == "DEAL"
                               else st.request(s))
                resps[s].append(resp[s])
        rec = play_game([InProcessBot("baseline") for _ in range(4)], random_walls(300 + g), g % 4)
        rec.replay(on_request=on_request)
        streams += list(zip(reqs, resps))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(streams, f)
    res = {old: [], new: []}
    for r in range(rounds):
        for root in ((old, new) if r % 2 == 0 else (new, old)):
            code = AB_CHILD.replace("__ROOT__", repr(root)).replace("__FILE__", repr(f.name)).replace("__REPS__", "3")
            res[root].append(run_child(root, code))
    os.unlink(f.name)
    n = res[new][0]["n"]
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {games} games, {n} requests "
          f"(4 seats), best of {rounds} alternating rounds, CPU time")
    print(f"| BotState | {old} (req/s) | {new} (req/s) | new / old |")
    print("|---|---:|---:|---:|")
    for k in ("update", "update + legal_actions + hu_total"):
        a, b = max(x[k] for x in res[old]), max(x[k] for x in res[new])
        print(f"| {k} | {a:,.0f} | {b:,.0f} | {b / a:.2f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--starts", type=int, default=7)
    ap.add_argument("--ab", nargs=2, metavar=("OLD_ROOT", "NEW_ROOT"))
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    if a.ab:
        ab(os.path.abspath(a.ab[0]), os.path.abspath(a.ab[1]), a.games, a.rounds)
        return
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
