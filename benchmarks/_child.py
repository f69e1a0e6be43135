"""The one way the A/B benchmarks run a build: a fresh Python process whose
working directory and import path are that build's checkout, printing its
figures as a JSON object on its last line of output.

A fresh process per measurement keeps one build's caches, allocator state and
imported modules out of the other's timings; alternating the order of the two
builds (A B, B A, ...) spreads the machine's drift over both.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys


def run_child(root: str, code: str) -> dict:
    """Run ``code`` with ``root``'s package first on the path; its last line of
    output, a JSON object.  A failing child ends the benchmark with its stderr."""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                       env=dict(os.environ, PYTHONPATH=root))
    if r.returncode:
        raise SystemExit(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])
