#!/usr/bin/env bash
# Prove that mjfast's release artifacts work:
#   1. `python -m build` makes an sdist, then a wheel FROM that sdist (so the
#      sdist is complete); the sdist holds the Cython sources (.pyx/.pxd),
#      the C headers of src/include/ (.h), every file git tracks that the tests
#      and docs read (all but .github/ and .gitignore), LICENSE, and no generated .c/.so;
#      the wheel holds mjfast/py.typed and a .pyi stub beside each compiled module;
#   2. the wheel installs into a fresh venv and passes tools/smoke_test.py with
#      NO compiler reachable: PATH holds only the venv's bin, CC/CXX=false.
# Usage: tools/check_wheel.sh [WORKDIR]   (default: a new temporary directory)
# Needs the `build` package (in the dev extra: pip install -e '.[dev]').
# Env: MJFAST_NO_OPENMP=1 checks a serial build (what macOS wheels are).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-$(mktemp -d -t mjfast-wheel-XXXXXX)}"
PY="${PYTHON:-python3}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
# every step below runs in the work directory: `python -m build` started in a
# checkout would import the checkout's ignored build/ folder as the package
cd "$WORK"
"$PY" -c "import build" 2>/dev/null ||
  { echo "check_wheel: $PY has no 'build' package: pip install build (or pip install -e '.[dev]')" >&2; exit 2; }
echo "== work dir: $WORK"

echo "== building sdist, then the wheel from the sdist"
# a copy of the files git tracks: nothing built or left untracked in the checkout leaks in
SRC="$WORK/src"
if [ "${REUSE:-0}" = 1 ] && ls "$WORK"/dist/*.whl >/dev/null 2>&1; then
  echo "   (REUSE=1: keeping the artifacts in $WORK/dist)"
else
  rm -rf "$SRC" "$WORK/dist"
  mkdir -p "$SRC"
  git -C "$ROOT" ls-files -z --cached | (cd "$ROOT" && xargs -0 cp --parents -t "$SRC")
  "$PY" -m build --outdir "$WORK/dist" "$SRC" > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }
fi
SDIST=$(ls "$WORK"/dist/*.tar.gz)
WHEEL=$(ls "$WORK"/dist/*.whl)
echo "   $(basename "$SDIST")  $(du -h "$SDIST" | cut -f1)"
echo "   $(basename "$WHEEL")  $(du -h "$WHEEL" | cut -f1)"

echo "== sdist contents (sources of the extension)"
tar tzf "$SDIST" > "$WORK/sdist.txt"
grep -E '\.(pyx|pxd|h)$' "$WORK/sdist.txt" | sed 's/^/   /'
for f in src/_core.pyx src/fankernel/mcr_fans.pxd src/fankernel/readings.pxd src/include/bits.h src/include/fankernel/tiles.h setup.py pyproject.toml MANIFEST.in README.md docs/notation.md tools/smoke_test.py; do
  grep -q "/$f\$" "$WORK/sdist.txt" || { echo "MISSING from sdist: $f"; exit 1; }
done
if grep -E '\.(c|so|pyd)$' "$WORK/sdist.txt"; then echo "generated files in the sdist"; exit 1; fi
echo "   ok: .pyx/.pxd/.h present, no generated .c/.so"
# everything the tests and docs read: every file git tracks but the repository's own
# settings (.github/, .gitignore), LICENSE among them
sed -n 's|^[^/]*/||p' "$WORK/sdist.txt" | grep -v '/$' | sort > "$WORK/sdist-files.txt"
git -C "$ROOT" ls-files | grep -v -E '^(\.github/|\.gitignore$)' | sort > "$WORK/tracked.txt"
if comm -23 "$WORK/tracked.txt" "$WORK/sdist-files.txt" | grep .; then echo "MISSING from sdist (above)"; exit 1; fi
grep -qx LICENSE "$WORK/sdist-files.txt" || { echo "MISSING from sdist: LICENSE"; exit 1; }
echo "   ok: every tracked file ($(wc -l < "$WORK/tracked.txt")) is in the sdist: tests/data, docs/examples, fuzz corpora, LICENSE"

echo "== wheel contents (type information)"
# PEP 561: the py.typed marker, and a .pyi stub beside every compiled module
"$PY" - "$WHEEL" <<'PYEOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
ext = sorted(n for n in names if n.startswith("mjfast/") and n.endswith((".so", ".pyd")))
stubs = [n.split(".")[0] + ".pyi" for n in ext]
missing = [n for n in ["mjfast/py.typed"] + stubs if n not in names]
if not ext or missing:
    sys.exit(f"MISSING from the wheel: {missing or 'its compiled modules'}")
print(f"   ok: mjfast/py.typed and the stubs of {len(ext)} compiled modules")
PYEOF

echo "== fresh venv, no compiler on PATH"
VENV="$WORK/venv"
rm -rf "$VENV"
"$PY" -m venv "$VENV"
NOCC_PATH="$VENV/bin"
for cc in gcc cc clang c++ g++; do
  if PATH="$NOCC_PATH" command -v "$cc" >/dev/null 2>&1; then echo "a compiler is reachable: $cc"; exit 1; fi
done
echo "   PATH=$NOCC_PATH  (gcc, cc, clang, c++, g++: not found)"
# (in $WORK, away from the checkout, so `import mjfast` cannot find the source tree)
env -i HOME="$HOME" PATH="$NOCC_PATH" CC=false CXX=false \
  "$VENV/bin/python" -m pip install --quiet --only-binary=:all: "$WHEEL"
# the tables' disk cache in the work directory (not the user's ~/.cache): the
# smoke test writes it, the command line below reads it
CACHE="$WORK/cache"
rm -rf "$CACHE"
env -i HOME="$HOME" PATH="$NOCC_PATH" CC=false CXX=false MJFAST_CACHE_DIR="$CACHE" \
  "$VENV/bin/python" "$SRC/tools/smoke_test.py"
env -i HOME="$HOME" PATH="$NOCC_PATH" MJFAST_CACHE_DIR="$CACHE" "$VENV/bin/python" -c \
  "import mjfast, sys; assert mjfast.__file__.startswith(sys.prefix), mjfast.__file__"
env -i HOME="$HOME" PATH="$NOCC_PATH" MJFAST_CACHE_DIR="$CACHE" "$VENV/bin/mjfast" score "[567m2][EEE1]45m678pFF6m" --self-drawn --json
env -i HOME="$HOME" PATH="$NOCC_PATH" MJFAST_CACHE_DIR="$CACHE" "$VENV/bin/python" -c \
  "import mjfast; from mjfast import _tablecache; mjfast.shanten('123m456p789s11pEEN'); assert _tablecache.table_source() == 'cache', _tablecache.table_source()"
echo "   ok: the tables' disk cache written and read ($(ls "$CACHE" | tr '\n' ' '))"
echo "== OK: the wheel installs and works without a compiler"
