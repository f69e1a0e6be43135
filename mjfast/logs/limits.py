"""What one piece of a match archive may take (docs/logs.md, "Limits").

A piece over a limit is a skipped match with the limit named in its reason;
the reader goes on after it, so one hostile file can neither exhaust memory
nor stop a bulk run.  The limits are far above anything the platform writes
(a text match is ~5 KB, a match JSON ~75 KB, a line under 200 characters).
"""

#: one match of a text archive: from its ``Match`` line to the next line
#: starting with ``Match `` (or the text before the first one)
MAX_TEXT_MATCH_BYTES = 1 << 20

#: one line of a text archive, in characters after decoding
MAX_LINE_CHARS = 1 << 16

#: one JSON value read from a file: a match object, a list element, a whole
#: bare ``logs`` list, or ``initdata`` given as a string (in characters); a
#: JSON file up to this many bytes is decoded at once
MAX_JSON_CHARS = 8 << 20

#: nesting of JSON arrays and objects (a match JSON nests 7 deep)
MAX_JSON_DEPTH = 100

#: a report lists this many problems of a kind (skipped matches, bad lines),
#: then says how many more there are
REPORT_LIST_LIMIT = 50

#: a recorded number (fan total, fan count, score) must be an integer of at
#: most this magnitude: it is kept in a 32-bit column (Parquet, logs.score())
MAX_RECORDED = 2 ** 31 - 1


def recorded_int(v, what: str) -> int:
    """``v`` (a recorded fan total, fan count or score, as read) as an int, or
    ValueError naming ``what`` and what is wrong: not a number, not finite,
    not whole (``1.9`` is not 1), or beyond :data:`MAX_RECORDED`.  A whole
    float (``23.0``) and a string of digits are taken at their value."""
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise ValueError(f"{what} is not a number: {_show(v)}")
    n: float
    if isinstance(v, str):
        try:
            n = int(v)
        except ValueError:
            raise ValueError(f"{what} is not an integer: {_show(v)}") from None
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"{what} is not a finite number: {v!r}")
        if not v.is_integer():
            raise ValueError(f"{what} is not a whole number: {v!r}")
        n = v
    else:
        n = v
    if not -MAX_RECORDED <= n <= MAX_RECORDED:
        raise ValueError(f"{what} {_show(v)} is out of range (at most {MAX_RECORDED} in magnitude)")
    return int(n)


def _show(v) -> str:
    s = repr(v) if not isinstance(v, int) or v.bit_length() < 4000 else "(an integer of over 1200 digits)"
    return s if len(s) <= 60 else s[:57] + "..."
