"""The notation parser on the paths that read notation, two builds side by side.

    python benchmarks/bench_parse.py --old DIR [--new DIR] [--n 20000] [--rounds 3]

Per call or per row, on the generator's mix (tests/handgen.py, all winning),
the same hands written in compact notation and, for the hands without melds,
in Botzone codes:

* parse_hand        ``mjfast.parse_hand(s)`` per call
* parse_hand:bz     the same on Botzone codes
* to_counts         ``mjfast.to_counts(s)`` per call
* parse_tiles:bz    ``mjfast.parse_tiles`` on Botzone codes
* from_strings      ``HandBatch.from_strings(hands)`` per row (scalar flags)
* from_strings:bz   the same on Botzone codes
* from_records      ``HandBatch.from_records(records)`` per record
* from_lines        ``HandBatch.from_lines`` on the records as JSON lines (bytes), per line
* score             ``mjfast.score(s, ...)`` per call, the record's flags
* score:bz          the same on Botzone codes
* errors            ``parse_hand`` on malformed strings (tests/parser_fuzz.py
                    mutations that do not parse), per call, message included

``--old DIR``: a directory holding another build of the ``mjfast`` package;
each round runs both builds in fresh processes one after the other (the
machine's load hits both alike); best of the rounds, with the ratio old / new.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _per(fn, n, reps=3):
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e9


def worker(n):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import mjfast
    from mjfast import HandBatch, InvalidHand
    import handgen
    import parser_fuzz
    import parser_reference
    recs = handgen.random_winning_records(n, seed=20240107)
    hands = [r["hand"] for r in recs]
    lines = [json.dumps(r).encode() for r in recs]
    bz = [mjfast.format_hand(mjfast.parse_hand(h), "botzone") for h in hands if "[" not in h]
    bad = [s for s in parser_fuzz.strings(4 * n, seed=5) if parser_reference.parse_hand(s)[0] == "err"][:n]
    ctx = [(r.get("self_drawn", False), r.get("last_tile", False), r.get("seat_wind", "E"),
            r.get("round_wind", "E")) for r in recs]
    parse_hand, to_counts, parse_tiles, score = mjfast.parse_hand, mjfast.to_counts, mjfast.parse_tiles, mjfast.score

    def loop(fn, xs):
        def run():
            for x in xs:
                fn(x)
        return run

    def errors():
        for s in bad:
            try:
                parse_hand(s)
            except InvalidHand as e:
                str(e)

    def scores(xs):
        def run():
            for h, (sd, lt, sw, rw) in zip(xs, ctx):
                score(h, self_drawn=sd, last_tile=lt, seat_wind=sw, round_wind=rw)
        return run

    out = {
        "parse_hand": _per(loop(parse_hand, hands), len(hands)),
        "parse_hand:bz": _per(loop(parse_hand, bz), len(bz)),
        "to_counts": _per(loop(to_counts, hands), len(hands)),
        "parse_tiles:bz": _per(loop(parse_tiles, bz), len(bz)),
        "from_strings": _per(lambda: HandBatch.from_strings(hands), len(hands)),
        "from_strings:bz": _per(lambda: HandBatch.from_strings(bz), len(bz)),
        "from_records": _per(lambda: HandBatch.from_records(recs), len(recs)),
        "from_lines": _per(lambda: list(HandBatch.from_lines(lines, chunk_size=len(lines))), len(lines)),
        "score": _per(scores(hands), len(hands)),
        "score:bz": _per(scores(bz), len(bz)),
        "errors": _per(errors, len(bad)),
    }
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", help="directory holding another build of the mjfast package")
    ap.add_argument("--new", default=ROOT, help="directory holding the build to measure (default: this checkout)")
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker(a.n)
    builds = [("new", a.new)] + ([("old", a.old)] if a.old else [])
    best = {}
    for _ in range(a.rounds):
        for name, where in builds:
            cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--n", str(a.n)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                                 env=dict(os.environ, PYTHONPATH=where), cwd=where)
            for k, v in json.loads(out.stdout.strip().splitlines()[-1]).items():
                best.setdefault(name, {})[k] = min(v, best.get(name, {}).get(k, float("inf")))
    print(f"| path (ns per call or row) | {'old | ' if a.old else ''}new |{' old/new |' if a.old else ''}")
    print(f"|---|{'---:|' if a.old else ''}---:|{'---:|' if a.old else ''}")
    for k, v in best["new"].items():
        if a.old:
            o = best["old"][k]
            print(f"| {k} | {o:,.0f} | {v:,.0f} | {o / v:.2f}x |")
        else:
            print(f"| {k} | {v:,.0f} |")


if __name__ == "__main__":
    main()
