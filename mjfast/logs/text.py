"""Reader of the platform's text match archive (one match after another).

    Match <id>
    Wind <0-3>
    Player <n> Deal <13 tiles>
    Player <n> Draw|Play|AnGang|BuGang|BuHua <tile>
    Player <n> Chi <middle tile>          (the claimer's Play line follows)
    Player <n> Peng|Gang <tile> [Ignore Player <m> Chi|Peng|Gang|Hu <tile>]...
    Player <n> Hu [<tile>] [Ignore ...]...
    Fan <total> <name>*<count>+...   /   Huang
    Score <s0> <s1> <s2> <s3>

Streaming: one line at a time, one :class:`~mjfast.logs.model.Match` yielded
as soon as the next ``Match`` line (or the end of the file) is reached, so
memory does not grow with the file.  A malformed line marks its match with
``problem = (line, reason)``; the reader then skips to the next ``Match``
line and goes on.  Blank lines are ignored.
"""
from __future__ import annotations

from typing import Any, Iterator, Optional

from .limits import MAX_LINE_CHARS, MAX_RECORDED, MAX_TEXT_MATCH_BYTES, recorded_int
from .model import Claim, Event, Match, TILE_SET, FLOWER_SET

# Event(...) runs a Python-level __new__; building the tuple directly is ~3x cheaper
_new = tuple.__new__

__all__ = ["read_text", "parse_text_lines", "fan_fields", "text_blocks", "oversize_match"]

_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3}
# line word -> event kind
_SINGLE = {"Draw": "DRAW", "Play": "PLAY", "AnGang": "ANGANG", "BuGang": "BUGANG", "BuHua": "BUHUA"}
_HOT = {"Draw": "DRAW", "Play": "PLAY", "AnGang": "ANGANG", "BuGang": "BUGANG"}
_CLAIM = {"Chi": "CHI", "Peng": "PENG", "Gang": "GANG", "Hu": "HU"}
_IGNORE_KIND = {"chi": "CHI", "peng": "PENG", "gang": "GANG", "hu": "HU"}


def _ignores(tokens, start, m, lineno):
    """Parse ``Ignore Player <m> <Kind> [<tile>]`` clauses from tokens[start:]."""
    out = []
    i = start
    n = len(tokens)
    while i < n:
        if tokens[i] != "Ignore" or i + 3 >= n or tokens[i + 1] != "Player":
            m.fail(lineno, f"expected 'Ignore Player <n> <claim> <tile>' at word {i + 1}, got {' '.join(tokens[i:i + 5])!r}")
            return ()
        seat = _SEATS.get(tokens[i + 2])
        kind = _IGNORE_KIND.get(tokens[i + 3].lower())
        if seat is None or kind is None:
            m.fail(lineno, f"bad Ignore clause {' '.join(tokens[i:i + 5])!r}")
            return ()
        tile = None
        i += 4
        if i < n and tokens[i] != "Ignore":
            tile = tokens[i]
            if tile not in TILE_SET:
                m.fail(lineno, f"unknown tile {tile!r} in an Ignore clause")
                return ()
            i += 1
        out.append(Claim(seat, kind, tile, None))
    return tuple(out)


class _OutOfRange(ValueError):
    """A recorded number that is well formed but not in range (its own message)."""


def fan_fields(tokens):
    """(total, [(name, count)]) of the words of a ``Fan`` line; IndexError or
    ValueError if it is malformed (an out-of-range number: the ValueError
    names it).  (Also used by the compiled reader's caller.)"""
    total = _ranged(int(tokens[1]), "the recorded fan total")
    fans = []
    for item in "".join(tokens[2:]).split("+"):
        if not item:
            break
        name, _, cnt = item.rpartition("*")
        fans.append((name, _ranged(int(cnt), f"the count of the fan {name[:40]!r}")))
    return total, fans


def _ranged(n, what):
    if -MAX_RECORDED <= n <= MAX_RECORDED:
        return n
    try:
        return recorded_int(n, what)
    except ValueError as exc:
        raise _OutOfRange(str(exc)) from None


def parse_text_lines(lines, path=None, first_line: int = 1) -> Iterator[Match]:
    """Matches from an iterable of text lines (str).  ``first_line``
    is the line number of the first line (for chunks of a larger file)."""
    m: Optional[Match] = None
    pending = None          # a Chi/Peng event waiting for its Play line
    lineno = first_line - 1
    # "hot": the current match is dealt, has no pending claim, no problem and
    # has not ended, so a plain action line only needs its words checked
    hot = False
    add: Any = None         # m.events.append of the hot match (hot is False until it is set)
    dealt: tuple = (False, False, False, False)
    for raw in lines:
        lineno += 1
        if len(raw) > MAX_LINE_CHARS:
            # not split into words: the match (or the one it starts) is reported
            head = raw.split(None, 1)
            if head and head[0] == "Match":
                if m is not None:
                    if pending is not None:
                        m.fail(pending.pos, f"the {pending.kind.title()} line is not followed by the claimer's Play line")
                    yield m
                pending = None
                m = Match(None, path, "text", lineno)
            elif m is None:
                m = Match(None, path, "text", lineno)
            m.fail(lineno, f"a line of more than {MAX_LINE_CHARS} characters (the limit MAX_LINE_CHARS)")
            hot = False
            continue
        tokens = raw.split()
        if hot and len(tokens) == 4 and tokens[0] == "Player":
            kind = _HOT.get(tokens[2])
            seat = _SEATS.get(tokens[1])
            tile = tokens[3]
            if kind is not None and seat is not None and tile in TILE_SET and dealt[seat]:
                add(_new(Event, (lineno, seat, kind, tile, None, None, ())))
                continue
        if not tokens:
            continue
        head = tokens[0]
        while True:     # once; `break` ends the line
            if head == "Match":
                if m is not None:
                    if pending is not None:
                        m.fail(pending.pos, f"the {pending.kind.title()} line is not followed by the claimer's Play line")
                    yield m
                pending = None
                m = Match(tokens[1] if len(tokens) == 2 else " ".join(tokens[1:]), path, "text", lineno)
                if len(tokens) != 2:
                    m.fail(lineno, "expected 'Match <id>'")
                break
            if m is None:
                # text before the first Match line: reported as a nameless bad match
                m = Match(None, path, "text", lineno)
                m.fail(lineno, f"line before the first 'Match' line: {raw.strip()[:60]!r}")
                break
            if m.problem is not None:
                break
            if m.end is not None and head not in ("Fan", "Score"):
                if head == "Huang" and m.end == "huang":
                    m.fail(lineno, "a second Huang line")
                else:
                    m.fail(lineno, f"{head!r} line after the end of the match (line {m.end_pos})")
                break

            if head == "Player":
                if len(tokens) < 3:
                    m.fail(lineno, "expected 'Player <n> <action> ...'")
                    break
                seat = _SEATS.get(tokens[1])
                if seat is None:
                    m.fail(lineno, f"bad seat {tokens[1]!r} (0-3)")
                    break
                word = tokens[2]
                if pending is not None:
                    # the Play line that completes a Chi / Peng
                    if word != "Play" or seat != pending.seat:
                        m.fail(lineno, f"a {pending.kind.title()} must be followed by the claimer's Play line "
                                       f"(line {pending.pos})")
                        break
                    if len(tokens) != 4 or tokens[3] not in TILE_SET:
                        m.fail(lineno, f"expected 'Player {seat} Play <tile>'")
                        break
                    m.events.append(pending._replace(discard=tokens[3], discard_pos=lineno))
                    pending = None
                    break
                kind = _SINGLE.get(word)
                if kind is not None:
                    if len(tokens) != 4:
                        m.fail(lineno, f"expected 'Player {seat} {word} <tile>'")
                        break
                    tile = tokens[3]
                    if kind == "BUHUA":
                        if tile not in FLOWER_SET:
                            m.fail(lineno, f"BuHua needs a flower H1-H8, got {tile!r}")
                            break
                    elif tile not in TILE_SET:
                        m.fail(lineno, f"unknown tile {tile!r}")
                        break
                    if m.deals[seat] is None:
                        m.fail(lineno, f"player {seat} acts before being dealt")
                        break
                    m.events.append(_new(Event, (lineno, seat, kind, tile, None, None, ())))
                    break
                kind = _CLAIM.get(word)
                if kind is not None:
                    if m.deals[seat] is None:
                        m.fail(lineno, f"player {seat} acts before being dealt")
                        break
                    tile = None
                    rest = 3
                    if len(tokens) > 3 and tokens[3] != "Ignore":
                        tile = tokens[3]
                        rest = 4
                        if tile not in TILE_SET:
                            m.fail(lineno, f"unknown tile {tile!r}")
                            break
                    elif kind != "HU":
                        m.fail(lineno, f"expected 'Player {seat} {word} <tile>'")
                        break
                    ignored = _ignores(tokens, rest, m, lineno) if len(tokens) > rest else ()
                    if m.problem is not None:
                        break
                    ev = Event(lineno, seat, kind, tile, None, None, ignored)
                    if kind in ("CHI", "PENG"):
                        pending = ev
                    else:
                        m.events.append(ev)
                        if kind == "HU":
                            m.end = "hu"
                            m.end_pos = lineno
                    break
                if word == "Deal":
                    if m.deals[seat] is not None:
                        m.fail(lineno, f"player {seat} is dealt twice")
                        break
                    if m.events:
                        m.fail(lineno, "a Deal line after play began")
                        break
                    tiles = tokens[3:]
                    bad = [t for t in tiles if t not in TILE_SET and t not in FLOWER_SET]
                    if bad:
                        m.fail(lineno, f"unknown tile {bad[0]!r}")
                        break
                    hand = [t for t in tiles if t in TILE_SET]
                    if len(hand) != 13:
                        m.fail(lineno, f"a deal has 13 tiles, got {len(hand)}")
                        break
                    m.deals[seat] = hand
                    m.flowers[seat] = [t for t in tiles if t in FLOWER_SET]
                    break
                m.fail(lineno, f"unknown action {word!r}")
                break
            if pending is not None:
                m.fail(lineno, f"a {pending.kind.title()} must be followed by the claimer's Play line (line {pending.pos})")
                break
            if head == "Wind":
                if len(tokens) != 2 or tokens[1] not in _SEATS:
                    m.fail(lineno, "expected 'Wind <0-3>'")
                elif m.quan is not None:
                    m.fail(lineno, "a second Wind line")
                elif any(d is not None for d in m.deals):
                    m.fail(lineno, "the Wind line comes after the deals")
                else:
                    m.quan = _SEATS[tokens[1]]
            elif head == "Fan":
                if m.end != "hu":
                    m.fail(lineno, "a Fan line without a Hu")
                    break
                if m.recorded_total is not None:
                    m.fail(lineno, "a second Fan line")
                    break
                try:
                    total, fans = fan_fields(tokens)
                except _OutOfRange as exc:
                    m.fail(lineno, str(exc))
                    break
                except (IndexError, ValueError):
                    m.fail(lineno, "expected 'Fan <total> <name>*<count>+...'")
                    break
                m.recorded_total = total
                m.recorded_fans = fans
            elif head == "Score":
                if m.end is None:
                    # no Hu / Huang line: the game ended by the error rule (the
                    # archive has no line for the refused response); the Score line
                    # must then say so: the offender -30, the others +10
                    try:
                        sc = [int(t) for t in tokens[1:]]
                    except ValueError:
                        sc = []
                    if len(sc) == 4 and sorted(sc) == [-30, 10, 10, 10]:
                        m.end = "error"
                        m.end_pos = lineno
                        m.error_seat = sc.index(-30)
                        m.recorded_scores = sc
                    else:
                        m.fail(lineno, "a Score line before the end of the match (no Hu or Huang)")
                    break
                if m.recorded_scores is not None:
                    m.fail(lineno, "a second Score line")
                    break
                try:
                    if len(tokens) != 5:
                        raise ValueError
                    sc = [int(t) for t in tokens[1:]]
                except ValueError:
                    m.fail(lineno, "expected 'Score <s0> <s1> <s2> <s3>'")
                    break
                try:
                    m.recorded_scores = [recorded_int(x, f"the recorded score of player {s}")
                                         for s, x in enumerate(sc)]
                except ValueError as exc:
                    m.fail(lineno, str(exc))
            elif head == "Huang":
                if len(tokens) != 1:
                    m.fail(lineno, "expected 'Huang'")
                else:
                    m.end = "huang"
                    m.end_pos = lineno
            else:
                m.fail(lineno, f"unknown line {raw.strip()[:60]!r}")
            break
        hot = m is not None and m.problem is None and m.end is None and pending is None
        if hot:
            add = m.events.append
            dealt = tuple(d is not None for d in m.deals)
    if m is not None:
        if pending is not None:
            m.fail(pending.pos, f"the {pending.kind.title()} line is not followed by the claimer's Play line")
        yield m


#: bytes read at a time by text_blocks
BLOCK_BYTES = 4 << 20
_CUT = b"\nMatch "
_BOM = b"\xef\xbb\xbf"


def text_blocks(path, start: int = 0, stop: Optional[int] = None, first_line: int = 1,
                block: int = BLOCK_BYTES, limit: int = MAX_TEXT_MATCH_BYTES):
    """The bytes of a text archive (or of its byte range ``start:stop``, which
    begins at a line start) in blocks of whole matches, each cut where a line
    starts with ``Match `` and about ``block`` bytes long: ``(bytes, line
    number of their first line)``.  A match (or the text before the first
    one) longer than ``limit`` bytes is read past without being kept and comes
    as ``(None, (line, first line's bytes (at most 256), its size))``.  Memory:
    a few blocks, whatever the file holds.  A UTF-8 byte-order mark at the
    start of the file is dropped."""
    with open(path, "rb") as f:
        if start:
            f.seek(start)
        left = [None if stop is None else stop - start]

        def read():
            n = block if left[0] is None else min(block, left[0])
            if n <= 0:
                return b""
            data = f.read(n)
            if left[0] is not None:
                left[0] -= len(data)
            return data

        buf = read()
        if start == 0 and buf.startswith(_BOM):
            buf = buf[3:]
        eof = not buf
        line = first_line        # the line number at buf[0]
        out = 0                  # buf[out:pos] is whole matches not yet given out
        pos = 0                  # the start of the current match in buf
        while True:
            nxt = buf.find(_CUT, pos)
            if nxt >= 0 and nxt + 1 - pos <= limit:
                pos = nxt + 1
                if pos - out >= block:
                    yield buf[out:pos], line
                    line += buf.count(b"\n", out, pos)
                    out = pos
                continue
            # with no cut in buf, the match at pos goes on at least to the
            # last bytes that could begin one ("\nMatc" at the end of buf)
            if nxt < 0 and len(buf) - pos - (len(_CUT) - 2) <= limit:
                if not eof:
                    data = read()
                    if not data:
                        eof = True
                        continue
                    buf = buf[out:] + data
                    pos -= out
                    out = 0
                    continue
                if len(buf) - pos <= limit:
                    if len(buf) > out:
                        yield buf[out:], line
                    return
                nxt = len(buf) - 1      # the last match, over the limit by a few bytes, ends the file
            # the match at pos is over the limit
            if pos > out:
                yield buf[out:pos], line
                line += buf.count(b"\n", out, pos)
            head = buf[pos:pos + 256].split(b"\n", 1)[0]
            at = line
            if nxt >= 0:
                size = nxt + 1 - pos
                line += buf.count(b"\n", pos, nxt + 1)
                pos = out = nxt + 1
                yield None, (at, head, size)
                continue
            # read past it: count its lines, keep only the last bytes (a cut may straddle two reads)
            size = len(buf) - pos
            line += buf.count(b"\n", pos)
            tail = buf[-(len(_CUT) - 1):]
            while True:
                data = read()
                if not data:
                    yield None, (at, head, size)
                    return
                s2 = tail + data
                k = s2.find(_CUT)
                if k >= 0:
                    cut = k + 1
                    line += s2.count(b"\n", 0, cut) - tail.count(b"\n")
                    size += cut - len(tail)
                    yield None, (at, head, size)
                    buf = s2[cut:]
                    pos = out = 0
                    break
                line += data.count(b"\n")
                size += len(data)
                tail = s2[-(len(_CUT) - 1):]


def oversize_match(path, info) -> Match:
    """The reported match of text_blocks' ``(None, info)``."""
    at, head, size = info
    words = head.decode("utf-8", "replace").split()
    mid = words[1] if len(words) == 2 and words[0] == "Match" else None
    m = Match(mid, path, "text", at)
    what = "the match" if words[:1] == ["Match"] else "the text before the first 'Match' line"
    m.fail(at, f"{what} is longer than {MAX_TEXT_MATCH_BYTES} bytes ({size} bytes; the limit "
               f"MAX_TEXT_MATCH_BYTES): not read")
    return m


def read_text(path, start: int = 0, stop: Optional[int] = None, first_line: int = 1) -> Iterator[Match]:
    """Matches of a text archive, streamed.  ``start``/``stop`` select a byte
    range that begins at a ``Match`` line (see ``scoring.split_tasks``);
    ``first_line`` is the line number at ``start``.  Bytes that are not UTF-8
    become U+FFFD, so such a line is reported as an unknown word or tile."""
    for data, line in text_blocks(path, start, stop, first_line):
        if data is None:
            yield oversize_match(path, line)
        else:
            yield from parse_text_lines(data.decode("utf-8", "replace").split("\n"), path, line)
