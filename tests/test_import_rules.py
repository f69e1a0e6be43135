"""The import rules of docs/architecture.md, "Layers", over the package's
Python modules and the compiled modules' sources:

* imports flow one way, spec -> native -> api -> users: a module imports
  modules of its own layer or a lower one (the layers are the table of that
  section, read from the page: the page and the rule cannot disagree);
* the compiled modules (src/**/*.pyx, .pxd, .pxi) import and cimport only
  compiled modules and the spec, never a Python module of the api or users;
* a module's private names stay private: no ``from X import _name`` of a
  name defined in another module (a private *module*, ``from . import
  _core``, is a module of the package and may be imported);
* imports sit at the top of a file (at module level, also inside a
  module-level ``try``/``if``), except the ones of ``INNER_IMPORTS`` below,
  each with its reason, and the optional dependencies (``mjfast._extras``),
  which a function imports when it needs them because they may be missing.
"""
from __future__ import annotations

import ast
import os
import re

import pytest

from mjfast._extras import NEEDS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "mjfast")
SRC = os.path.join(ROOT, "src")
ARCH = os.path.join(ROOT, "docs", "architecture.md")

#: the compiled modules: setup.py builds each src/<name>.pyx as mjfast.<name>
COMPILED = tuple(sorted("mjfast." + f[:-4] for f in os.listdir(SRC) if f.endswith(".pyx")))

#: Imports inside functions, each with its reason: {(module, imported): why}.
#: ``imported`` is the mjfast module (or the standard-library module) imported.
INNER_IMPORTS = {
    ("mjfast.cli.score", "mjfast.io.jsonl"):
        "start-up: `mjfast score HAND` does not load the JSONL reader (about 2.6 ms, python -X importtime)",
    ("mjfast.cli.stats", "mjfast.game.fast"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs",
    ("mjfast.cli.stats", "mjfast.logs.limits"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs (mjfast.logs costs about 35 ms)",
    ("mjfast.cli.stats", "mjfast.stats.dask"):
        "mjfast.stats.dask imports dask, an optional dependency, and raises naming the extra when it is missing",
    ("mjfast.cli.stats", "mjfast.stats.enumerate"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs",
    ("mjfast.cli.stats", "mjfast.stats.logs"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs",
    ("mjfast.cli.stats", "mjfast.stats.plot"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs (the plots need matplotlib, optional)",
    ("mjfast.cli.stats", "mjfast.stats.simulate"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs",
    ("mjfast.cli.logs", "mjfast.logs"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs",
    ("mjfast.cli.logs", "mjfast.logs.scoring"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs",
    ("mjfast.cli.logs", "mjfast.stats.dask"):
        "mjfast.stats.dask imports dask, an optional dependency, and raises naming the extra when it is missing",
    ("mjfast.cli.match", "mjfast.botzone.match"):
        "start-up: the parser loads only what scoring loads (tests/test_imports.py); the command's code loads when it runs (the match loads the game engine)",
    ("mjfast.io", "mjfast.io.jsonl"):
        "cycle: scoring.records imports io.jsontext, so the io package loads with mjfast, and io.jsonl imports scoring.records",
    ("mjfast.scoring.batch", "mjfast.scoring.batch_rules"):
        "start-up: the other rule sets' batch rows load on first use, as the rule sets do (about 6 ms)",
    ("mjfast.rules.engine", "mjfast.scoring.batch_rules"):
        "start-up: a rule set's engine loads without the batch-row code (about 6 ms), which loads with the first batch that needs it",
    ("mjfast.stats", "mjfast.stats.accumulate"):
        "start-up: mjfast.stats loads its modules on first use (the command line's parser imports the package)",
    ("mjfast.stats", "mjfast.stats.sources"):
        "start-up: mjfast.stats loads its modules on first use (the command line's parser imports the package)",
    ("mjfast.stats.dask", "mjfast.logs"):
        "mjfast.logs and its readers cost about 35 ms to load (python -X importtime): only a logs job loads them",
    ("mjfast.stats.dask", "mjfast.logs.scoring"):
        "mjfast.logs and its readers cost about 35 ms to load (python -X importtime): only a logs job loads them",
    ("mjfast.stats.logs", "mjfast.logs"):
        "mjfast.logs and its readers cost about 35 ms to load (python -X importtime): only a logs job loads them",
    ("mjfast.stats.logs", "mjfast.logs.scoring"):
        "mjfast.logs and its readers cost about 35 ms to load (python -X importtime): only a logs job loads them",
    ("mjfast.stats.logs", "mjfast.stats.dask"):
        "mjfast.stats.dask imports dask, an optional dependency, and raises naming the extra when it is missing",
    ("mjfast.stats.enumerate", "mjfast.stats.dask"):
        "mjfast.stats.dask imports dask, an optional dependency, and raises naming the extra when it is missing",
    ("mjfast.stats.simulate", "mjfast.stats.dask"):
        "mjfast.stats.dask imports dask, an optional dependency, and raises naming the extra when it is missing",
    ("mjfast.stats.simulate", "mjfast.game.fast"):
        "start-up: the game engine loads only when games are played (mjfast.game, tests/test_imports.py _HEAVY)",
    ("mjfast.stats.simulate", "multiprocessing"):
        "only with workers > 1; multiprocessing costs about 4 ms to import",
    ("mjfast.stats.simulate", "concurrent.futures"):
        "only with workers > 1; concurrent.futures costs about 10 ms to import",
    ("mjfast.logs.scoring", "multiprocessing"):
        "only with workers > 1; multiprocessing costs about 4 ms to import",
    ("mjfast.logs.scoring", "mjfast.logs.text"):
        "the reader of the format a file is in: the text archives' reader (and its compiled replay) loads for text archives only",
    ("mjfast.logs.scoring", "mjfast.logs.fasttext"):
        "the reader of the format a file is in: the text archives' reader (and its compiled replay) loads for text archives only",
    ("mjfast.logs.replay", "mjfast.game.state"):
        "start-up: the game engine loads when a match is replayed, not with the archive reader (mjfast.game, _HEAVY)",
    ("mjfast.botzone", "mjfast.botzone.state"):
        "start-up: mjfast.botzone loads the seat view on first use (mjfast.botzone.state, _HEAVY)",
    ("mjfast.botzone.tournament", "multiprocessing"):
        "only with workers > 1; multiprocessing costs about 4 ms to import",
}

#: Third-party modules that are optional (every module the extras of
#: mjfast._extras.NEEDS bring): imported where they are used, in functions.
# (threadpoolctl: of the tables extra, used when installed, never needed)
OPTIONAL = {name.split(".")[0] for mods, _ in NEEDS.values() for name in mods} | {"tqdm", "orjson", "threadpoolctl"}


def layers():
    """{layer name: (rank, [module prefixes])} from the table of
    docs/architecture.md, "Layers" (rows ``| rank | layer | `mod`, ... |``)."""
    with open(ARCH, encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Layers", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        m = re.match(r"\|\s*(\d)\s*\|\s*(\w+)\s*\|(.*)\|\s*$", line)
        if m:
            out[m.group(2)] = (int(m.group(1)), re.findall(r"`(mjfast[\w.]*)`", m.group(3)))
    return out


def _rank_table():
    return sorted(((p, rank, name) for name, (rank, mods) in layers().items() for p in mods),
                  key=lambda x: -len(x[0]))


def layer_of(mod, table=None):
    """(rank, layer) of a dotted module name: its longest prefix in the table."""
    for prefix, rank, name in table or _rank_table():
        if mod == prefix or mod.startswith(prefix + "."):
            return rank, name
    raise AssertionError(f"{mod} is in no layer of docs/architecture.md, 'Layers'")


def _modules():
    out = {}
    for d, _, files in os.walk(PKG):
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(d, f)
                rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                out[rel[: -len(".__init__")] if rel.endswith(".__init__") else rel] = path
    return out


MODULES = _modules()


def _is_module(name):
    return name in MODULES or name in COMPILED


def _toplevel(body):
    """The statements at module level, into module-level try/if/with."""
    for n in body:
        yield n
        for field in ("body", "orelse", "finalbody"):
            if isinstance(n, (ast.Try, ast.If, ast.With)) and getattr(n, field, None):
                yield from _toplevel(getattr(n, field))
        for h in getattr(n, "handlers", ()):
            yield from _toplevel(h.body)


def imports(mod, text=None):
    """[(line, imported module, names or None, at module level)] of a module
    (``text``: its source, else read from its file): ``from X import a, b``
    gives X with (a, b), or X.a for a submodule a."""
    path = MODULES.get(mod, "")
    base = mod.split(".") if path.endswith("__init__.py") else mod.split(".")[:-1]
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    tree = ast.parse(text)
    top = {id(n) for n in _toplevel(tree.body)}
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                out.append((n.lineno, a.name, None, id(n) in top))
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                parent = base[: len(base) - (n.level - 1)]
                target = ".".join(parent + ([n.module] if n.module else []))
            else:
                target = n.module or ""
            names = []
            for a in n.names:
                if _is_module(f"{target}.{a.name}"):
                    out.append((n.lineno, f"{target}.{a.name}", None, id(n) in top))
                else:
                    names.append(a.name)
            if names:
                out.append((n.lineno, target, tuple(names), id(n) in top))
    return out


def _internal(name):
    return name == "mjfast" or name.startswith("mjfast.")


# -- the scan sees what it must -------------------------------------------------

def test_the_layers_are_read_from_the_page():
    t = layers()
    assert [name for name, _ in sorted(t.items(), key=lambda kv: kv[1][0])] == ["spec", "native", "api", "users"]
    assert layer_of("mjfast.spec.flags")[1] == "spec" and layer_of("mjfast._core")[1] == "native"
    assert layer_of("mjfast.scoring.batch")[1] == "api" and layer_of("mjfast.cli.score")[1] == "users"
    # every module of the package and every compiled module is in a layer
    for mod in list(MODULES) + list(COMPILED):
        layer_of(mod)
    assert all(layer_of(mod)[1] == "native" for mod in COMPILED)


def test_the_scan_sees_imports_of_each_kind():
    seen = imports("mjfast.analysis.hands")
    assert any(m == "mjfast._core" and top for _, m, _, top in seen)                 # from .. import _core
    assert any(m == "mjfast.errors" and "InvalidHand" in names for _, m, names, _ in seen if names)
    assert any(m == "mjfast.analysis.wild" for _, m, _, _ in seen)                   # from . import wild
    # one inside a function (an optional dependency)
    assert any(m == "threadpoolctl" and not top for _, m, _, top in imports("mjfast.stats.accumulate"))


def test_a_made_up_module_breaking_each_rule_is_caught():
    src = ("from ..cli.score import register\n"          # api -> users
           "from .records import _not_public\n"          # a private name
           "from .. import _core\n"                      # a private module: fine
           "def f():\n    from ..rules import get\n")   # inside a function
    found = imports("mjfast.scoring.madeup", src)
    assert _against_layers("mjfast.scoring.madeup", found) == ["mjfast.scoring.madeup:1 (api) imports mjfast.cli.score (users)"]
    assert _private(found) == [(2, "mjfast.scoring.records", "_not_public")]
    assert [(line, m) for line, m, _, top in found if not top] == [(5, "mjfast.rules")]
    assert (3, "mjfast._core", None, True) in found


# -- the rules ----------------------------------------------------------------------

def _against_layers(mod, found, table=None):
    table = table or _rank_table()
    rank, name = layer_of(mod, table)
    out = []
    for line, imported, _, _ in found:
        if _internal(imported):
            r, n = layer_of(imported, table)
            if r > rank:
                out.append(f"{mod}:{line} ({name}) imports {imported} ({n})")
    return out


def _private(found):
    return [(line, imported, n) for line, imported, names, _ in found if _internal(imported) and names
            for n in names if n.startswith("_") and not n.startswith("__")]


def test_imports_flow_down_the_layers():
    table = _rank_table()
    bad = [b for mod in MODULES for b in _against_layers(mod, imports(mod), table)]
    assert not bad, "imports against the layers (docs/architecture.md, 'Layers'):\n" + "\n".join(bad)


def test_only_the_users_import_the_facade():
    # ``from .. import score`` in the api would load the whole package first
    # (and make the order of its imports matter): the api imports the module
    # that defines a name
    table = _rank_table()
    bad = [f"{mod}:{line} imports {names} from the package itself"
           for mod in MODULES if mod != "mjfast" and layer_of(mod, table)[0] < 3
           for line, imported, names, _ in imports(mod) if imported == "mjfast"]
    assert not bad, "\n".join(bad)


def test_no_private_names_across_modules():
    bad = [f"{mod}:{line}: from {imported} import {n}" for mod in MODULES for line, imported, n in _private(imports(mod))]
    assert not bad, "private names imported from another module (give the name a public one " \
                    "in the module that owns it):\n" + "\n".join(bad)


def test_imports_at_the_top():
    bad = []
    used = set()
    for mod in MODULES:
        for line, imported, _, top in imports(mod):
            if top or imported.split(".")[0] in OPTIONAL:
                continue
            key = (mod, imported)
            if key in INNER_IMPORTS:
                used.add(key)
            else:
                bad.append(f"{mod}:{line}: import {imported} inside a function")
    assert not bad, "imports inside functions that are not in INNER_IMPORTS (move them to the top, " \
                    "or say why not there):\n" + "\n".join(bad)
    assert not set(INNER_IMPORTS) - used, f"INNER_IMPORTS holds imports that are gone: {sorted(set(INNER_IMPORTS) - used)}"
    assert all(isinstance(why, str) and len(why) > 10 for why in INNER_IMPORTS.values())


# -- the compiled modules ----------------------------------------------------------

_CIMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+c?import\s+([^#\n]+)|c?import\s+([\w.]+))", re.M)


def _compiled_sources():
    for d, _, files in os.walk(SRC):
        for f in sorted(files):
            if f.endswith((".pyx", ".pxd", ".pxi")):
                yield os.path.join(d, f)


def compiled_imports(path):
    """[(line, module)] of the mjfast modules a compiled source imports or cimports."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = []
    for m in _CIMPORT.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        if m.group(3):
            mods = [m.group(3)]
        else:
            target = m.group(1)
            if target.startswith("."):           # a relative import of mjfast/_x.pyx: mjfast
                target = "mjfast" + ("." + target.lstrip(".") if target.strip(".") else "")
            names = [x.split(" as ")[0].strip(" ()") for x in m.group(2).split(",")]
            mods = [f"{target}.{n}" if _is_module(f"{target}.{n}") or f"{target}.{n}" in COMPILED
                    else target for n in names if n and n != "*"] or [target]
        out += [(line, mod) for mod in mods if _internal(mod)]
    return out


def test_the_compiled_scan_sees_cimports():
    found = {mod for p in _compiled_sources() for _, mod in compiled_imports(p)}
    assert "mjfast._engine" in found and "mjfast._core" in found


def test_compiled_modules_import_no_python_module_of_the_api():
    table = _rank_table()
    bad = []
    for path in _compiled_sources():
        for line, mod in compiled_imports(path):
            rank, name = layer_of(mod, table)
            if mod == "mjfast" or rank > 1:
                bad.append(f"{os.path.relpath(path, ROOT)}:{line} imports {mod} ({name})")
    assert not bad, "compiled modules import only compiled modules and the spec:\n" + "\n".join(bad)


@pytest.mark.parametrize("src, expect", [
    ("from mjfast.scoring.score import score\n", "mjfast.scoring.score"),
    ("    from mjfast import _core\n", "mjfast._core"),
    ("from . import _core\n", "mjfast._core"),
    ("from mjfast._engine cimport *\n", "mjfast._engine"),
    ("import mjfast.rules\n", "mjfast.rules"),
])
def test_the_compiled_scan_reads_each_form(tmp_path, src, expect):
    p = tmp_path / "x.pyx"
    p.write_text("# a comment\n" + src)
    assert [mod for _, mod in compiled_imports(str(p))] == [expect]
