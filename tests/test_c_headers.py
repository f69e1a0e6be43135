"""The compiled modules' C lives in headers under src/include/, not in strings.

* no ``cdef extern from *`` block (verbatim C in a Cython docstring) is left
  in the Cython sources: every C helper is in a header that the Cython side
  includes with ``cdef extern from "name.h"``;
* each helper of bits.h (ctz, popcount, rotate, prefetch, forced inlining)
  is defined exactly once across src/, and the compiler builtins behind
  them are spelled only there;
* every header has an include guard and opens with a comment; every header
  named by a Cython extern block exists, and every header is used;
* bits.h's helpers give the right answers, both on the builtins' branch and
  on the portable branch (what a compiler without the builtins gets),
  checked against Python's own integer arithmetic.
"""
from __future__ import annotations

import os
import random
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
INCLUDE = os.path.join(SRC, "include")
BITS = os.path.join(INCLUDE, "bits.h")


def _files(*exts):
    """Hand-written source files under src/ (not the generated .c files)."""
    out = []
    for d, _, files in os.walk(SRC):
        for f in sorted(files):
            if f.endswith(exts):
                out.append(os.path.join(d, f))
    return out


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _cython_files():
    return _files(".pyx", ".pxd", ".pxi")


def _headers():
    return _files(".h")


def test_no_verbatim_c_in_cython_sources():
    found = []
    for path in _cython_files():
        for n, line in enumerate(_read(path).splitlines(), 1):
            if re.match(r"\s*cdef\s+extern\s+from\s+\*", line):
                found.append(f"{os.path.relpath(path, ROOT)}:{n}")
    assert found == [], "C in a `cdef extern from *` string (move it to src/include/): " + ", ".join(found)


def _bits_names():
    """The names bits.h defines: its macros (but the include guard) and functions."""
    text = _read(BITS)
    macros = set(re.findall(r"^\s*#\s*define\s+(\w+)", text, re.M)) - {"MJFAST_BITS_H"}
    funcs = set(re.findall(r"^static\s+inline\s+[\w\s\*]*?\b(\w+)\s*\([^;{]*\)\s*\{", text, re.M))
    return macros, funcs


def test_bits_h_defines_the_helpers():
    macros, funcs = _bits_names()
    assert {"mjfast_prefetch", "MJFAST_ALWAYS_INLINE"} <= macros
    assert {"mjfast_ctz64", "mjfast_popcount64", "mjfast_rotl64"} <= funcs


def test_each_bits_helper_defined_once():
    macros, funcs = _bits_names()
    sources = {p: _read(p) for p in _headers() + _cython_files()}
    for name in sorted(macros | funcs):
        if name in macros:
            # one #define per branch of an #if is one definition: count the files
            pat = re.compile(r"^\s*#\s*define\s+" + name + r"\b", re.M)
        else:
            pat = re.compile(r"\b" + name + r"\s*\([^;{()]*\)\s*\{")
        where = [os.path.relpath(p, ROOT) for p, text in sources.items() if pat.search(text)]
        assert where == [os.path.relpath(BITS, ROOT)], f"{name} defined in {where}"
        # a function is defined once even within bits.h
        if name in funcs:
            assert len(pat.findall(sources[BITS])) == 1, name


def test_bit_builtins_spelled_only_in_bits_h():
    builtins = ("__builtin_ctz", "__builtin_popcount", "__builtin_prefetch", "_BitScanForward", "__popcnt")
    for path in _headers() + _cython_files():
        if path == BITS:
            continue
        text = _read(path)
        for b in builtins:
            assert b not in text, f"{b} in {os.path.relpath(path, ROOT)}: use bits.h"


def test_headers_have_a_guard_and_a_note():
    for path in _headers():
        text = _read(path)
        rel = os.path.relpath(path, ROOT)
        assert text.startswith("/* "), f"{rel} does not open with a comment saying what it holds"
        guards = re.findall(r"^#ifndef (\w+)\n#define (\w+)$", text, re.M)
        assert guards and guards[0][0] == guards[0][1], f"{rel} has no include guard"
        guard = guards[0][0]
        # the guard wraps everything after the opening comment
        assert text.rstrip().endswith(f"#endif /* {guard} */"), rel
        assert text.index(f"#ifndef {guard}") < text.index("*/") + 4, rel
        assert sum(1 for p in _headers() if guard in _read(p)) == 1, f"{guard} is used by two headers"


def test_extern_headers_exist_and_are_used():
    named = set()
    for path in _cython_files():
        named |= set(re.findall(r'^\s*cdef\s+extern\s+from\s+"([^"]+\.h)"', _read(path), re.M))
    # headers found on the include path src/include (numpy's and Python's are not ours)
    ours = {os.path.relpath(p, INCLUDE).replace(os.sep, "/") for p in _headers()}
    included = set()
    for p in _headers():
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', _read(p), re.M):
            included.add(os.path.normpath(os.path.join(os.path.dirname(os.path.relpath(p, INCLUDE)), inc))
                         .replace(os.sep, "/"))
    missing = {h for h in named if h not in ours and not h.startswith(("numpy/",))}
    assert missing == set(), f"extern blocks name headers that src/include does not hold: {missing}"
    assert included <= ours, included - ours
    unused = ours - named - included
    assert unused == set(), f"headers nothing includes: {unused}"


def test_sdist_ships_the_headers():
    manifest = _read(os.path.join(ROOT, "MANIFEST.in"))
    line = next(ln for ln in manifest.splitlines() if ln.startswith("recursive-include src "))
    assert "*.h" in line.split()
    assert '"src/include"' in _read(os.path.join(ROOT, "setup.py"))


_PROG = r"""
#include <stdio.h>
#include "bits.h"
int main(void) {
    unsigned long long x;
    while (scanf("%llu", &x) == 1) {
        mjfast_prefetch(&x);
        printf("%d %d %llu\n", x ? mjfast_ctz64(x) : -1, mjfast_popcount64(x),
               (unsigned long long)mjfast_rotl64(x, 13));
    }
    return 0;
}
"""


@pytest.mark.parametrize("portable", [False, True], ids=["builtins", "portable"])
def test_bits_helpers_answer_right(tmp_path, portable):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler on PATH to build the check program")
    src = tmp_path / "bits_check.c"
    src.write_text(_PROG)
    exe = tmp_path / "bits_check"
    cmd = [cc, "-O2", "-Wall", "-Werror", "-I", INCLUDE, str(src), "-o", str(exe)]
    if portable:
        cmd.insert(1, "-DMJFAST_PORTABLE_BITS")
    subprocess.run(cmd, check=True)
    rng = random.Random(24)
    xs = [0, 1, 2, 3, 255, 256, 1 << 63, (1 << 64) - 1, 0x3FFFFFFFF, 0x3FC060301]
    xs += [1 << k for k in range(64)]
    xs += [rng.getrandbits(64) for _ in range(500)] + [rng.getrandbits(64) & rng.getrandbits(64) for _ in range(200)]
    out = subprocess.run([str(exe)], input="\n".join(map(str, xs)) + "\n", capture_output=True, text=True,
                         check=True).stdout.split("\n")
    for x, line in zip(xs, out):
        ctz = (x & -x).bit_length() - 1 if x else -1
        rotl = ((x << 13) | (x >> 51)) & ((1 << 64) - 1)
        assert line.split() == [str(ctz), str(bin(x).count("1")), str(rotl)], hex(x)
    assert len([ln for ln in out if ln]) == len(xs)
