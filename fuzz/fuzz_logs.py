#!/usr/bin/env python3
"""Fuzz the match-archive readers of ``mjfast.logs``: the text archive (its
compiled and Python readers) and the match JSON (orjson and the json module,
decoded whole or streamed).

    python fuzz/fuzz_logs.py fuzz/corpus/logs -max_total_time=3600

The first byte of an input picks what the rest is:

* 0: raw bytes as a text archive;
* 1: raw bytes as a match JSON file;
* 2: a text archive built from the fixtures' matches, with lines edited from
  the bytes (numbers made huge or fractional, words and tiles changed, junk
  and long lines added, matches cut short);
* 3: a JSON file of match objects built from the test helpers, with fields
  set from the bytes to hostile values (Infinity, 1e400, 1.9, 2**64, 2**70,
  strings, deep nesting, wrong types), as a list or one object a line.

Invariants:

* the bulk path (``run_task``, what ``logs score`` / ``export`` / ``stats
  logs`` run per unit) never raises; its summary balances (read = replayed +
  skipped, found = scored + not scored); every skipped match has a reason and
  none is an "internal error";
* a text archive gives the same rows, wins and problems on the compiled
  reader and on the Python reader, and as many matches as it has ``Match``
  lines (plus one for text before the first; a text without any is one file
  that is not an archive, no match); ``text_blocks`` with tiny blocks
  and a tiny limit still covers every byte, in order, with the right line
  numbers, and reports exactly the matches over the limit;
* a match JSON file reads the same (ids, positions, problems, events,
  recorded numbers) decoded whole by orjson, streamed by the json module, and
  streamed in small pieces (or is no match archive for all three); a built
  file has exactly as many matches read or skipped as it holds.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
# the harness helpers, this checkout's mjfast (ahead of an installed copy), the test helpers
sys.path[:0] = [_HERE, _ROOT, os.path.join(_ROOT, "tests")]
from _bytes import Bytes, fuzz_main  # noqa: E402

_DIR = tempfile.mkdtemp(prefix="fuzz_logs_")
_FIXTURES = [os.path.join(_ROOT, "tests", "data", "logs", n) for n in ("archive.txt", "edge.txt")] + \
    [os.path.join(_ROOT, "docs", "examples", "games.txt")]
_MATCHES = None


def _fixture_matches():
    """The match texts of the fixture archives (each from its Match line)."""
    global _MATCHES
    if _MATCHES is None:
        out = []
        for p in _FIXTURES:
            with open(p, "rb") as f:
                text = f.read()
            parts = re.split(rb"(?m)^(?=Match )", text)
            out += [x for x in parts if x.startswith(b"Match ")]
        _MATCHES = out
    return _MATCHES


def _write(name: str, data: bytes) -> str:
    p = os.path.join(_DIR, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


# -- the bulk path ---------------------------------------------------------------------

def _unit(path, fmt, fast=True, want_rows=True):
    from mjfast.logs.scoring import run_task
    rows, wins, s = run_task((path, fmt, 0, None, 1), want_rows, fast)
    assert s.matches == s.replayed + s.skipped, s
    # a file that is not an archive counts no match
    assert not s.not_archives or (s.matches == 0 and [p.kind for p in s.not_archives] == ["file"]), s
    assert s.skipped == sum(p.kind == "match" for p in s.problems), s
    assert s.wins - s.scored == sum(p.kind == "win" for p in s.problems) or not want_rows, s
    for p in s.problems:
        assert isinstance(p.reason, str) and p.reason and "internal error" not in p.reason, p
        str(p)
    s.text()
    s.text(exported=True)
    return rows, wins, s


def _problems(s):
    return [(p.match, p.pos, p.reason, p.kind, p.where) for p in s.problems]


def _matches_present(data: bytes) -> int:
    """Matches the Python reader must see: its Match lines, and one for any
    text before the first (the archive's rules, counted independently)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    n = 0
    pre = False
    for raw in data.decode("utf-8", "replace").split("\n"):
        words = raw.split()
        if words and words[0] == "Match":
            n += 1
        elif (words or len(raw) > 65536) and n == 0:
            pre = True
    return n + pre


def check_text(data: bytes) -> None:
    from mjfast.logs.text import text_blocks

    path = _write("a.txt", data)
    rf, wf, sf = _unit(path, "text", fast=True)
    rp, wp, sp = _unit(path, "text", fast=False)
    assert rf == rp, (rf, rp)
    assert _problems(sf) == _problems(sp), (_problems(sf), _problems(sp))
    assert (sf.matches, sf.wins, sf.scored, sf.huang, sf.error_endings, sf.agree) == \
        (sp.matches, sp.wins, sp.scored, sp.huang, sp.error_endings, sp.agree)
    _rx, wx, sx = _unit(path, "text", fast=True, want_rows=False)
    assert len(wx) == sf.wins and _problems(sx) == [
        p for p in _problems(sf) if p[3] == "match"]
    if len(data) <= (1 << 20):
        assert sf.matches + len(sf.not_archives) == _matches_present(data), (sf.matches, _matches_present(data))
        assert len(sf.not_archives) == len(sp.not_archives)

    # the block reader with tiny blocks and a tiny limit: every byte once, in order
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    for block, limit in ((7, 40), (64, 200)):
        at = 0
        line = 1
        for piece, info in text_blocks(path, block=block, limit=limit):
            if piece is None:
                first, head, size = info
                assert first == line and size > limit and body[at:at + len(head)] == head
                seg = body[at:at + size]
            else:
                assert info == line and piece == body[at:at + len(piece)]
                seg = piece
                # each match in a block is within the limit
                starts = [0] + [m.start() + 1 for m in re.finditer(rb"\nMatch ", seg)] + [len(seg)]
                assert all(b - a <= limit for a, b in zip(starts, starts[1:])), (seg, limit)
            assert at == 0 or body[at:at + 6] == b"Match "
            at += len(seg)
            line += seg.count(b"\n")
        assert at == len(body), (at, len(body))


def _match_view(m):
    return (m.id, m.pos, m.problem, m.quan, m.deals, m.walls, m.flowers, m.events, m.end, m.end_pos,
            m.error_seat, m.error_code, m.error_response, m.recorded_total, m.recorded_fans, m.recorded_scores)


def _json_views(path):
    """The matches of a JSON file as read whole (orjson, when it takes it),
    streamed by the json module, and streamed 61 characters at a time."""
    import mjfast.logs.jsonlog as J

    def views():
        try:
            return [_match_view(m) for m in J.read_json(path)]
        except J.NotAnArchive as exc:       # raised at the first value: nothing else read
            return ("not an archive", str(exc))

    out = [views()]
    real_whole, real_chunk = J.WHOLE_FILE_BYTES, J._CHUNK
    try:
        J.WHOLE_FILE_BYTES = -1
        out.append(views())
        J._CHUNK = 61
        out.append(views())
    finally:
        J.WHOLE_FILE_BYTES, J._CHUNK = real_whole, real_chunk
    return out


def check_json(data: bytes, expect=None) -> None:
    path = _write("m.json", data)
    whole, stream, small = _json_views(path)
    assert whole == stream, (whole, stream)
    assert stream == small, (stream, small)
    _r, _w, s = _unit(path, "json")
    if isinstance(whole, tuple):
        assert s.matches == 0 and [p.reason for p in s.not_archives] == [whole[1]] and expect is None
        return
    assert s.matches == len(whole)
    if expect is not None:
        assert len(whole) == expect, (len(whole), expect)
        assert [v[1] for v in whole] == list(range(expect))


# -- built inputs -------------------------------------------------------------------------

_NUMBERS = ("3000000000", "9223372036854775808", "18446744073709551616", "1180591620717411303424",
            "-5", "0", "1.9", "1e400", "Infinity", "-Infinity", "NaN", "1.0", "2147483647", "2147483648",
            "x", "", "1" * 30)


def _edit_line(b: Bytes, line: bytes) -> bytes:
    op = b.int(0, 9)
    words = line.split(b" ")
    if op <= 2 and len(words) > 1:
        k = b.int(0, len(words) - 1)
        words[k] = b.pick(_NUMBERS).encode() if op < 2 else b.take(b.int(0, 6))
        return b" ".join(words)
    if op == 3:
        return line + b" " * b.int(0, 3) + b.take(b.int(0, 8))
    if op == 4:
        return b""
    if op == 5:
        return line.replace(b"*1", b"*" + b.pick(_NUMBERS).encode())
    if op == 6:
        return b" " * (65536 + b.int(0, 2)) + line if b.bool() else line + b" " * 65537
    if op == 7:
        return b"\t" + line if b.bool() else line.upper()
    return line


def build_text(b: Bytes) -> bytes:
    ms = _fixture_matches()
    out = []
    if b.int(0, 15) == 0:
        out.append(b"\xef\xbb\xbf")
    if b.int(0, 15) == 0:
        out.append(b.take(b.int(0, 12)) + b"\n")
    for _ in range(b.int(1, 5)):
        lines = b.pick(ms).split(b"\n")
        for _ in range(b.int(0, 4)):
            k = b.int(0, len(lines) - 1)
            lines[k] = _edit_line(b, lines[k])
        if b.int(0, 7) == 0:
            lines = lines[:b.int(1, len(lines))]
        out.append(b"\n".join(lines).rstrip(b"\n") + b"\n")
    return b"".join(out)


_HOSTILE = (float("inf"), float("-inf"), 1.9, 1.0, 2 ** 64, 2 ** 70, 2 ** 63, 3000000000, -1, 0, "x", "23",
            None, True, [], {}, [1, 2, 3, 4], "\ufeff", "W1", 10 ** 30)


def _deep(n):
    v = []
    for _ in range(n):
        v = [v]
    return v


def build_json(b: Bytes):
    import logs_helpers as H

    makers = (H.selfdrawn_json, H.claims_json, H.wa_json, H.huang_json)
    objs = []
    for _ in range(b.int(1, 4)):
        m = b.pick(makers)()
        for _ in range(b.int(0, 3)):
            op = b.int(0, 9)
            fin = m["logs"][-1]["output"]
            disp = fin["display"]
            if op == 0 and isinstance(disp.get("fan"), list) and disp["fan"]:
                b.pick(disp["fan"])["cnt"] = b.pick(_HOSTILE)
            elif op == 1:
                disp["fanCnt"] = b.pick(_HOSTILE)
            elif op == 2:
                disp.pop("score", None)
                fin["content"][str(b.int(0, 3))] = b.pick(_HOSTILE)
            elif op == 3:
                disp["score"] = [b.pick(_HOSTILE) if b.bool() else 0 for _ in range(4)]
            elif op == 4:
                m["logs"][b.int(0, len(m["logs"]) - 1)]["extra"] = _deep(b.int(90, 110))
            elif op == 5:
                m["initdata"] = json.dumps({"quan": b.pick(_HOSTILE), "srand": 1})
            elif op == 6:
                m["initdata"] = json.dumps({"quan": 0, "x": _deep(b.int(95, 105))})
            elif op == 7:
                m["_id"] = b.pick(_HOSTILE)
            elif op == 8:
                e = m["logs"][b.int(0, len(m["logs"]) - 2)]     # not the finish entry the others edit
                e["output" if "output" in e else "0"] = b.pick(_HOSTILE)
        objs.append(m)
    one_a_line = b.bool()
    # the json module writes Infinity, NaN and huge ints as a platform file could hold them
    text = ("\n".join(json.dumps(o) for o in objs) if one_a_line else json.dumps(objs)).encode()
    if b.int(0, 7) == 0:
        text = b"\xef\xbb\xbf" + text
    return text, len(objs)


def check(data: bytes) -> None:
    kind = data[0] % 4 if data else 0
    rest = data[1:]
    if kind == 0:
        check_text(rest)
    elif kind == 1:
        check_json(rest)
    elif kind == 2:
        check_text(build_text(Bytes(rest)))
    else:
        text, n = build_json(Bytes(rest))
        check_json(text, n)


def seeds():
    out = []
    for p in _FIXTURES:
        with open(p, "rb") as f:
            whole = f.read()
        out.append(b"\x00" + whole)
    for m in _fixture_matches():
        out.append(b"\x00" + m)
    import logs_helpers as H
    for make in (H.selfdrawn_json, H.claims_json, H.wa_json, H.huang_json):
        out.append(b"\x01" + json.dumps(make()).encode())
        out.append(b"\x01" + json.dumps([make(), make()]).encode())
    out.append(b"\x01" + json.dumps(H.selfdrawn_json()["logs"]).encode())
    for k in range(24):
        out.append(bytes([2]) + bytes((k * 7919 + j * 104729) % 256 for j in range(48)))
        out.append(bytes([3]) + bytes((k * 6007 + j * 15485863) % 256 for j in range(32)))
    return out


def main():
    fuzz_main(check, "mjfast.logs.text", "mjfast.logs.jsonlog", "mjfast.logs.scoring", "mjfast.logs.fasttext",
              "mjfast.logs.replay", "mjfast.logs.limits")


if __name__ == "__main__":
    main()
