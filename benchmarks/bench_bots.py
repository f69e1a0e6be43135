"""Per-call speed for bots: mjfast beside xiangting and PyMahjongGB.

One call per hand, from Python, on the same random hands in one run:
shanten, useful tiles and best_discards, per input kind (a list of 34 ints,
a uint8 array, an int64 array).  Prints a Markdown table of calls/s (the
best of --repeat rounds) and the ratios.

    nice -n 0 python benchmarks/bench_bots.py [--hands 4000] [--repeat 5]

Peers (each does a narrower job, noted in the table):
* xiangting (``pip install xiangting``): riichi forms only (regular, seven
  distinct pairs, thirteen orphans); ``calculate_replacement_number`` =
  shanten + 1, ``calculate_necessary_tiles`` = the useful tiles as a bit set.
  For best_discards it has no single call: 14 ``calculate_necessary_tiles``
  calls in a Python loop do the same job.
* PyMahjongGB (``MahjongGB``): ``MahjongShanten`` (all MCR forms, tiles as
  strings), ``RegularShanten`` (regular form, with its useful tiles).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import mjfast  # noqa: E402


def _hands(n, size, seed):
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 34), np.uint8)
    wall = np.repeat(np.arange(34), 4)
    for i in range(n):
        out[i] = np.bincount(rng.choice(wall, size, replace=False), minlength=34)
    return out


def _rate(fn, items, repeat):
    best = 0.0
    for _ in range(repeat):
        t = time.perf_counter()
        for x in items:
            fn(x)
        best = max(best, len(items) / (time.perf_counter() - t))
    return best


def _fmt(x):
    if x is None:
        return "-"
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x / 1e3:.0f} k"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=200, help="hands per timed round")
    args = ap.parse_args(argv)

    H13 = _hands(args.hands, 13, 1)
    H14 = _hands(args.hands, 14, 2)
    kinds = {
        "list": ([h.tolist() for h in H13], [h.tolist() for h in H14]),
        "uint8": (list(H13), list(H14)),
        "int64": ([h.astype(np.int64) for h in H13], [h.astype(np.int64) for h in H14]),
    }
    # warm the tables (first use builds them)
    mjfast.shanten(H13[0]); mjfast.useful_tiles(H13[0]); mjfast.best_discards(H14[0])

    try:
        import xiangting as xt
        four = xt.PlayerCount.FOUR
    except ImportError:
        xt = None
    try:
        import MahjongGB as gb
        from oracle import _dummy_packs, _tiles_of
    except ImportError:
        gb = None

    def xt_best(h):
        h = list(h)
        out = []
        for t in range(34):
            if h[t]:
                h[t] -= 1
                out.append(xt.calculate_necessary_tiles(h, four))
                h[t] += 1
        return out

    # rounds interleave the libraries (the machine is shared: load moves
    # between rounds, and each figure is the best round of its own)
    rows = []
    for kind, (h13, h14) in kinds.items():
        jobs = {"shanten": (mjfast.shanten, h13), "useful": (mjfast.useful_tiles, h13),
                "best": (mjfast.best_discards, h14)}
        if xt is not None:
            jobs["xt_shanten"] = (lambda h: xt.calculate_replacement_number(h, four), h13)
            jobs["xt_useful"] = (lambda h: xt.calculate_necessary_tiles(h, four), h13)
            jobs["xt_best"] = (xt_best, h14[: max(1, len(h14) // 4)])
        r = {k: 0.0 for k in jobs}
        for _ in range(args.repeat):
            for k, (fn, items) in jobs.items():
                # short rounds over slices: on a loaded machine a long round
                # is always interrupted; the best short round is the speed
                for lo in range(0, len(items), args.chunk):
                    r[k] = max(r[k], _rate(fn, items[lo:lo + args.chunk], 1))
        rows.append((kind, r))

    gbrow = {}
    if gb is not None:
        packs = [(_dummy_packs(list(h), 0), _tiles_of(list(h))) for h in H13]
        for key, fn in (("shanten", lambda a: gb.MahjongShanten(*a)), ("useful", lambda a: gb.RegularShanten(a[1]))):
            gbrow[key] = max(_rate(fn, packs[lo:lo + args.chunk], 1)
                             for _ in range(args.repeat) for lo in range(0, len(packs), args.chunk))

    print(f"{args.hands} random hands (13 tiles for shanten / useful tiles, 14 for best_discards), "
          f"best round of {args.chunk} hands over {args.repeat} passes, calls/s\n")
    print("| call (calls/s) | input | mjfast | xiangting | ratio | PyMahjongGB |")
    print("|---|---|---:|---:|---:|---:|")
    for op, xkey, label, gbkey in (("shanten", "xt_shanten", "`shanten` (all MCR forms)", "shanten"),
                                   ("useful", "xt_useful", "`useful_tiles`", "useful"),
                                   ("best", "xt_best", "`best_discards` (14 discards)", None)):
        for kind, r in rows:
            x = r.get(xkey)
            ratio = f"{r[op] / x:.2f}x" if x else "-"
            g = gbrow.get(gbkey) if (gbkey and kind == "list") else None
            print(f"| {label} | {kind} | {_fmt(r[op])} | {_fmt(x)} | {ratio} | {_fmt(g)} |")
    print("\nxiangting: riichi forms only; its best_discards column is 14 calculate_necessary_tiles calls "
          "in a Python loop.  PyMahjongGB (tiles as strings, timed on the list row): MahjongShanten for "
          "shanten, RegularShanten (regular form only) for useful tiles.")


if __name__ == "__main__":
    main()
