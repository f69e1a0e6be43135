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

from typing import Iterator, Optional

import io

from .model import Claim, Event, Match, TILE_SET, FLOWER_SET

# Event(...) runs a Python-level __new__; building the tuple directly is ~3x cheaper
_new = tuple.__new__

__all__ = ["read_text", "parse_text_lines", "fan_fields"]

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


def fan_fields(tokens):
    """(total, [(name, count)]) of the words of a ``Fan`` line; IndexError or
    ValueError if it is malformed.  (Also used by the compiled reader's caller.)"""
    total = int(tokens[1])
    fans = []
    for item in "".join(tokens[2:]).split("+"):
        if not item:
            break
        name, _, cnt = item.rpartition("*")
        fans.append((name, int(cnt)))
    return total, fans


def parse_text_lines(lines, path=None, first_line: int = 1) -> Iterator[Match]:
    """Matches from an iterable of text lines (str).  ``first_line``
    is the line number of the first line (for chunks of a larger file)."""
    m: Optional[Match] = None
    pending = None          # a Chi/Peng event waiting for its Play line
    lineno = first_line - 1
    # "hot": the current match is dealt, has no pending claim, no problem and
    # has not ended, so a plain action line only needs its words checked
    hot = False
    add = None
    dealt = (False, False, False, False)
    for raw in lines:
        lineno += 1
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
                    m.recorded_scores = [int(t) for t in tokens[1:]]
                except ValueError:
                    m.fail(lineno, "expected 'Score <s0> <s1> <s2> <s3>'")
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


def read_text(path, start: int = 0, stop: Optional[int] = None, first_line: int = 1) -> Iterator[Match]:
    """Matches of a text archive, streamed.  ``start``/``stop`` select a byte
    range that begins at a ``Match`` line (see ``scoring.split_tasks``);
    ``first_line`` is the line number at ``start``.  Bytes that are not UTF-8
    become U+FFFD, so such a line is reported as an unknown word or tile."""
    with open(path, "rb") as f:
        if start:
            f.seek(start)
        if stop is None:
            text = io.TextIOWrapper(f, encoding="utf-8", errors="replace", newline="\n")
            yield from parse_text_lines(text, path, first_line)
        else:
            # a chunk of a larger file (a few MB): decoded at once
            data = f.read(stop - start).decode("utf-8", "replace")
            yield from parse_text_lines(data.split("\n"), path, first_line)
