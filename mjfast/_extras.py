"""Optional dependencies: what each need imports, the extra that brings it,
and the one check every command and function makes before its work.

Each need names exactly one extra of pyproject.toml that installs all it
imports -- one of the users' extras by job (README, "Install": cli, tables,
plot, dask) -- so a message says one thing to install, as it is installed
from mjfast's source directory (mjfast is on no package index)::

    --out fans.parquet needs pyarrow: install mjfast's extra 'tables' (pip install '.[tables]' in its source directory)

A command checks its needs when it starts (:func:`require`), before reading
or computing anything, and reports a missing one as a usage error (one
line, exit code 2); a function raises :class:`MissingExtra` (an
``ImportError``).  orjson and tqdm only make things faster or show a
progress bar: nothing needs them.
"""
from __future__ import annotations

import importlib

__all__ = ["MissingExtra", "NEEDS", "require", "missing", "install_hint"]

#: need -> (modules it imports, in the order checked; the extra that installs them all)
NEEDS = {
    "pandas": (("pandas",), "tables"),                      # DataFrames, .csv tables
    "arrow": (("pyarrow",), "tables"),                      # Arrow tables, Parquet written by pyarrow
    "parquet": (("pandas", "pyarrow"), "tables"),           # DataFrames read from / written to Parquet
    "plot": (("matplotlib",), "plot"),                      # figures
    "dask": (("dask", "dask.dataframe", "distributed"), "dask"),   # --scheduler, mjfast.dask
}

#: how a module is named in a message
_SHOWN = {"dask.dataframe": "dask[dataframe]"}


class MissingExtra(ImportError):
    """An optional dependency is not installed (or does not import); the
    message names it and the one extra that installs it."""


def missing(need: str):
    """The first module of ``need`` that does not import, or None."""
    modules, _extra = NEEDS[need]
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None


def install_hint(extra: str) -> str:
    """How a message tells the user to install ``extra``."""
    return f"install mjfast's extra '{extra}' (pip install '.[{extra}]' in its source directory)"


def require(need: str, what: str) -> None:
    """Raise :class:`MissingExtra` ``"<what> needs <module>: install mjfast's
    extra '<extra>' (...)"`` if a module of ``need`` (a key of :data:`NEEDS`)
    does not import."""
    name = missing(need)
    if name is not None:
        raise MissingExtra(f"{what} needs {_SHOWN.get(name, name)}: {install_hint(NEEDS[need][1])}")
