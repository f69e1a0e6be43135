#!/usr/bin/env python3
"""Fuzz the notation parser (compiled; its messages worded in mjfast.tiles),
every public function that takes a hand string.

    python fuzz/fuzz_notation.py fuzz/corpus/notation -max_total_time=3600

Invariants checked on every input (not just "no crash"):

* ``parse_hand`` either returns a Hand or raises ``InvalidHand``; a parsed
  hand has at most 14 tiles (3 per meld) and at most 4 copies of a tile.
* printing and parsing again gives the same hand (compact notation; Botzone
  codes too for a hand without melds), and printing is canonical.
* the compiled entry points (``parse_counts_fast`` / ``parse_rows_fast``) accept
  only strings ``parse_hand`` accepts, with the same counts, melds and
  winning tile.
* ``to_counts``, ``score``, ``is_win``, ``waits``, ``shanten`` given the
  string agree with the same call given the parsed Hand (same result or the
  same exception class), and only raise ``InvalidHand`` / ``NotWinning`` /
  ``ValueError``.
"""
from __future__ import annotations

import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
# the harness helpers, then this checkout's mjfast (ahead of an installed copy)
sys.path[:0] = [_HERE, os.path.dirname(_HERE)]
from _bytes import Bytes, fuzz_main  # noqa: E402

# The notation's own characters, then troublemakers: '0', Botzone letters,
# other whitespace (tab, ideographic space), a Chinese tile name, a stray letter.
ALPHABET = "123456789mpsESWNCFP[] " + "0BTJHx\t\u3000万" + "1m23p[]"


def text_from(data: bytes) -> str:
    """Input bytes -> a string: mostly over the notation alphabet (so that
    mutations stay near valid hands), sometimes the bytes as UTF-8."""
    if not data:
        return ""
    if data[0] % 8 == 0:
        return data[1:].decode("utf-8", "replace")
    return "".join(ALPHABET[b % len(ALPHABET)] for b in data[1:])


def encode(s: str) -> bytes:
    """A seed input that decodes (text_from) to ``s``."""
    return bytes([1]) + bytes(ALPHABET.index(ch) for ch in s)


def _outcome(fn, *args, **kw):
    """('ok', value) or ('err', exception class); anything but the library's
    documented exceptions propagates (a harness failure)."""
    from mjfast import InvalidHand, NotWinning

    try:
        return ("ok", fn(*args, **kw))
    except (InvalidHand, NotWinning) as exc:
        assert str(exc), "an exception without a message"
        return ("err", type(exc))
    except ValueError as exc:  # e.g. a form that cannot apply
        assert str(exc)
        return ("err", ValueError)


def _score_key(r):
    if r[0] == "err":
        return r
    s = r[1]
    return ("ok", s.total, [(f.key, f.count) for f in s.fans], s.form, s.decomposition)


def check_string(s: str) -> None:
    import mjfast
    from mjfast import InvalidHand, _core
    from mjfast.batch import _parse_hands
    from mjfast.hand import Hand, format_hand, parse_hand

    try:
        h = parse_hand(s)
    except InvalidHand as exc:
        assert str(exc)
        h = None

    if h is not None:
        assert h.n_tiles <= 14 and len(h.melds) <= 4
        assert int(h.all_counts.max(initial=0)) <= 4
        assert int(h.counts.sum()) == len(h.tiles)
        text = format_hand(h)
        h2 = parse_hand(text)
        assert h2 == Hand(h.melds, h.tiles, 0), (s, text)
        assert format_hand(h2) == text, (s, text)
        if not h.melds:
            assert parse_hand(format_hand(h, "botzone")) == h, s
        if "[" not in s:
            assert (mjfast.to_counts(s) == h.counts).all(), s

    # the compiled parser of core.py's string path
    counts = np.full(34, 99, np.uint8)
    full = np.full(34, 99, np.uint8)
    k = _core.parse_counts_fast(s, counts, full)
    if k >= 0:
        assert h is not None, f"fast parser accepted {s!r}, the Python parser rejects it"
        assert k == len(h.melds), s
        assert (counts == h.counts).all() and (full == h.all_counts).all(), s

    # the compiled parser of the batch path (winning hands only)
    cols, ok = _parse_hands([s])
    if ok[0]:
        assert h is not None and h.n_tiles == 14, s
        assert (cols["counts"][0] == h.counts).all(), s
        assert cols["n_melds"][0] == len(h.melds) and cols["win_tile"][0] == h.win_tile, s
        got = sorted(tuple(int(x) for x in cols["melds"][0, j]) for j in range(len(h.melds)))
        want = sorted(({"chow": 0, "pung": 1, "kong": 2}[m.kind], m.tile, 0 if m.concealed else 1)
                      for m in h.melds)
        assert got == want, s

    # string and Hand give the same answers
    a = _outcome(mjfast.score, s)
    if h is None:
        assert a[0] == "err" and a[1] is InvalidHand, (s, a)
        for fn in (mjfast.is_win, mjfast.waits, mjfast.shanten):
            assert _outcome(fn, s) == ("err", InvalidHand), (fn.__name__, s)
        return
    b = _outcome(mjfast.score, h)
    assert _score_key(a) == _score_key(b), (s, a, b)
    if a[0] == "ok":
        sc = a[1]
        assert sc.total == sum(f.points * f.count for f in sc.fans), s
        assert sc.is_legal_win == (sc.total - sc.flowers >= 8)
    for fn in (mjfast.is_win, mjfast.waits, mjfast.shanten):
        x, y = _outcome(fn, s), _outcome(fn, h)
        assert x == y, (fn.__name__, s, x, y)
    if h.n_tiles == 14:
        w = _outcome(mjfast.is_win, h)
        if a[0] == "ok":
            assert w == ("ok", True), s
        elif a[1] is mjfast.NotWinning:
            assert w == ("ok", False), s


def check(data: bytes) -> None:
    check_string(text_from(data))


def seeds():
    """Seed inputs: generated winning hands, their ready parts, odd strings."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "tests"))
    from handgen import random_winning_records

    out = []
    for rec in random_winning_records(300, seed=1):
        out.append(encode(rec["hand"]))
        out.append(encode(rec["hand"][:-2]))
    for s in ("[EEEE5]123p456p789s1s1s", " 123m 456m 789m 123p 5p 5p ", "W1 W2 W3 B5 T9 F1 J3 H1",
              "1111m", "[567m2][EEE1]45m678pFF6m"):
        out.append(encode(s) if all(ch in ALPHABET for ch in s) else b"\x00" + s.encode())
    return out


def main():
    fuzz_main(check)


if __name__ == "__main__":
    main()
