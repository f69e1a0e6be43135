#!/usr/bin/env python3
"""Fuzz the hand-record readers: the JSON-lines scorer (``process_jsonl``, what
``mjfast score --jsonl`` runs) and ``HandBatch.from_records`` + ``score_batch``.

    python fuzz/fuzz_jsonl.py fuzz/corpus/jsonl -max_total_time=3600

An input is either raw bytes (read as a JSONL file) or, when its first byte
says so, a list of records built from the bytes (plausible and implausible
field values) and written as JSON lines.

Invariants:

* exactly one output line per input line, each a JSON object; an error line
  carries ``id``, ``line`` (= its input line number) and a message;
* every line agrees with scoring the same record by hand: a line whose record
  is valid and whose ``mjfast.score`` succeeds gives the same total and fans;
  any other line is an error line;
* ``HandBatch.from_records`` on the decoded records never raises for a bad
  record, flags exactly the records that failed, and its scores equal the
  JSONL results; results do not depend on ``workers``.
"""
from __future__ import annotations

import io
import json
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
# the harness helpers, then this checkout's mjfast (ahead of an installed copy)
sys.path[:0] = [_HERE, os.path.dirname(_HERE)]
from _bytes import Bytes, fuzz_main  # noqa: E402
from fuzz_notation import ALPHABET  # noqa: E402

_HANDS = (
    "[567m2][EEE1]45m678pFF6m", "123m456m789m123p5p5p", "1112345678999m5m", "[EEEE5]123p456p789s1s1s",
    "19m19p19sESWNCFPP", "11223344556677m", "[123m][456m][789m][123p]5p5p", "W1 W2 W3 B5 B5",
    "123m456m789m123p5p6p", "", " ", "1111m",
)
_FIELDS = ("id", "hand", "self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind",
           "flowers", "extra")
_VALUES = (True, False, None, 0, 1, 2, 3, 8, 9, -1, 2 ** 64, 1.0, 2.5, "E", "s", "X", "true", "", [], {},
           [1, 2], {"a": 1}, "n")


def _hand(b: Bytes) -> str:
    s = b.pick(_HANDS)
    # a few edits over the notation alphabet
    for _ in range(max(0, b.int(0, 7) - 4)):
        if not s:
            break
        k = b.int(0, len(s) - 1)
        op = b.int(0, 2)
        ch = ALPHABET[b.int(0, len(ALPHABET) - 1)]
        s = s[:k] + ch + s[k + 1:] if op == 0 else (s[:k] + ch + s[k:] if op == 1 else s[:k] + s[k + 1:])
    return s


def _record(b: Bytes):
    kind = b.int(0, 15)
    if kind == 0:
        return b.pick(_VALUES)                     # not an object
    rec = {}
    for f in _FIELDS:
        r = b.int(0, 7)
        if f == "hand":
            if r:
                rec[f] = _hand(b) if r > 1 else b.pick(_VALUES)
            continue
        if r < 3:
            continue                               # absent
        elif f == "id":
            rec[f] = b.pick(_VALUES) if r > 5 else b.int(0, 10 ** 6)
        elif f in ("seat_wind", "round_wind"):
            rec[f] = b.pick("ESWNeswn") if r > 3 else b.pick(_VALUES)
        elif f == "flowers":
            rec[f] = b.int(0, 8) if r > 3 else b.pick(_VALUES)
        else:
            rec[f] = b.bool() if r > 3 else b.pick(_VALUES)
    return rec


def lines_from(data: bytes) -> list:
    """Input bytes -> the lines of a JSONL file (bytes, newline kept)."""
    if data and data[0] % 4 == 0:
        b = Bytes(data[1:])
        out = []
        for _ in range(b.int(1, 12)):
            r = b.int(0, 31)
            if r == 0:
                out.append(b"\n")                              # blank line
            elif r == 1:
                out.append(b.take(b.int(0, 20)).replace(b"\n", b" ") + b"\n")   # junk
            else:
                try:
                    out.append(json.dumps(_record(b), ensure_ascii=bool(r & 1)).encode() + b"\n")
                except ValueError:
                    out.append(b"{}\n")
        if out and b.bool():
            out[-1] = out[-1].rstrip(b"\n")                    # no final newline
        return out
    return list(io.BytesIO(data[1:] if data else b""))


def _expected(line: bytes):
    """What scoring the line's record by hand gives: ('ok', Score, flowers) or ('err',)."""
    import mjfast
    from mjfast.io.jsonl import _loads
    from mjfast.records import RecordError, validate_record

    try:
        obj = _loads(line)
    except Exception:
        return ("err",)
    try:
        hand, sd, ft, kg, lt, seat, rnd, fl = validate_record(obj)
    except RecordError:
        return ("err",)
    try:
        s = mjfast.score(hand, self_drawn=sd, fourth_tile=ft, kong=kg, last_tile=lt,
                         seat_wind=seat, round_wind=rnd, flowers=fl)
    except (mjfast.InvalidHand, mjfast.NotWinning):
        return ("err",)
    return ("ok", s, obj)


def check_lines(lines: list, chunk_size: int = 3) -> None:
    from mjfast.batch import HandBatch, score_batch
    from mjfast.io.jsonl import _loads, process_jsonl

    out = []
    n, nerr = process_jsonl(lines, out.append, chunk_size=chunk_size)
    text = b"".join(out)
    res = [json.loads(x) for x in text.splitlines()]
    assert n == len(lines) == len(res), (n, len(lines), len(res))
    assert nerr == sum("error" in r for r in res)
    decoded = []
    for i, (line, r) in enumerate(zip(lines, res)):
        assert isinstance(r, dict) and "id" in r
        exp = _expected(line)
        if exp[0] == "err":
            assert set(r) == {"id", "line", "error"} and r["line"] == i + 1, (line, r)
            assert isinstance(r["error"], str) and r["error"] and "\n" not in r["error"]
        else:
            s, obj = exp[1], exp[2]
            assert "error" not in r, (line, r)
            assert r["total"] == s.total and r["legal"] == s.is_legal_win, (line, r)
            assert sorted((f["name"], f["count"]) for f in r["fans"]) == sorted((f.name, f.count) for f in s.fans)
            assert r["id"] == obj.get("id") or (r["id"] is None and "id" not in obj)
        try:
            decoded.append((i, _loads(line)))
        except Exception:
            pass

    # the same records through HandBatch.from_records + score_batch
    recs = [obj for _, obj in decoded]
    batch = HandBatch.from_records(recs)
    assert len(batch) == len(recs)
    one = score_batch(batch, workers=1)
    two = score_batch(batch, workers=2)
    assert np.array_equal(one.totals, two.totals) and np.array_equal(one.fan_counts, two.fan_counts)
    assert np.array_equal(one.errors, two.errors)
    for j, (i, obj) in enumerate(decoded):
        r = res[i]
        if "error" in r:
            assert one.errors[j] != 0, (lines[i], r)
            assert one.totals[j] == -1 and not one.legal[j]
            assert one.error_message(j)
        else:
            assert one.errors[j] == 0 and one.totals[j] == r["total"], (lines[i], r)
            assert bool(one.legal[j]) == r["legal"]


def check(data: bytes) -> None:
    lines = lines_from(data)
    check_lines(lines, chunk_size=1 + (data[-1] % 5 if data else 0))


def seeds():
    out = []
    for k in range(200):
        out.append(bytes([0]) + os.urandom(0) + bytes((k * 7919 + j * 104729) % 256 for j in range(60)))
    recs = [{"id": 1, "hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": True},
            {"hand": "123m456m789m123p5p5p", "seat_wind": "S", "flowers": 2}, "x", {"hand": 5}]
    out.append(b"\x01" + b"\n".join(json.dumps(r).encode() for r in recs) + b"\n\n{bad\n")
    return out


def main():
    fuzz_main(check, "mjfast.io.jsonl")


if __name__ == "__main__":
    main()
