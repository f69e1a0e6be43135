"""Reading match archives: mjfast.logs against a straightforward Python replay
that calls PyMahjongGB at each win (benchmarks/naive_logs.py), side by side in
one run, on one archive written by the game engine.

    python benchmarks/bench_logs.py [--matches 20000] [--archive PATH] [--gen-workers 2]
                                    [--json-matches 1000] [--repeat 3] [--no-memory]

The archive is generated once (seeded random players, mjfast.game) and kept at
--archive (default /tmp/mjfast-bench-archive-<N>.txt); so is a directory of
match JSON files.  Timed on one core unless said: the compiled reader alone
(read + replay + score in C), the whole pipeline of ``mjfast logs score``
(compiled path, the default), the same with the Python text reader
(``fast=False``: then the same replay driver), the peer, and ``--workers 2``; then the match
JSON (orjson whole-file decoding against the streaming json module) and the
peak memory of ``mjfast logs score`` on the archive and on four copies of it.
The paths must give the same rows; mjfast and the peer the same totals.
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


def _gen_json(args):
    lo, hi, d = args
    import json
    from mjfast.game import play, players
    for i in range(lo, hi):
        ps = [players.RandomPlayer(seed=i * 4 + k) for k in range(4)]
        with open(os.path.join(d, f"{i:06d}.json"), "w", encoding="utf-8") as f:
            json.dump(play(ps, seed=i, quan=i % 4, match_id=f"j{i}").to_botzone_json(), f, ensure_ascii=False)


def make_json_dir(d, n, workers):
    import multiprocessing as mp
    os.makedirs(d + ".tmp", exist_ok=True)
    parts = [(a, min(a + 100, n), d + ".tmp") for a in range(0, n, 100)]
    with mp.get_context("fork").Pool(workers) as pool:
        list(pool.imap(_gen_json, parts))
    os.replace(d + ".tmp", d)


def peak_rss_mb(path):
    """Peak resident memory (MB) of `mjfast logs score path` in a child process."""
    import resource
    import subprocess
    import tempfile
    # VmHWM, the child's own high-water mark: ru_maxrss would start at this
    # (parent) process's peak, carried across vfork + exec on Linux
    code = ("import resource, sys; from mjfast.cli import main; rc = main(['logs', 'score', sys.argv[1], "
            "'--out', sys.argv[2], '--no-progress']); assert rc == 0, rc; "
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')]; "
            "print(int(hwm[0].split()[1]) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-c", code, path, os.path.join(tmp, "rows.jsonl")],
                             capture_output=True, text=True, cwd=os.path.dirname(HERE),
                             env={**os.environ, "PYTHONPATH": os.path.dirname(HERE)})
    if out.returncode:
        raise RuntimeError(f"mjfast logs score failed: {out.stderr[-500:]}")
    return int(out.stdout.split()[-1]) / 1024


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20000)
    ap.add_argument("--archive", default=None)
    ap.add_argument("--gen-workers", type=int, default=2)
    ap.add_argument("--json-matches", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-memory", action="store_true")
    args = ap.parse_args(argv)
    path = args.archive or f"/tmp/mjfast-bench-archive-{args.matches}.txt"
    if not os.path.exists(path):
        make_archive(path, args.matches, args.gen_workers)
    jdir = f"/tmp/mjfast-bench-json-{args.json_matches}"
    if args.json_matches and not os.path.exists(jdir):
        make_json_dir(jdir, args.json_matches, args.gen_workers)

    from mjfast.logs import fasttext, jsonlog
    from mjfast.logs.scoring import process, split_tasks
    from naive_logs import naive_scores

    with open(path, "rb") as f:
        n_lines = sum(1 for _ in f)
    tasks = split_tasks([path])

    def compiled_only():
        n = 0
        for t in tasks:
            n += len(fasttext.replay_text(fasttext.read_chunk(t[0], t[2], t[3]), t[4], fasttext._KEYS))
        return n

    def pipeline(fast=True, workers=1):
        rows, summary = [], None
        from mjfast.logs import Summary
        summary = Summary()
        for r, _w, s in process([path], workers=workers, fast=fast):
            rows += r
            summary.add(s)
        return rows, summary

    compiled_only()                       # warm up (tables, imports)
    timings = {}
    for _ in range(args.repeat):          # the rows interleaved, best of each
        for name, fn in (("compiled", compiled_only), ("fast", pipeline), ("python", lambda: pipeline(False)),
                         ("peer", lambda: naive_scores(path)), ("fast2", lambda: pipeline(True, 2))):
            t = time.perf_counter()
            out = fn()
            dt = time.perf_counter() - t
            if name not in timings or dt < timings[name][0]:
                timings[name] = (dt, out)
    n = timings["compiled"][1]
    rows, summary = timings["fast"][1]
    rows_py, _s = timings["python"][1]
    naive = timings["peer"][1]
    ours = [(r["match"], r["winner"], r["total"]) for r in rows]
    agree = sum(1 for a, b in zip(ours, naive) if a == b)

    print(f"archive: {path}: {n} matches, {n_lines:,} lines, {summary.wins} wins "
          f"({summary.skipped} skipped); best of {args.repeat}, interleaved")
    print(f"{'text archive':58s} {'seconds':>8s} {'matches/s':>10s} {'lines/s':>11s} {'vs peer':>8s}")
    t_peer = timings["peer"][0]
    for key, name in (("compiled", "mjfast: compiled read + replay + score (replay_text)"),
                      ("fast", "mjfast logs score (compiled path, default), 1 process"),
                      ("python", "mjfast logs score, Python text reader (fast=False)"),
                      ("peer", "peer: Python replay + PyMahjongGB per win"),
                      ("fast2", "mjfast logs score --workers 2 (wall clock)")):
        t = timings[key][0]
        print(f"{name:58s} {t:8.3f} {n / t:10,.0f} {n_lines / t:11,.0f} {t_peer / t:7.2f}x")
    print(f"compiled path / Python path: {timings['python'][0] / timings['fast'][0]:.1f}x faster")
    print(f"rows identical on both paths: {rows == rows_py}; --workers 2 identical: {timings['fast2'][1][0] == rows}")
    print(f"totals agree with the peer on {agree}/{len(naive)} wins (ours {len(ours)})")

    if args.json_matches:
        from mjfast.logs import scoring
        jt = {}
        variants = (("orjson, collector paused (default)", jsonlog._orjson, True),
                    ("json module, collector paused", None, True),
                    ("json module, collector on", None, False))
        for _ in range(args.repeat):
            for name, mod, pause in variants:
                saved = jsonlog._orjson, scoring.PAUSE_GC
                jsonlog._orjson, scoring.PAUSE_GC = mod, pause
                try:
                    t = time.perf_counter()
                    out = [r for r, _w, _s in process([jdir])]
                    dt = time.perf_counter() - t
                finally:
                    jsonlog._orjson, scoring.PAUSE_GC = saved
                if name not in jt or dt < jt[name][0]:
                    jt[name] = (dt, out)
        nj = args.json_matches
        print(f"\nmatch JSON: {jdir}: {nj} files, {sum(os.path.getsize(os.path.join(jdir, x)) for x in os.listdir(jdir)) / nj / 1024:.0f} KB a match")
        for name, *_ in variants:
            print(f"  {name:58s} {jt[name][0]:8.3f} s {nj / jt[name][0]:10,.0f} matches/s")
        print(f"  same rows: {len({repr(v[1]) for v in jt.values()}) == 1}")

    if not args.no_memory:
        big = path + ".x4"
        if not os.path.exists(big):
            with open(path, "rb") as f:
                data = f.read()
            with open(big, "wb") as f:
                for _ in range(4):
                    f.write(data)
        print(f"\npeak RSS of mjfast logs score: {peak_rss_mb(path):.0f} MB ({os.path.getsize(path) >> 20} MB archive), "
              f"{peak_rss_mb(big):.0f} MB ({os.path.getsize(big) >> 20} MB archive)")


if __name__ == "__main__":
    main()
