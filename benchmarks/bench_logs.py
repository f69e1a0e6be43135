"""Reading match archives: mjfast.logs against a straightforward Python replay
that calls PyMahjongGB at each win (benchmarks/naive_logs.py), side by side in
one run, on one archive written by the game engine.

    python benchmarks/bench_logs.py [--matches 20000] [--archive PATH] [--gen-workers 2]

The archive is generated once (seeded random players, mjfast.game) and kept at
--archive (default /tmp/mjfast-bench-archive-<N>.txt).  Each stage is timed
separately on one core: parse only, parse + replay, the whole pipeline
(parse + replay + bulk scoring, what ``mjfast logs score`` does), the bulk
scoring alone, and the peer.  The peer and mjfast must agree on every total.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)


def _gen(args):
    lo, hi = args
    from mjfast.game import play, players
    out = []
    for i in range(lo, hi):
        ps = [players.RandomPlayer(seed=i * 4 + k) for k in range(4)]
        out.append(play(ps, seed=i, quan=i % 4, match_id=f"b{i}").to_botzone_text())
    return "".join(out)


def make_archive(path, n, workers):
    import multiprocessing as mp
    step = 250
    parts = [(a, min(a + step, n)) for a in range(0, n, step)]
    t = time.perf_counter()
    with mp.get_context("fork").Pool(workers) as pool, open(path + ".tmp", "w", encoding="utf-8") as f:
        for text in pool.imap(_gen, parts):
            f.write(text)
    os.replace(path + ".tmp", path)
    print(f"generated {n} matches in {time.perf_counter() - t:.1f} s -> {path}", file=sys.stderr)


def best(fn, repeat):
    times = []
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20000)
    ap.add_argument("--archive", default=None)
    ap.add_argument("--gen-workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    path = args.archive or f"/tmp/mjfast-bench-archive-{args.matches}.txt"
    if not os.path.exists(path):
        make_archive(path, args.matches, args.gen_workers)

    import mjfast.logs as L
    from mjfast.logs.scoring import run_task, _score_wins, Summary
    from naive_logs import naive_scores

    n_lines = sum(1 for _ in open(path, "rb"))
    # warm up (tables, imports)
    list(L.read(path))[:1]

    t_parse, ms = best(lambda: sum(1 for _ in L.read(path)), args.repeat)
    matches = list(L.read(path))
    n = len(matches)

    def replay_all():
        wins = []
        for m in matches:
            wins += L.replay(m).wins
        return wins

    t_replay, wins = best(replay_all, args.repeat)
    t_score, _ = best(lambda: _score_wins(wins, Summary(), []), args.repeat)
    t_full, (rows, _w, summary) = best(lambda: run_task((path, "text", 0, None, 1)), args.repeat)
    t_naive, naive = best(lambda: naive_scores(path), args.repeat)

    ours = [(r["match"], r["winner"], r["total"]) for r in rows]
    agree = sum(1 for a, b in zip(ours, naive) if a == b)

    print(f"archive: {path}: {n} matches, {n_lines:,} lines, {len(wins)} wins "
          f"({summary.skipped} skipped); one core, best of {args.repeat}")
    print(f"{'stage':44s} {'seconds':>8s} {'matches/s':>10s} {'lines/s':>11s}")
    for name, t in (("mjfast: parse only", t_parse), ("mjfast: replay only (engine)", t_replay),
                    ("mjfast: bulk scoring only (score_batch)", t_score),
                    ("mjfast: parse + replay + score (logs score)", t_full),
                    ("peer: Python replay + PyMahjongGB per win", t_naive)):
        print(f"{name:44s} {t:8.2f} {n / t:10,.0f} {n_lines / t:11,.0f}")
    print(f"ratio peer / mjfast (whole pipeline): {t_naive / t_full:.2f}x")
    print(f"totals agree with the peer on {agree}/{len(naive)} wins (ours {len(ours)})")


if __name__ == "__main__":
    main()
