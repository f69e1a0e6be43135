"""Score JSON-lines files of hand records.

Input: one JSON object per line (see the notation spec, "Hand records")::

    {"id": 7, "hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": true, "seat_wind": "S", "flowers": 1}

Output: exactly one line per input line, in the same order::

    {"id": 7, "total": 13, "fans": [{"name": ..., "zh": ..., "points": ..., "count": ...}], "legal": true}

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

Speed: lines are read and answered in chunks; :func:`score_records` scores one
chunk with the compiled parser and batch kernel (about 180,000 records/s on one
core, end to end).  orjson is used when installed, else the standard
:mod:`json`.
"""
from __future__ import annotations

import gc
import json
import re
import time
from itertools import islice
from typing import Callable, Iterable, List, NamedTuple, Optional

import numpy as np

from .. import _core
from ..batch import _parse_hands
from ..score import score as _score

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
    _orjson = None

if _orjson is not None:
    JSON_BACKEND = "orjson"
    _loads = _orjson.loads
    _OPT_NL = _orjson.OPT_APPEND_NEWLINE

    def _dumps_line(obj) -> bytes:
        return _orjson.dumps(obj, option=_OPT_NL)
else:  # pragma: no cover - depends on the environment
    JSON_BACKEND = "json"
    _loads = json.loads
    _encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

    def _dumps_line(obj) -> bytes:
        return (_encoder.encode(obj) + "\n").encode("utf-8")


class RecordError(ValueError):
    """A record's fields are missing or have the wrong type / value."""


_BOOL_FIELDS = ("self_drawn", "fourth_tile", "kong", "last_tile")
_WIND_CODES = {}
for _i, _w in enumerate("ESWN"):
    _WIND_CODES[_w] = _i
    _WIND_CODES[_w.lower()] = _i
del _i, _w


def _show(value) -> str:
    """A short JSON-ish rendering of a bad value, for error messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return text


def _wind(rec: dict, field: str) -> int:
    value = rec.get(field)
    if value is None:
        return 0
    if type(value) is str:
        w = _WIND_CODES.get(value)
        if w is not None:
            return w
    elif type(value) is int and 0 <= value <= 3:
        return value
    raise RecordError(f"{field!r} must be one of \"E\" \"S\" \"W\" \"N\" or 0-3, got {_show(value)}")


def validate_record(rec: dict) -> tuple:
    """Check one decoded record; returns the normalised arguments.

    ``(hand, self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)``
    with bools, winds as ints 0-3 and flowers an int.  Raises :class:`RecordError`.
    The hand string itself is checked later, by the scorer.
    """
    if type(rec) is not dict:
        raise RecordError(f"a record must be a JSON object, got {_show(rec)}")
    hand = rec.get("hand")
    if type(hand) is not str:
        if hand is None:
            raise RecordError("missing field 'hand'")
        raise RecordError(f"'hand' must be a string, got {_show(hand)}")
    flags = []
    for field in _BOOL_FIELDS:
        v = rec.get(field)
        if v is None:
            v = False
        elif v is not True and v is not False:
            raise RecordError(f"{field!r} must be true or false, got {_show(v)}")
        flags.append(v)
    flowers = rec.get("flowers")
    if flowers is None:
        flowers = 0
    elif type(flowers) is not int or not 0 <= flowers <= 8:
        raise RecordError(f"'flowers' must be an integer 0-8, got {_show(flowers)}")
    return (hand, flags[0], flags[1], flags[2], flags[3],
            _wind(rec, "seat_wind"), _wind(rec, "round_wind"), flowers)


def _one_line(exc: BaseException) -> str:
    msg = str(exc) or type(exc).__name__
    return " ".join(msg.split()) if "\n" in msg or "\r" in msg else msg


def _fan_columns():
    """The fan table's columns in output order (highest points first, then
    table order) with each fan's JSON fields, built once."""
    from ..rules.mcr import MCR
    order = sorted(range(len(MCR)), key=lambda j: (-MCR.fans[j].points, MCR.fans[j].id))
    info = [(MCR.fans[j].en, MCR.fans[j].zh, MCR.fans[j].points) for j in order]
    return np.asarray(order, dtype=np.intp), info


_COLUMNS = None


def score_records(records: List[dict]) -> List[dict]:
    """Score a chunk of decoded records; one result dict per record, in order.

    A result is ``{"id", "total", "fans", "legal"}`` (as
    ``mjfast.score(...).as_dict()`` plus the id) or ``{"id", "error"}`` (the
    caller adds the line number).  Never raises for a bad record.

    Fields are checked here (:func:`validate_record`); the hands are parsed by
    the compiled parser and scored in one call of the batch kernel.  A hand the
    compiled parser does not take (Botzone codes, or malformed) goes through
    :func:`mjfast.score` alone, which scores it or names what is wrong.
    """
    global _COLUMNS
    if _COLUMNS is None:
        _COLUMNS = _fan_columns()
    order, info = _COLUMNS
    n = len(records)
    out: list = [None] * n
    ids = [None] * n
    args = []
    where = []
    for i, rec in enumerate(records):
        rid = rec.get("id") if type(rec) is dict else None
        ids[i] = rid
        try:
            args.append(validate_record(rec))
            where.append(i)
        except ValueError as exc:  # RecordError
            out[i] = {"id": rid, "error": _one_line(exc)}
    if not args:
        return out
    m = len(args)
    hands = [a[0] for a in args]
    cols, ok = _parse_hands(hands)
    flags = np.fromiter(((1 if a[1] else 0) | (2 if a[2] else 0) | (4 if a[3] else 0) | (8 if a[4] else 0)
                         for a in args), dtype=np.uint8, count=m)
    cols["flags"][:] = flags
    cols["seat"][:] = np.fromiter((a[5] for a in args), dtype=np.uint8, count=m)
    cols["round"][:] = np.fromiter((a[6] for a in args), dtype=np.uint8, count=m)
    cols["flowers"][:] = np.fromiter((a[7] for a in args), dtype=np.uint8, count=m)
    totals = np.full(m, -1, dtype=np.int32)
    fans = np.zeros((m, len(info)), dtype=np.uint8)
    skip = (~ok).astype(np.uint8)
    _core.score_batch_kernel(cols["counts"], cols["melds"], cols["n_melds"], cols["win_tile"], cols["flags"],
                             cols["seat"], cols["round"], cols["flowers"], skip, totals, fans, 1)
    # the fans of every row, already in output order
    rows, cidx = np.nonzero(fans[:, order])
    counts = fans[:, order][rows, cidx]
    per_row = [[] for _ in range(m)]
    for r, c, k in zip(rows.tolist(), cidx.tolist(), counts.tolist()):
        name, zh, pts = info[c]
        per_row[r].append({"name": name, "zh": zh, "points": pts, "count": k})
    tot = totals.tolist()
    fl = cols["flowers"].tolist()
    okl = ok.tolist()
    for j, i in enumerate(where):
        rid = ids[i]
        if not okl[j]:
            out[i] = _score_one(rid, args[j])
        elif tot[j] == -3:  # the kernel's range re-check (cannot happen after parsing)
            out[i] = {"id": rid, "error": f"invalid hand: {hands[j]}"}
        elif tot[j] < 0:
            out[i] = {"id": rid, "error": f"not a winning hand: {hands[j]}"}
        else:
            out[i] = {"id": rid, "total": tot[j], "fans": per_row[j], "legal": tot[j] - fl[j] >= 8}
    return out


def _score_one(rid, a) -> dict:
    hand, sd, ft, kg, lt, seat, rnd, fl = a
    try:
        s = _score(hand, self_drawn=sd, fourth_tile=ft, kong=kg, last_tile=lt,
                   seat_wind=seat, round_wind=rnd, flowers=fl)
    except ValueError as exc:  # InvalidHand, NotWinning
        return {"id": rid, "error": _one_line(exc)}
    except Exception as exc:  # a bug must not stop a million-record run
        return {"id": rid, "error": f"internal error: {type(exc).__name__}: {_one_line(exc)}"}
    return {"id": rid, "total": s.total,
            "fans": [{"name": f.name, "zh": f.zh, "points": f.points, "count": f.count} for f in s.fans],
            "legal": s.is_legal_win}


_POSITION = re.compile(r":? line 1 column (\d+) \(char \d+\)$")


def _parse_error(line, exc: BaseException) -> str:
    """The message for a line that did not decode (slow path: errors only)."""
    if isinstance(line, (bytes, str)):
        stripped = line.rstrip(b"\r\n" if isinstance(line, bytes) else "\r\n")
        if not stripped.strip():
            return "blank line"
        try:  # again without the newline, so positions count within the line
            _loads(stripped)
        except Exception as again:
            exc = again
    msg = _POSITION.sub(r" at column \1", _one_line(exc))
    return f"bad JSON: {msg}"


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
                  progress: Optional[Callable[[int], object]] = None) -> tuple:
    """Score every line of ``lines`` (bytes or str) and ``write`` UTF-8 result lines.

    Returns ``(records, errors)``.  ``progress(n)`` is called after each chunk
    with the number of lines it held.
    """
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
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
        # dicts repeatedly: pause it while the chunk is processed (~10%).
        gc_was_on = gc.isenabled()
        if gc_was_on:
            gc.disable()
        try:
            out = _process_chunk(chunk, n_done, loads)
        finally:
            if gc_was_on:
                gc.enable()
        n_err += sum(1 for r in out if "error" in r)
        write(_encode(out))
        n_done += len(chunk)
        if progress is not None:
            progress(len(chunk))
    return n_done, n_err


def _process_chunk(chunk: list, n_done: int, loads) -> list:
    """Result dicts for one chunk of lines (``n_done`` lines came before it)."""
    out: list = [None] * len(chunk)
    recs = []
    where = []  # index in chunk of each entry of recs
    for i, line in enumerate(chunk):
        try:
            obj = loads(line)
        except Exception as exc:  # JSONDecodeError, UnicodeDecodeError, RecursionError
            out[i] = {"id": None, "line": n_done + i + 1, "error": _parse_error(line, exc)}
            continue
        if type(obj) is not dict:
            out[i] = {"id": None, "line": n_done + i + 1,
                      "error": f"a record must be a JSON object, got {_show(obj)}"}
            continue
        recs.append(obj)
        where.append(i)
    if recs:
        for i, res in zip(where, score_records(recs)):
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
        import io
        if isinstance(f, (io.RawIOBase, io.BufferedIOBase)):
            return f.write
    except Exception:  # pragma: no cover
        pass
    if "b" in getattr(f, "mode", ""):
        return f.write
    return lambda data: f.write(data.decode("utf-8"))


def score_jsonl(fin, fout, *, chunk_size: int = DEFAULT_CHUNK_SIZE,
                progress: Optional[Callable[[int], object]] = None) -> JsonlStats:
    """Score the records of file object ``fin`` into file object ``fout``.

    Either may be binary or text (a text ``fin`` with a ``.buffer`` is read as
    bytes).  Returns a :class:`JsonlStats`.
    """
    src = getattr(fin, "buffer", fin)
    write = _writer(fout)
    t0 = time.perf_counter()
    n, k = process_jsonl(src, write, chunk_size=chunk_size, progress=progress)
    flush = getattr(getattr(fout, "buffer", fout), "flush", None)
    if flush is not None:
        flush()
    return JsonlStats(n, k, time.perf_counter() - t0)
