"""Start-up of a fresh process with and without the tables' disk cache.

Runs, in alternating order round by round, fresh interpreters doing

* ``import mjfast; mjfast.shanten('123m456p789s11pEEN')`` (import + tables), and
* ``python -m mjfast score --jsonl ONE_LINE_FILE`` (the command line),

each three ways: the cache off (``MJFAST_NO_CACHE=1``: the tables built every
time, as before the cache existed), the cache warm (a file written by an
earlier process), and the cache empty before each run (the first process of a
new install: it builds, then writes the file), with a bytecode cache (in a
temporary directory: PYTHONPYCACHEPREFIX).  Prints the median and range of
each (wall clock and the child's CPU time, user + system) and the ratios.

    python benchmarks/bench_startup.py [--rounds 10]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv, env):
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{argv} exited with {proc.returncode}: {proc.stderr.read().decode()[-2000:]}")
    return wall * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="mjfast-bench-startup-")
    try:
        line = os.path.join(work, "one.jsonl")
        with open(line, "w") as f:
            f.write(json.dumps({"id": 1, "hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": True}) + "\n")
        warm_dir = os.path.join(work, "warm")
        empty_dir = os.path.join(work, "empty")
        base = dict(os.environ)
        base["PYTHONPATH"] = ROOT + (os.pathsep + base["PYTHONPATH"] if base.get("PYTHONPATH") else "")
        base.pop("MJFAST_NO_CACHE", None)
        # with a bytecode cache, as an installed package has one (outside the tree)
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        base["PYTHONPYCACHEPREFIX"] = os.path.join(work, "pycache")
        envs = {
            "off": dict(base, MJFAST_NO_CACHE="1", MJFAST_CACHE_DIR=warm_dir),
            "warm": dict(base, MJFAST_CACHE_DIR=warm_dir),
            "first": dict(base, MJFAST_CACHE_DIR=empty_dir),
        }
        cmds = {
            "import + shanten": [sys.executable, "-c",
                                 "import mjfast; mjfast.shanten('123m456p789s11pEEN')"],
            "mjfast score --jsonl (one line)": [sys.executable, "-m", "mjfast", "score", "--jsonl", line,
                                                os.path.join(work, "out.jsonl"), "--no-progress"],
        }
        for argv in cmds.values():                         # bytecode, and the warm cache written
            run(argv, envs["warm"])
        assert any(n.endswith(".bin") for n in os.listdir(warm_dir)), "the cache was not written"
        res = {(c, m): [] for c in cmds for m in envs}
        order = list(envs)
        for r in range(args.rounds):
            for c, argv in cmds.items():
                for m in (order if r % 2 == 0 else order[::-1]):
                    if m == "first":
                        shutil.rmtree(empty_dir, ignore_errors=True)
                    res[c, m].append(run(argv, envs[m]))
        la = os.getloadavg()
        print(f"{args.rounds} rounds, alternating; load average at end {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}")
        print()
        print("| command | cache | wall ms, median (range) | CPU ms, median (range) | CPU vs off |")
        print("|---|---|---:|---:|---:|")
        names = {"off": "off (MJFAST_NO_CACHE=1: built)", "warm": "warm (loaded)",
                 "first": "first run (built + written)"}
        for c in cmds:
            off_cpu = statistics.median(x[1] for x in res[c, "off"])
            for m in envs:
                w = [x[0] for x in res[c, m]]
                u = [x[1] for x in res[c, m]]
                print(f"| `{c}` | {names[m]} | {statistics.median(w):.0f} ({min(w):.0f}-{max(w):.0f}) "
                      f"| {statistics.median(u):.0f} ({min(u):.0f}-{max(u):.0f}) "
                      f"| {statistics.median(u) / off_cpu:.2f}x |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
