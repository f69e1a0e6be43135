"""The notation parser as it was written in Python: the oracle of the compiled
parser (tests/test_parser_diff.py), kept as it was when the compiled parser
replaced it, the way tests/records_reference.py keeps the record path.

Each function returns ``("ok", value)`` or ``("err", message)``:

* :func:`parse_hand` -> ``(melds, tiles, flowers)``, melds as tuples
  ``(kind, tile, concealed, claimed, added)``, tiles in the order given,
  flowers a count (what mjfast.parse_hand's Hand holds);
* :func:`parse_tiles` -> the list of tile indices;
* :func:`counts_of` -> the 34 counts of a string without brackets
  (mjfast.tiles.counts_of on a string);
* :func:`to_counts` -> the concealed counts (mjfast.to_counts on a string).
"""
from __future__ import annotations

import re

_SUITS = "mps"
_HONORS = "ESWNCFP"
N_TILES = 34
TILE_NAMES = tuple([f"{r}{s}" for s in _SUITS for r in range(1, 10)] + list(_HONORS))
BOTZONE_CODES = tuple([f"{s}{r}" for s in "WBT" for r in range(1, 10)]
                      + [f"F{r}" for r in range(1, 5)] + [f"J{r}" for r in range(1, 4)])
_BOTZONE_TO_INDEX = {c: i for i, c in enumerate(BOTZONE_CODES)}
_FLOWER_CODES = frozenset(f"H{r}" for r in range(1, 9))
_DIGIT = {str(d): d - 1 for d in range(1, 10)}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18}
_HONOR_INDEX = {h: 27 + k for k, h in enumerate(_HONORS)}

_COMPACT_OK = re.compile(r"\s*(?:(?:[1-9]+[mps]|[ESWNCFP])\s*)*")
_COMPACT_GROUP = re.compile(r"([1-9]+)([mps])|([ESWNCFP])")
_BOTZONE_OK = re.compile(r"\s*[WBTFJH][1-9](?:\s+[WBTFJH][1-9])*\s*")
_BOTZONE_TOKEN = re.compile(r"[WBTFJH][1-9]")
_TOKEN = re.compile(r"\S+")


class _Err(Exception):
    pass


def _group(digits, suit):
    base = _SUIT_BASE[suit]
    return [base + _DIGIT[d] for d in digits]


def _compact_error(text, offset, src):
    msg = _compact_error_msg(text, offset, src)
    if any(_BOTZONE_TOKEN.fullmatch(t) for t in text.split()):
        msg += " (Botzone codes cannot be mixed with compact notation)"
    raise _Err(msg)


def _compact_error_msg(text, offset, src):
    pend_start = -1
    for k, ch in enumerate(text):
        pos = offset + k + 1
        if ch in _DIGIT:
            if pend_start < 0:
                pend_start = pos
            continue
        if ch in _SUIT_BASE:
            if pend_start < 0:
                return f"suit letter {ch!r} at position {pos} in {src!r} has no digits before it"
            pend_start = -1
            continue
        if ch == "0":
            return f"digit '0' at position {pos} in {src!r}: ranks are 1-9"
        if not (ch in _HONOR_INDEX or ch.isspace() or ch in "[]"):
            return f"unknown tile {ch!r} at position {pos} in {src!r}"
        if pend_start >= 0:
            run = src[pend_start - 1:pos - 1]
            return (f"digits {run!r} at position {pend_start} in {src!r} are not "
                    f"followed by a suit letter (m, p or s)")
        if ch in _HONOR_INDEX or ch.isspace():
            continue
        if ch in "[]":
            return (f"unexpected {ch!r} at position {pos} in {src!r}: melds in "
                    f"brackets must come first (and only parse_hand reads them)")
    if pend_start >= 0:
        run = src[pend_start - 1:offset + len(text)].rstrip()
        return (f"digits {run!r} at position {pend_start} in {src!r} are not "
                f"followed by a suit letter (m, p or s)")
    return f"cannot parse tiles {text!r} in {src!r}"


def _parse_botzone(text, offset, src):
    tiles = []
    flowers = []
    for tok in text.split():
        i = _BOTZONE_TO_INDEX.get(tok)
        if i is not None:
            tiles.append(i)
        elif tok in _FLOWER_CODES:
            if tok in flowers:
                raise _Err(f"flower {tok!r} appears twice in {src!r}")
            flowers.append(tok)
        else:
            pos = offset + 1
            for m in _TOKEN.finditer(text):
                if m.group() == tok:
                    pos = offset + m.start() + 1
                    break
            if _BOTZONE_TOKEN.fullmatch(tok):
                raise _Err(f"unknown Botzone code {tok!r} at position {pos} in {src!r}")
            raise _Err(f"{tok!r} at position {pos} in {src!r} is not a Botzone code "
                       f"(Botzone codes cannot be mixed with compact notation)")
    return tiles, flowers


def _parse_any(text, offset=0, src=None):
    if src is None:
        src = text
    if _COMPACT_OK.fullmatch(text) is not None:
        tiles = []
        for digits, suit, honor in _COMPACT_GROUP.findall(text):
            if honor:
                tiles.append(_HONOR_INDEX[honor])
            else:
                tiles.extend(_group(digits, suit))
        return tiles, ()
    if _BOTZONE_OK.fullmatch(text) is not None:
        return _parse_botzone(text, offset, src)
    first = text.split(None, 1)
    if first and _BOTZONE_TOKEN.fullmatch(first[0]):
        _parse_botzone(text, offset, src)
    _compact_error(text, offset, src)


def _parse_compact_meld(text, offset, src):
    if _COMPACT_OK.fullmatch(text) is not None:
        tiles = []
        for digits, suit, honor in _COMPACT_GROUP.findall(text):
            if honor:
                tiles.append(_HONOR_INDEX[honor])
            else:
                tiles.extend(_group(digits, suit))
        return tiles
    _compact_error(text, offset, src)


def _meld(kind, tile, concealed=False, claimed=0, added=False):
    return (kind, tile, concealed, claimed, added)


def _meld_tiles(m):
    kind, t = m[0], m[1]
    if kind == "chow":
        return (t, t + 1, t + 2)
    if kind == "pung":
        return (t, t, t)
    return (t, t, t, t)


def _validate_counts(melds, tiles):
    n = 3 * len(melds) + len(tiles)
    if n > 14:
        raise _Err(f"too many tiles: {n} (counting 3 per meld; at most 14)")
    total = [0] * N_TILES
    for t in tiles:
        total[t] += 1
    for m in melds:
        for t in _meld_tiles(m):
            total[t] += 1
    for t in range(N_TILES):
        if total[t] > 4:
            raise _Err(f"fifth copy of {TILE_NAMES[t]}: {total[t]} copies counting "
                       f"melds and concealed tiles, at most 4 exist")


_WS = frozenset(" \t\r\n\f\v")


def _meld_error(msg, body, pos, src):
    return _Err(f"meld '[{body}]' at position {pos} in {src!r}: {msg}")


def _parse_meld(body, pos, src):
    if not body:
        raise _Err(f"empty meld '[]' at position {pos} in {src!r}")
    if len(body.split()) != 1 or body.strip() != body:
        raise _meld_error("no whitespace inside a meld", body, pos, src)
    digit = None
    part = body
    if len(body) >= 2 and body[-1] in "0123456789" and (body[-2] in "mps" or body[-2] in _HONORS):
        digit = int(body[-1])
        part = body[:-1]
    tiles = _parse_compact_meld(part, pos, src)
    n = len(tiles)
    if n not in (3, 4):
        note = ""
        if digit is not None:
            note = f" (the final digit {digit} is the meld's digit, not a tile)"
        raise _meld_error(f"{n} tile{'s' if n != 1 else ''}; a meld has 3 (chow, pung) "
                          f"or 4 (kong){note}", body, pos, src)
    t0 = tiles[0]
    if all(t == t0 for t in tiles):
        if n == 3:
            if digit is None:
                return _meld("pung", t0)
            if 1 <= digit <= 3:
                return _meld("pung", t0, claimed=digit)
            raise _meld_error(f"bad digit {digit}: a pung's discarder is 1-3", body, pos, src)
        if digit is None:
            return _meld("kong", t0, concealed=True)
        if 1 <= digit <= 3:
            return _meld("kong", t0, claimed=digit)
        if 5 <= digit <= 7:
            return _meld("kong", t0, claimed=digit - 4, added=True)
        raise _meld_error(f"bad digit {digit}: a kong's digit is 1-3 (melded), "
                          f"5-7 (added to a pung) or none (concealed)", body, pos, src)
    if n == 4:
        raise _meld_error("4 tiles that are not one kong", body, pos, src)
    if any(t >= 27 for t in tiles):
        raise _meld_error("not a chow, pung or kong (honors cannot form a chow)", body, pos, src)
    s0 = sorted(tiles)
    if s0[1] == s0[0] + 1 and s0[2] == s0[0] + 2 and s0[0] // 9 == s0[2] // 9:
        if s0 != tiles:
            raise _meld_error("write a chow's tiles in ascending order (the digit "
                              "gives the claimed tile)", body, pos, src)
    else:
        crosses = (s0[1] == s0[0] + 1 and s0[2] == s0[0] + 2) or (
            len({t // 9 for t in tiles}) == 1 and sorted(t % 9 for t in tiles) in ([0, 7, 8], [0, 1, 8]))
        why = " (a chow cannot wrap past 9)" if crosses else ""
        raise _meld_error(f"not a chow, pung or kong{why}", body, pos, src)
    if digit is None:
        return _meld("chow", s0[0])
    if 1 <= digit <= 3:
        return _meld("chow", s0[0], claimed=digit)
    raise _meld_error(f"bad digit {digit}: a chow's claimed tile is 1-3", body, pos, src)


def _parse_hand(s):
    melds = ()
    i = 0
    if "[" in s or "]" in s:
        ml = []
        n = len(s)
        while True:
            while i < n and s[i] in _WS:
                i += 1
            if i >= n or s[i] != "[":
                break
            j = s.find("]", i + 1)
            k = s.find("[", i + 1)
            if j < 0 or (0 <= k < j):
                raise _Err(f"unclosed '[' at position {i + 1} in {s!r}")
            if len(ml) == 4:
                raise _Err(f"more than 4 melds: '{s[i:j + 1]}' at position {i + 1} in {s!r} is the fifth")
            ml.append(_parse_meld(s[i + 1:j], i + 1, s))
            i = j + 1
        melds = tuple(ml)
        rest = s[i:]
        k = rest.find("[")
        if k >= 0:
            raise _Err(f"meld at position {i + k + 1} in {s!r} comes after concealed tiles; melds must come first")
        k = rest.find("]")
        if k >= 0:
            raise _Err(f"unmatched ']' at position {i + k + 1} in {s!r}")
        tiles, flowers = _parse_any(rest, i, s)
    else:
        tiles, flowers = _parse_any(s, 0, s)
    tiles = tuple(tiles)
    _validate_counts(melds, tiles)
    return melds, tiles, len(flowers)


def _counts_of(x):
    if "[" in x or "]" in x:
        raise _Err(f"melds in brackets in {x!r}: mjfast.to_counts or parse_hand reads them")
    tiles, _ = _parse_any(x)
    c = [0] * N_TILES
    for t in tiles:
        c[t] += 1
    for t in range(N_TILES):
        if c[t] > 4:
            raise _Err(f"fifth copy of {TILE_NAMES[t]}: {c[t]} copies, at most 4 exist")
    return c


def _parse_tiles(s):
    tiles, flowers = _parse_any(s)
    if flowers:
        raise _Err(f"flower {flowers[0]!r} in {s!r} is not a tile; use parse_hand to count flowers")
    return tiles


def _wrap(fn, s):
    try:
        return ("ok", fn(s))
    except _Err as e:
        return ("err", str(e))


def parse_hand(s):
    return _wrap(_parse_hand, s)


def parse_tiles(s):
    return _wrap(_parse_tiles, s)


def counts_of(s):
    return _wrap(_counts_of, s)


def to_counts(s):
    """mjfast.to_counts on a string: the concealed counts."""
    if "[" in s or "]" in s:
        r = parse_hand(s)
        if r[0] == "err":
            return r
        c = [0] * N_TILES
        for t in r[1][1]:
            c[t] += 1
        return ("ok", c)
    return counts_of(s)
