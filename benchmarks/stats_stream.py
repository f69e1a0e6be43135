"""Streaming fan statistics: time and memory of FanStats over N scored hands.

    python benchmarks/stats_stream.py [--rows 10000000] [--distinct 1000000]

Scores ``--distinct`` generated winning records once (not timed), then feeds
FanStats 65,536-row chunks of them, cycling, until ``--rows`` rows have been
added; reports wall and CPU time (on a shared machine the CPU time is the
fair figure) and the peak RSS before and after (memory must stay flat).
"""
import argparse
import os
import resource
import sys
import time

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")]

import mjfast  # noqa: E402
from mjfast.stats import FanStats  # noqa: E402
from handgen import iter_winning_records  # noqa: E402


def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--distinct", type=int, default=1_000_000)
    ap.add_argument("--chunk", type=int, default=65536)
    a = ap.parse_args()
    chunks = []
    it = iter_winning_records(a.distinct, seed=7)
    t = time.perf_counter()
    while True:
        recs = [r for _, r in zip(range(a.chunk), it)]
        if not recs:
            break
        res = mjfast.score_batch(mjfast.HandBatch.from_records(recs), workers=-1)
        chunks.append((res.fan_counts, res.totals, res.legal, res.errors))
    print(f"prepared {a.distinct:,} scored records in {time.perf_counter() - t:.1f} s; peak RSS {rss_mb():.0f} MB",
          flush=True)
    acc = FanStats()
    acc.update_arrays(*chunks[0])       # warm-up (threadpoolctl scan, first allocations)
    acc = FanStats()
    rss0 = rss_mb()
    done, k = 0, 0
    t = time.perf_counter()
    c = time.process_time()
    while done < a.rows:
        fc, tot, lg, err = chunks[k % len(chunks)]
        n = min(len(tot), a.rows - done)
        acc.update_arrays(fc[:n], tot[:n], lg[:n], err[:n])
        done += n
        k += 1
    dt = time.perf_counter() - t
    cpu = time.process_time() - c
    print(f"FanStats over {done:,} rows: {dt:.2f} s wall, {cpu:.2f} s CPU ({done / cpu / 1e6:.2f} M rows per CPU-s); "
          f"peak RSS {rss0:.0f} MB before, {rss_mb():.0f} MB after", flush=True)


if __name__ == "__main__":
    main()
