"""The win context (flags, winds, flowers) and hand records: one validator.

Every entry point that takes a win context — :func:`mjfast.score`,
:class:`mjfast.HandBatch` (``from_records``, ``from_strings``), the JSON-lines
scorer and the command line — checks it here, so that a value means the same
wherever it is given.

* ``self_drawn``, ``fourth_tile``, ``kong``, ``last_tile``: ``True`` /
  ``False`` (a numpy bool too); anything else (``"no"``, ``1``, ``2``,
  ``None`` as an argument) is an error naming the argument — no coercion.
* ``seat_wind`` / ``round_wind``: one of ``"E" "S" "W" "N"`` (any case) or an
  integer 0-3.
* ``flowers``: an integer 0-8.

A hand record (docs/notation.md, "Hand records") is a dict with a required
string ``hand`` and the fields above; a field that is absent or ``null``
takes its default.  Unknown keys are ignored.
"""
from __future__ import annotations

import json
from typing import Optional

import numpy as np

from .. import _core
from ..io.jsontext import describe
from ..errors import InvalidArgument, InvalidHand
from ..spec import flags as _flags

__all__ = ["RecordError", "validate_record", "check_flag", "check_wind", "check_flowers",
           "check_context", "FLAG_NAMES", "FLAG_BITS"]


class RecordError(ValueError):
    """A record's fields are missing or have the wrong type / value."""


#: The four win flags, in the order of their bits in a packed ``flags`` byte
#: (declared in mjfast/spec/flags.py).
FLAG_NAMES = _flags.names(_flags.WIN)
#: flag name -> bit in the packed ``flags`` byte (HandBatch.flags, the kernel's).
FLAG_BITS = _flags.bits(_flags.WIN)


def one_line(exc: object) -> str:
    msg = str(exc) or type(exc).__name__
    return " ".join(msg.split()) if "\n" in msg or "\r" in msg else msg


def parse_error(line, exc: Optional[BaseException] = None) -> str:
    """The message for a line that did not decode (slow path: errors only):
    mjfast's own wording with the column (see mjfast.io.jsontext), whichever
    JSON decoder raised ``exc``."""
    return describe(line)


def show(value) -> str:
    """A short JSON-ish rendering of a bad value, for error messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return text


def check_flag(value, name: str) -> bool:
    """``value`` as a bool if it is ``True``/``False`` (or a numpy bool);
    else :class:`~mjfast.errors.InvalidArgument` naming ``name``."""
    if value is True or value is False:
        return value
    if type(value) is np.bool_:
        return bool(value)
    raise InvalidArgument(f"{name} must be true or false (a bool), got {show(value)}")


def check_wind(value, name: str) -> int:
    """A wind as 0-3 (E S W N) from ``"E"``..``"N"`` (any case) or an int 0-3
    (read by the compiled core, as the record readers read it)."""
    w = _core.wind_code(value)
    if w >= 0:
        return w
    # a bad value or a bad type: an argument either way (issue: "east" was an InvalidHand)
    raise InvalidArgument(f"{name} must be one of \"E\" \"S\" \"W\" \"N\" or 0-3, got {show(value)}")


def check_flowers(value, name: str = "flowers") -> int:
    """Flowers as an int 0-8 (read by the compiled core, as the record readers
    read them)."""
    f = _core.flowers_code(value)
    if f >= 0:
        return f
    raise InvalidArgument(f"{name} must be an integer 0-8, got {show(value)}")


def check_context(self_drawn=False, fourth_tile=False, kong=False, last_tile=False,
                  seat_wind="E", round_wind="E", flowers=0) -> tuple:
    """The whole win context checked: ``(flags, seat, round, flowers)`` with
    ``flags`` the packed bits of :data:`FLAG_BITS`, winds 0-3, flowers 0-8.

    Read and packed by the compiled core (``_core.context_code``, what the
    record readers and the scorer's fast path use too); the first bad
    argument is worded here."""
    c = _core.context_code(self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)
    if c >= 0:
        return (c & 15, c >> 4 & 3, c >> 6 & 3, c >> 8)
    k = -1 - c
    if k < 4:
        check_flag((self_drawn, fourth_tile, kong, last_tile)[k], FLAG_NAMES[k])
    elif k < 6:
        check_wind(round_wind if k == 5 else seat_wind, "round_wind" if k == 5 else "seat_wind")
    else:
        check_flowers(flowers)
    raise AssertionError(f"context_code rejected argument {k}, which checks out")  # pragma: no cover


def flag_values(flags: int) -> tuple:
    """The four flags of a packed ``flags`` byte as bools, in :data:`FLAG_NAMES` order."""
    return tuple(bool(flags & FLAG_BITS[name]) for name in FLAG_NAMES)


#: Context keys a record may name that no batch column holds (``wild_fifth``,
#: which no scorer supports): a record giving one a value is a bad record, not
#: a row scored without it.  The compiled record readers hand such records to
#: :func:`validate_record`.  (``wildcards``, ``wildcard_tiles``, ``wild_win``,
#: ``declared_ready`` and ``discard_after_kong`` have batch columns: the
#: readers hand those records to Python too, which reads them with
#: ``mjfast.batch``.)
UNREAD_KEYS = ("wild_fifth",)


def validate_record(rec: dict) -> tuple:
    """Check one decoded record; returns the normalised arguments.

    ``(hand, self_drawn, fourth_tile, kong, last_tile, seat_wind, round_wind, flowers)``
    with bools, winds as ints 0-3 and flowers an int.  Raises :class:`RecordError`.
    The hand string itself is checked later, by the scorer.
    """
    if type(rec) is not dict:
        raise RecordError(f"a record must be a JSON object, got {show(rec)}")
    hand = rec.get("hand")
    if type(hand) is not str:
        if hand is None:
            raise RecordError("missing field 'hand'")
        raise RecordError(f"'hand' must be a string, got {show(hand)}")
    get = rec.get
    for k in UNREAD_KEYS:
        v = get(k)
        if not (v is None or v is False or (type(v) is int and v == 0)):
            raise RecordError(f"field {k!r} is not read by batch scoring (a HandBatch row has no column "
                              f"for it): score this hand with mjfast.score(..., {k}=...)")
    # null = absent = the default
    values = [get(f) for f in FLAG_NAMES]
    values = [False if v is None else v for v in values]
    seat, rnd, flowers = get("seat_wind"), get("round_wind"), get("flowers")
    try:
        # (values: the four win flags, FLAG_NAMES; a list's length is not in its type)
        flags, seat, rnd, flowers = check_context(  # type: ignore[call-arg]
            *values, "E" if seat is None else seat, "E" if rnd is None else rnd,
            0 if flowers is None else flowers)
    except (InvalidHand, InvalidArgument) as exc:
        raise RecordError(str(exc)) from None
    return (hand, *flag_values(flags), seat, rnd, flowers)
