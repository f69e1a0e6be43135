"""JSON text from users (hand records, result lines): one decoder, one wording.

Every reader of JSON lines (the JSONL scorer, :class:`mjfast.HandBatch`'s
line readers, ``stats table``) decodes with :func:`loads` and words a line
that does not decode with :func:`describe`.  What is accepted and how an error
reads are decided here, not by the JSON library that happens to be installed:

* the text is RFC 8259 JSON in UTF-8: no ``NaN`` / ``Infinity``, no number
  too large for a double, no lone surrogate (``"\\ud800"``), no byte order
  mark, at most :data:`DEPTH_LIMIT` levels of nesting and numbers of at most
  :data:`DIGITS_LIMIT` characters;
* integers are read exactly (a 30-digit id stays an integer);
* an error reads ``bad JSON at column 12: expected ',' or '}', found 'x'``
  (``at line 2, column 3`` when the text holds several lines), the column
  counted in characters from 1.

orjson, when installed, decodes the common line (a flat object of strings,
integers, booleans and nulls, which it reads exactly as the standard
:mod:`json` does); any other value is read again by :mod:`json` under the
rules above, so orjson only makes decoding faster.  Every message comes from
:func:`describe`, which scans the text itself.
"""
from __future__ import annotations

import json
import math
import re
from typing import Optional, Tuple

try:  # several times faster than the standard decoder
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - depends on the environment
    _fast_loads = None  # type: ignore[assignment]  # no orjson: the standard decoder (checked before each use)

__all__ = ["BadJSON", "loads", "describe", "DEPTH_LIMIT", "DIGITS_LIMIT"]

#: Deepest nesting of arrays and objects accepted (both decoders stay far
#: from their own limits: orjson's 1024, the interpreter's recursion limit).
DEPTH_LIMIT = 256
#: Longest number accepted, in characters (below the interpreter's smallest
#: integer-conversion limit, so a number never fails to convert).
DIGITS_LIMIT = 600


class BadJSON(ValueError):
    """A line that is not JSON; the message is :func:`describe`'s."""


def _reject_constant(name):
    raise ValueError(name)


def _finite_float(text):
    x = float(text)
    if math.isinf(x):
        raise ValueError(text)
    return x


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)

_PLAIN = frozenset((str, int, bool, type(None)))
# what the standard decoder accepts but the rules above do not: checked by
# _find_error on the (rare) lines that may hold it
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_TOO_LONG = re.compile(r"[0-9.eE+-]{%d}" % (DIGITS_LIMIT + 1))


def _deep(text: str) -> bool:
    """More opening brackets than the depth limit (then the depth is checked)."""
    return text.count("[") + text.count("{") > DEPTH_LIMIT


def loads(line):
    """The JSON value of ``line`` (bytes or str); :class:`BadJSON` with
    :func:`describe`'s message when it is not JSON under the module's rules."""
    t = type(line)
    if _fast_loads is not None and (t is bytes or t is str):
        try:
            value = _fast_loads(line)
        except Exception:
            return _loads_std(line)     # worded there (or read, if orjson alone refuses it)
        # orjson reads an integer past 64 bits as a float and nests deeper
        # than DEPTH_LIMIT: a value holding a float or a nested value is read
        # again by the standard decoder (a flat record of plain values, the
        # common line, is read the same by both)
        vt = type(value)
        if vt is dict:
            if _PLAIN.issuperset(map(type, value.values())):
                return value
        elif vt in _PLAIN:
            return value
    return _loads_std(line)


def _text(line) -> str:
    """``line`` as text: UTF-8 bytes decoded, a str checked to be encodable."""
    if isinstance(line, str):
        line.encode("utf-8")
        return line
    if isinstance(line, (bytes, bytearray, memoryview)):
        return bytes(line).decode("utf-8")
    raise TypeError(type(line).__name__)


def _loads_std(line):
    try:
        text = _text(line)
        value = _DECODER.decode(text)
    except (ValueError, TypeError, RecursionError):
        raise BadJSON(describe(line)) from None
    if (("\\u" in text and _SURROGATE_ESCAPE.search(text)) or (len(text) > DIGITS_LIMIT and _TOO_LONG.search(text))
            or _deep(text)):
        if _find_error(text) is not None:
            raise BadJSON(describe(line))
    return value


def describe(line) -> str:
    """mjfast's message for a line that does not decode: ``"blank line"``,
    ``"bad JSON at column C: ..."``, ``"bad JSON at line L, column C: ..."``
    (a text of several lines), or for a value that is not text at all
    ``"a line must be text (bytes or str), got int"``.  Trailing line ends
    are not part of the line."""
    if isinstance(line, (bytearray, memoryview)):
        line = bytes(line)
    if isinstance(line, bytes):
        line = line.rstrip(b"\r\n")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            col = len(line[:exc.start].decode("utf-8")) + 1
            return f"bad JSON at column {col}: not UTF-8 text (byte 0x{line[exc.start]:02x})"
    elif isinstance(line, str):
        text = line.rstrip("\r\n")
    else:
        return f"a line must be text (bytes or str), got {type(line).__name__}"
    if not text.strip(" \t\r\n"):
        return "blank line"
    err = _find_error(text)
    if err is None:     # (not expected: the decoders accept what the scan accepts)
        return "bad JSON: not readable"
    pos, what = err
    line_no = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    where = f"column {col}" if "\n" not in text else f"line {line_no}, column {col}"
    return f"bad JSON at {where}: {what}"


# -- the scan: the first error of a JSON text, in our words ------------------

_WS = " \t\n\r"
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WORD = re.compile(r"[A-Za-z0-9_+.-]{1,12}")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_STRING_RUN = re.compile(r'[^"\\\x00-\x1f\ud800-\udfff]*')   # no quote, backslash, control or surrogate
_VALUE, _KEY, _AFTER = 0, 1, 2


def _found(s: str, i: int) -> str:
    c = s[i]
    m = _WORD.match(s, i)
    if m is not None:
        return _quote(m.group())
    if c == "\ufeff":
        return "a byte order mark (U+FEFF)"
    if c.isprintable() and c != " ":
        return _quote(c)
    return f"U+{ord(c):04X}"


def _quote(t: str) -> str:
    return f"'{t}'" if t.isprintable() and "'" not in t else repr(t)


def _ended(stack, expected: str) -> str:
    inside = {"{": " inside an object", "[": " inside an array"}.get(stack[-1], "") if stack else ""
    return f"the text ends{inside}, expected {expected}"


def _skip(s: str, i: int, n: int) -> int:
    while i < n and s[i] in _WS:
        i += 1
    return i


def _string_end(s: str, i: int, n: int):
    """s[i] is '"': the index past the closing quote, or (pos, message)."""
    j = i + 1
    while j < n:
        # (the plain characters at once; a *-run matches everywhere, never None)
        j = _STRING_RUN.match(s, j).end()  # type: ignore[union-attr]
        if j >= n:
            break
        c = s[j]
        if c == '"':
            return j + 1
        if c == "\\":
            if j + 1 >= n:
                break
            e = s[j + 1]
            if e in '"\\/bfnrt':
                j += 2
                continue
            if e != "u":
                return j, f"bad escape {_quote(s[j:j + 2])} in a string"
            if not _HEX4.fullmatch(s, j + 2, j + 6):
                return j, f"bad escape {_quote(s[j:j + 6])} in a string (\\u takes four hex digits)"
            code = int(s[j + 2:j + 6], 16)
            if 0xDC00 <= code <= 0xDFFF:
                return j, f"unpaired surrogate {_quote(s[j:j + 6])} in a string"
            if 0xD800 <= code <= 0xDBFF:
                low = s[j + 6:j + 12]
                if not (len(low) == 6 and low[:2] == "\\u" and _HEX4.fullmatch(low, 2)
                        and 0xDC00 <= int(low[2:], 16) <= 0xDFFF):
                    return j, f"unpaired surrogate {_quote(s[j:j + 6])} in a string"
                j += 12
                continue
            j += 6
            continue
        if c < " ":
            return j, f"control character U+{ord(c):04X} in a string (write it as an escape)"
        if "\ud800" <= c <= "\udfff":
            return j, f"unpaired surrogate U+{ord(c):04X} in a string"
        j += 1
    return i, "string not closed (no closing quote)"


def _number_end(s: str, i: int, n: int):
    """s[i] is '-' or a digit: the index past the number, or (pos, message)."""
    m = _NUMBER.match(s, i)
    if m is None:        # '-' and no digit
        return i + 1, ("the text ends, expected a digit after '-'" if i + 1 >= n
                       else f"expected a digit after '-', found {_found(s, i + 1)}")
    j = m.end()
    if j < n:
        c = s[j]
        if c in "0123456789" and m.group() in ("0", "-0"):
            return i, "number with a leading zero"
        text = m.group()
        if (c == "." and "." not in text and "e" not in text and "E" not in text) or \
                (c in "eE" and "e" not in text and "E" not in text):
            k = j + 1
            if c in "eE" and k < n and s[k] in "+-":
                k += 1
            part = "after '.'" if c == "." else "in the exponent"
            if k >= n:
                return k, f"the text ends, expected a digit {part}"
            return k, f"expected a digit {part}, found {_found(s, k)}"
    text = m.group()
    if j - i > DIGITS_LIMIT:
        return i, f"number of more than {DIGITS_LIMIT} characters"
    if ("." in text or "e" in text or "E" in text) and math.isinf(float(text)):
        return i, f"number out of range: {text}"
    return j


def _find_error(s: str) -> Optional[Tuple[int, str]]:
    """(position, what is wrong) of the first error of JSON text ``s``, or
    None when it is a JSON text under the module's rules."""
    n = len(s)
    stack: list = []
    state = _VALUE
    may_close = False       # a ']' / '}' may come here (not after a comma)
    i = 0
    while True:
        i = _skip(s, i, n)
        if state == _AFTER:
            if not stack:
                return None if i >= n else (i, f"more text after the JSON value: {_found(s, i)}")
            close = "}" if stack[-1] == "{" else "]"
            if i >= n:
                return i, _ended(stack, f"',' or '{close}'")
            c = s[i]
            if c == ",":
                i += 1
                state = _KEY if close == "}" else _VALUE
                may_close = False
            elif c == close:
                stack.pop()
                i += 1
            else:
                return i, f"expected ',' or '{close}', found {_found(s, i)}"
            continue
        if i >= n:
            return i, _ended(stack, "a key in double quotes" if state == _KEY else "a value")
        c = s[i]
        if state == _KEY:
            if c == "}" and may_close:
                stack.pop()
                i += 1
                state = _AFTER
                continue
            if c != '"':
                if c == "}":
                    return i, "trailing comma before '}'"
                return i, f"expected a key in double quotes, found {_found(s, i)}"
            r = _string_end(s, i, n)
            if type(r) is tuple:
                return r
            i = _skip(s, r, n)
            if i >= n:
                return i, _ended(stack, "':'")
            if s[i] != ":":
                return i, f"expected ':' after the key, found {_found(s, i)}"
            i += 1
            state = _VALUE
            may_close = False
            continue
        # a value
        if c in "{[":
            if len(stack) >= DEPTH_LIMIT:
                return i, f"nested deeper than {DEPTH_LIMIT} levels"
            stack.append(c)
            i += 1
            state = _KEY if c == "{" else _VALUE
            may_close = True
            continue
        if c == "]" and stack and stack[-1] == "[":
            if not may_close:
                return i, "trailing comma before ']'"
            stack.pop()
            i += 1
            state = _AFTER
            continue
        if c == '"':
            r = _string_end(s, i, n)
        elif c == "-" or "0" <= c <= "9":
            r = _number_end(s, i, n)
        elif s.startswith("true", i) or s.startswith("null", i):
            r = i + 4
        elif s.startswith("false", i):
            r = i + 5
        else:
            return i, f"expected a value, found {_found(s, i)}"
        if type(r) is tuple:
            return r
        i = r
        state = _AFTER
