"""The compiled path of the text archive: a chunk of bytes read, replayed and
scored in C (``mjfast._replay.replay_text``, src/_replay.pyx, over the
tokenizer of src/_textlog.pyx), one result per match and no per-line Python
objects.

The compiled reader takes a match only when the Python reader
(:mod:`mjfast.logs.text`) would read it the same way and find nothing wrong,
and replays it with the one replay driver (the one :func:`mjfast.logs.replay`
uses); the fan kernel scores its win inside the replay.  Anything else -- a
line the tokenizer is not sure of, or a match the driver refuses -- comes
back as the bytes of the segment, which the Python reader
(:func:`mjfast.logs.text.parse_text_lines`) reads here and
:func:`mjfast.logs.replay` replays, so that every problem is worded from the
reader's Match (its line and reason), and the results do not depend on which
reader ran (tests/test_logs_fast.py compares the two on generated and
corrupted archives).
"""
from __future__ import annotations

from ..rules.mcr import MCR
from .model import TILE_CODES
from .replay import Win
from .replay import outcomes as replay_outcomes
from .limits import MAX_LINE_CHARS
from .text import fan_fields, oversize_match, parse_text_lines, text_blocks

from .._replay import replay_text

#: kept for compatibility: the compiled reader ships with the package
AVAILABLE = True

__all__ = ["AVAILABLE", "outcomes", "read_chunk"]

_KEYS = tuple(f.key for f in MCR)
_new = tuple.__new__


def read_chunk(path, start=0, stop=None) -> bytes:
    """The bytes of one unit of work (a whole file, or a chunk cut at a Match line)."""
    with open(path, "rb") as f:
        if start:
            f.seek(start)
        return f.read() if stop is None else f.read(stop - start)


def _python(data, a, b, line, path):
    """The outcomes of bytes a:b by the Python path (as scoring.run_task reads them)."""
    lines = data[a:b].decode("utf-8", "replace").split("\n")
    yield from replay_outcomes(parse_text_lines(lines, path, line))


def outcomes(path, start=0, stop=None, first_line=1):
    """Per match, in file order: ``(MatchError, None, None)`` for a skipped
    match, else ``(outcome, wins, scored)`` with ``scored`` None (score the
    wins) or a list of (total, fans) per win, computed by the fan kernel.
    The bytes come in blocks of whole matches (:func:`text_blocks`, as the
    Python reader reads them), so memory stays bounded."""
    for data, line in text_blocks(path, start, stop, first_line):
        if data is None:
            yield from replay_outcomes([oversize_match(path, line)])
        else:
            yield from _block(path, data, line)


def _block(path, data, first_line):
    # lines longer than MAX_LINE_CHARS bytes go to the Python reader, which
    # counts characters and reports them
    for seg in replay_text(data, first_line, _KEYS, MAX_LINE_CHARS):
        kind = seg[0]
        if kind == 0:
            yield from _python(data, seg[1], seg[2], seg[3], path)
            continue
        fan = seg[6]
        rec_total = rec_fans = None
        if fan is not None:
            try:
                rec_total, rec_fans = fan_fields(fan.decode("utf-8", "replace").split())
            except (IndexError, ValueError):
                # the Python reader reports the malformed Fan line
                yield from _python(data, seg[1], seg[2], seg[3], path)
                continue
        if kind == 1:
            yield "huang", (), None
            continue
        if kind == 3:
            yield "error", (), None
            continue
        (_k, _a, _b, _l, mid, end_pos, _f, _fl, scores, winner, frm, tile, hand, melds, sd, fourth, last, kong,
         quan, total, fans) = seg
        w = _new(Win, (mid, path, end_pos, winner, frm, TILE_CODES[tile], hand, melds, sd, fourth, last, kong,
                       winner, quan, rec_total, rec_fans, scores))
        yield "hu", (w,), ((total, fans),)
