"""Optional dependencies: what each need imports, the extra that brings it,
and the one check every command and function makes before its work.

Each need names exactly one extra of pyproject.toml that installs all it
imports, so a message says one thing to install::

    --out fans.parquet needs pyarrow: pip install 'mjfast[stats]'

A command checks its needs when it starts (:func:`require`), before reading
or computing anything, and reports a missing one as a usage error (one
line, exit code 2); a function raises :class:`MissingExtra` (an
``ImportError``).  orjson and tqdm only make things faster or show a
progress bar: nothing needs them.
"""
from __future__ import annotations

import importlib

__all__ = ["MissingExtra", "NEEDS", "require", "missing"]

#: need -> (modules it imports, in the order checked; the extra that installs them all)
NEEDS = {
    "pandas": (("pandas",), "pandas"),                      # DataFrames, .csv tables
    "arrow": (("pyarrow",), "arrow"),                       # Arrow tables, Parquet written by pyarrow
    "parquet": (("pandas", "pyarrow"), "stats"),            # DataFrames read from / written to Parquet
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


def require(need: str, what: str) -> None:
    """Raise :class:`MissingExtra` ``"<what> needs <module>: pip install
    'mjfast[<extra>]'"`` if a module of ``need`` (a key of :data:`NEEDS`)
    does not import."""
    name = missing(need)
    if name is not None:
        raise MissingExtra(f"{what} needs {_SHOWN.get(name, name)}: pip install 'mjfast[{NEEDS[need][1]}]'")
