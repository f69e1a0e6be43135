"""Reading, replaying and scoring match archives of the Botzone platform.

>>> import mjfast.logs as logs
>>> for m in logs.read("data.txt"):          # doctest: +SKIP
...     r = logs.replay(m)                   # MatchError if malformed or illegal
...     r.wins                               # [Win(winner=..., hand=..., self_drawn=...)]
>>> df = logs.score(["data.txt", "matches/"])  # doctest: +SKIP  (one row per win)

Formats: the text archive (``Match`` / ``Player n Draw W1`` lines, many
matches per file), the match JSON (one object, a list, a bare ``logs`` list,
or a directory of such files) and, for reading, PMN.  Streaming throughout:
memory does not grow with the file.  Details: docs/logs.md.
"""
from __future__ import annotations

import os
from typing import Iterable, Iterator, Optional, Union

from .._extras import require
from ..errors import InvalidArgument
from .jsonlog import NotAnArchive, platform_file
from .model import Claim, Event, Match, fan_key
from .replay import MatchError, Replayed, Win, replay
from .scoring import COLUMNS, Problem, Summary, detect_format, iter_matches, no_match_line, process, settlement

__all__ = ["read", "replay", "wins", "score", "export", "Match", "Event", "Claim", "Win", "Replayed",
           "MatchError", "NotAnArchive", "Summary", "Problem", "COLUMNS", "fan_key", "settlement"]

PathArg = Union[str, os.PathLike, Iterable]


def path_list(paths):
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    try:
        return [os.fspath(p) for p in paths]
    except TypeError:
        raise TypeError(f"expected a path or a list of paths, got {paths!r}") from None


def read(path, format: Optional[str] = None) -> Iterator[Match]:
    """The matches of one file or directory, streamed (no rule checked yet:
    a malformed match has ``problem = (position, reason)``).  ``format``:
    "text", "json" or "pmn" (default: detected)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"read() takes one path, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    return iter_matches(path, format)


def wins(paths: PathArg, summary: Optional[Summary] = None) -> Iterator[Win]:
    """Every win of every replayable match, in file order (not scored).
    Problems are added to ``summary`` when one is given."""
    for p in _files(path_list(paths)):
        if platform_file(p) and os.path.isfile(p):
            if summary is not None:
                summary.platform_files.append(p)
            continue
        s = Summary()
        try:
            yield from _file_wins(p, s)
        except NotAnArchive as exc:
            s.not_archives.append(Problem(p, None, None, str(exc), "file"))
        if summary is not None:
            if os.path.isfile(p) and detect_format(p) == "text":
                s = no_match_line(p, s)
            summary.add(s)


def _files(paths):
    """The paths, a directory replaced by its ``*.json`` files (as read() reads them)."""
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                f = os.path.join(p, name)
                if name.endswith(".json") and os.path.isfile(f):
                    yield f
        else:
            yield p


def _file_wins(p, summary):
    """The wins of one file (see :func:`wins`), counted in ``summary``."""
    for m in read(p):
        summary.matches += 1
        try:
            r = replay(m)
        except MatchError as exc:
            summary.skipped += 1
            summary.problems.append(Problem(p, exc.match, exc.pos, exc.reason, "match", exc.where))
            continue
        summary.replayed += 1
        summary.wins += len(r.wins)
        summary.huang += r.outcome == "huang"
        summary.error_endings += r.outcome == "error"
        yield from r.wins


def score(paths: PathArg, workers: int = 1, summary: Optional[Summary] = None):
    """A pandas DataFrame with one row per win (columns ``COLUMNS``; ``fans``
    and ``recorded_fans`` are ``{fan key: count}``), scored in bulk.

    The :class:`Summary` of the run (matches read, replayed, skipped with the
    reason, agreement with the recorded fans) is added to ``summary`` when
    one is given (as :func:`wins` does)::

        s = logs.Summary()
        df = logs.score(paths, summary=s)

    It is also ``df.attrs["summary"]``, but pandas calls ``attrs``
    experimental and drops it in some operations (``concat``, ``merge``):
    keep the ``summary`` you passed."""
    require("pandas", "mjfast.logs.score")
    import pandas as pd
    if summary is not None and not isinstance(summary, Summary):
        raise InvalidArgument(f"summary must be a mjfast.logs.Summary, got {type(summary).__name__}")
    for p in path_list(paths):
        if not os.path.exists(p):
            raise FileNotFoundError(p)
    rows = []
    total = Summary()
    for r, _w, s in process(path_list(paths), workers=workers):
        rows.extend(r)
        total.add(s)
    if summary is not None:
        summary.add(total)
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    # seats and points as integers with missing values (no float NaN for "self-drawn")
    for col in ("pos", "winner", "discarder", "total", "recorded_total"):
        df[col] = df[col].astype("Int64")
    df.attrs["summary"] = total
    return df


def export(paths: PathArg, workers: int = 1) -> Iterator[dict]:
    """The wins as hand records (the JSONL hand-record format), in order."""
    for _r, ws, _s in process(path_list(paths), workers=workers, want_rows=False):
        for w in ws:
            yield win_record(w)


def win_record(w: Win) -> dict:
    """A hand record (``mjfast score --jsonl`` input) of one win."""
    return {"id": f"{w.match}:{w.pos}", "hand": w.hand, "self_drawn": w.self_drawn,
            "fourth_tile": w.fourth_tile, "kong": w.kong, "last_tile": w.last_tile,
            "seat_wind": "ESWN"[w.seat_wind], "round_wind": "ESWN"[w.round_wind], "flowers": 0}
