"""Where score_batch's time goes, by kernel file and function (Linux, perf).

    python tools/kernel_profile.py [ROOT] [--n 140000] [--calls 40] [--top 25]

ROOT holds a built mjfast (``build_ext --inplace``) and its ``src/_fans.c``
(default: this checkout).  The script scores the generator's mix
(tests/handgen.py, seed 20240103) ``--calls`` times under ``perf record -e
cpu-clock`` (a sampling clock: this works on machines without hardware
counters), then maps every sample in ``_fans``'s shared object (the
scoring module) to the
Cython source line that generated it (the ``/* "file":line`` markers
Cython writes into ``_fans.c``) and from there to the enclosing function.
The kernel inlines into a few big functions, so perf's own symbol view
cannot tell its stages apart; the source lines can.

Only samples in the scoring path count (src/fankernel/*.pxd and
src/fankernel/batch_rows.pxd and src/_fans.pyx, plus the C helpers they include: src/include/bits.h and
src/include/fankernel/*.h, which perf names by the header's own lines);
building the batch beforehand (handgen, from_records) is left out.  A
sample lands on the instruction after a stalled one, so shares are good to
a few per cent.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

WORKLOAD = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
import mjfast, handgen
b = mjfast.HandBatch.from_records(handgen.random_winning_records({n}, seed=20240103))
for _ in range({calls}):
    mjfast.score_batch(b)
"""

STAGES = {
    "src/_fans.pyx": "row in and out (score_batch_mcr: reading the row, writing the outputs)",
    "fankernel/batch_rows.pxd": "the batch's row order (grouping by meld shape) and prefetch",
    "fankernel/readings.pxd": "readings (split tables) and the wait tests",
    "fankernel/mcr_score.pxd": "per hand and per reading: flags, whole-hand fans, special forms, sets, waits",
    "fankernel/mcr_fans.pxd": "fan predicates (set combinations, tile-set fans, wind pungs, total)",
    "fankernel/fan_base.pxd": "fan vectors and the exclusion pass",
    "fankernel/tiles.pxd": "tile helpers (counts, masks, sorting networks)",
    "fankernel/forms.pxd": "shape tests of the special forms",
    "src/include": "C helpers (bits.h, fankernel/*.h: row reads, fan vector moves, wide stores, prefetch)",
    None: "C without a line marker",
}
# the headers of the scoring path (perf gives an inlined helper's sample the
# header's line; their names are unique within src/include)
_HEADERS = ("bits.h", "tiles.h", "fan_base.h", "forms.h", "mcr_fans.h", "readings.h", "tp_fans.h")

_MARK = re.compile(r'/\* "([^"]+)":(\d+)')
_DEF = re.compile(r"^(?:cdef|cpdef|def)\s[^=(]*?\b(\w+)\s*\(")   # a function, at column 0


def _line_marks(cfile: str) -> list:
    """For every line of _fans.c, the (source, line) of the last marker
    before it (None before the first)."""
    marks = [None]
    cur = None
    with open(cfile, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _MARK.search(line)
            if m:
                cur = (m.group(1), int(m.group(2)))
            marks.append(cur)
    return marks


def _functions(root: str, src: str) -> tuple:
    """(start lines, names) of the functions of a Cython source file."""
    path = os.path.join(root, src) if src.startswith("src/") else os.path.join(root, "src", src)
    starts, names = [], []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                m = _DEF.match(line)
                if m:
                    starts.append(i)
                    names.append(m.group(1))
    return starts, names


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", nargs="?", default=ROOT)
    ap.add_argument("--n", type=int, default=140000)
    ap.add_argument("--calls", type=int, default=40)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    cfile = os.path.join(root, "src", "_fans.c")
    if not os.path.exists(cfile):
        sys.exit(f"{cfile} not found: build the extension in {root} first (python setup.py build_ext --inplace)")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "work.py")
        with open(script, "w") as f:
            f.write(WORKLOAD.format(root=root, tests=os.path.join(root, "tests"), n=a.n, calls=a.calls))
        data = os.path.join(tmp, "perf.data")
        try:
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o", data,
                            sys.executable, script], check=True, capture_output=True)
        except FileNotFoundError:
            sys.exit("perf is not installed (linux-perf / linux-tools)")
        rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "-n", "--sort", "srcline", "-g", "none",
                              "--dsos", f"_fans.cpython-{sys.version_info[0]}{sys.version_info[1]}-x86_64-linux-gnu.so"],
                             check=True, capture_output=True, text=True).stdout
    marks = _line_marks(cfile)
    funcs = {}
    by_stage = collections.Counter()
    by_func = collections.Counter()
    total = 0
    for line in rep.splitlines():
        h = re.match(r"\s*[\d.]+%\s+(\d+)\s+(?:\S*/)?(\w+\.h):\d+", line)
        if h and h.group(2) in _HEADERS:
            n = int(h.group(1))
            total += n
            by_stage["src/include"] += n
            by_func[("src/include", h.group(2))] += n
            continue
        m = re.match(r"\s*[\d.]+%\s+(\d+)\s+_fans\.c:(\d+)", line)
        if not m:
            continue
        n, ln = int(m.group(1)), int(m.group(2))
        mark = marks[ln] if ln < len(marks) else None
        src = mark[0] if mark else None
        if src not in STAGES:
            continue                    # parsing, table build, other entry points
        total += n
        by_stage[src] += n
        if src is None:
            by_func[("(no marker)", "C helpers")] += n
            continue
        if src not in funcs:
            funcs[src] = _functions(root, src)
        starts, names = funcs[src]
        k = bisect.bisect_right(starts, mark[1]) - 1
        by_func[(src, names[k] if k >= 0 else "?")] += n
    if not total:
        sys.exit("no samples in the scoring path (was _fans built with -g, and is it this ROOT's?)")
    print(f"{total:,} samples in the scoring path ({a.calls} score_batch calls of {a.n:,} generator hands)\n")
    print("| stage (file) | share |\n|---|---:|")
    for src, n in by_stage.most_common():
        print(f"| {STAGES[src]} (`{src or '-'}`) | {100 * n / total:.1f} % |")
    print("\n| function (file) | share |\n|---|---:|")
    for (src, fn), n in by_func.most_common(a.top):
        print(f"| `{fn}` ({src}) | {100 * n / total:.1f} % |")


if __name__ == "__main__":
    main()
