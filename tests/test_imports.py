"""Imports flow one way, down the layers of docs/architecture.md, "Layers"
(tests/test_import_rules.py checks them); here:

* every module of the package imports on its own in a fresh interpreter
  (no module works only because another one was imported first);
* the graph of imports between the package's modules — counting imports
  inside functions, which is how a cycle hides — has no cycle;
* tiles.py, the bottom layer, imports nothing of mjfast but the errors and
  the compiled core (whose notation parser it words the errors of).
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "mjfast")


def _modules():
    """Dotted names of the package's Python modules (packages as their name)."""
    out = []
    for d, _, files in os.walk(PKG):
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(d, f), ROOT)[:-3].replace(os.sep, ".")
            out.append(rel[: -len(".__init__")] if rel.endswith(".__init__") else rel)
    return sorted(out)


# the compiled modules (setup.py builds each src/<name>.pyx as mjfast.<name>):
# they import nothing of the package's Python
_COMPILED = tuple(sorted("mjfast." + f[:-4] for f in os.listdir(os.path.join(ROOT, "src")) if f.endswith(".pyx")))


def _path(mod):
    p = os.path.join(ROOT, *mod.split("."))
    return os.path.join(p, "__init__.py") if os.path.isdir(p) else p + ".py"


def _imports(mod):
    """The mjfast modules that ``mod`` imports anywhere in its source."""
    is_pkg = _path(mod).endswith("__init__.py")
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    mods = set(_modules()) | set(_COMPILED)
    out = set()
    with open(_path(mod), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "mjfast")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[: len(base) - (node.level - 1)]
                target = ".".join(parent + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "mjfast":
                continue
            for a in node.names:      # `from . import x`: x may be a submodule
                sub = f"{target}.{a.name}"
                out.add(sub if sub in mods else target)
    return {m for m in out if m in mods and m != mod}


def test_the_scan_sees_known_imports():
    assert "mjfast.tiles" in _imports("mjfast.hand")
    assert "mjfast.hand" in _imports("mjfast.analysis.inputs") and "mjfast.analysis.inputs" in _imports("mjfast.analysis.hands")
    assert "mjfast.scoring.batch" in _imports("mjfast.io.jsonl")
    assert "mjfast.stats.plot" in _imports("mjfast.cli.stats")       # an import inside a function


def test_tiles_imports_nothing_but_errors_and_the_core():
    assert _imports("mjfast.tiles") <= {"mjfast.errors", "mjfast._core"}


def test_no_import_cycle():
    graph = {m: _imports(m) for m in _modules()}
    # the package itself re-exports everything; modules import it only for
    # __version__ (cli), so it is left out of the cycle check
    for m in graph:
        graph[m].discard("mjfast")
    state = {}

    def visit(m, stack):
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                cycle = stack[stack.index(n):] + [n]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n, stack + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


@pytest.mark.parametrize("mod", _modules())
def test_module_imports_alone(mod):
    code = f"import {mod}"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]


def test_to_counts_still_public():
    import mjfast
    from mjfast import hand

    assert mjfast.to_counts is hand.to_counts
    assert mjfast.to_counts("[567m2][EEE1]45m678pFF6m").sum() == 8
    assert mjfast.counts_to_str("[567m2]45m678pFF6m") == "456m678pFF"
    assert mjfast.to_counts(mjfast.parse_hand("[EEE]11m")).tolist() == mjfast.to_counts("11m").tolist()
    from mjfast import tiles

    with pytest.raises(mjfast.InvalidHand, match="brackets"):
        tiles.counts_of("[EEE]11m")


# -- start-up: what `import mjfast` and the command line's parser load -----------------

_HEAVY = ("mjfast.rules.zhuji", "mjfast.rules.guizhou", "mjfast.rules.shanghai", "mjfast.rules.two_player",
          "mjfast.game", "mjfast.botzone.state", "mjfast.stats.accumulate", "mjfast.stats.sources",
          "pandas", "matplotlib", "dask", "pyarrow", "tqdm")


def _loaded_after(code):
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return set(out.stdout.split())


def test_import_and_the_parser_load_only_what_they_need():
    # the other rule sets, the game engine, the bots' state, the statistics and
    # the optional extras load on first use, not with the package or the parser
    loaded = _loaded_after("import mjfast\nfrom mjfast.cli import build_parser\nbuild_parser()")
    assert not loaded & set(_HEAVY), sorted(loaded & set(_HEAVY))
    # scoring under MCR loads none of them either
    loaded = _loaded_after("import mjfast\nmjfast.score_batch(['123m456m789m123p5p5p'])\n"
                           "mjfast.score('123m456m789m123p5p5p')")
    assert not loaded & set(_HEAVY), sorted(loaded & set(_HEAVY))


def test_lazy_names_still_import():
    out = subprocess.run([sys.executable, "-c", """
import mjfast
from mjfast import rules
assert set(rules.available()) == {"mcr", "dazhong", "guizhou", "shanghai_old", "two_player", "zhuji"}
from mjfast.rules import ZHUJI, TWO_PLAYER_TABLE
assert rules.get("zhuji") is ZHUJI and rules.SHANGHAI_OLD.name == "shanghai_old"
assert callable(rules.guizhou.settle) and "GUIZHOU" in dir(rules)
# a rule set loaded lazily has its own fan table (the statistics commands count on it)
from mjfast.rules.base import _LAZY
assert all(rules.get(n).table is not rules.MCR for n in _LAZY)
assert mjfast.score("123m456m789mEEE5m5m", rules="two_player").total == 33
from mjfast.stats import FanStats, iter_file
from mjfast.botzone import BotState, ProtocolError
import mjfast.stats, mjfast.botzone
assert "FanStats" in dir(mjfast.stats) and "BotState" in dir(mjfast.botzone)
try:
    rules.NOPE
except AttributeError as exc:
    assert "NOPE" in str(exc)
else:
    raise AssertionError("no AttributeError")
print("ok")
"""], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_subpackages_are_attributes_loaded_on_first_use():
    # `import mjfast` leaves them unloaded, and `mjfast.testing` (etc.) loads one
    out = subprocess.run([sys.executable, "-c", """
import sys, mjfast
names = mjfast._SUBPACKAGES
assert not [n for n in names if "mjfast." + n in sys.modules], [n for n in names if "mjfast." + n in sys.modules]
assert "mjfast.io.jsonl" not in sys.modules
assert mjfast.testing.winning_hands(1, seed=1) and mjfast.logs.Summary and mjfast.game.GameState
assert set(names) <= set(dir(mjfast))
try:
    mjfast.no_such_module
except AttributeError as exc:
    assert "no_such_module" in str(exc)
else:
    raise AssertionError("no AttributeError")
print("ok")
"""], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


# -- the module paths of earlier releases (mjfast._MOVED; CHANGES.md lists them) ---------

def test_old_module_paths_are_the_new_modules():
    out = subprocess.run([sys.executable, "-c", """
import importlib, os, sys
import mjfast
moved = mjfast._MOVED
assert moved and "core" in moved and "stats.cli" in moved
for old, new in moved.items():
    m = importlib.import_module("mjfast." + old)
    assert m is importlib.import_module("mjfast." + new), old
    assert m.__name__ == "mjfast." + new and m.__spec__.name == "mjfast." + new, (old, m.__spec__)
    # no file is left at the old path
    base = os.path.join(os.path.dirname(mjfast.__file__), *old.split("."))
    assert not os.path.exists(base + ".py") and not os.path.isdir(base), old
# the function mjfast.score is not replaced by the module of the same old name
import mjfast.score
from mjfast.score import Score
assert callable(mjfast.score)
assert mjfast.score("123m456m789m123p5p5p").total > 0 and isinstance(mjfast.score("123m456m789m123p5p5p"), Score)
from mjfast.batch import HandBatch
from mjfast.core import FORMS, ERR_BAD_MELDS
from mjfast.bots import Discard
from mjfast.wild import WILDCARD
from mjfast.records import validate_record
from mjfast.batch_score import RULE_FLAG_BITS
from mjfast.cli_args import rules_from_args
from mjfast import core, dask, stats
assert HandBatch is mjfast.HandBatch and core.FORMS is mjfast.FORMS and WILDCARD == 34
assert dask is sys.modules["mjfast.stats.dask"] and mjfast.dask is dask
import mjfast.stats.cli
assert stats.cli is sys.modules["mjfast.cli.stats"]
import mjfast.logs.cli, mjfast.botzone.cli
assert mjfast.logs.cli is sys.modules["mjfast.cli.logs"] and mjfast.botzone.cli.register
try:
    import mjfast.no_such_old_module
except ImportError:
    pass
else:
    raise AssertionError("an unknown module imported")
print("ok")
"""], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_changes_lists_every_moved_path():
    import mjfast
    with open(os.path.join(ROOT, "CHANGES.md"), encoding="utf-8") as f:
        unreleased = f.read().split("## Unreleased", 1)[1].split("\n## ", 1)[0]
    for old, new in mjfast._MOVED.items():
        assert f"| `mjfast.{old}`" in unreleased and f"`mjfast.{new}`" in unreleased, old


def test_the_wheel_lists_every_package():
    # pyproject.toml names the packages a wheel holds: one left out would be
    # missing from an install (tools/check_wheel.sh builds one by hand)
    try:
        import tomllib
    except ImportError:     # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    packages = {m for m in _modules() if os.path.isdir(os.path.join(ROOT, *m.split(".")))}
    assert packages == listed, (sorted(packages - listed), sorted(listed - packages))
