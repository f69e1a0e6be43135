"""Reader of the platform's match records (JSON).

Accepted shapes, per file:

* one match object ``{"initdata": ..., "logs": [...], ...}``;
* a list of match objects (streamed element by element, so a large file
  does not have to fit in memory), or several objects one after another
  (e.g. one per line);
* a bare ``logs`` list (one match);
* a directory: every ``*.json`` file in it (sorted by name, not recursive).

``initdata`` may be a JSON string or an object; ``walltiles`` (136 tiles,
seat by seat) gives each seat's wall when present.

Events come from the judge entries' ``display`` (``DEAL``, ``DRAW``, ``PLAY``,
``CHI``, ``PENG``, ``GANG``, ``BUGANG``, ``HU``, ``HUANG`` or an error code),
the claims that lost from the bot entry before each claim (every non-PASS
response of another seat).  ``Event.pos`` is the index in ``logs``.
"""
from __future__ import annotations

import json
import os
import re
from typing import Iterator, Optional

import numpy as np

from .limits import MAX_JSON_CHARS, MAX_JSON_DEPTH, recorded_int
from .model import Claim, Event, Match, TILE_SET, FLOWER_SET, TILE_CODES

__all__ = ["read_json", "match_from_json", "iter_json_values", "NotAnArchive", "platform_file"]


class NotAnArchive(ValueError):
    """The file is not a match archive (its first value is no match record):
    it is not read at all, rather than each of its values being reported as
    a bad match (a file of hand records passed by mistake)."""


#: a key of the platform's match object; a first value with none of them is
#: no match record (and its file no match archive)
_MATCH_KEYS = ("logs", "initdata", "players", "status")


def platform_file(path) -> bool:
    """A file the platform ships next to the matches of a download, which
    holds no match: ``<match id>_metadata.json``."""
    return os.path.basename(os.fspath(path)).endswith("_metadata.json")


def _first_value_check(v, path):
    """Raise :class:`NotAnArchive` when ``v``, the first value of the file
    ``path`` (or the first element of its list), cannot begin a match archive."""
    if isinstance(v, dict):
        if any(k in v for k in _MATCH_KEYS):
            return
        keys = ", ".join(repr(k) for k in list(v)[:4]) + (", ..." if len(v) > 4 else "")
        what = f"an object with keys {keys}" if v else "an empty object"
    elif isinstance(v, list):
        return
    else:
        what = f"a JSON {type(v).__name__}"
    raise NotAnArchive(f"not a match archive: its first value is {what}, not a match record "
                       f"(with 'logs'); the file is not read")

_CHUNK = 1 << 20
_CLAIM_WORDS = {"CHI": "CHI", "PENG": "PENG", "GANG": "GANG", "HU": "HU"}


def iter_json_values(f, chunk: int = _CHUNK, max_chars: Optional[int] = None, max_depth: Optional[int] = None):
    """Top-level JSON values of a text stream, one at a time.  A top-level
    list is *opened*: yields ``("list", None)`` then each element as
    ``("item", value)``; other values as ``("value", value)``.  A value over
    a limit (``max_chars`` characters, nested deeper than ``max_depth``;
    default: :mod:`mjfast.logs.limits`) or a complete value that is bad JSON
    is read past, not kept, and yields ``("skip-item" | "skip-value",
    reason)``.  Raises ValueError on JSON that cannot be read on from (with
    the element index)."""
    for tag, v, _size in _json_values(f, chunk, max_chars, max_depth):
        yield tag, v


def _json_values(f, chunk=_CHUNK, max_chars=None, max_depth=None):
    """iter_json_values with a third field: the characters the value took."""
    max_chars = MAX_JSON_CHARS if max_chars is None else max_chars
    max_depth = MAX_JSON_DEPTH if max_depth is None else max_depth
    dec = json.JSONDecoder()
    buf = ""
    pos = 0
    eof = False

    def more(n=None):
        nonlocal buf, pos, eof
        # read at least as much as is buffered: a long value is re-decoded
        # O(log n) times, not once per chunk
        data = f.read(n or max(chunk, len(buf) - pos))
        if not data:
            eof = True
            return False
        buf = buf[pos:] + data
        pos = 0
        return True

    def skip_ws():
        nonlocal pos
        while True:
            n = len(buf)
            while pos < n and buf[pos] in " \t\r\n":
                pos += 1
            if pos < n or not more():
                return pos < len(buf)

    def skip_value():
        """Read past the value at pos without keeping it (constant memory)."""
        nonlocal buf, pos
        i = pos
        depth = 0
        in_str = False
        c = buf[i]
        if c == '"':
            in_str = True
            i += 1
        elif c not in "[{":
            # a number or a word: up to the next delimiter
            while True:
                j = _SCALAR.match(buf, i).end()
                if j < len(buf):
                    pos = j
                    return
                pos = len(buf)
                if not more():
                    return
                i = 0
        if in_str:
            # a string: one regex match per read
            while True:
                j = _IN_STRING.match(buf, i).end()
                if j < len(buf) and buf[j] == '"':
                    pos = j + 1
                    return
                pos = j        # the end of the buffer, or a backslash whose escape is in the next read
                if not more():
                    pos = len(buf)
                    return
                i = 0
        # brackets: scanned a piece at a time in numpy (hostile input can be
        # all brackets or all strings), keeping only the depth and whether
        # the scan is inside a string
        while True:
            end, depth, in_str, _deepest, i = _scan(buf, i, depth, in_str, 0)
            if end >= 0:
                pos = end
                return
            n = len(buf)
            if n - i > 1:
                # trailing backslashes: their escapes may be in the next read;
                # a pair escapes itself, so one at most is kept
                buf = buf[:i] + "\\" * ((n - i) % 2)
            pos = i
            if not more(chunk):
                pos = len(buf)
                return
            i = 0

    def value(what):
        """("" or "skip", the value or the reason it was skipped, its characters)."""
        nonlocal pos
        c = buf[pos]
        closed = False
        if c in "[{":
            # the nesting is measured, a piece at a time as the text comes in,
            # before anything is decoded (the json module recurses once per
            # level), and a value is not buffered past max_chars
            depth, in_str, deepest, i = 0, False, 0, pos
            while True:
                end, depth, in_str, deepest, i = _scan(buf, i, depth, in_str, deepest)
                if deepest > max_depth:
                    skip_value()
                    return "skip", f"{what}: nested more than {max_depth} deep (the limit MAX_JSON_DEPTH)", 0
                if end >= 0:
                    closed = True
                    break
                if len(buf) - pos > max_chars:
                    skip_value()
                    return "skip", _too_large(what, max_chars), 0
                i -= pos
                if not more(chunk):
                    break
        while True:
            try:
                v, end = dec.raw_decode(buf, pos)
            except json.JSONDecodeError as exc:
                bracketed = c in "[{" and closed
                # incomplete at the end of the buffer: read more and retry
                if not bracketed and not eof and len(buf) - pos <= max_chars and more():
                    continue
                if len(buf) - pos > max_chars and not bracketed:
                    skip_value()
                    return "skip", _too_large(what, max_chars), 0
                msg = f"bad JSON in {what}: {exc.msg} (character {exc.pos - pos} of it)"
                if bracketed:
                    # its brackets close: read on after it
                    skip_value()
                    return "skip", msg, 0
                raise ValueError(msg) from None
            except ValueError as exc:       # e.g. an integer of more than 4300 digits
                msg = f"bad JSON in {what}: {exc}"
                if c in "[{" and closed:
                    skip_value()
                    return "skip", msg, 0
                raise ValueError(msg) from None
            if end == len(buf) and not eof:
                # a number could go on in the next chunk
                if c not in "{[\"" and len(buf) - pos <= max_chars and more():
                    continue
            size = end - pos
            pos = end
            if size > max_chars:
                return "skip", _too_large(what, max_chars), 0
            return "", v, size

    first = True
    while skip_ws():
        if buf[pos] == "[" and first:
            pos += 1
            yield ("list", None, 1)
            k = 0
            if not skip_ws():
                raise ValueError("truncated JSON list")
            if buf[pos] == "]":
                pos += 1
            else:
                while True:
                    if not skip_ws():
                        raise ValueError(f"truncated JSON list after element {k}")
                    skip, v, size = value(f"list element {k}")
                    yield ("skip-item" if skip else "item", v, size)
                    k += 1
                    if not skip_ws():
                        raise ValueError(f"truncated JSON list after element {k - 1}")
                    c = buf[pos]
                    pos += 1
                    if c == "]":
                        break
                    if c != ",":
                        raise ValueError(f"expected ',' or ']' after list element {k - 1}, got {c!r}")
            first = False
            continue
        skip, v, size = value("the file" if first else "a value after the first")
        yield ("skip-value" if skip else "value", v, size)
        first = False


_SCAN = 1 << 20
_BACKSLASHES = re.compile(r"\\*")


def _trailing_run(buf: str, i: int) -> int:
    """Where the run of backslashes that ends buf starts (len(buf) if none; not before i)."""
    n = len(buf)
    k = 64
    while True:
        t = buf[max(i, n - k):]
        run = len(t) - len(t.rstrip("\\"))
        if run < len(t) or n - k <= i:
            return n - run
        k *= 4


def _scan(buf: str, i: int, depth: int, in_str: bool, deepest: int):
    """Scan JSON text buf[i:] inside a value, from ``depth`` (> 0) and
    ``in_str``, up to a trailing run of backslashes (their escape may come
    with the next read): (the index just past the bracket that closes the
    value, or -1; depth; in_str; the greatest depth so far; where the scan
    stopped), a piece of _SCAN characters at a time."""
    stop = _trailing_run(buf, i)
    while i < stop:
        j = min(stop, i + _SCAN)
        if buf[j - 1] == "\\":
            # not between a backslash and the character it escapes
            # (a *-run: it matches everywhere, never None)
            j = min(stop, _BACKSLASHES.match(buf, j).end() + 1)  # type: ignore[union-attr]
        end, depth, in_str, d = _scan_brackets(buf[i:j], depth, in_str)
        deepest = max(deepest, d)
        if end >= 0:
            return i + end, 0, False, deepest, i + end
        i = j
    return -1, depth, in_str, deepest, i


def _scan_brackets(seg: str, depth: int, in_str: bool):
    """(the index just past the bracket that closes the value, or -1; the
    depth and whether inside a string at the end of seg; the greatest depth)
    of JSON text seg (not ending inside an escape) scanned from ``depth`` /
    ``in_str``."""
    b = seg.encode("ascii", "replace").replace(b"\\\\", b"__").replace(b'\\"', b"__")
    a = np.frombuffer(b, np.uint8)
    if not len(a):
        return -1, depth, in_str, depth
    outside = ((np.cumsum(a == 34, dtype=np.int64) + in_str) & 1) == 0
    delta = (((a == 91) | (a == 123)).astype(np.int32) - ((a == 93) | (a == 125))) * outside
    cum = np.cumsum(delta, dtype=np.int64) + depth
    hit = np.flatnonzero(cum <= 0)
    if len(hit):
        return int(hit[0]) + 1, 0, False, int(cum[:hit[0] + 1].max())
    return -1, int(cum[-1]), bool((int(np.count_nonzero(a == 34)) + in_str) & 1), int(cum.max())


def _too_large(what, limit):
    return f"{what}: larger than {limit} characters (the limit MAX_JSON_CHARS)"


# the scanners of skip_value: the rest of a string (up to its closing quote,
# or a trailing backslash), a number or word
_IN_STRING = re.compile(r'(?:[^"\\]|\\.)*', re.S)
_SCALAR = re.compile(r'[^\s,\[\]{}"]*')
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')


def _max_depth(data: bytes) -> int:
    """The greatest nesting of the JSON text ``data`` (several values: of
    all of them).  Exact for valid JSON, and never below the depth the json
    module reaches before it finds an error, so it bounds the decoder's
    recursion."""
    if data.count(b"[") + data.count(b"{") <= MAX_JSON_DEPTH:
        return 0            # cannot nest deeper: the common small case, at once
    # escaped backslashes, then escaped quotes, neither ends a string; then
    # only quotes and brackets matter
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    r = data.translate(None, _NOT_STRUCTURE)
    a = np.frombuffer(r, np.uint8)
    outside = (np.cumsum(a == 34, dtype=np.int32) & 1) == 0
    delta = ((a == 91) | (a == 123)).astype(np.int8) - ((a == 93) | (a == 125))
    delta *= outside
    return int(np.cumsum(delta, dtype=np.int32).max())


def _is_log_entry(x) -> bool:
    return isinstance(x, dict) and ("output" in x or any(k in x for k in ("0", "1", "2", "3")))


def read_json(path) -> Iterator[Match]:
    """Matches of a JSON file or of every ``*.json`` file of a directory."""
    if os.path.isdir(path):
        for name in sorted(os.listdir(path)):
            p = os.path.join(path, name)
            if name.endswith(".json") and os.path.isfile(p) and not platform_file(p):
                try:
                    yield from read_json(p)
                except NotAnArchive as exc:
                    # one file of the directory: reported as one bad entry, the others read on
                    m = Match(os.path.splitext(name)[0], p, "json", 0)
                    m.fail(0, str(exc))
                    yield m
        return
    stem = os.path.splitext(os.path.basename(path))[0]
    whole = _whole(path)
    if whole is not None:
        yield from _matches_of(whole, stem, path)
        return
    # utf-8-sig: a byte-order mark at the start is not part of the JSON
    with open(path, "r", encoding="utf-8-sig", errors="strict") as f:
        k = 0
        in_list = False
        logs_list: Optional[list] = None
        logs_chars = 0          # characters of a bare logs list so far (one match: bounded)
        logs_problem = None     # (index, reason) once an entry of it is skipped
        logs_n = 0
        try:
            for tag, v, size in _json_values(f, _CHUNK):
                if tag == "list":
                    in_list = True
                    continue
                if in_list and tag in ("item", "skip-item") and (
                        logs_list is not None or (k == 0 and tag == "item" and _is_log_entry(v))):
                    # a bare logs list: this one list is the match
                    if logs_list is None:
                        logs_list = []
                    if logs_problem is None:
                        logs_chars += size
                        if tag == "skip-item":
                            logs_problem = (logs_n, v)
                        elif logs_chars > MAX_JSON_CHARS:
                            logs_problem = (logs_n, _too_large("the logs list", MAX_JSON_CHARS))
                        if logs_problem is not None:
                            logs_list.clear()       # not kept: the match is reported
                        else:
                            logs_list.append(v)
                    logs_n += 1
                    continue
                if in_list and tag in ("value", "skip-value"):
                    in_list = False
                if k == 0 and tag in ("value", "item"):
                    _first_value_check(v, path)
                mid = f"{stem}" if k == 0 and tag in ("value", "skip-value") else f"{stem}#{k}"
                if tag in ("skip-item", "skip-value"):
                    m = Match(mid, path, "json", k)
                    m.fail(0, v)
                    yield m
                else:
                    yield match_from_json(v, mid, path, k)
                k += 1
        except NotAnArchive:
            raise
        except (ValueError, UnicodeDecodeError) as exc:
            if logs_list is not None:
                m = Match(stem, path, "json", 0)
                m.fail(*(logs_problem or (logs_n, str(exc))))
            else:
                m = Match(f"{stem}#{k}", path, "json", k)
                m.fail(0, str(exc))
            yield m
            return
        if logs_list is not None:
            if logs_problem is not None:
                m = Match(stem, path, "json", 0)
                m.fail(*logs_problem)
                yield m
            else:
                yield match_from_json({"logs": logs_list}, stem, path, 0)


#: files up to this size are decoded at once by orjson when it is installed
#: (several times faster than the json module); larger ones are streamed.
#: The same as the limit on one value, so that no value is taken whole that
#: the streaming reader would refuse.
WHOLE_FILE_BYTES = MAX_JSON_CHARS

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - optional
    _orjson = None  # type: ignore[assignment]  # no orjson: the json module (checked before each use)

_BOM = b"\xef\xbb\xbf"
# 19 digits in a row: maybe an integer outside [-2**63, 2**64), which orjson
# reads as a float and the json module as an int (found as a run of zeros
# after every digit is made one: a plain find, much faster than a regex)
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_RUN = b"0" * 19


def _whole(path):
    """The decoded value of a small JSON file holding one value, or None
    (orjson missing, file too large, or anything orjson does not take or
    would read differently from the json module -- several values, NaN,
    integers of 2**64 or more, nesting deeper than MAX_JSON_DEPTH, bad
    UTF-8 -- which the streaming reader then reads or reports exactly as
    before)."""
    if _orjson is None:
        return None
    try:
        if os.path.getsize(path) > WHOLE_FILE_BYTES:
            return None
        with open(path, "rb") as f:
            data = f.read(WHOLE_FILE_BYTES + 1)
    except OSError:
        return None
    if len(data) > WHOLE_FILE_BYTES:
        return None
    if data.startswith(_BOM):
        data = data[3:]
    if data.translate(_DIGITS).find(_LONG_RUN) >= 0 or _max_depth(data) > MAX_JSON_DEPTH:
        return None
    try:
        return _orjson.loads(data)
    except ValueError:
        return None


def _matches_of(v, stem, path):
    """The matches of one decoded file value, as the streaming reader yields them."""
    if not isinstance(v, list):
        _first_value_check(v, path)
        yield match_from_json(v, stem, path, 0)
        return
    if v and _is_log_entry(v[0]):
        yield match_from_json({"logs": v}, stem, path, 0)     # a bare logs list: one match
        return
    if v:
        _first_value_check(v[0], path)
    for k, item in enumerate(v):
        yield match_from_json(item, f"{stem}#{k}", path, k)


def _tiles(x):
    if isinstance(x, str):
        return x.split()
    if isinstance(x, list) and all(type(t) is str for t in x):
        return list(x)
    return None


def _seat(v):
    if type(v) is int and 0 <= v <= 3:
        return v
    if isinstance(v, str) and v in ("0", "1", "2", "3"):
        return int(v)
    return None


def match_from_json(obj, default_id, path=None, index=0) -> Match:
    """One :class:`Match` from a decoded match object (or a bare logs list)."""
    if isinstance(obj, list):
        obj = {"logs": obj}
    mid = default_id
    if isinstance(obj, dict):
        for key in ("_id", "id", "match_id", "matchid"):
            if isinstance(obj.get(key), (str, int)):
                mid = str(obj[key])
                break
    m = Match(mid, path, "json", index)
    if not isinstance(obj, dict) or not isinstance(obj.get("logs"), list):
        m.fail(0, "not a match record: no 'logs' list")
        return m
    init = obj.get("initdata")
    if isinstance(init, str) and init.strip():
        if len(init) > MAX_JSON_CHARS:
            m.fail(0, _too_large("initdata", MAX_JSON_CHARS))
            return m
        if _max_depth(init.encode("ascii", "replace")) > MAX_JSON_DEPTH:
            m.fail(0, f"initdata: nested more than {MAX_JSON_DEPTH} deep (the limit MAX_JSON_DEPTH)")
            return m
        try:
            init = json.loads(init)
        except ValueError:
            m.fail(0, "initdata is not valid JSON")
            return m
    if isinstance(init, dict):
        q = init.get("quan")
        if q is not None:
            if type(q) is int and 0 <= q <= 3:
                m.quan = q
            else:
                m.fail(0, f"initdata quan must be 0-3, got {q!r}")
                return m
        wt = init.get("walltiles")
        if wt is not None:
            tiles = _tiles(wt)
            if tiles is None or len(tiles) != 136 or any(t not in TILE_SET for t in tiles):
                m.fail(0, "initdata walltiles must be 136 tile codes")
                return m
            m.walls = [tiles[34 * s:34 * s + 34] for s in range(4)]
    _events(m, obj["logs"])
    return m


def _response(entry, seat):
    if not isinstance(entry, dict):
        return None
    r = entry.get(str(seat))
    if isinstance(r, dict):
        r = r.get("response")
    return r.strip() if isinstance(r, str) else None


def _losers(m, logs, i, winner, discarder):
    """Non-PASS responses of the other seats in the bot entry before log i."""
    if i == 0 or not isinstance(logs[i - 1], dict) or "output" in logs[i - 1]:
        return ()
    out = []
    for s in range(4):
        if s == winner or s == discarder:
            continue
        r = _response(logs[i - 1], s)
        if not r or r == "PASS":
            continue
        word = r.split()[0].upper()
        kind = _CLAIM_WORDS.get(word)
        if kind is None:
            m.fail(i - 1, f"player {s} answered {r!r} to a discard")
            return ()
        out.append(Claim(s, kind, None, r))
    return tuple(out)


def _events(m: Match, logs):
    last = None          # (kind, seat, tile) of the last event, for GANG and HU
    last_tile = None
    discarder = None     # seat whose tile is live (discard or added kong)
    for i, entry in enumerate(logs):
        if not isinstance(entry, dict):
            m.fail(i, "a log entry is not an object")
            return
        out = entry.get("output")
        if out is None:
            continue            # a bot entry: read when the next judge entry needs it
        if not isinstance(out, dict):
            m.fail(i, "'output' is not an object")
            return
        d = out.get("display")
        if not isinstance(d, dict):
            if out.get("command") == "finish" and m.end is not None:
                continue
            m.fail(i, "a judge entry without 'display'")
            return
        act = d.get("action")
        if type(act) is not str:
            m.fail(i, f"a display without an action word: {act!r}")
            return
        if m.end is not None:
            m.fail(i, f"{act!r} after the end of the match (log {m.end_pos})")
            return
        if act == "INIT":
            q = d.get("quan")
            if q is not None:
                if type(q) is not int or not 0 <= q <= 3:
                    m.fail(i, f"quan must be 0-3, got {q!r}")
                    return
                if m.quan is not None and m.quan != q:
                    m.fail(i, f"display quan {q} differs from initdata quan {m.quan}")
                    return
                m.quan = q
            continue
        if act == "DEAL":
            hands = d.get("hand")
            if not isinstance(hands, (list, dict)):
                hands = [d.get(str(s)) for s in range(4)]
            for s in range(4):
                h = hands.get(str(s)) if isinstance(hands, dict) else (hands[s] if s < len(hands) else None)
                tiles = _tiles(h)
                if tiles is None or any(t not in TILE_SET and t not in FLOWER_SET for t in tiles):
                    m.fail(i, f"bad deal for player {s}")
                    return
                hand = [t for t in tiles if t in TILE_SET]
                if len(hand) != 13:
                    m.fail(i, f"player {s} is dealt {len(hand)} tiles, not 13")
                    return
                m.deals[s] = hand
                m.flowers[s] = [t for t in tiles if t in FLOWER_SET]
            continue
        seat = _seat(d.get("player"))
        if act == "HUANG":
            m.end = "huang"
            m.end_pos = i
            _finish_scores(m, out, d, i)
            continue
        if seat is None:
            m.fail(i, f"display {act!r} without a valid player")
            return
        if m.deals[seat] is None:
            m.fail(i, f"player {seat} acts before the deal")
            return
        tile = d.get("tile")
        if act in ("DRAW", "PLAY", "BUGANG", "BUHUA", "GANG", "CHI", "PENG"):
            want = FLOWER_SET if act == "BUHUA" else TILE_SET
            if type(tile) is not str or tile not in want:
                m.fail(i, f"{act} with a bad tile {tile!r}")
                return
        if act == "DRAW":
            m.events.append(Event(i, seat, "DRAW", tile))
        elif act == "PLAY":
            m.events.append(Event(i, seat, "PLAY", tile))
            discarder, last_tile = seat, tile
        elif act == "BUHUA":
            m.events.append(Event(i, seat, "BUHUA", tile))
        elif act == "BUGANG":
            m.events.append(Event(i, seat, "BUGANG", tile))
            discarder, last_tile = seat, tile
        elif act == "CHI":
            mid = d.get("tileCHI")
            if type(mid) is not str or mid not in TILE_SET:
                m.fail(i, f"CHI with a bad tileCHI {mid!r}")
                return
            m.events.append(Event(i, seat, "CHI", mid, tile, i, _losers(m, logs, i, seat, discarder)))
            discarder, last_tile = seat, tile
        elif act == "PENG":
            m.events.append(Event(i, seat, "PENG", last_tile, tile, i, _losers(m, logs, i, seat, discarder)))
            discarder, last_tile = seat, tile
        elif act == "GANG":
            if last is not None and last[0] == "DRAW" and last[1] == seat:
                m.events.append(Event(i, seat, "ANGANG", tile))
            else:
                m.events.append(Event(i, seat, "GANG", tile, None, None, _losers(m, logs, i, seat, discarder)))
        elif act == "HU":
            self_drawn = last is not None and last[0] == "DRAW" and last[1] == seat
            win_tile = last[2] if last is not None and self_drawn else last_tile
            ign = () if self_drawn else _losers(m, logs, i, seat, discarder)
            m.events.append(Event(i, seat, "HU", win_tile, None, None, ign))
            m.end = "hu"
            m.end_pos = i
            fans = d.get("fan")
            if isinstance(fans, list):
                try:
                    m.recorded_fans = [(str(f["name"]), f["cnt"]) for f in fans]
                except (KeyError, TypeError):
                    m.fail(i, "bad 'fan' list in the HU display")
                    return
                try:
                    m.recorded_fans = [(name, recorded_int(c, f"the count of the fan {name[:40]!r}"))
                                       for name, c in m.recorded_fans]
                except ValueError as exc:
                    m.fail(i, f"bad 'fan' list in the HU display: {exc}")
                    return
            if d.get("fanCnt") is not None:
                try:
                    m.recorded_total = recorded_int(d["fanCnt"], "the fan total fanCnt")
                except ValueError as exc:
                    m.fail(i, str(exc))
                    return
            _finish_scores(m, out, d, i)
        else:
            # an error code (WA, WH, TLE, RE, ...): the game ended by the error rule
            m.end = "error"
            m.end_pos = i
            m.error_seat = seat
            m.error_code = str(act)
            m.error_response = _response(logs[i - 1], seat) if i > 0 else None
            _finish_scores(m, out, d, i)
            continue
        if m.problem is not None:
            return
        ev = m.events[-1]
        last = (ev.kind, ev.seat, ev.tile)


def _finish_scores(m, out, d, i):
    """The recorded Score: the display's ``score`` list, else the finish
    command's ``content`` ({seat: score}); a number there that is not a
    whole number in range makes the match malformed."""
    sc = d.get("score")
    try:
        if isinstance(sc, list) and len(sc) == 4 and all(
                isinstance(x, (int, float)) and not isinstance(x, bool) for x in sc):
            m.recorded_scores = [recorded_int(x, f"the recorded score of player {s}") for s, x in enumerate(sc)]
            return
        c = out.get("content")
        if out.get("command") == "finish" and isinstance(c, dict) and all(str(s) in c for s in range(4)):
            m.recorded_scores = [recorded_int(c[str(s)], f"the recorded score of player {s}") for s in range(4)]
    except ValueError as exc:
        m.fail(i, str(exc))
