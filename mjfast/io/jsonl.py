"""Score JSON-lines files of hand records.

Input: one JSON object per line (docs/notation.md, "Hand records")::

    {"id": 7, "hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": true, "seat_wind": "S", "flowers": 1}

Output: exactly one line per input line, in the same order::

    {"id": 7, "total": 13, "fans": [{"name": ..., "zh": ..., "points": ..., "count": ...}], "legal": true}

(plus ``"ignored_flags": {"kong": "dropped: ..."}`` when the rules dropped a
flag of the record: see :attr:`mjfast.Score.ignored_flags`),

or, for a record that could not be scored::

    {"id": 7, "line": 3, "error": "not a winning hand: ..."}

Policy (the choices this module makes):

* ``id`` is echoed verbatim (any JSON value); ``null`` when absent or when the
  line is not a JSON object.
* ``hand`` is required and must be a string.
* ``self_drawn``, ``fourth_tile``, ``kong``, ``last_tile`` must be JSON booleans;
  ``seat_wind`` / ``round_wind`` one of ``"E" "S" "W" "N"`` (any case) or an
  integer 0-3; ``flowers`` an integer 0-8.  A field that is absent or ``null``
  takes its default.  A value of the wrong type or out of range is an error for
  that record (no coercion: ``"true"``, ``1`` or ``2.0`` are rejected).
* Unknown keys are ignored (so records may carry extra data).
* Every input line is a record: a blank (or whitespace-only) line, bad JSON
  or a JSON value that is not an object each give an error line.  Nothing is
  skipped, so output line n always answers input line n.  A missing newline
  at the end of the file does not matter; an extra blank line at the end *is*
  a (bad) record.
* Line numbers (``line``) are 1-based physical line numbers of the input.

Speed: lines are read and answered in chunks.  A chunk's decoded records are
read into batch columns in compiled code, scored by the batch kernel, and its
result lines are written in compiled code too; Python writes only the error
lines and the rare others (a dropped flag, an id that needs escaping), and a
chunk whose records name rule sets goes through :func:`score_records`.
Figures: benchmarks/README.md, "Records in, scores out".
orjson is used when installed (``pip install '.[cli]'``), else the
standard :mod:`json`; the output is the same, error messages included
(mjfast.io.jsontext decides what is JSON and words what is not).
"""
from __future__ import annotations

import gc
import json
import time
from itertools import islice
from typing import Callable, Iterable, List, NamedTuple, Optional

import numpy as np

import io
from .. import _core
from ..scoring.batch import HandBatch, score_batch, ERR_NOT_WINNING
from ..scoring.records import (RecordError, validate_record, one_line as _one_line, parse_error as _parse_error,
                              show as _show)
from .jsontext import loads as _loads
from ..tiles import TILE_NAMES
from ..rules.base import get
from ..rules.mcr import MCR

__all__ = [
    "JSON_BACKEND",
    "DEFAULT_CHUNK_SIZE",
    "RecordError",
    "validate_record",
    "score_records",
    "process_jsonl",
    "score_jsonl",
    "JsonlStats",
]

#: Lines read, scored and written per step.
DEFAULT_CHUNK_SIZE = 8192

try:  # orjson is several times faster at both ends
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None  # type: ignore[assignment]  # no orjson: the json module (checked before each use)

_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _dumps_line_std(obj) -> bytes:
    return (_encoder.encode(obj) + "\n").encode("utf-8")


if _orjson is not None:
    JSON_BACKEND = "orjson"
    _OPT_NL = _orjson.OPT_APPEND_NEWLINE
    _SCALAR_IDS = (str, bool, type(None))

    def _dumps_line(obj) -> bytes:
        # orjson writes some floats in other digits (1e-7 for 1e-07) and no
        # integer past 64 bits: an id that is not a plain string, bool or
        # 64-bit integer (all the results' other fields are) is written by
        # the standard encoder, so the output is the same with or without orjson
        rid = obj.get("id")
        if type(rid) in _SCALAR_IDS or (type(rid) is int and -(1 << 63) <= rid < 1 << 64):
            return _orjson.dumps(obj, option=_OPT_NL)
        return _dumps_line_std(obj)
else:  # pragma: no cover - depends on the environment
    JSON_BACKEND = "json"
    _dumps_line = _dumps_line_std


def _fan_columns(table=None):
    """The fan table's columns in output order (highest points first, then
    table order) with each fan's JSON fields, built once."""
    t = MCR if table is None else table
    order = sorted(range(len(t)), key=lambda j: (-t.fans[j].points, t.fans[j].id))
    info = [(t.fans[j].en, t.fans[j].zh, t.fans[j].points) for j in order]
    return order, info


_COLUMNS = None


def score_records(records: List[dict], *, strict: bool = False, rules=None) -> List[dict]:
    """Score a chunk of decoded records; one result dict per record, in order.

    A result is ``{"id", "total", "fans", "legal"}`` (as
    ``mjfast.score(...).as_dict()`` plus the id; ``"ignored_flags"``
    ``{flag: reason}`` only when the rules dropped a flag of the record) or
    ``{"id", "error"}`` (the caller adds the line number).  Never raises for a
    bad record.  ``strict``: a flag the rules drop is an error for its record
    (see :func:`mjfast.score_batch`).

    The chunk becomes one :class:`~mjfast.HandBatch` (fields checked by
    :func:`~mjfast.records.validate_record`, hands parsed by the compiled
    parser) scored by one call of the batch kernel.

    ``rules``: the rule set of records that do not name one; a record's own
    ``"rules"`` (a rule-set name) wins.  Records are scored in groups, one
    per rule set, and the results keep the input order; results under a rule
    set other than MCR carry ``"rules"``.
    """
    if rules is None and not any("rules" in r for r in records):
        return _score_group(records, strict, None)
    default = get(rules)
    groups: dict = {}
    for i, r in enumerate(records):
        name = r.get("rules")
        key = name if isinstance(name, str) else (None if name is None else "")
        groups.setdefault(key, []).append(i)
    out: list = [None] * len(records)
    for key, idx in groups.items():
        sub = [records[i] for i in idx]
        if key is None or key == default.name:
            rs = default
        elif key == "":
            rs = default              # a bad "rules" value: the batch flags those rows
        else:
            rs = None                 # the records' own (or unknown: flagged)
        for i, res in zip(idx, _score_group(sub, strict, rs)):
            out[i] = res
    return out


def _score_group(records, strict, rules):
    global _COLUMNS
    batch = HandBatch.from_records(records, rules=rules)
    if batch.rules is None or batch.rules.table is MCR:     # (dazhong: its own table's columns)
        if _COLUMNS is None:
            _COLUMNS = _fan_columns()
        order, info = _COLUMNS
    else:
        order, info = _fan_columns(batch.rules.table)
    res = score_batch(batch, strict=strict)
    tag = {} if batch.rules is None or batch.rules.is_default else {"rules": batch.rules.name}
    fans = res.fan_counts[:, order]
    rows, cidx = fans.nonzero()
    per_row = [[] for _ in range(len(records))]
    for r, c, k in zip(rows.tolist(), cidx.tolist(), fans[rows, cidx].tolist()):
        name, zh, pts = info[c]
        per_row[r].append({"name": name, "zh": zh, "points": pts, "count": k})
    out = []
    ignored = res.ignored.tolist()
    for i, (rid, err, total, legal) in enumerate(zip(batch.ids, res.errors.tolist(), res.totals.tolist(),
                                                    res.legal.tolist())):
        if err == ERR_NOT_WINNING:
            out.append({"id": rid, "error": f"not a winning hand: {records[i]['hand']}"})
        elif err:
            out.append({"id": rid, "error": _one_line(res.error_message(i))})
        else:
            d = {"id": rid, "total": total, "fans": per_row[i], "legal": legal}
            if i in res.substitutions:
                # what the wildcards stood for, as score() reports it
                d["substitutions"] = [TILE_NAMES[t] for t in res.substitutions[i]]
            if ignored[i] or i in res.extra_ignored:
                # rare: a flag the rules dropped is reported, never silently applied
                d["ignored_flags"] = res.ignored_flags(i)
            d.update(tag)
            out.append(d)
    return out


def _encode(results: list) -> bytes:
    try:
        return b"".join(map(_dumps_line, results))
    except Exception:  # an id the encoder cannot write (e.g. an int above 64 bits)
        parts = []
        for r in results:
            try:
                parts.append(_dumps_line(r))
            except Exception as exc:
                parts.append(_dumps_line({"id": None, "line": r.get("line"),
                                          "error": f"cannot write the result: {_one_line(exc)}"}))
        return b"".join(parts)


def process_jsonl(lines: Iterable, write: Callable[[bytes], object], *,
                  chunk_size: int = DEFAULT_CHUNK_SIZE,
                  progress: Optional[Callable[[int], object]] = None, strict: bool = False,
                  rules=None) -> tuple:
    """Score every line of ``lines`` (bytes or str) and ``write`` UTF-8 result lines.

    Returns ``(records, errors)``.  ``progress(n)`` is called after each chunk
    with the number of lines it held.
    """
    if isinstance(lines, (str, bytes, bytearray)):
        raise TypeError("lines must be an iterable of lines (a file, a list), not one "
                        f"{type(lines).__name__} (it would be read a character at a time)")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
        raise TypeError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size}")
    it = iter(lines)
    n_done = 0
    n_err = 0
    loads = _loads
    while True:
        chunk = list(islice(it, chunk_size))
        if not chunk:
            break
        # The cyclic GC finds nothing to free here (results are plain trees
        # freed by reference counting) but would scan the chunk's many new
        # dicts repeatedly: pause it while the chunk is processed.
        gc_was_on = gc.isenabled()
        if gc_was_on:
            gc.disable()
        try:
            done = _process_chunk_fast(chunk, n_done, loads, strict) if rules is None else None
            if done is None:
                out = _process_chunk(chunk, n_done, loads, strict, rules)
                done = _encode(out), sum(1 for r in out if "error" in r)
        finally:
            if gc_was_on:
                gc.enable()
        n_err += done[1]
        write(done[0])
        n_done += len(chunk)
        if progress is not None:
            progress(len(chunk))
    return n_done, n_err


_FRAGS = None


def _fan_frags():
    """(output order of the MCR fan columns, each fan's encoded entry up to
    its count), from the encoder itself so that the compiled writer's lines
    are the encoder's."""
    global _FRAGS
    if _FRAGS is None:
        global _COLUMNS
        if _COLUMNS is None:
            _COLUMNS = _fan_columns()
        order, info = _COLUMNS
        frags = []
        for name, zh, pts in info:
            line = _dumps_line({"name": name, "zh": zh, "points": pts, "count": 0})
            assert line.endswith(b'"count":0}\n')
            frags.append(line[:-3])
        _FRAGS = np.asarray(order, dtype=np.int32), tuple(frags)
    return _FRAGS


def _process_chunk_fast(chunk: list, n_done: int, loads, strict: bool = False):
    """(result bytes, errors) for one chunk of lines: records read and result
    lines written in compiled code, Python writing only error lines and the
    rare others (a dropped flag, an id the writer does not write).  None when
    a record names a rule set: the grouped path (_process_chunk) takes those.
    The lines are those of _process_chunk, byte for byte."""
    batch, n_rules = HandBatch._from_json_lines(chunk)
    if n_rules:
        return None
    res = score_batch(batch, strict=strict)
    order, frags = _fan_frags()
    errors = res.errors
    py_rows = (errors != 0) | (res.ignored != 0)
    for i in res.extra_ignored:
        py_rows[i] = True
    for i in res.substitutions:     # (rows with wildcards)
        py_rows[i] = True
    ids = batch.ids

    def fmt(i):
        if errors[i]:
            if errors[i] == ERR_NOT_WINNING:
                msg = f"not a winning hand: {loads(chunk[i])['hand']}"
            else:
                msg = _one_line(res.error_message(i))
            return _encode([{"id": ids[i], "line": n_done + i + 1, "error": msg}])
        fans = [{"name": nm, "zh": zh, "points": p, "count": c} for nm, zh, p, c in _row_fans(res, i, order)]
        out = {"id": ids[i], "total": int(res.totals[i]), "fans": fans, "legal": bool(res.legal[i])}
        if i in res.substitutions:
            out["substitutions"] = [TILE_NAMES[t] for t in res.substitutions[i]]
        if res.ignored[i] or i in res.extra_ignored:
            out["ignored_flags"] = res.ignored_flags(i)
        return _encode([out])

    data = _core.write_results(ids, py_rows.view(np.uint8), res.totals, res.legal.view(np.uint8),
                               res.fan_counts, order, frags, fmt)
    return data, int(np.count_nonzero(errors))


def _row_fans(res, i, order):
    """(name, zh, points, count) of row i's fans in output order."""
    fans = res.table.fans
    counts = res.fan_counts[i].tolist()
    return [(fans[j].en, fans[j].zh, fans[j].points, counts[j]) for j in order.tolist() if counts[j]]


def _process_chunk(chunk: list, n_done: int, loads, strict: bool = False, rules=None) -> list:
    """Result dicts for one chunk of lines (``n_done`` lines came before it)."""
    out: list = [None] * len(chunk)
    recs = []
    where = []  # index in chunk of each entry of recs
    for i, line in enumerate(chunk):
        try:
            obj = loads(line)
        except Exception as exc:  # BadJSON (mjfast.io.jsontext), worded by _parse_error
            out[i] = {"id": None, "line": n_done + i + 1, "error": _parse_error(line, exc)}
            continue
        if type(obj) is not dict:
            out[i] = {"id": None, "line": n_done + i + 1,
                      "error": f"a record must be a JSON object, got {_show(obj)}"}
            continue
        recs.append(obj)
        where.append(i)
    if recs:
        for i, res in zip(where, score_records(recs, strict=strict, rules=rules)):
            if "error" in res:
                res = {"id": res.get("id"), "line": n_done + i + 1, "error": res["error"]}
            out[i] = res
    return out


class JsonlStats(NamedTuple):
    records: int
    errors: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.records / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> str:
        return (f"scored {self.records} records, {self.errors} errors in "
                f"{self.seconds:.2f} s ({self.rate:,.0f} records/s)")


def _writer(f) -> Callable[[bytes], object]:
    """A bytes writer for a binary or text file object."""
    buf = getattr(f, "buffer", None)
    if buf is not None:
        try:
            f.flush()  # keep the order of anything already written as text
        except Exception:
            pass
        return buf.write
    try:
        if isinstance(f, (io.RawIOBase, io.BufferedIOBase)):
            return f.write
    except Exception:  # pragma: no cover
        pass
    if "b" in getattr(f, "mode", ""):
        return f.write
    return lambda data: f.write(data.decode("utf-8"))


def score_jsonl(fin, fout, *, chunk_size: int = DEFAULT_CHUNK_SIZE,
                progress: Optional[Callable[[int], object]] = None, strict: bool = False,
                rules=None) -> JsonlStats:
    """Score the records of file object ``fin`` into file object ``fout``.

    Either may be binary or text (a text ``fin`` with a ``.buffer`` is read as
    bytes).  ``strict``: a flag the rules drop is an error line for its
    record.  Returns a :class:`JsonlStats`.
    """
    src = getattr(fin, "buffer", fin)
    write = _writer(fout)
    t0 = time.perf_counter()
    n, k = process_jsonl(src, write, chunk_size=chunk_size, progress=progress, strict=strict, rules=rules)
    flush = getattr(getattr(fout, "buffer", fout), "flush", None)
    if flush is not None:
        flush()
    return JsonlStats(n, k, time.perf_counter() - t0)
