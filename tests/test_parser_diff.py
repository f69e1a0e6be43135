"""The notation parser against the Python parser it replaced
(tests/parser_reference.py): the same result AND the same message on valid
hands in every notation and on mutations of them (tests/parser_fuzz.py).

The CI run takes a few thousand strings; the slow one (run by hand:
``pytest -m slow tests/test_parser_diff.py``) 300,000."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import InvalidHand, tiles as _tiles
from mjfast.batch import HandBatch

import parser_fuzz
import parser_reference as ref


def _ours(fn, s):
    try:
        return ("ok", fn(s))
    except InvalidHand as e:
        return ("err", str(e))


def _hand(s):
    h = mjfast.parse_hand(s)
    return (tuple((m.kind, m.tile, m.concealed, m.claimed, m.added) for m in h.melds), h.tiles, h.flowers)


def _check(strings):
    bad = []
    for s in strings:
        want = ref.parse_hand(s)
        got = _ours(_hand, s)
        if got != want:
            bad.append(("parse_hand", s, want, got))
            continue
        if got[0] == "ok":
            h = mjfast.parse_hand(s)
            c = [0] * 34
            for t in h.tiles:
                c[t] += 1
            assert h.counts.tolist() == c, s
        for name, fn, rfn in (("parse_tiles", mjfast.parse_tiles, ref.parse_tiles),
                              ("_counts_of", lambda x: _tiles.counts_of(x).tolist(), ref.counts_of),
                              ("to_counts", lambda x: mjfast.to_counts(x).tolist(), ref.to_counts)):
            want2 = rfn(s)
            got2 = _ours(fn, s)
            if got2 != want2:
                bad.append((name, s, want2, got2))
    assert not bad, "\n".join(map(repr, bad[:20])) + f"\n({len(bad)} differences)"


def _check_batch(strings):
    """HandBatch.from_strings: the rows the reference reads as 14-tile hands
    have its melds, counts and winning tile; the others are invalid, with the
    reference's message when the string does not parse."""
    b = HandBatch.from_strings(strings)
    kinds = {"chow": 0, "pung": 1, "kong": 2}
    for i, s in enumerate(strings):
        r = ref.parse_hand(s)
        if r[0] == "err":
            assert b.invalid[i], s
            assert b.messages[i] == r[1], s
            continue
        melds, tiles, flowers = r[1]
        if 3 * len(melds) + len(tiles) != 14:
            assert b.invalid[i], s
            continue
        assert not b.invalid[i], (s, b.messages.get(i))
        c = np.bincount(np.asarray(tiles, np.int64), minlength=34)
        assert b.counts[i].tolist() == c.tolist(), s
        assert int(b.n_melds[i]) == len(melds), s
        for j, m in enumerate(melds):
            assert b.melds[i, j].tolist() == [kinds[m[0]], m[1], 0 if m[2] else 1], s
        assert int(b.win_tile[i]) == tiles[-1], s
        assert int(b.flowers[i]) == flowers, s


def test_fixed_strings_match_the_reference():
    _check(parser_fuzz.FIXED)
    _check_batch(parser_fuzz.FIXED)


def test_fuzzed_strings_match_the_reference():
    ss = parser_fuzz.strings(3000, seed=1)
    _check(ss)
    _check_batch(ss)


def test_the_fuzz_reaches_both_outcomes():
    # a generator that only made valid (or only broken) strings would test little
    ss = parser_fuzz.strings(2000, seed=2)
    res = [ref.parse_hand(s) for s in ss]
    ok = sum(r[0] == "ok" for r in res)
    assert 300 < ok < 1700
    msgs = {r[1].split(" ")[0] for r in res if r[0] == "err"}
    assert {"meld", "unknown", "digits", "unclosed", "too", "fifth"} <= msgs


@pytest.mark.slow
def test_many_fuzzed_strings_match_the_reference():
    for seed in range(10, 40):
        ss = parser_fuzz.strings(10000, seed=seed)
        _check(ss)
        _check_batch(ss)
