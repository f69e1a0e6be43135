"""mjfast: fast Chinese Official Mahjong (MCR, 国标麻将) scoring.

A hand is a 34-slot count array (0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s,
27-30 = E S W N, 31-33 = C F P).  The compiled core answers win / waits /
shanten / decompositions; the fan engine scores all 81 MCR fans.
"""
import importlib as _importlib

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
from .core import (
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
from .score import score, Score, FanResult
from .rules import MCR
from .batch import HandBatch, BatchResult, score_batch
from .bots import best_discards, best_discards_batch, winning_tiles
from .targets import FanTarget, fan_targets, fan_shanten

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
_SUBPACKAGES = ("botzone", "dask", "game", "io", "logs", "stats", "testing")


def __getattr__(name):
    if name in _SUBPACKAGES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBPACKAGES))
