"""The compiled engine is pinned to the fan table, and its fast paths agree
with the general ones."""

import mjfast
from mjfast import _core
from mjfast.hand import format_hand, parse_hand

from handgen import random_winning_records


def test_compiled_fan_ids_follow_the_table():
    # the kernel's fan constants are the table's ids: one list, checked here
    assert _core.FAN_KEYS_COMPILED[1:] == tuple(f.key for f in mjfast.MCR)
    assert [f.id for f in mjfast.MCR] == list(range(1, len(mjfast.MCR) + 1))


def _kw(rec):
    return {k: v for k, v in rec.items() if k not in ("hand", "id")}


def test_fast_string_path_equals_hand_object_path():
    # score(str) uses the compiled parser; score(Hand) the Python one
    for rec in random_winning_records(1500, seed=4242):
        a = mjfast.score(rec["hand"], **_kw(rec))
        b = mjfast.score(parse_hand(rec["hand"]), **_kw(rec))
        assert a.total == b.total
        assert [(f.name, f.count) for f in a.fans] == [(f.name, f.count) for f in b.fans]
        assert a.decomposition == b.decomposition and a.form == b.form


def test_fast_parser_accepts_exactly_what_the_python_parser_accepts():
    odd = ["[567m]123p456p789s5s5s", "[5555m]123p456p789s1s1s", "[EEEE6]123p456p789s1s1s",
           " 123m 456m 789m 123p 5p 5p ", "[57m6]123p456p789s5s5s", "[EEEE4]123p456p789s1s1s",
           "[EEE]1230p456p789s5s5s", "123m456m789m123p5p", "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B5 B5",
           "[123m][123m][123m][123m][123m]5p5p", "11111m456m789m123p"]
    for s in odd:
        try:
            py = mjfast.score(parse_hand(s))
            py_err = None
        except ValueError as exc:
            py, py_err = None, type(exc)
        try:
            fast = mjfast.score(s)
            fast_err = None
        except ValueError as exc:
            fast, fast_err = None, type(exc)
        assert fast_err == py_err, s
        if py is not None:
            assert fast.total == py.total, s


def test_core_string_fast_path_matches_counts():
    for rec in random_winning_records(500, seed=99):
        h = parse_hand(rec["hand"])
        assert mjfast.shanten(rec["hand"]) == mjfast.shanten(h.counts.copy(), melds=len(h.melds)) == -1
        ready = format_hand(type(h)(h.melds, h.tiles[:-1], 0)) if h.tiles[:-1] else None
        if ready:
            assert h.win_tile in mjfast.waits(ready) or h.all_counts[h.win_tile] == 4


def test_decompositions_cover_is_win():
    for rec in random_winning_records(300, seed=5):
        h = parse_hand(rec["hand"])
        c = h.counts.copy()
        assert mjfast.is_win(c, melds=len(h.melds))
        assert mjfast.decompose(c, melds=len(h.melds))
    assert mjfast.decompose("123m456m789m123p5p6p") == []
