"""Scored hands from files and DataFrames, as chunks of arrays.

Every reader yields :class:`Chunk` objects — ``fan_counts (N, 82)``,
``totals``, ``legal``, ``errors`` — which :meth:`FanStats.update_arrays`
takes directly, so no reader ever holds more than one chunk.

Files (by suffix):

* ``.parquet`` / ``.csv`` — a table with a ``total`` column and one column
  per fan, named as in ``BatchResult.fan_names`` (English) or by fan key,
  or one ``fans`` column of ``{key: count}`` (which then wins: the result
  rows of ``mjfast logs score`` have it, beside context columns such as
  ``seat_wind`` that share a name with a fan);
  ``error_code`` (or ``error``, a code or a message) and ``legal`` are
  optional (what ``BatchResult.to_pandas()`` writes; other columns are
  ignored).  A row whose total is missing or
  negative is not a win.
* ``.jsonl`` / ``.ndjson`` / ``.json`` — either hand records (a ``hand``
  field: they are scored here, through ``score_batch``) or the result lines
  of ``mjfast score --jsonl`` (``total`` + ``fans``, or ``error``).  The first
  readable line decides which.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Tuple

import numpy as np

from .._extras import require
from ..io.jsontext import BadJSON, loads
from ..rules.mcr import MCR
from ..rules.mcr.sets import MCR_RULES
from ..scoring.batch import HandBatch, score_batch
from ..scoring.batch_result import on_mcr_columns as _on_mcr_columns

__all__ = ["Chunk", "frame_arrays", "iter_file", "iter_files", "fan_column_index"]

N_FANS = len(MCR)
_NAME_TO_INDEX: dict = {}
for _j, _f in enumerate(MCR):
    _NAME_TO_INDEX[_f.en] = _j
    _NAME_TO_INDEX[_f.key] = _j
    _NAME_TO_INDEX[_f.zh] = _j


@dataclass
class Chunk:
    fan_counts: np.ndarray        # (N, 82) uint8
    totals: np.ndarray            # (N,) int32, -1 where errors != 0
    legal: np.ndarray             # (N,) bool
    errors: np.ndarray            # (N,) uint8: 0 scored, 1 invalid, 2 not a win
    problems: List[Tuple[int, str]] = field(default_factory=list)   # (line or row number, message)

    def __len__(self):
        return len(self.totals)


def fan_column_index(columns) -> dict:
    """``{column name: fan index}`` for the columns of a table that name fans."""
    return {c: _NAME_TO_INDEX[c] for c in columns if isinstance(c, str) and c in _NAME_TO_INDEX}


def frame_arrays(df, first_row: int = 0) -> tuple:
    """``(fan_counts, totals, legal, errors)`` of a DataFrame of scored hands."""
    if "total" not in df.columns:
        raise ValueError("a table of scored hands needs a 'total' column "
                         f"(columns: {', '.join(map(str, list(df.columns)[:8]))}...)")
    n = len(df)
    # a "fans" column ({key: count}, as mjfast.logs writes) is the fan list;
    # then columns such as seat_wind are the hand's context, not fans
    idx = {} if "fans" in df.columns else fan_column_index(df.columns)
    seen: dict = {}
    for c, j in idx.items():
        if j in seen:
            raise ValueError(f"fan {MCR.keys[j]!r} appears twice, as columns {seen[j]!r} and {c!r}")
        seen[j] = c
    fc = np.zeros((n, N_FANS), np.uint8)
    for c, j in idx.items():
        col = df[c].to_numpy()
        if col.dtype.kind == "f":
            col = np.nan_to_num(col, nan=0.0)
        fc[:, j] = col
    bad_fans = np.zeros(n, bool)
    if not idx and "fans" in df.columns:
        # one column of fan lists, as the log readers write it: {key: count}
        # (or its JSON text, or "key*count+key*count")
        for i, v in enumerate(df["fans"].to_numpy()):
            if not fill_fans(fc, i, v):
                bad_fans[i] = True
    tot = df["total"]
    if not isinstance(tot.dtype, np.dtype):
        # a pandas extension type (Int64 with missing values, as mjfast.logs.score writes)
        tot = tot.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        tot = tot.to_numpy()
    if tot.dtype.kind == "f":
        missing = np.isnan(tot)
        tot = np.where(missing, -1, tot).astype(np.int64)
    else:
        missing = np.zeros(n, bool)
        tot = tot.astype(np.int64)
    if "error_code" in df.columns or "error" in df.columns:
        # BatchResult.to_pandas() writes the code as error_code and the message as error
        err = df["error_code" if "error_code" in df.columns else "error"].to_numpy()
        if err.dtype.kind in "iub":
            err = err.astype(np.uint8)
        else:   # error messages (text): any non-empty one is an invalid row
            err = np.array([1 if (isinstance(e, str) and e) else 0 for e in err], np.uint8)
    else:
        err = np.zeros(n, np.uint8)
    err = np.where((err == 0) & (missing | (tot < 0)), 2, err).astype(np.uint8)
    err[(err == 0) & bad_fans] = 1
    tot = np.where(err == 0, tot, -1).astype(np.int32)
    legal = df["legal"].to_numpy().astype(bool) if "legal" in df.columns else tot >= MCR_RULES.min_points
    legal = legal & (err == 0)
    return fc, tot, legal, err


def fill_fans(fc, i, v) -> bool:
    """Row i's fans from a {key or name: count} mapping, its JSON text, or
    ``key*count+...``; None/NaN leaves the row empty.  False if unreadable."""
    if v is None or (isinstance(v, float) and v != v):
        return True
    if isinstance(v, str):
        v = v.strip()
        if v.startswith("{"):
            try:
                v = json.loads(v)
            except ValueError:
                return False
        else:
            d = {}
            for part in filter(None, v.split("+")):
                k, _, c = part.partition("*")
                try:
                    d[k] = int(c) if c else 1
                except ValueError:
                    return False
            v = d
    if not isinstance(v, dict):
        return False
    for k, c in v.items():
        j = _NAME_TO_INDEX.get(k)
        if j is None or type(c) not in (int, np.int64) or not 0 <= c <= 255:
            return False
        fc[i, j] = c
    return True


def _suffix(path) -> str:
    name = str(path).lower()
    for s in (".parquet", ".csv", ".jsonl", ".ndjson", ".json", ".pq"):
        if name.endswith(s):
            return s
    raise ValueError(f"{path}: unknown file type (expected .parquet, .csv or .jsonl)")


def _default_rules(rules) -> bool:
    return rules is None or (rules.is_default and not rules.changed_options)


def _scored_already(path, rules):
    if not _default_rules(rules):
        raise ValueError(f"{path}: holds scored results; a rule set ({rules.name!r}"
                         f"{''.join(f' {k}={v}' for k, v in rules.changed_options.items())}) "
                         "applies only to hand records, which are scored here")


def iter_file(path, chunk_size: int = 65536, workers: int = 1, rules=None) -> Iterator[Chunk]:
    """Chunks of scored hands from one file (see the module docstring).

    ``rules`` (a :class:`~mjfast.rules.RuleSet` scored with the MCR fan
    table, or None): the rule set hand records are scored under (a record
    naming another one is an invalid row); a file of scored results with a
    rule set other than plain MCR raises ``ValueError``."""
    kind = _suffix(path)
    if kind != ".jsonl" and kind != ".ndjson" and kind != ".json":
        _scored_already(path, rules)
    if kind in (".parquet", ".pq"):
        require("parquet", f"reading {path}")
        import pyarrow.parquet as pq
        f = pq.ParquetFile(path)
        for rb in f.iter_batches(batch_size=chunk_size):
            yield Chunk(*frame_arrays(rb.to_pandas()))
    elif kind == ".csv":
        require("pandas", f"reading {path}")
        import pandas as pd
        for df in pd.read_csv(path, chunksize=chunk_size):
            yield Chunk(*frame_arrays(df))
    else:
        yield from _iter_jsonl(path, chunk_size, workers, rules)


def iter_files(paths, chunk_size: int = 65536, workers: int = 1, rules=None) -> Iterator[Chunk]:
    for p in paths:
        yield from iter_file(p, chunk_size, workers, rules)


def _first_record(path):
    with open(path, "rb") as f:
        for line in f:
            if line.strip():
                try:
                    rec = loads(line)
                except BadJSON:
                    continue
                return rec
    return None


def _iter_jsonl(path, chunk_size, workers, rules=None):
    first = _first_record(path)
    if first is None:
        return
    if isinstance(first, dict) and "hand" in first:
        yield from _score_records(path, chunk_size, workers, rules)
    else:
        _scored_already(path, rules)
        yield from _read_result_lines(path, chunk_size)


def _score_records(path, chunk_size, workers, rules=None):
    line0 = 1
    with open(path, "rb") as f:
        for batch in HandBatch.from_lines(f, chunk_size=chunk_size, rules=rules):
            yield _scored_chunk(batch, score_batch(batch, workers=workers), line0)
            line0 += len(batch)


def _strip_line(msg, line):
    # the line number is given apart: drop it from a message that repeats it
    prefix = f"line {line}: "
    return msg[len(prefix):] if msg.startswith(prefix) else msg


def _scored_chunk(batch, res, line0):
    n = len(batch)
    if res.rules is not None and not res.rules.impl.mcr_fans:
        # records naming a rule set with its own fan table: the statistics
        # count MCR's fans, so each such row is reported, not mixed in
        msg = (f"rule set {res.rules.name!r} has its own fan table; the statistics count "
               "MCR's (mcr, dazhong)")
        err = np.where(res.errors != 0, res.errors, 1).astype(np.uint8)
        problems = [(line0 + i, _strip_line(res.error_message(i), line0 + i) if res.errors[i] else msg)
                    for i in range(n)]
        return Chunk(np.zeros((n, N_FANS), np.uint8), np.full(n, -1, np.int32), np.zeros(n, bool), err,
                     problems)
    problems = []
    for i in np.flatnonzero(res.errors):
        line = line0 + int(i)
        problems.append((line, _strip_line(res.error_message(int(i)), line)))
    return Chunk(_on_mcr_columns(res), res.totals, res.legal, res.errors, problems)


def _read_result_lines(path, chunk_size):
    def flush(rows, line0):
        n = len(rows)
        fc = np.zeros((n, N_FANS), np.uint8)
        tot = np.full(n, -1, np.int32)
        legal = np.zeros(n, bool)
        err = np.zeros(n, np.uint8)
        problems = []
        for i, rec in enumerate(rows):
            msg = _fill_result(rec, i, fc, tot, legal)
            if msg:
                err[i] = 1
                problems.append((line0 + i, msg))
        fc[err != 0] = 0
        tot[err != 0] = -1
        legal[err != 0] = False
        return Chunk(fc, tot, legal, err, problems)

    with open(path, "rb") as f:
        rows, line0 = [], 1
        for line in f:
            try:
                rows.append(loads(line))
            except BadJSON as exc:
                rows.append(_Bad(str(exc)))
            if len(rows) == chunk_size:
                yield flush(rows, line0)
                line0 += len(rows)
                rows = []
        if rows:
            yield flush(rows, line0)


class _Bad:
    def __init__(self, message):
        self.message = message


def _fill_result(rec, i, fc, tot, legal) -> Optional[str]:
    """Fill row i from a result line; return an error message or None."""
    if isinstance(rec, _Bad):
        return rec.message
    if not isinstance(rec, dict):
        return "a result line must be a JSON object"
    if "error" in rec:
        return f"scoring error: {rec['error']}"
    total = rec.get("total")
    if type(total) is not int or total < 0:
        return f"'total' must be a non-negative integer, got {total!r}"
    fans = rec.get("fans")
    if not isinstance(fans, list):
        return "'fans' must be a list"
    for f in fans:
        if not isinstance(f, dict):
            return "each fan must be an object with 'name' and 'count'"
        j = _NAME_TO_INDEX.get(f.get("name"), _NAME_TO_INDEX.get(f.get("key")))
        if j is None:
            return f"unknown fan {f.get('name', f.get('key'))!r}"
        c = f.get("count", 1)
        if type(c) is not int or not 1 <= c <= 255:
            return f"fan count must be an integer 1-255, got {c!r}"
        fc[i, j] += c
    tot[i] = total
    lg = rec.get("legal")
    legal[i] = bool(lg) if lg is not None else total >= MCR_RULES.min_points
    return None
