"""Side-by-side speed of MCR scoring in two builds: ``score_batch`` and
``score`` per call on the same seeded winning hands.

    python benchmarks/bench_rules.py BASELINE_DIR [CANDIDATE_DIR]

Each directory is one holding an importable ``mjfast`` package (e.g. a copy
of the package built from ``main``).  The runs alternate between the builds
in fresh processes, and the best of the rounds is reported with the ratio
candidate / baseline (below 1 = the candidate is faster).  Also measures
``rules="mcr"`` passed explicitly in the candidate.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_CHILD = r"""
import sys, time, json
sys.path.insert(0, sys.argv[1]); sys.path.insert(1, sys.argv[2])
import mjfast, handgen
assert mjfast.__file__.startswith(sys.argv[1]), mjfast.__file__
recs = list(handgen.iter_winning_records(int(sys.argv[3]), seed=7))
hands = [r["hand"] for r in recs]
batch = mjfast.HandBatch.from_records(recs)
explicit = sys.argv[4] == "1"
kw = {"rules": "mcr"} if explicit else {}
out = {}
best = 1e9
for _ in range(5):
    t = time.perf_counter(); mjfast.score_batch(batch, **kw); best = min(best, time.perf_counter() - t)
out["score_batch_us_per_hand"] = best / len(recs) * 1e6
best = 1e9
sub = hands[:20000]
for _ in range(3):
    t = time.perf_counter()
    for h in sub:
        mjfast.score(h, **kw)
    best = min(best, time.perf_counter() - t)
out["score_us_per_call"] = best / len(sub) * 1e6
print(json.dumps(out))
"""


def run(pkg_dir, n, explicit=False):
    # the build's own tests/handgen.py (the generator's stream is the same in
    # every build; today's wraps mjfast.testing, which older builds lack)
    tests = os.path.join(pkg_dir, "tests")
    if not os.path.isfile(os.path.join(tests, "handgen.py")):
        tests = os.path.join(ROOT, "tests")
    r = subprocess.run([sys.executable, "-c", _CHILD, pkg_dir, tests, str(n),
                        "1" if explicit else "0"], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def main():
    base = sys.argv[1]
    cand = sys.argv[2] if len(sys.argv) > 2 else ROOT
    n = int(os.environ.get("BENCH_N", "200000"))
    results = {"baseline": [], "candidate": [], "candidate rules='mcr'": []}
    for _ in range(3):
        results["baseline"].append(run(base, n))
        results["candidate"].append(run(cand, n))
        results["candidate rules='mcr'"].append(run(cand, n, explicit=True))
    best = {k: {m: min(r[m] for r in v) for m in v[0]} for k, v in results.items()}
    b = best["baseline"]
    for k, v in best.items():
        print(f"{k:24s} " + "  ".join(f"{m} {v[m]:.3f} (x{v[m] / b[m]:.3f})" for m in v))


if __name__ == "__main__":
    main()
