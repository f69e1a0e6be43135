"""Two builds of mjfast side by side: the per-call cost of a bot's decisions.

    python benchmarks/bench_decide_ab.py OLD_ROOT NEW_ROOT [--pairs 6] [--hands 2000]

Times ``mjfast.shanten`` and ``mjfast.useful_tiles`` on 13-tile hands and
``mjfast.best_discards`` on 14-tile hands, one call per hand from Python,
with the 34 counts given as a list, a tuple and (as a control: its read does
not go through the list/tuple code) a uint8 array.  Each root is a directory
holding a built ``mjfast`` package (a worktree after ``build_ext --inplace``,
or a clone of one).  The two builds run in alternating fresh processes
(A B, B A, ...) on the same seeded hands, so machine load hits both alike.

Inside a process each row is the best of --rounds passes over the hands
(CPU time, ``time.process_time``: one thread, so other jobs on a shared
machine disturb it less than wall-clock time), in ns per call.  The table
gives the median over the processes of each build and the ratio NEW / OLD
of the medians (below 1 is faster), and the range of the per-pair ratios.
Each process also hashes every answer; the two builds must agree.
"""
import argparse
import statistics
import sys

from _child import run_child

CHILD = r"""
import hashlib, json, sys, time
sys.path.insert(0, __ROOT__)
import numpy as np
import mjfast

def hands(n, size, seed):
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(34), 4)
    return [np.bincount(rng.choice(wall, size, replace=False), minlength=34).astype(np.uint8) for _ in range(n)]

H13 = hands(__N__, 13, 1)
H14 = hands(__N__, 14, 2)
kinds = {"list": lambda h: h.tolist(), "tuple": lambda h: tuple(h.tolist()), "uint8": lambda h: h}
ops = {"shanten": (mjfast.shanten, H13), "useful_tiles": (mjfast.useful_tiles, H13),
       "best_discards": (mjfast.best_discards, H14)}
out = {"file": mjfast._core.__file__}
digest = hashlib.sha256()
jobs = []
for op, (fn, hs) in ops.items():
    for kind, conv in kinds.items():
        items = [conv(h) for h in hs]
        res = [fn(x) for x in items]           # also warms the tables
        digest.update(repr([tuple(r) if isinstance(r, tuple) else r for r in res]).encode())
        jobs.append((f"{op} {kind}", fn, items))
def one(fn, items):
    t0 = time.process_time()
    for x in items:
        fn(x)
    return (time.process_time() - t0) / len(items)
best = {k: float("inf") for k, _, _ in jobs}
for _ in range(__ROUNDS__):                     # rows interleaved within the process too
    for k, fn, items in jobs:
        best[k] = min(best[k], one(fn, items))
for k, v in best.items():
    out[k] = v * 1e9
out["digest"] = digest.hexdigest()
print(json.dumps(out))
"""


def run(root, n, rounds):
    code = CHILD.replace("__ROOT__", repr(root)).replace("__N__", str(n)).replace("__ROUNDS__", str(rounds))
    return run_child(root, code)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--pairs", type=int, default=6, help="alternating pairs of fresh processes")
    ap.add_argument("--hands", type=int, default=2000, help="hands per pass")
    ap.add_argument("--rounds", type=int, default=7, help="timed passes inside a process (best kept)")
    a = ap.parse_args()
    runs = {"old": [], "new": []}
    for i in range(a.pairs):
        order = (("old", a.old), ("new", a.new)) if i % 2 == 0 else (("new", a.new), ("old", a.old))
        for which, root in order:
            res = run(root, a.hands, a.rounds)
            runs[which].append(res)
            print(f"pair {i} {which}: " + ", ".join(f"{k} {v:.0f}" for k, v in res.items()
                                                    if isinstance(v, float)), file=sys.stderr)
    digests = {r["digest"] for rs in runs.values() for r in rs}
    if len(digests) != 1:
        raise SystemExit(f"the builds disagree: {len(digests)} different answer hashes")
    print(f"old: {runs['old'][0]['file']}\nnew: {runs['new'][0]['file']}")
    print(f"{a.pairs} pairs of fresh processes, {a.hands} hands, best of {a.rounds} passes per process; "
          f"answers identical (sha256 {digests.pop()[:12]})\n")
    print("| call | input | old ns/call (median) | new ns/call (median) | new / old | per-pair range |")
    print("|---|---|---:|---:|---:|---|")
    for k, v in runs["old"][0].items():
        if not isinstance(v, float):
            continue
        old = [r[k] for r in runs["old"]]
        new = [r[k] for r in runs["new"]]
        pair = sorted(n / o for n, o in zip(new, old))
        op, kind = k.split(" ")
        print(f"| `{op}` | {kind} | {statistics.median(old):.0f} | {statistics.median(new):.0f} | "
              f"{statistics.median(new) / statistics.median(old):.3f} | {pair[0]:.3f}-{pair[-1]:.3f} |")


if __name__ == "__main__":
    main()
