"""mjfast: fast Chinese Official Mahjong (MCR, 国标麻将) scoring.

A hand is a 34-slot count array (0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s,
27-30 = E S W N, 31-33 = C F P).  The compiled core answers win / waits /
shanten / decompositions; the fan engine scores all 81 MCR fans.
"""
import importlib as _importlib
import sys as _sys
from importlib.machinery import ModuleSpec as _ModuleSpec

from ._version import __version__
from .errors import InvalidArgument, InvalidHand, InvalidOption, NotWinning, UnknownRules

try:
    from . import _core  # noqa: F401
except ImportError as exc:  # pragma: no cover - only on a broken install
    raise ImportError(
        "mjfast's compiled extension (mjfast._core) is missing or does not load: "
        "install with `pip install .` (or `pip install -e .`) so that it is built; "
        f"there is no pure-Python fallback. Original error: {exc}"
    ) from exc

from .tiles import TILE_NAMES, tile_name, tile_index, parse_tiles
from .hand import Hand, Meld, parse_hand, format_hand, to_counts, counts_to_str
from .analysis.hands import (
    FORMS,
    is_win,
    decompose,
    waits,
    shanten,
    useful_tiles,
    is_win_batch,
    shanten_batch,
    waits_batch,
    openmp_enabled,
)
from .scoring.score import score, Score, FanResult
from .rules import MCR
from .scoring.batch import HandBatch, BatchResult, score_batch
from .analysis.discards import best_discards, best_discards_batch, winning_tiles
from .analysis.targets import FanTarget, fan_targets, fan_shanten

__all__ = [
    "score",
    "Score",
    "FanResult",
    "MCR",
    "HandBatch",
    "BatchResult",
    "score_batch",
    "best_discards",
    "best_discards_batch",
    "FanTarget",
    "fan_targets",
    "fan_shanten",
    "winning_tiles",
    "__version__",
    "InvalidHand",
    "InvalidArgument",
    "InvalidOption",
    "UnknownRules",
    "NotWinning",
    "TILE_NAMES",
    "tile_name",
    "tile_index",
    "to_counts",
    "counts_to_str",
    "parse_tiles",
    "Hand",
    "Meld",
    "parse_hand",
    "format_hand",
    "FORMS",
    "is_win",
    "decompose",
    "waits",
    "shanten",
    "useful_tiles",
    "is_win_batch",
    "shanten_batch",
    "waits_batch",
    "openmp_enabled",
]

#: The subpackages ``import mjfast`` leaves unloaded (they pull in more than
#: scoring needs; tests/test_imports.py holds import time to it), loaded on
#: first use as attributes: ``mjfast.testing.winning_records(...)`` works
#: after a plain ``import mjfast``, as ``import mjfast.testing`` does.
#: (``mjfast.io`` is loaded, its JSON reader ``io.jsontext`` being the record
#: validator's; ``mjfast.io.jsonl``, which scores files, is not.)
_SUBPACKAGES = ("botzone", "dask", "game", "logs", "stats", "testing")

#: Module paths of earlier releases -> the module that holds that code now
#: (docs/architecture.md, "Layers"; CHANGES.md lists them).  ``import
#: mjfast.core``, ``from mjfast.batch import HandBatch`` and ``mjfast.core``
#: as an attribute give the new module itself, loaded on first use.
_MOVED = {
    "core": "analysis.hands",
    "bots": "analysis.discards",
    "targets": "analysis.targets",
    "wild": "analysis.wild",
    "score": "scoring.score",
    "batch": "scoring.batch",
    "batch_score": "scoring.batch_result",
    "batch_rules": "scoring.batch_rules",
    "records": "scoring.records",
    "dask": "stats.dask",
    "cli_args": "cli.args",
    "stats.cli": "cli.stats",
    "logs.cli": "cli.logs",
    "botzone.cli": "cli.match",
    "rules.zhuji_table": "rules.zhuji.table",
}


class _MovedModuleFinder:
    """Finds an old module path of _MOVED and gives the module that
    holds its code now (the same module object, not a copy)."""

    def __init__(self):
        self._specs = {}

    def find_spec(self, fullname, path=None, target=None):
        prefix = __name__ + "."
        if fullname.startswith(prefix) and fullname[len(prefix):] in _MOVED:
            return _ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):
        module = _importlib.import_module(f"{__name__}.{_MOVED[spec.name[len(__name__) + 1:]]}")
        # the import system sets __spec__ to the alias's spec: exec_module puts it back
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self._specs.pop(module.__spec__.name)


# first: an editable install's finder would find a stale file of an old path
_sys.meta_path.insert(0, _MovedModuleFinder())
# The old paths of modules that are loaded already are bound now: ``import
# mjfast.score`` then finds the module and leaves the attribute mjfast.score,
# the function, as it is (a first import of a submodule sets that attribute).
for _old, _new in _MOVED.items():
    if f"{__name__}.{_new}" in _sys.modules:
        _sys.modules.setdefault(f"{__name__}.{_old}", _sys.modules[f"{__name__}.{_new}"])
del _old, _new


def __getattr__(name):
    if name in _SUBPACKAGES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name in _MOVED:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBPACKAGES))
