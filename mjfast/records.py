"""Hand records (docs/notation.md, "Hand records"): checking one decoded record.

Shared by :class:`mjfast.HandBatch.from_records` and the JSON-lines scorer,
so that a record means the same wherever it is read.

* ``hand`` is required and must be a string.
* ``self_drawn``, ``fourth_tile``, ``kong``, ``last_tile`` must be JSON
  booleans; ``seat_wind`` / ``round_wind`` one of ``"E" "S" "W" "N"`` (any
  case) or an integer 0-3; ``flowers`` an integer 0-8.  A field that is absent
  or ``null`` takes its default; a value of the wrong type is an error (no
  coercion).  Unknown keys are ignored.
"""
from __future__ import annotations

import json

__all__ = ["RecordError", "validate_record"]


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


def _wind_field(rec: dict, field: str) -> int:
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
            _wind_field(rec, "seat_wind"), _wind_field(rec, "round_wind"), flowers)
