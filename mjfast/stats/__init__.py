"""Fan statistics: frequencies, points, intervals, forms, totals and
co-occurrence, streamed over any number of scored hands; and the exact
statistics over every fully concealed winning hand.

    from mjfast.stats import FanStats, stats_of_files, enumerate_stats
    acc = stats_of_files(["results.parquet"])     # or FanStats().update(batch_result)
    acc.table()                                    # per fan (pandas)
    acc.summary()                                  # wins, forms, self-drawn share, totals

Plots live in :mod:`mjfast.stats.plot` (matplotlib, ``pip install '.[plot]'``).
"""
import importlib
from typing import TYPE_CHECKING

from ..rules import get as _get_rules

if TYPE_CHECKING:       # for the annotations: the submodules are loaded on first use (below)
    from .accumulate import FanStats

__all__ = ["FanStats", "wilson_interval", "forms_of", "self_drawn_of", "FORM_NAMES", "Z95",
           "Chunk", "iter_file", "iter_files", "frame_arrays", "stats_of_files"]

#: the names of the submodules, loaded on first use (the command line's
#: parser imports mjfast.stats.cli without them)
_LAZY = {"FanStats": "accumulate", "wilson_interval": "accumulate", "forms_of": "accumulate",
         "self_drawn_of": "accumulate", "FORM_NAMES": "accumulate", "Z95": "accumulate",
         "Chunk": "sources", "iter_file": "sources", "iter_files": "sources", "frame_arrays": "sources"}


def __getattr__(name):
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


def stats_of_files(paths, *, chunk_size: int = 65536, workers: int = 1, on_problem=None,
                   rules=None) -> "FanStats":
    """One pass over scored-result files or hand-record files (see
    :mod:`mjfast.stats.sources`); ``on_problem(path, line, message)`` is called
    for each bad line (bad lines are counted as invalid rows either way).

    ``rules``: the rule set hand records are scored under (a name or
    :class:`~mjfast.rules.RuleSet` scored with the MCR fan table, e.g.
    ``"dazhong"``); files of scored results take plain MCR only."""
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    if rules is not None:
        rules = _get_rules(rules)
        if not rules.impl.mcr_fans:
            raise ValueError(f"rule set {rules.name!r} has its own fan table; the statistics count "
                             "MCR's (a rule set scored with it, e.g. mcr or dazhong)")
    from .accumulate import FanStats   # start-up: loaded on first use
    from .sources import iter_file   # start-up: loaded on first use
    acc = FanStats()
    for p in paths:
        for ch in iter_file(p, chunk_size=chunk_size, workers=workers, rules=rules):
            acc.update_arrays(ch.fan_counts, ch.totals, ch.legal, ch.errors)
            if on_problem is not None:
                for line, msg in ch.problems:
                    on_problem(p, line, msg)
    return acc
