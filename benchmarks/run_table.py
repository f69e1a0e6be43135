#!/usr/bin/env python
"""Throughput table: mjfast vs PyMahjongGB (vs the riichi `mahjong` package).

    cd /work/main && PYTHONPATH=. python benchmarks/run_table.py            # ~2-3 min
    PYTHONPATH=. python benchmarks/run_table.py --big                       # + 10M-line JSONL run

Every comparison runs on the same seeded hands (the reference on a prefix of
what mjfast processes, when the reference is too slow for all of them).  Each
timing is the best of several runs, each on a *disjoint* slice of hands (no
hand is seen twice, except where stated), which suits a shared machine.
Input conversion for the references (tile-code tuples, 34-lists) is done
before timing; mjfast's single-call rows include its string parsing.
Prints Markdown: platform, main table, target checks, scaling, memory,
start-up time, bandwidth.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402
import mjfast  # noqa: E402

ROOT = C.ROOT


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def log(*a):
    print(*a, file=sys.stderr, flush=True)


def best_rates(fn, data, chunk, repeats, limit, variants=({},)):
    """Best hands/s of `repeats` runs of fn(data, a, a+chunk, **kw) for each kw in
    `variants` (runs interleaved, so a burst of load on the shared machine hits
    every variant alike), on disjoint slices when `limit` allows (else the
    slices wrap around).  Returns ([hands/s per variant], (a, results of the
    first run of variant 0))."""
    chunk = min(chunk, limit)
    best = [float("inf")] * len(variants)
    first = None
    for r in range(repeats):
        a = (r * chunk) % max(1, limit - chunk + 1)
        if a + chunk > limit:
            a = 0
        for j, kw in enumerate(variants):
            t0 = time.perf_counter()
            res = fn(data, a, a + chunk, **kw)
            dt = time.perf_counter() - t0
            best[j] = min(best[j], dt)
            if first is None:
                first = (a, res)
            del res
    return [chunk / b for b in best], first


def best_rate(fn, data, chunk, repeats, limit, **kw):
    """best_rates with one variant: (hands/s, (a, results of run 0))."""
    rates, first = best_rates(fn, data, chunk, repeats, limit, (kw,))
    return rates[0], first


W12 = ({"workers": 1}, {"workers": 2})


def fmt_rate(x):
    if x is None:
        return "n/a"
    if x >= 1e6:
        return f"{x / 1e6:,.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:,.1f} k"
    return f"{x:,.0f}"


def fmt_ratio(a, b):
    if a is None or b is None:
        return "n/a"
    return f"{a / b:,.1f}x"


RSS_SNIPPET = """
def peak_mb():
    # VmHWM: this process's own high-water mark (ru_maxrss would carry over the
    # parent's peak across fork + exec on Linux)
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def rss_now_mb():
    try:
        import psutil
        return psutil.Process().memory_info().rss / 2**20
    except ImportError:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    return float("nan")
"""


def rss_now_mb():
    try:
        import psutil
        return psutil.Process().memory_info().rss / 2**20
    except ImportError:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    return float("nan")


def maxrss_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def pkg_version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:
        return "not installed"


def subprocess_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def run_py(code, timeout=3600, env=None):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env or subprocess_env(), cwd=ROOT, timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "subprocess failed")
    return out.stdout.strip()


def agree_note(what, ok, n):
    return f"same {what} as PyMahjongGB on {ok}/{n}" + ("" if ok == n else " **(MISMATCH)**")


def agree_bool(mj, ref):
    mj = np.asarray(mj, bool)[: len(ref)]
    return int((mj == np.asarray(ref, bool)).sum()), len(ref)


def agree_int(mj, ref):
    mj = np.asarray(mj, np.int64)[: len(ref)]
    return int((mj == np.asarray(ref, np.int64)).sum()), len(ref)


def agree_waits(mj, ref):
    ok = 0
    for row, w in zip(mj, ref):
        ok += list(np.flatnonzero(row)) == list(w)
    return ok, len(ref)


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n-random", type=int, default=1_000_000, help="random hands per size (default 1e6)")
    ap.add_argument("--n-records", type=int, default=200_000, help="winning records (default 2e5)")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per row, best kept (default 5)")
    ap.add_argument("--big", action="store_true", help="also score a 10M-line JSONL file streamed from /tmp")
    ap.add_argument("--big-lines", type=int, default=10_000_000, help="lines of the --big file")
    ap.add_argument("--keep-big", action="store_true", help="keep the --big file in /tmp")
    args = ap.parse_args(argv)
    R = args.repeats
    t_start = time.perf_counter()
    load0 = os.getloadavg()
    so_path = mjfast._core.__file__
    so_mtime = os.stat(so_path).st_mtime

    out = []
    p = out.append

    # ---- platform
    p("## Platform\n")
    p(f"- CPU: {cpu_model()}; cores: {os.cpu_count()} logical "
      f"({len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'} usable)")
    p(f"- Python {platform.python_version()} ({platform.python_implementation()}), numpy {np.__version__}, "
      f"mjfast {mjfast.__version__}, OpenMP {'on' if mjfast.openmp_enabled() else 'off'}")
    p(f"- references: PyMahjongGB {pkg_version('PyMahjongGB')}, mahjong (riichi) {pkg_version('mahjong')}")
    p(f"- load average at start: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f} (the machine may be shared)")

    # ---- start-up time and memory (fresh subprocesses, before this process touches anything big)
    log("start-up time / memory ...")
    # the tables built (the disk cache off) and read from the disk cache (a
    # temporary one, written by the first run), alternating
    startup_code = ("import time;t=time.perf_counter();import mjfast;"
                    "mjfast.shanten('123m456p789s11pEEN');print(time.perf_counter()-t)")
    cache_dir = tempfile.mkdtemp(prefix="mjfast-run-table-cache-")
    env_warm = dict(subprocess_env(), MJFAST_CACHE_DIR=cache_dir)
    env_warm.pop("MJFAST_NO_CACHE", None)
    env_cold = dict(env_warm, MJFAST_NO_CACHE="1")
    run_py(startup_code, env=env_warm)
    imp, imp_warm = [], []
    for _ in range(5):
        imp.append(float(run_py(startup_code, env=env_cold)))
        imp_warm.append(float(run_py(startup_code, env=env_warm)))
    imp.sort()
    imp_warm.sort()
    shutil.rmtree(cache_dir, ignore_errors=True)
    rss_code = ("import resource;import numpy;{extra}\n" + RSS_SNIPPET +
                "print(rss_now_mb(), peak_mb())")
    base_rss = run_py(rss_code.format(extra="")).split()
    mj_rss = run_py(rss_code.format(extra="import mjfast;mjfast.shanten('123m456p789s11pEEN')")).split()
    try:
        from mjfast import _core, _tables
        table_mb = _tables.table_nbytes() / 2**20
    except Exception:
        table_mb = float("nan")

    # ---- data
    log("generating hands ...")
    t0 = time.perf_counter()
    n_rand = args.n_random
    n_ref_rand = 100_000
    rand14 = C.random_set(14, n_rand, n_ref=n_ref_rand)
    rand13 = C.random_set(13, n_rand, n_ref=n_ref_rand)
    recs = C.records(args.n_records)
    ss = C.ScoreSet(recs)            # HandBatch + reference args of every record
    win = C.winning_set(ss.batch, n_ref=n_ref_rand)
    ready = C.ready_set(ss.batch, n_ref=n_ref_rand)
    log(f"  data ready in {time.perf_counter() - t0:.1f} s")
    mjfast.shanten("123m456p789s11pEEN")   # tables built before timing

    rows = []       # (operation, mj, gb, riichi, what the reference does, agreement note)
    checks = {}

    def row(op, mj, gb, ri, ref_desc, note=""):
        rows.append((op, mj, gb, ri, ref_desc, note))
        log(f"  {op}: mjfast {fmt_rate(mj)}/s  PyMahjongGB {fmt_rate(gb)}/s  riichi {fmt_rate(ri)}/s")

    slice_mj = lambda hs: hs.n // R  # noqa: E731  (disjoint slices for mjfast)
    have_ri = C.HAVE_RIICHI

    # ---- is_win_batch
    log("is_win ...")
    for hs, label in ((rand14, "random 14 tiles"), (win, "winning hands, 14-3k concealed")):
        (mj1, mj2), _ = best_rates(C.mj_is_win, hs, slice_mj(hs), R, hs.n, W12)
        gb, (ga, res_gb) = best_rate(C.gb_is_win, hs, 20_000, R, hs.n_ref)
        ri, res_ri = best_rate(C.riichi_is_win, hs, 20_000, R, hs.n_ref) if have_ri else (None, None)
        ok, n = agree_bool(C.mj_is_win(hs, ga, ga + len(res_gb)), res_gb)
        note = agree_note("answer", ok, n)
        if res_ri is not None:
            ok_r, n_r = agree_bool(C.mj_is_win(hs, res_ri[0], res_ri[0] + len(res_ri[1])), res_ri[1])
            note += f"; riichi agrees on {ok_r}/{n_r} (no knitted forms in riichi)"
        row(f"is_win_batch, {label}, workers=1", mj1, gb, ri,
            "MahjongFanCalculator per hand, ERROR_NOT_WIN = no (no win-check API); riichi: Agari.is_agari", note)
        row(f"is_win_batch, {label}, workers=2", mj2, gb, ri, "same", "")
        if hs is rand14:
            checks["is_win"] = mj1
            is_win_rate = mj1
            is_win_rate2 = mj2

    # ---- shanten_batch
    log("shanten ...")
    (mj1, mj2), _ = best_rates(C.mj_shanten, rand13, slice_mj(rand13), R, rand13.n, W12)
    gb, (ga, res_gb) = best_rate(C.gb_shanten, rand13, 15_000, R, rand13.n_ref)
    ri, _ = best_rate(C.riichi_shanten, rand13, 4_000, R, rand13.n_ref) if have_ri else (None, None)
    ok, n = agree_int(C.mj_shanten(rand13, ga, ga + len(res_gb)), res_gb)
    row("shanten_batch, random 13 tiles, workers=1", mj1, gb, ri,
        "MahjongShanten per hand (5 forms); riichi: Shanten.calculate_shanten (3 forms)",
        agree_note("shanten", ok, n))
    row("shanten_batch, random 13 tiles, workers=2", mj2, gb, ri, "same", "")
    checks["shanten"] = (mj1, gb)

    # ---- waits_batch
    log("waits ...")
    for hs, label in ((rand13, "random 13 tiles"), (ready, "ready hands (winning hand minus winning tile)")):
        (mj1, mj2), _ = best_rates(C.mj_waits, hs, slice_mj(hs), R, hs.n, W12)
        gb, (ga, res_gb) = best_rate(C.gb_waits, hs, 2_000, R, hs.n_ref)
        ri, _ = best_rate(C.riichi_waits, hs, 2_000, R, hs.n_ref) if have_ri else (None, None)
        ok, n = agree_waits(C.mj_waits(hs, ga, ga + len(res_gb)), res_gb)
        row(f"waits_batch, {label}, workers=1", mj1, gb, ri,
            "brute force: MahjongFanCalculator on each of the 34 candidate tiles; riichi: 34 x Agari.is_agari",
            agree_note("waits", ok, n))
        row(f"waits_batch, {label}, workers=2", mj2, gb, ri, "same", "")
        if hs is rand13:
            gbg, _ = best_rate(C.gb_waits, hs, 10_000, R, hs.n_ref, gated=True)
            row(f"waits_batch, {label}, workers=1 (vs gated reference)", mj1, gbg, None,
                "MahjongShanten first, the 34 probes only for ready hands (a smarter reference)", "")
            checks["waits"] = mj1
        else:
            checks["waits_ready"] = mj1

    # ---- single calls
    log("single calls ...")
    mj, (a, res_mj) = best_rate(C.mj_shanten_str, rand13, 20_000, R, rand13.n_ref)
    gb, (ga, res_gb) = best_rate(C.gb_shanten, rand13, 20_000, R, rand13.n_ref)
    ri, _ = best_rate(C.riichi_shanten, rand13, 4_000, R, rand13.n_ref) if have_ri else (None, None)
    row("mjfast.shanten(str), single call", mj, gb, ri,
        "MahjongShanten(packs, tuple) per call, tuples pre-built; mjfast parses the string in the call", "")
    checks["shanten_single"] = (mj, gb)
    mjc, _ = best_rate(C.mj_shanten_counts, rand13, 20_000, R, rand13.n_ref)
    row("mjfast.shanten(counts row), single call", mjc, gb, ri, "same", "")

    mj, (a, res_mj) = best_rate(C.mj_score_single, ss, 40_000, R, ss.n)
    gb, (ga, res_gb) = best_rate(C.gb_score_single, ss, 40_000, R, ss.n)
    ok, n = agree_int(C.mj_score_single(ss, ga, ga + len(res_gb)), [C.gb_total(x) for x in res_gb])
    row("mjfast.score(str, flags), single call", mj, gb, None,
        "MahjongFanCalculator(*args) per call, args pre-built", agree_note("total", ok, n))
    checks["score_single"] = (mj, gb)

    # ---- score_batch over all records
    log("score_batch ...")
    n = ss.n
    (mj1, mj2), _ = best_rates(C.mj_score_batch, ss, n, R, n, W12)
    # the reference's rate: best of R runs over 40,000-hand slices (one pass
    # over all 200,000 measures its result list and the garbage collector as
    # much as the calculator, and flatters mjfast by ~1.5x); the answers are
    # still compared on every record
    gb, _ = best_rate(C.gb_score_single, ss, 40_000, R, n)
    res_gb = C.gb_score_single(ss, 0, n)
    res = C.mj_score_batch(ss, 0, n)
    ok, _ = agree_int(res.totals, [C.gb_total(x) for x in res_gb])
    row(f"score_batch, {n:,} records pre-built, workers=1", mj1, gb, None,
        "loop of MahjongFanCalculator(*args), args pre-built", agree_note("total", ok, n))
    row(f"score_batch, {n:,} records pre-built, workers=2", mj2, gb, None, "same", "")
    checks["score_batch"] = (mj1, mj2, gb)
    del res_gb, res

    chunk = min(n, 40_000)
    mjr, _ = best_rate(C.mj_score_records, ss, chunk, R, n)
    gbr, _ = best_rate(C.gb_score_records, ss, chunk, R, n)
    row("HandBatch.from_records + score_batch, workers=1", mjr, gbr, None,
        "tests/oracle.record_to_reference_args + MahjongFanCalculator (both parse records in Python)", "")

    # ---- JSONL end to end (small file; --big below)
    log("jsonl ...")
    path = f"/tmp/mjfast_bench_{os.getpid()}.jsonl"
    n_lines = C.write_jsonl(path, recs)
    try:
        t0 = time.perf_counter()
        assert C.mj_score_jsonl(path) == n_lines
        mjj = n_lines / (time.perf_counter() - t0)
        lim = min(n_lines, 50_000)
        t0 = time.perf_counter()
        C.gb_score_jsonl(path, limit=lim)
        gbj = lim / (time.perf_counter() - t0)
    finally:
        os.unlink(path)
    row(f"JSONL file ({n_lines:,} lines) -> HandBatch.from_jsonl + score_batch", mjj, gbj, None,
        "read line, orjson.loads, record_to_reference_args, MahjongFanCalculator (first 50k lines)", "")

    # ---- scaling
    log("scaling ...")
    scaling = []
    for N in (1_000, 10_000, 100_000, 1_000_000):
        if N <= ss.n:
            sub = C.ScoreSet.__new__(C.ScoreSet)
            sub.batch, sub.n, sub.n_ref = ss.batch, ss.n, 0
            reps = max(R, min(50, 200_000 // N))
            (r1, r2), _ = best_rates(C.mj_score_batch, sub, N, reps, ss.n, W12)
            note = (f"distinct hands (best of {reps})" if N * reps <= ss.n
                    else f"best of {reps}; runs share hands")
        else:
            big = C.ScoreSet.__new__(C.ScoreSet)
            big.batch = C.tile_batch(ss.batch, N)
            big.n, big.n_ref = N, 0
            (r1, r2), _ = best_rates(C.mj_score_batch, big, N, R, N, W12)
            note = f"best of {R}; the {ss.n:,} records repeated (no cache in mjfast)"
            del big
        scaling.append((N, r1, r2, note))
        log(f"  N={N:,}: {1e9 / r1:.0f} ns/hand w=1, {1e9 / r2:.0f} ns/hand w=2")

    # ---- bandwidth
    log("bandwidth ...")
    src = np.ones(512 * 2**20, np.uint8)
    dst = np.empty_like(src)
    bw = 0.0
    for _ in range(5):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        bw = max(bw, src.nbytes / (time.perf_counter() - t0))
    del src, dst
    kernel_rate = None
    try:  # diagnostic: the compiled loop alone (private API; skipped if it changed)
        from mjfast import _core, _tables
        H = rand14.H[: rand14.n // R]
        o = np.zeros(len(H), np.uint8)
        e = np.zeros(len(H), np.uint8)
        best = float("inf")
        for _ in range(R):
            t0 = time.perf_counter()
            _core.is_win_checked(H, None, o, e, 1)   # validation + win check, one pass
            best = min(best, time.perf_counter() - t0)
        kernel_rate = len(H) / best
    except Exception as exc:  # pragma: no cover
        log(f"  (kernel-only is_win timing skipped: {exc})")

    rss_after = rss_now_mb()
    peak_after = maxrss_mb()

    # ---- big JSONL (optional)
    big_res = None
    if args.big:
        big_res = run_big(recs, args.big_lines, args.keep_big)

    load1 = os.getloadavg()

    # ---- print
    p("\n## Throughput (hands per second; ratio = mjfast / PyMahjongGB)\n")
    p("| operation | mjfast hands/s | PyMahjongGB hands/s | ratio | mahjong (riichi) hands/s |")
    p("|---|---:|---:|---:|---:|")
    for op, mj, gb, ri, _, _ in rows:
        p(f"| {op} | {fmt_rate(mj)} | {fmt_rate(gb)} | {fmt_ratio(mj, gb)} | {fmt_rate(ri)} |")
    p("\nWhat each reference does, and answer agreement on the compared hands:\n")
    seen = set()
    for op, _, _, _, desc, note in rows:
        if desc != "same" and (op, desc) not in seen:
            seen.add((op, desc))
            p(f"- {op}: {desc}." + (f" {note}." if note else ""))
    p("- riichi `mahjong` follows riichi rules (regular hand, seven pairs, thirteen orphans; no knitted "
      "forms, no MCR fan table): its column is a speed comparison of the same job on the same hands only.")

    p("\n## Targets\n")
    p("| target | measured | |")
    p("|---|---:|---|")

    def chk(label, value, ok):
        p(f"| {label} | {value} | {'met' if ok else '**missed**'} |")

    chk("is_win_batch >= 20M hands/s (1 core)", fmt_rate(checks["is_win"]) + "/s", checks["is_win"] >= 20e6)
    s1, sg = checks["shanten"]
    chk("shanten_batch >= 5M hands/s (1 core)", fmt_rate(s1) + "/s", s1 >= 5e6)
    chk("shanten_batch >= 30x MahjongShanten", f"{s1 / sg:,.1f}x", s1 / sg >= 30)
    chk("waits_batch >= 2M hands/s (1 core, random 13)", fmt_rate(checks["waits"]) + "/s", checks["waits"] >= 2e6)
    chk("waits_batch >= 2M hands/s (1 core, ready hands)", fmt_rate(checks["waits_ready"]) + "/s",
        checks["waits_ready"] >= 2e6)
    m, g = checks["shanten_single"]
    chk("single shanten(str) within 2x of MahjongShanten per call", f"{g / m:,.2f}x the time", g / m <= 2)
    m, g = checks["score_single"]
    chk("single score at least as fast as MahjongFanCalculator", f"{m / g:,.2f}x its speed", m >= g)
    b1, b2, g = checks["score_batch"]
    chk("score_batch 1 core >= 10x MahjongFanCalculator", f"{b1 / g:,.1f}x", b1 / g >= 10)
    chk("score_batch workers=2 >= 1.7x workers=1", f"{b2 / b1:,.2f}x", b2 / b1 >= 1.7)

    p("\n## score_batch scaling (pre-built HandBatch)\n")
    p("| N | workers=1 ns/hand | workers=1 hands/s | workers=2 ns/hand | workers=2 hands/s | hands |")
    p("|---:|---:|---:|---:|---:|---|")
    for N, r1, r2, note in scaling:
        p(f"| {N:,} | {1e9 / r1:,.0f} | {fmt_rate(r1)} | {1e9 / r2:,.0f} | {fmt_rate(r2)} | {note} |")

    p("\n## Memory and start-up\n")
    p(f"- import mjfast + table build (fresh interpreter, `python -c \"...import mjfast;"
      f"mjfast.shanten('123m456p789s11pEEN')\"`, MJFAST_NO_CACHE=1): median {imp[len(imp) // 2] * 1e3:.0f} ms "
      f"(min {imp[0] * 1e3:.0f} ms, 5 runs); the tables read from the disk cache instead: median "
      f"{imp_warm[len(imp_warm) // 2] * 1e3:.0f} ms (min {imp_warm[0] * 1e3:.0f} ms, 5 runs, alternating)")
    p(f"- RSS after `import numpy`: {float(base_rss[0]):.1f} MiB; after `import mjfast` + table build: "
      f"{float(mj_rss[0]):.1f} MiB (+{float(mj_rss[0]) - float(base_rss[0]):.1f} MiB; lookup tables "
      f"{table_mb:.1f} MiB; peak {float(mj_rss[1]):.1f} MiB)")
    p(f"- this benchmark process at the end: RSS {rss_after:.0f} MiB, peak {peak_after:.0f} MiB "
      f"(holds {n_rand:,} x 2 random hands, {ss.n:,} records, the references' copies, and "
      f"the 2 x 512 MiB arrays of the bandwidth test)")
    if big_res:
        p(f"- {big_res['lines']:,}-line JSONL ({big_res['gb']:.2f} GB) streamed with "
          f"HandBatch.from_jsonl(chunk_size=65536) + score_batch(workers=1) in a fresh process: "
          f"{big_res['secs']:.0f} s = {fmt_rate(big_res['lines'] / big_res['secs'])} lines/s; "
          f"RSS after import {big_res['rss0']:.0f} MiB, peak RSS {big_res['peak']:.0f} MiB, "
          f"{big_res['errors']} errors")
    else:
        p("- 10M-line JSONL streaming: not run (pass `--big`)")

    p("\n## Memory-bandwidth bound of is_win_batch\n")
    p(f"- is_win_batch reads 34 bytes per hand: {fmt_rate(is_win_rate)} hands/s x 34 B = "
      f"{is_win_rate * 34 / 1e9:.2f} GB/s (workers=1), {is_win_rate2 * 34 / 1e9:.2f} GB/s (workers=2)"
      + (f"; compiled loop alone (no Python-side validation): {fmt_rate(kernel_rate)} hands/s = "
         f"{kernel_rate * 34 / 1e9:.2f} GB/s" if kernel_rate else ""))
    p(f"- np.copyto of a 512 MiB uint8 array: {bw / 1e9:.2f} GB/s copied (read + write = {2 * bw / 1e9:.2f} GB/s)")
    p(f"- 20M hands/s would need {20e6 * 34 / 1e9:.2f} GB/s, i.e. {20e6 * 34 / bw * 100:.0f}% of the copy bandwidth")

    if os.stat(so_path).st_mtime != so_mtime:
        p(f"\n**WARNING: {os.path.basename(so_path)} was rebuilt during this run; a rebuild in place can "
          "change the code under a running process: the numbers above are not valid, run again.**")
    p(f"\nload average at end: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}; "
      f"total run time {time.perf_counter() - t_start:.0f} s")
    print("\n".join(out))


def run_big(recs, n_lines, keep):
    """Write an n_lines JSONL file to /tmp (recs repeated) and score it streamed in a fresh process."""
    path = "/tmp/mjfast_bench_big.jsonl"
    reps = -(-n_lines // len(recs))
    log(f"writing {n_lines:,} lines to {path} ...")
    block = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs)
    with open(path, "w") as f:
        for _ in range(reps - 1):
            f.write(block)
        last = n_lines - (reps - 1) * len(recs)
        f.write("".join(block.splitlines(keepends=True)[:last]))
    size = os.path.getsize(path)
    code = f"""
import sys, time, resource
import mjfast
{RSS_SNIPPET}
mjfast.shanten('123m456p789s11pEEN')
rss0 = rss_now_mb()
t0 = time.perf_counter()
n = err = 0
for b in mjfast.HandBatch.from_jsonl({path!r}, chunk_size=65536):
    r = mjfast.score_batch(b, workers=1)
    n += len(r)
    err += int((r.errors != 0).sum())
dt = time.perf_counter() - t0
print(n, dt, rss0, peak_mb(), err)
"""
    log("streaming it (a few minutes) ...")
    try:
        n, dt, rss0, peak, err = run_py(code, timeout=7200).split()
    finally:
        if not keep:
            os.unlink(path)
    return dict(lines=int(n), secs=float(dt), rss0=float(rss0), peak=float(peak), errors=int(err), gb=size / 1e9)


if __name__ == "__main__":
    gc.collect()
    main()
