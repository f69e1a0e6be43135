"""Records in, scores out: the cost of each stage, two builds side by side.

    python benchmarks/bench_records.py [--old DIR] [--n 100000] [--rounds 3]

Stages, per record, on the generator's mix (tests/handgen.py, all winning):

* parse        the compiled notation parser alone (``_core.parse_rows_fast``)
* from_records ``HandBatch.from_records`` (parse + record validation + columns)
* kernel       ``score_batch`` on a built batch (workers=1)
* records      record dicts -> ``from_records`` -> ``score_batch`` (the issue's target)
* from_strings ``HandBatch.from_strings`` with scalar flags, + ``score_batch``
* jsonl        ``mjfast.io.jsonl.score_jsonl``: a JSONL file to a JSONL file
* cli          ``mjfast score --jsonl IN OUT`` in a fresh process, on the file
               repeated 10 times (start-up included, per record)
* jsonl:chunk  the JSONL path without the file: lines in memory -> result bytes
* jsonl:scan / decode / read / kernel / write   its stages (new build): the
               compiled line scanner; for comparison, orjson decoding and the
               dict reader (lines the scanner leaves); score_batch; result lines

and the peer, PyMahjongGB's ``MahjongFanCalculator``: records -> arguments ->
calculator, and a JSONL file read, scored and written line by line.

``--old DIR``: a directory holding another build of the ``mjfast`` package
(e.g. a copy of main's); each round runs both builds in fresh processes, one
after the other, so that the machine's load hits both alike.  Best of the
rounds is reported, with the ratio new / old.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _best(fn, reps=3):
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def worker(n, path, out_path, peer, cli_repeat=10):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import gc
    import numpy as np
    import mjfast
    from mjfast import _core
    from mjfast.io.jsonl import score_jsonl
    import handgen
    recs = handgen.random_winning_records(n, seed=20240103)
    hands = [r["hand"] for r in recs]
    res = {"mjfast": mjfast.__file__}
    gc.collect()

    def parse():
        cols = dict(counts=np.zeros((n, 34), np.uint8), melds=np.zeros((n, 4, 3), np.uint8),
                    n_melds=np.zeros(n, np.uint8), win=np.zeros(n, np.uint8), ok=np.zeros(n, np.uint8))
        _core.parse_rows_fast(hands, cols["counts"], cols["melds"], cols["n_melds"], cols["win"], cols["ok"])
    res["parse"] = _best(parse)
    res["from_records"] = _best(lambda: mjfast.HandBatch.from_records(recs))
    batch = mjfast.HandBatch.from_records(recs)
    assert not batch.invalid.any()
    res["kernel"] = _best(lambda: mjfast.score_batch(batch))
    res["records"] = _best(lambda: mjfast.score_batch(mjfast.HandBatch.from_records(recs)))
    res["from_strings_only"] = _best(lambda: mjfast.HandBatch.from_strings(hands, self_drawn=True, seat_wind="S"))
    res["from_strings"] = _best(lambda: mjfast.score_batch(
        mjfast.HandBatch.from_strings(hands, self_drawn=True, seat_wind="S")))

    def jsonl():
        with open(path, "rb") as fin, open(out_path, "wb") as fout:
            score_jsonl(fin, fout)
    res["jsonl"] = _best(jsonl)
    # the command line on a file `cli_repeat` times as long (start-up, about
    # 0.3 s, is then a small part), scaled back to n records
    big = path + ".big"
    with open(path, "rb") as f:
        block = f.read()
    with open(big, "wb") as f:
        for _ in range(cli_repeat):
            f.write(block)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mjfast", "score", "--jsonl", big, out_path, "--no-progress"],
                   check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(mjfast.__file__))))
    res["cli"] = (time.perf_counter() - t0) / cli_repeat
    os.remove(big)
    from mjfast.io import jsonl as J
    if hasattr(J, "_fan_frags"):
        # where the JSONL time goes (the compiled path's stages, one chunk of n)
        with open(path, "rb") as f:
            lines = f.readlines()
        res["jsonl:decode"] = _best(lambda: list(map(J._loads, lines)))
        if hasattr(_core, "scan_lines"):
            def scan():
                c = dict(counts=np.zeros((n, 34), np.uint8), melds=np.zeros((n, 4, 3), np.uint8))
                u = [np.zeros(n, np.uint8) for _ in range(8)]
                _core.scan_lines(lines, c["counts"], c["melds"], *u, [None] * n)
            res["jsonl:scan"] = _best(scan)
        res["jsonl:chunk"] = _best(lambda: [J._process_chunk_fast(lines[a:a + 8192], a, J._loads)
                                            for a in range(0, n, 8192)])
        objs = list(map(J._loads, lines))
        res["jsonl:read"] = _best(lambda: mjfast.HandBatch.from_records(objs))
        b2 = mjfast.HandBatch.from_records(objs)
        res["jsonl:kernel"] = _best(lambda: mjfast.score_batch(b2))
        r2 = mjfast.score_batch(b2)
        order, frags = J._fan_frags()
        py_rows = np.zeros(n, np.uint8)
        res["jsonl:write"] = _best(lambda: _core.write_results(b2.ids, py_rows, r2.totals, r2.legal.view(np.uint8),
                                                             r2.fan_counts, order, frags, None))
    if peer:
        import MahjongGB
        import oracle
        import orjson
        mfc = MahjongGB.MahjongFanCalculator
        r2a = oracle.record_to_reference_args
        k = min(n, 20000)
        sub = recs[:k]

        def gb_records():
            for r in sub:
                mfc(*r2a(r))
        res["peer_records"] = _best(gb_records) * n / k

        def gb_jsonl():
            with open(path, "rb") as fin, open(out_path + ".gb", "wb") as fout:
                for i, line in enumerate(fin):
                    if i == k:
                        break
                    r = orjson.loads(line)
                    fans = mfc(*r2a(r))
                    fout.write(orjson.dumps({"id": r.get("id"), "total": sum(p for p, _ in fans),
                                             "fans": [{"name": nm, "points": p} for p, nm in fans]}) + b"\n")
        res["peer_jsonl"] = _best(gb_jsonl) * n / k
    print(json.dumps(res))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", help="directory holding another build of the mjfast package")
    ap.add_argument("--new", default=ROOT, help="directory holding the build to measure (default: this checkout)")
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--path", help=argparse.SUPPRESS)
    ap.add_argument("--peer", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.n, a.path, a.path + ".out", a.peer)
        return
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import handgen
    fd, path = tempfile.mkstemp(prefix="mjfast_records_", suffix=".jsonl")
    os.close(fd)
    with open(path, "w") as f:
        for r in handgen.random_winning_records(a.n, seed=20240103):
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    builds = [("new", os.path.abspath(a.new))] + ([("old", os.path.abspath(a.old))] if a.old else [])
    best: dict = {}
    try:
        for rnd in range(a.rounds):
            for name, where in builds:
                cmd = [sys.executable, os.path.join(HERE, "bench_records.py"), "--worker", "--n", str(a.n), "--path", path]
                if name == "new" and rnd == 0:
                    cmd.append("--peer")
                out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                                     env=dict(os.environ, PYTHONPATH=where), cwd=where)
                res = json.loads(out.stdout.strip().splitlines()[-1])
                b = best.setdefault(name, {})
                for key, v in res.items():
                    if isinstance(v, float):
                        b[key] = min(b.get(key, v), v)
                    else:
                        b[key] = v
                print(f"round {rnd + 1} {name}: " + ", ".join(
                    f"{k} {a.n / v / 1e6:.3f} M/s" for k, v in res.items() if isinstance(v, float)), flush=True)
    finally:
        for p in (path, path + ".out", path + ".out.gb"):
            if os.path.exists(p):
                os.remove(p)
    stages = ("parse", "from_records", "kernel", "records", "from_strings_only", "from_strings", "jsonl", "cli",
              "jsonl:chunk", "jsonl:scan", "jsonl:decode", "jsonl:read", "jsonl:kernel", "jsonl:write")
    print(f"\n{a.n:,} records, best of {a.rounds}; ns per record and records/s")
    head = "| stage | new ns | new M/s |" + (" old ns | old M/s | new/old |" if a.old else "")
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for s in stages:
        if s not in best["new"]:
            continue
        nv = best["new"][s]
        row = f"| {s} | {nv / a.n * 1e9:,.0f} | {a.n / nv / 1e6:.3f} |"
        if a.old and s in best["old"]:
            ov = best["old"][s]
            row += f" {ov / a.n * 1e9:,.0f} | {a.n / ov / 1e6:.3f} | {ov / nv:.2f}x |"
        print(row)
    for s, mine in (("peer_records", "records"), ("peer_jsonl", "jsonl")):
        if s in best["new"]:
            pv = best["new"][s]
            print(f"| {s} (PyMahjongGB) | {pv / a.n * 1e9:,.0f} | {a.n / pv / 1e6:.3f} | "
                  f"mjfast {mine} is {pv / best['new'][mine]:.1f}x the peer |")


if __name__ == "__main__":
    main()
