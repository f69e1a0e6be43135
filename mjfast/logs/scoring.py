"""Scoring the wins of many matches in bulk.

Matches are read and replayed one at a time; their wins are collected as hand
records and scored a chunk at a time with :class:`mjfast.HandBatch` and
:func:`mjfast.score_batch` (never one ``score()`` call per win).  Each win
becomes one row (see ``COLUMNS``); every match that cannot be replayed becomes
one problem, so that ``read == replayed + skipped`` and
``wins found == wins scored + wins that failed to score``.
"""
from __future__ import annotations

import gc
import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional

import numpy as np

from .._progress import set_total
from ..scoring.batch import HandBatch, score_batch
from ..rules.mcr import MCR
from ..rules.mcr.sets import MCR_RULES
from .jsonlog import NotAnArchive, platform_file, read_json
from .limits import REPORT_LIST_LIMIT
from .model import Match, fan_key
from .replay import MatchError, replay, outcomes as replay_outcomes

__all__ = ["COLUMNS", "Summary", "Problem", "iter_matches", "detect_format", "split_tasks", "no_match_line",
           "run_task", "process", "settlement", "task_bytes", "set_bytes_total"]

#: The columns of a result row, in order.
COLUMNS = ("match", "file", "pos", "winner", "discarder", "tile", "hand", "self_drawn", "fourth_tile",
           "last_tile", "kong", "seat_wind", "round_wind", "total", "fans", "recorded_total",
           "recorded_fans", "agrees", "settlement", "recorded_score", "error")

WIN_CHUNK = 4096
#: pause the garbage collector while a match JSON unit is read (see run_task)
PAUSE_GC = True
_KEYS = tuple(f.key for f in MCR)
_PGN_TAG = re.compile(r"^\s*\[\w+\s+\"")


@dataclass
class Problem:
    """A match that was skipped, or a win that could not be scored."""
    file: Optional[str]
    match: object
    pos: Optional[int]
    reason: str
    kind: str = "match"       # "match" (skipped) | "win" (not scored) | "file" (not a match archive)
    where: str = "line"       # what pos counts: "line" (text) or "log" (JSON index)

    def __str__(self):
        where = self.where
        f = f"{self.file}: " if self.file else ""
        if self.match is None and self.pos is None:
            return f"{f}{self.reason}"          # the file itself (or the rest of it)
        return f"{f}match {self.match}: {where} {self.pos}: {self.reason}"


@dataclass
class Summary:
    matches: int = 0
    replayed: int = 0
    skipped: int = 0
    huang: int = 0
    error_endings: int = 0
    wins: int = 0
    scored: int = 0
    agree: int = 0
    with_record: int = 0
    problems: List[Problem] = field(default_factory=list)
    disagreements: list = field(default_factory=list)   # (file, match, pos, ours, recorded)
    #: files that are not match archives, not read (a Problem of kind "file" each; no match counted)
    not_archives: List[Problem] = field(default_factory=list)
    #: files the platform ships next to the matches (``*_metadata.json``), recognised and not read
    platform_files: List[str] = field(default_factory=list)

    def add(self, other: "Summary"):
        for k in ("matches", "replayed", "skipped", "huang", "error_endings", "wins", "scored", "agree",
                  "with_record"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.problems.extend(other.problems)
        self.disagreements.extend(other.disagreements)
        self.not_archives.extend(other.not_archives)
        self.platform_files.extend(other.platform_files)

    def text(self, list_limit: int = REPORT_LIST_LIMIT, exported: bool = False) -> str:
        """The report.  ``exported``: the wins were written as hand records
        (``logs export``), not scored: every win found is exported."""
        if exported:
            balance = f"wins found {self.wins} = wins exported {self.wins}"
        else:
            balance = (f"wins found {self.wins} = wins scored {self.scored}"
                       + (f" + not scored {self.wins - self.scored}" if self.wins != self.scored else ""))
        lines = [f"matches read {self.matches} = replayed {self.replayed} + skipped {self.skipped}"
                 f"  (Huang {self.huang}, error-rule endings {self.error_endings})", balance]
        if self.platform_files:
            lines.append(f"platform files ignored (*_metadata.json, no match in them): {len(self.platform_files)}")
        if self.not_archives:
            lines.append(f"files not read (not match archives): {len(self.not_archives)}")
            lines += [f"  {p}" for p in self.not_archives[:list_limit]]
            if len(self.not_archives) > list_limit:
                lines.append(f"  ... and {len(self.not_archives) - list_limit} more")
        if self.with_record:
            lines.append(f"agreement with the recorded fans: {self.agree}/{self.with_record} "
                         f"({100.0 * self.agree / self.with_record:.2f} %)")
        for title, items in (("skipped matches", [p for p in self.problems if p.kind == "match"]),
                             ("wins not scored", [p for p in self.problems if p.kind == "win"])):
            if items:
                lines.append(f"{title}:")
                lines += [f"  {p}" for p in items[:list_limit]]
                if len(items) > list_limit:
                    lines.append(f"  ... and {len(items) - list_limit} more")
        if self.disagreements:
            lines.append("disagreeing wins (ours vs recorded):")
            for f, mid, pos, ours, rec in self.disagreements[:list_limit]:
                where = "log" if f and str(f).endswith(".json") else "line"
                lines.append(f"  {f}: match {mid}: {where} {pos}: {ours}  vs  {rec}")
            if len(self.disagreements) > list_limit:
                lines.append(f"  ... and {len(self.disagreements) - list_limit} more")
        return "\n".join(lines)


# -- inputs -------------------------------------------------------------------------

def detect_format(path) -> str:
    """"json" for a directory or a file starting with ``{`` / ``[`` (not a PMN
    tag), "pmn" for a PMN file, else "text"."""
    if os.path.isdir(path):
        return "json"
    with open(path, "rb") as f:
        head = f.read(4096)
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if text[:1] == b"[" and _PGN_TAG.match(text.decode("utf-8", "replace")):
        return "pmn"
    if text[:1] in (b"{", b"["):
        return "json"
    return "text"


def iter_matches(path, fmt=None, start=0, stop=None, first_line=1) -> Iterator[Match]:
    fmt = fmt or detect_format(path)
    if fmt == "json":
        return read_json(path)
    if fmt == "pmn":
        return iter([_pmn_not_read(path)])
    from .text import read_text   # start-up: loaded on first use
    return read_text(path, start, stop, first_line)


def _pmn_not_read(path) -> Match:
    """PMN (python-majiang) is recognised, not replayed: docs/logs.md says why."""
    m = Match(os.path.basename(path), path, "pmn", 1)
    m.fail(1, "PMN (python-majiang) records are recognised but not replayed: table play with a shared "
              "wall that is not recorded, chows written by the claimed tile only, several winners per "
              "discard (see docs/logs.md)")
    return m


def split_tasks(paths: Iterable, chunk_bytes: int = 4 << 20) -> list:
    """Units of work: (path, fmt, start, stop, first_line).  A text archive is
    cut at ``Match`` lines into pieces of about ``chunk_bytes``; a JSON file or
    directory entry is one unit.  The same list whatever the worker count, so
    the output is identical."""
    tasks = []
    for path in paths:
        path = os.fspath(path)
        try:
            fmt = detect_format(path)
            names = sorted(os.listdir(path)) if fmt == "json" and os.path.isdir(path) else None
            size = os.path.getsize(path)
        except OSError:
            # unreadable: one unit, whose run reports the file as skipped with the reason
            tasks.append((path, "text" if not os.path.isdir(path) else "json", 0, None, 1))
            continue
        if names is not None:
            for name in names:
                p = os.path.join(path, name)
                if name.endswith(".json") and os.path.isfile(p):
                    tasks.append((p, "json", 0, None, 1))
            continue
        if fmt != "text":
            tasks.append((path, fmt, 0, None, 1))
            continue
        if size <= chunk_bytes:
            tasks.append((path, "text", 0, None, 1))
            continue
        cuts = _match_cuts(path, size, chunk_bytes)
        for (a, la), (b, _) in zip(cuts, cuts[1:] + [(None, None)]):
            tasks.append((path, "text", a, b, la))
    return tasks


def _match_cuts(path, size, chunk_bytes):
    """[(byte offset, line number)] of the cut points: 0 and, about every
    chunk_bytes, the start of the next ``Match`` line."""
    cuts = [(0, 1)]
    target = chunk_bytes
    data_off = 0      # file offset of the next block
    nl_before = 0     # newlines in file[0:data_off]
    prev = b""        # the end of the previous block (a "\nMatch " may straddle blocks)
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 22)
            if not block:
                break
            buf = prev + block
            buf_off = data_off - len(prev)
            i = max(0, target - 1 - buf_off)
            while True:
                k = buf.find(b"\nMatch ", i)
                if k < 0:
                    break
                cut = buf_off + k + 1
                if cut >= data_off:
                    n = nl_before + block[:cut - data_off].count(b"\n")
                else:
                    n = nl_before - prev[k + 1:].count(b"\n")
                cuts.append((cut, n + 1))
                target = cut + chunk_bytes
                i = max(k + 1, target - 1 - buf_off)
            nl_before += block.count(b"\n")
            data_off += len(block)
            prev = block[-8:]
    return cuts


# -- replay and score one unit --------------------------------------------------------

def settlement(total, winner, discarder):
    """The platform's settlement of a win worth ``total`` points (the mcr
    rule set's) by seat: ``winner`` 0-3, ``discarder`` 0-3 or None if
    self-drawn."""
    return list(MCR_RULES.settle_seats(total, discarder is None, winner, discarder))


def _recorded(fans):
    if fans is None:
        return None
    out = {}
    for name, cnt in fans:
        k = fan_key(name) or name
        if k == "flower_tiles" and not cnt:
            continue
        out[k] = out.get(k, 0) + cnt
    return out


def _score_wins(wins, summary, rows, scored=None):
    """Rows of ``wins``; ``scored``: None, or per win None or (total, fans)
    already computed by the fan kernel (the compiled path), so that only the
    others go through score_batch."""
    todo = list(range(len(wins))) if scored is None else [i for i, x in enumerate(scored) if x is None]
    res = None
    at = {}
    if todo:
        recs = [{"hand": w.hand, "self_drawn": w.self_drawn, "fourth_tile": w.fourth_tile, "kong": w.kong,
                 "last_tile": w.last_tile, "seat_wind": w.seat_wind, "round_wind": w.round_wind, "flowers": 0}
                for w in (wins[i] for i in todo)]
        res = score_batch(HandBatch.from_records(recs))
        totals = res.totals
        fc = res.fan_counts
        at = {i: k for k, i in enumerate(todo)}
    for i, w in enumerate(wins):
        err = None
        total = None
        fans = None
        k = at.get(i)
        if k is None:
            summary.scored += 1
            total, fans = scored[i]
        elif res.errors[k]:
            err = res.error_message(k)
            summary.problems.append(Problem(w.path, w.match, w.pos, f"the win {w.hand} could not be scored: {err}", "win",
                                                "log" if str(w.path).endswith(".json") else "line"))
        else:
            summary.scored += 1
            total = int(totals[k])
            fans = {_KEYS[j]: int(fc[k, j]) for j in np.flatnonzero(fc[k])}
        rec = _recorded(w.recorded_fans)
        settle = settlement(total, w.winner, w.discarder) if total is not None else None
        agrees = None
        if rec is not None or w.recorded_total is not None:
            summary.with_record += 1
            agrees = (total is not None and total == w.recorded_total and (rec is None or rec == fans)
                      and (w.recorded_scores is None or settle == list(w.recorded_scores)))
            if agrees:
                summary.agree += 1
            else:
                ours = f"{total} {_fan_text(fans)}"
                theirs = f"{w.recorded_total} {_fan_text(rec)}"
                if w.recorded_scores is not None and settle != list(w.recorded_scores):
                    ours += f" score {settle}"
                    theirs += f" score {list(w.recorded_scores)}"
                summary.disagreements.append((w.path, w.match, w.pos, ours, theirs))
        rows.append({
            "match": w.match, "file": w.path, "pos": w.pos, "winner": w.winner, "discarder": w.discarder,
            "tile": w.tile, "hand": w.hand, "self_drawn": w.self_drawn, "fourth_tile": w.fourth_tile,
            "last_tile": w.last_tile, "kong": w.kong, "seat_wind": "ESWN"[w.seat_wind],
            "round_wind": "ESWN"[w.round_wind], "total": total, "fans": fans,
            "recorded_total": w.recorded_total, "recorded_fans": rec, "agrees": agrees,
            "settlement": settle,
            "recorded_score": w.recorded_scores, "error": err,
        })


def _fan_text(fans):
    if fans is None:
        return "(no fan list)"
    return "+".join(f"{k}*{v}" for k, v in sorted(fans.items()))


def _outcomes(path, fmt, start, stop, first_line):
    """The Python path: per match (MatchError, None, None) or (outcome, wins, None)."""
    return replay_outcomes(iter_matches(path, fmt, start, stop, first_line))


def run_task(task, want_rows=True, fast=True):
    """Read, replay and score one unit of work: (rows, wins, summary).
    ``fast``: a text archive goes through the compiled reader
    (:mod:`mjfast.logs.fasttext`; same results); False: the Python path only."""
    path, fmt, start, stop, first_line = task
    summary = Summary()
    if fmt == "json" and platform_file(path):
        summary.platform_files.append(path)
        return [], [], summary
    rows = []
    pending = []
    scored = []
    all_wins = []
    gc_off = False
    try:
        if fast and fmt == "text":
            from . import fasttext   # start-up: loaded on first use
            fast = fasttext.AVAILABLE
        if fast and fmt == "text":
            source = fasttext.outcomes(path, start, stop, first_line)
        else:
            source = _outcomes(path, fmt, start, stop, first_line)
        if fmt == "json" and PAUSE_GC and gc.isenabled():
            # a match JSON decodes to some 10^5 containers, none of them in a
            # cycle: the collector's passes over them took a third of the time
            gc.disable()
            gc_off = True
        for outcome, wins, pre in source:
            summary.matches += 1
            if wins is None:
                exc = outcome
                summary.skipped += 1
                summary.problems.append(Problem(path, exc.match, exc.pos, exc.reason, "match", exc.where))
                continue
            summary.replayed += 1
            if outcome == "huang":
                summary.huang += 1
            elif outcome == "error":
                summary.error_endings += 1
            if not wins:
                continue
            summary.wins += len(wins)
            pending.extend(wins)
            scored.extend(pre if pre is not None else [None] * len(wins))
            if len(pending) >= WIN_CHUNK:
                if want_rows:
                    _score_wins(pending, summary, rows, scored)
                else:
                    all_wins.extend(pending)
                pending = []
                scored = []
    except NotAnArchive as exc:     # raised at the first value: nothing of the file was counted
        summary.not_archives.append(Problem(path, None, None, str(exc), "file"))
    except OSError as exc:
        summary.matches += 1
        summary.skipped += 1
        what = "cannot read" if not summary.matches - 1 else "cannot read on"
        summary.problems.append(Problem(path, None, None, f"{what}: {exc.strerror or exc}"))
    except Exception as exc:  # noqa: BLE001 - a reader bug must not end a bulk run
        summary.matches += 1
        summary.skipped += 1
        summary.problems.append(Problem(path, None, None, f"internal error, the rest of this unit is not read "
                                                          f"(please report it): {type(exc).__name__}: {exc}"))
    finally:
        if gc_off:
            gc.enable()
    if pending:
        if want_rows:
            _score_wins(pending, summary, rows, scored)
        else:
            all_wins.extend(pending)
    if fmt == "text" and start == 0:
        summary = no_match_line(path, summary)
    return rows, all_wins, summary


#: the reason given to the text before the first 'Match' line of a text archive
_BEFORE_FIRST = "line before the first 'Match' line: "


def no_match_line(path, summary) -> Summary:
    """``summary`` of the text file ``path`` read from its start; when all of
    it was text before any 'Match' line (and no limit was hit), the file is
    no match archive: a summary with that one line for the file instead."""
    if not (summary.matches == 1 and summary.skipped == 1 and len(summary.problems) == 1
            and summary.problems[0].match is None and summary.problems[0].reason.startswith(_BEFORE_FIRST)):
        return summary
    p = summary.problems[0]
    return Summary(not_archives=[Problem(path, None, None, f"not a match archive: no 'Match' line (line {p.pos}: "
                                                           f"{p.reason[len(_BEFORE_FIRST):]}); the file is not read",
                                         "file")])


def task_bytes(task) -> int:
    """The bytes of the input one unit of work reads (0 when unreadable)."""
    path, _fmt, start, stop, _line = task
    if stop is not None:
        return stop - start
    try:
        return max(0, os.path.getsize(path) - start) if os.path.isfile(path) else 0
    except OSError:
        return 0


def set_bytes_total(bar, tasks) -> None:
    """Set a progress bar's total to the bytes the units ``tasks`` read."""
    set_total(bar, sum(task_bytes(t) for t in tasks))


def process(paths, workers: int = 1, want_rows=True, progress=None, fast=True,
            bytes_bar=None) -> Iterator[tuple]:
    """(rows, wins, summary) per unit of work, in input order, over ``workers``
    processes (identical results for any count).  ``fast=False``: the Python
    path only (the reference the compiled reader is tested against).
    After each unit, ``progress(matches of the unit)``.  ``bytes_bar`` (a bar
    of :func:`mjfast._progress.progress`): its total is set to the bytes of
    the input, and it moves by each unit's bytes (:func:`task_bytes`)."""
    tasks = split_tasks([paths] if isinstance(paths, (str, os.PathLike)) else paths)
    progress_bytes = None
    if bytes_bar is not None:
        set_bytes_total(bytes_bar, tasks)
        progress_bytes = bytes_bar.update
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            out = run_task(t, want_rows, fast)
            if progress:
                progress(out[2].matches)
            if progress_bytes:
                progress_bytes(task_bytes(t))
            yield out
        return
    import multiprocessing as mp   # only with workers > 1 (import cost ~4 ms)
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    with ctx.Pool(workers) as pool:
        # imap keeps the order of the units
        for t, out in zip(tasks, pool.imap(_run_task_star, [(t, want_rows, fast) for t in tasks])):
            if progress:
                progress(out[2].matches)
            if progress_bytes:
                progress_bytes(task_bytes(t))
            yield out


def _run_task_star(args):
    return run_task(*args)
