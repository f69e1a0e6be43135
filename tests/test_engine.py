"""The compiled engine is pinned to the fan table, and its fast paths agree
with the general ones."""

import numpy as np

import mjfast
from mjfast import _core, _fans
from mjfast.hand import format_hand, parse_hand

from handgen import random_winning_records


def test_compiled_fan_ids_follow_the_table():
    # the kernel's fan constants are the table's ids: one list, checked here
    assert _fans.FAN_KEYS_COMPILED[1:] == tuple(f.key for f in mjfast.MCR)
    assert [f.id for f in mjfast.MCR] == list(range(1, len(mjfast.MCR) + 1))


def test_engine_registry_names_each_engine_with_its_table():
    # src/fankernel/registry.pxd numbers the compiled engines; ENGINES maps a
    # name to (id, fan keys by id) and must follow the tables in mjfast/rules/
    from mjfast.rules.two_player.table import TWO_PLAYER_TABLE
    assert sorted(_fans.ENGINES) == ["mcr", "two_player"]
    ids = [engine_id for engine_id, _ in _fans.ENGINES.values()]
    assert sorted(ids) == list(range(len(ids)))
    assert _fans.ENGINES["mcr"][1][1:] == tuple(f.key for f in mjfast.MCR)
    assert _fans.ENGINES["two_player"][1][1:] == TWO_PLAYER_TABLE.keys


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


def _corpus(n=2500, seed=31):
    """Generated hand strings and near misses: winning hands, their ready
    parts, Botzone spellings, spaced spellings and 1-3 random edits over the
    notation's characters (a seeded mix of valid and invalid strings)."""
    import random

    rng = random.Random(seed)
    alphabet = "123456789mpsESWNCFP[] 0BTJH\t"
    out = []
    for rec in random_winning_records(n, seed=seed):
        s = rec["hand"]
        h = parse_hand(s)
        out.append(s)
        out.append(s[:-2] if s[-1] in "mps" else s[:-1])
        if not h.melds:
            out.append(format_hand(h, "botzone"))
        out.append(" ".join(s.replace("]", "] ").split()))
        for _ in range(2):
            t = list(s)
            for _ in range(rng.randint(1, 3)):
                k = rng.randrange(len(t) + 1)
                op = rng.random()
                if op < 0.4 and k < len(t):
                    t[k] = rng.choice(alphabet)
                elif op < 0.7:
                    t.insert(k, rng.choice(alphabet))
                elif k < len(t):
                    del t[k]
            out.append("".join(t))
    return out


def test_fast_and_python_parsers_agree_on_a_generated_corpus():
    from mjfast.batch import _parse_hands

    corpus = _corpus()
    cols, ok = _parse_hands(corpus)
    counts = np.empty(34, np.uint8)
    full = np.empty(34, np.uint8)
    n_fast = n_py = n_both14 = 0
    for i, s in enumerate(corpus):
        try:
            h = parse_hand(s)
        except mjfast.InvalidHand:
            h = None
        n_py += h is not None
        k = _core.parse_counts_fast(s, counts, full)
        if k >= 0:
            n_fast += 1
            assert h is not None, f"the fast parser accepts {s!r}, the Python parser does not"
            assert k == len(h.melds) and (counts == h.counts).all() and (full == h.all_counts).all(), s
        if ok[i]:
            n_both14 += 1
            assert h is not None and h.n_tiles == 14, s
            assert (cols["counts"][i] == h.counts).all() and cols["win_tile"][i] == h.win_tile, s
            got = sorted(tuple(int(x) for x in cols["melds"][i, j]) for j in range(int(cols["n_melds"][i])))
            want = sorted(({"chow": 0, "pung": 1, "kong": 2}[m.kind], m.tile, int(not m.concealed))
                          for m in h.melds)
            assert got == want, s
        # the string path and the Hand path answer alike
        if h is not None and h.n_tiles == 14:
            try:
                a = mjfast.score(s)
                a = (a.total, [(f.key, f.count) for f in a.fans])
            except ValueError as exc:
                a = type(exc)
            try:
                b = mjfast.score(h)
                b = (b.total, [(f.key, f.count) for f in b.fans])
            except ValueError as exc:
                b = type(exc)
            assert a == b, s
    # the corpus exercises both parsers: most valid strings take the fast path
    assert len(corpus) > 10000
    assert n_fast > 0.5 * n_py and n_both14 > 2000, (n_fast, n_py, n_both14)
    assert n_py < len(corpus) - 1000            # and plenty of strings are invalid
