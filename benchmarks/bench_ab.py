"""Two builds of mjfast side by side: score_batch and score() per call.

    python benchmarks/bench_ab.py OLD_ROOT NEW_ROOT [--n 100000] [--rounds 7]

Each root is a directory holding a built ``mjfast`` package and the repo's
``tests/`` (a worktree after ``build_ext --inplace``, or a copy of one).  The
two builds run in alternating subprocesses (A B A B ...) on the same seeded
records from tests/handgen, so machine load hits both alike; the best round of
each is reported with the ratio NEW / OLD (hands per second; above 1 is faster).
Times are CPU time of the process (time.process_time, one thread: workers=1),
which a loaded machine disturbs far less than wall-clock time.
Rows: score_batch (workers=1) on the generator's mix with rules "mcr" and
"two_player" (the two-player rows are the generator's hands that only use its
tiles), and mjfast.score on notation strings, one call per hand.
"""
import argparse
import statistics
import sys

from _child import run_child

CHILD = r"""
import json, sys, time
sys.path.insert(0, __ROOT__); sys.path.insert(1, __ROOT__ + "/tests")
import numpy as np
import mjfast, handgen
recs = handgen.random_winning_records(__N__, seed=20240611)
tp_recs = [r for r in recs if not any(ch in r["hand"] for ch in "ps")][:__N__]
out = {"file": mjfast._core.__file__}
def best(fn, rounds):
    t = []
    for _ in range(rounds):
        t0 = time.process_time(); fn(); t.append(time.process_time() - t0)
    return min(t)
b = mjfast.HandBatch.from_records(recs)
mjfast.score_batch(b, workers=1)
out["score_batch mcr"] = len(recs) / best(lambda: mjfast.score_batch(b, workers=1), __REPS__)
if tp_recs:
    tb = mjfast.HandBatch.from_records(tp_recs)
    mjfast.score_batch(tb, workers=1, rules="two_player")
    out["score_batch two_player"] = len(tp_recs) / best(lambda: mjfast.score_batch(tb, workers=1, rules="two_player"), __REPS__)
    out["n two_player"] = len(tp_recs)
kw = [(r["hand"], dict(self_drawn=r.get("self_drawn", False), fourth_tile=r.get("fourth_tile", False), kong=r.get("kong", False), last_tile=r.get("last_tile", False), seat_wind=r.get("seat_wind", "E"), round_wind=r.get("round_wind", "E"), flowers=r.get("flowers", 0))) for r in recs[:__NS__]]
f = mjfast.score
def single():
    for h, k in kw:
        f(h, **k)
single()
out["score() per call"] = len(kw) / best(single, __REPS__)
print(json.dumps(out))
"""


def run(root, n, ns, reps):
    code = (CHILD.replace("__ROOT__", repr(root)).replace("__NS__", str(ns)).replace("__N__", str(n))
            .replace("__REPS__", str(reps)))
    return run_child(root, code)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--n", type=int, default=100_000, help="records for score_batch")
    ap.add_argument("--n-single", type=int, default=20_000, help="records for score() per call")
    ap.add_argument("--rounds", type=int, default=5, help="alternating subprocess rounds per build")
    ap.add_argument("--reps", type=int, default=3, help="timed repeats inside a subprocess")
    a = ap.parse_args()
    best = {"old": {}, "new": {}}
    runs = {"old": {}, "new": {}}
    for i in range(a.rounds):
        for which, root in (("old", a.old), ("new", a.new)) if i % 2 == 0 else (("new", a.new), ("old", a.old)):
            res = run(root, a.n, a.n_single, a.reps)
            print(f"round {i} {which}: " + ", ".join(f"{k} {v:,.0f}" for k, v in res.items() if k[0] != "f" and k[0] != "n"),
                  file=sys.stderr)
            for k, v in res.items():
                if isinstance(v, float):
                    best[which][k] = max(best[which].get(k, 0.0), v)
                    runs[which].setdefault(k, []).append(v)
                else:
                    best[which][k] = v
    print(f"old: {best['old']['file']}\nnew: {best['new']['file']}\n")
    print("| operation | old hands/s (best) | new hands/s (best) | new / old (best) | new / old (median) |")
    print("|---|---:|---:|---:|---:|")
    for k, v in best["old"].items():
        if isinstance(v, float) and k in best["new"]:
            med = statistics.median(runs["new"][k]) / statistics.median(runs["old"][k])
            print(f"| {k} | {v:,.0f} | {best['new'][k]:,.0f} | {best['new'][k] / v:.3f} | {med:.3f} |")


if __name__ == "__main__":
    main()
