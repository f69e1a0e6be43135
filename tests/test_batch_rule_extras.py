"""Batch rows with wildcards and the flags of old Shanghai and Guizhou:
HandBatch's ``wildcards`` column and the ``wild_win`` / ``declared_ready`` /
``discard_after_kong`` bits of ``rule_flags``.

Differential: generated records (tests/handgen.py hands, some of their
concealed tiles taken away and replaced by as many wildcards, random flags)
are scored by ``score_batch`` and one by one by ``mjfast.score`` with the
same fields as keywords; every row must agree (total, fan counts, legal,
error code, ignored flags, substitutions).
"""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import mjfast
from mjfast import HandBatch, score_batch
from mjfast import rules as R
from mjfast.batch import ERR_INVALID, ERR_NOT_WINNING, ERR_OK, RULE_FLAG_BITS
from mjfast.errors import InvalidHand, NotWinning
from mjfast.hand import Hand, parse_hand
from mjfast.tiles import TILE_NAMES

from handgen import random_winning_records

NEW_FLAGS = ("wild_win", "declared_ready", "discard_after_kong")


def _with_wildcards(rec, k, rng):
    """The record with k of its concealed tiles (never the winning tile)
    replaced by k wildcards."""
    h = parse_hand(rec["hand"])
    tiles = list(h.tiles)
    rest = tiles[:-1]
    rng.shuffle(rest)
    out = dict(rec, hand=Hand(h.melds, tuple(sorted(rest[k:])) + (tiles[-1],), h.flowers).format("compact"))
    out["wildcards"] = k
    return out


def _records(rs, n, seed, max_k=2, flowers=8):
    """n records for rule set rs: hands of tiles it plays, random wildcards
    (0 about half the time), random extra flags."""
    rng = random.Random(seed)
    allowed = set(rs.tiles)
    out = []
    pool = random_winning_records(40 * n, seed=seed)
    for rec in pool:
        h = parse_hand(rec["hand"])
        if any(c and t not in allowed for t, c in enumerate(h.all_counts)):
            continue
        rec = dict(rec, flowers=min(rec["flowers"], flowers))
        k = rng.choice([0, 0, 0] + list(range(1, max_k + 1)))
        if rng.random() < 0.9:      # (else a count the hand cannot take: a bad row on both sides)
            k = min(k, len(h.tiles) - 1)
        if k:
            rec = _with_wildcards(rec, k, rng)
        elif rng.random() < 0.3:
            # wild kinds: one the hand holds once or twice (or none of)
            few = [t for t, c in enumerate(h.counts) if 0 < c <= 2] or [0]
            rec["wildcard_tiles"] = [TILE_NAMES[rng.choice(few)]] if rng.random() < 0.9 else [rng.randrange(34)]
        for name in NEW_FLAGS + ("heavenly_hand",):
            if rng.random() < 0.25:
                rec[name] = True
        if rng.random() < 0.1:
            rec["wildcards"] = 0            # explicit 0: no wildcards, as absent
        out.append(rec)
        if len(out) == n:
            break
    assert len(out) == n
    return out


_CONTEXT = ("self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind", "flowers")


def _oracle(rec, rules, strict=False):
    """(error code, total, {fan key: count}, legal, ignored_flags, substitutions) of mjfast.score."""
    kw = {k: rec[k] for k in _CONTEXT if k in rec}
    kw.update({k: rec[k] for k in tuple(RULE_FLAG_BITS) if rec.get(k)})
    if rec.get("wildcards"):
        kw["wildcards"] = rec["wildcards"]
    if rec.get("wildcard_tiles") is not None:
        kw["wildcard_tiles"] = rec["wildcard_tiles"]
    try:
        s = mjfast.score(rec["hand"], rules=rules, strict=strict, **kw)
    except NotWinning:
        return (ERR_NOT_WINNING,)
    except (InvalidHand, TypeError, ValueError):
        return (ERR_INVALID,)
    subs = getattr(s, "substitutions", None)
    return (ERR_OK, s.total, {f.key: f.count for f in s.fans}, bool(s.is_legal_win), dict(s.ignored_flags),
            None if subs is None else tuple(subs))


def _row(res, i):
    code = int(res.errors[i])
    if code:
        return (code,)
    keys = res.table.keys
    fans = {keys[j]: int(res.fan_counts[i, j]) for j in np.flatnonzero(res.fan_counts[i])}
    subs = res.substitutions.get(i)
    return (code, int(res.totals[i]), fans, bool(res.legal[i]), res.ignored_flags(i),
            None if subs is None else tuple(subs))


def _check(records, rules, strict=False):
    res = score_batch(HandBatch.from_records(records, rules=rules), strict=strict)
    got = [_row(res, i) for i in range(len(records))]
    want = [_oracle(r, rules, strict) for r in records]
    bad = [(i, records[i], g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not bad, bad[:3]
    return res, got


RULES = [("mcr", 2, 8), ("dazhong", 1, 8), ("two_player", 1, 8), ("shanghai_old", 2, 4), ("zhuji", 2, 0),
         ("guizhou", 1, 0)]


@pytest.mark.parametrize("name, max_k, flowers", RULES)
def test_batch_rows_with_wildcards_and_flags_score_as_score_does(name, max_k, flowers):
    rs = R.get(name)
    records = _records(rs, 250, seed=sum(map(ord, name)), max_k=max_k, flowers=flowers)
    res, got = _check(records, rs)
    # the fields were read: rows with wildcards were scored with them
    wild = [i for i, r in enumerate(records) if r.get("wildcards") or r.get("wildcard_tiles")]
    assert wild and any(records[i].get("wildcard_tiles") for i in wild)
    if name != "guizhou":
        assert any(got[i][0] == ERR_OK for i in wild)
        assert all(i in res.substitutions for i in wild if got[i][0] == ERR_OK and records[i].get("wildcards"))
        # (with wildcard_tiles, a hand holding none of the kinds may have none: as score() says)
        assert any(i in res.substitutions for i in wild if records[i].get("wildcard_tiles"))
    else:       # Guizhou plays no wildcards: every such row says so
        assert all("wildcards: rule set 'guizhou' plays no wildcards" in res.error_message(i) for i in wild)
    assert not [i for i in res.substitutions if i not in wild]


@pytest.mark.parametrize("name", ["mcr", "two_player", "shanghai_old", "zhuji", "guizhou"])
def test_strict_rows_with_unused_flags_are_errors_as_in_score(name):
    rs = R.get(name)
    records = _records(rs, 120, seed=7, max_k=1, flowers=0 if name in ("zhuji", "guizhou") else 4)
    _check(records, rs, strict=True)


def test_flags_reach_the_rule_sets_that_read_them():
    # 扣听 (old Shanghai): 3 番 more, as score() gives
    hand = "123m456m789m123p5p5p"
    res = score_batch(HandBatch.from_records([{"hand": hand}, {"hand": hand, "declared_ready": True}],
                                             rules="shanghai_old"))
    assert "declared_ready" in res.fan_keys
    j = list(res.fan_keys).index("declared_ready")
    assert list(res.fan_counts[:, j]) == [0, 1]
    assert res.totals[1] == mjfast.score(hand, rules="shanghai_old", declared_ready=True).total > res.totals[0]
    # 百搭 as the winning tile (old Shanghai): the winning tile is any the wildcard stands for
    rec = {"hand": "[123m1][456p1][789s1][EEE1]5s", "wildcards": 1, "wild_win": True, "seat_wind": "S"}
    res = score_batch(HandBatch.from_records([rec], rules="shanghai_old"))
    s = mjfast.score(rec["hand"], rules="shanghai_old", wildcards=1, wild_win=True, seat_wind="S")
    assert (res.totals[0], res.substitutions[0]) == (s.total, tuple(s.substitutions))
    # 热炮 (Guizhou): a win on the discard after a kong
    recs = [{"hand": "345m678p789s55s23m4m"}, {"hand": "345m678p789s55s23m4m", "discard_after_kong": True}]
    res = score_batch(HandBatch.from_records(recs, rules="guizhou"))
    for i, r in enumerate(recs):
        assert _row(res, i) == _oracle(r, "guizhou")
    # MCR has no use for them: reported, the row scored as without
    res = score_batch(HandBatch.from_records([{"hand": hand, "wild_win": True, "discard_after_kong": True}]))
    assert res.totals[0] == mjfast.score(hand).total
    assert set(res.ignored_flags(0)) == {"wild_win", "discard_after_kong"}
    assert res.ignored_flags(0)["wild_win"] == "ignored: rule set 'mcr' has no fan that uses it"
    res = score_batch(HandBatch.from_records([{"hand": hand, "declared_ready": True}]), strict=True)
    assert res.errors[0] == ERR_INVALID and "declared_ready" in res.error_message(0)


def test_zhuji_jokers_beside_its_own_wild_kinds_are_refused_as_score_does():
    rs = R.get("zhuji", wildcards="5p")
    rec = {"hand": "123m456m789m123s9s", "wildcards": 1, "self_drawn": True}
    res = score_batch(HandBatch.from_records([rec], rules=rs))
    assert _row(res, 0) == _oracle(rec, rs) == (ERR_INVALID,)
    with pytest.raises(InvalidHand) as exc:
        mjfast.score(rec["hand"], rules=rs, wildcards=1, self_drawn=True)
    assert res.error_message(0) == str(exc.value)


BAD = [("wildcards", -1, "wildcards must be 0..8, got -1"),
       ("wildcards", 99, "wildcards must be 0..8, got 99"),
       ("wildcards", "x", 'wildcards must be an int 0..8, got "x"'),
       ("wildcards", True, "wildcards must be an int 0..8, got true"),
       ("wildcards", 1.5, "wildcards must be an int 0..8, got 1.5"),
       ("wild_win", 1, "wild_win must be true or false (a bool), got 1"),
       ("declared_ready", "yes", 'declared_ready must be true or false (a bool), got "yes"'),
       ("discard_after_kong", 0, "discard_after_kong must be true or false (a bool), got 0")]


@pytest.mark.parametrize("key, value, message", BAD)
def test_bad_values_are_bad_records_naming_the_field(key, value, message):
    good = {"hand": "123m456m789m123p5p5p", "self_drawn": True}
    records = [good, dict(good, **{key: value}), {"hand": "123m456m789m123p5p", "wildcards": 1}]
    for rules in ("mcr", "shanghai_old"):
        res = score_batch(HandBatch.from_records(records, rules=rules))
        assert list(res.errors) == [ERR_OK, ERR_INVALID, ERR_OK]
        assert res.error_message(1) == message
        assert res.totals[0] == mjfast.score(good["hand"], rules=rules, self_drawn=True).total
        assert res.totals[2] == mjfast.score("123m456m789m123p5p", rules=rules, wildcards=1).total
    # the JSON-lines reader (and so `mjfast score --jsonl`) says the same, with the line
    lines = [json.dumps(r).encode() for r in records]
    (batch,) = HandBatch.from_lines(lines)
    assert list(batch.invalid) == [False, True, False]
    assert batch.messages[1] == message
    assert list(batch.wildcards) == [0, 0, 1]


def test_a_wildcard_count_that_does_not_make_14_tiles_is_a_bad_record():
    records = [{"hand": "123m456m789m123p5p", "wildcards": 1},       # 13 + 1 = 14: fine
               {"hand": "123m456m789m123p5p", "wildcards": 3},
               {"hand": "123m456m789m123p5p5p", "wildcards": 1},
               {"hand": "[123m1][456p1][789s1][EEE1]", "wildcards": 2, "wild_win": True}]
    b = HandBatch.from_records(records, rules="shanghai_old")
    assert list(b.invalid) == [False, True, True, True]
    assert b.messages[1] == ("a winning hand has 14 tiles counting 3 per meld; got 13 real concealed"
                             " + 3 wildcards + 0 melds = 16")
    assert "14 tiles" in b.messages[2] and "+ 1 wildcards" in b.messages[2]
    # four melds and two 百搭: score() takes it, a batch row has no winning tile to hold
    assert "mjfast.score" in b.messages[3]


def test_records_without_the_fields_are_unchanged():
    records = random_winning_records(300, seed=11)
    b = HandBatch.from_records(records)
    assert not b.wildcards.any() and not b.rule_flags.any()
    res = score_batch(b)
    assert not res.substitutions
    for i in range(0, 300, 17):
        r = records[i]
        assert res.totals[i] == mjfast.score(r["hand"], **{k: r[k] for k in _CONTEXT}).total


def test_jsonl_lines_read_the_same_columns_as_dicts():
    rs = R.get("shanghai_old")
    records = _records(rs, 150, seed=5, flowers=4)
    lines = [json.dumps(r).encode() + b"\n" for r in records]
    a = HandBatch.from_records(records, rules=rs)
    (b,) = HandBatch.from_lines(lines, rules=rs)
    for col in ("counts", "melds", "n_melds", "win_tile", "flags", "seat", "round", "flowers", "rule_flags",
                "wildcards", "invalid"):
        assert np.array_equal(getattr(a, col), getattr(b, col)), col
    ra, rb = score_batch(a), score_batch(b)
    assert [ra.record(i) | {"line": None} for i in range(len(records))] == \
        [rb.record(i) | {"line": None} for i in range(len(records))]


def test_process_jsonl_writes_substitutions_and_flags():
    from mjfast.io.jsonl import process_jsonl
    lines = [json.dumps({"hand": "123m456m789m123p5p", "wildcards": 1, "self_drawn": True}).encode(),
             json.dumps({"hand": "123m456m789m123p5p5p", "declared_ready": True}).encode()]
    out = []
    n, errors = process_jsonl(lines, out.append)
    rows = [json.loads(line) for chunk in out for line in chunk.splitlines() if line.strip()]
    assert (n, errors) == (2, 0)
    assert rows[0]["total"] == mjfast.score("123m456m789m123p5p", wildcards=1, self_drawn=True).total
    assert rows[0]["substitutions"] == ["5p"]
    assert rows[1]["ignored_flags"] == {"declared_ready": "ignored: rule set 'mcr' has no fan that uses it"}


def test_array_input_takes_a_wildcards_column():
    hands = ["123m456m789m123p5p", "123m456m789m123p5p5p", "123m456m789m12p5p", "123m456m789m123p5p"]
    n = len(hands)
    counts = np.array([parse_hand(h).counts for h in hands], np.uint8)
    win = [parse_hand(h).win_tile for h in hands]
    b = HandBatch(counts, np.zeros((n, 4, 3), np.uint8), np.zeros(n, np.uint8), win, 0, 0, 0, 0,
                  wildcards=[1, 0, 1, 9])
    assert list(b.invalid) == [False, False, True, True]
    assert "14 tiles" in b.messages[2]          # 12 real + 1 wildcard
    assert b.messages[3] == "wildcards must be 0..8, got 9"
    res = score_batch(b)
    assert res.totals[0] == mjfast.score(hands[0], wildcards=1).total
    assert res.substitutions == {0: (13,)}
    # a column of the wrong type is refused by name
    b.wildcards = np.zeros(3, np.uint8)
    with pytest.raises(InvalidHand, match="batch.wildcards"):
        score_batch(b)


def test_two_player_score_with_wildcards_has_substitutions():
    # (score() under two_player with wildcards went through the MCR wildcard
    # search and failed on the result; the batch rows use the same call)
    s = mjfast.score("123m456m789m123m5m", rules="two_player", wildcards=1, self_drawn=True)
    assert s.substitutions == (4,)
    res = score_batch(HandBatch.from_records([{"hand": "123m456m789m123m5m", "wildcards": 1, "self_drawn": True}],
                                             rules="two_player"))
    assert (res.totals[0], res.substitutions[0]) == (s.total, (4,))


def test_a_record_with_the_new_fields_names_its_rule_set():
    # such records are handed to Python by the compiled reader before it
    # counts "rules": the batch still takes the rule set they name
    recs = [{"hand": "123m456p789sEE3m", "wildcards": 2, "rules": "shanghai_old"},
            {"hand": "123m456m789m123p5p5p", "declared_ready": True, "rules": "shanghai_old"}]
    b = HandBatch.from_records(recs)
    assert b.rules.name == "shanghai_old"
    res = score_batch(b)
    assert res.totals[0] == mjfast.score(recs[0]["hand"], rules="shanghai_old", wildcards=2).total
    assert res.totals[1] == mjfast.score(recs[1]["hand"], rules="shanghai_old", declared_ready=True).total
    # and the JSON-lines scorer groups them by it
    from mjfast.io.jsonl import process_jsonl
    lines = [json.dumps(r).encode() for r in recs + [{"hand": "345m678p789s55s23m4m", "discard_after_kong": True,
                                                      "rules": "guizhou"}]]
    out = []
    process_jsonl(lines, out.append)
    rows = [json.loads(line) for chunk in out for line in chunk.splitlines() if line.strip()]
    assert [r.get("rules") for r in rows] == ["shanghai_old", "shanghai_old", "guizhou"]
    assert [r["total"] for r in rows[:2]] == [int(t) for t in res.totals]
    assert rows[2]["total"] == mjfast.score("345m678p789s55s23m4m", rules="guizhou", discard_after_kong=True).total


@pytest.mark.parametrize("name", ["mcr", "two_player", "shanghai_old", "zhuji", "guizhou"])
def test_hostile_wildcards_and_rule_flags_columns_are_flagged_not_crashed(name):
    # any byte in the two columns, set after the batch was validated too:
    # every row is scored or an error with a message, never an exception
    rng = np.random.default_rng(len(name))
    recs = random_winning_records(200, seed=3)
    b = HandBatch.from_records(recs)
    n = len(b)
    b.wildcards[:] = rng.choice([0, 0, 1, 2, 9, 255], n)
    b.rule_flags[:] = rng.integers(0, 256, n)
    b.wild_kinds[:] = rng.choice(np.array([0, 0, 0, 1 << 13, 3 << 30, 1 << 34, (1 << 64) - 1], np.uint64), n)
    b.counts[rng.integers(0, n, 20), rng.integers(0, 34, 20)] = rng.integers(0, 6, 20)
    for strict in (False, True):
        res = score_batch(b, rules=name, strict=strict)
        assert len(res) == n
        for i in range(n):
            if res.errors[i]:
                assert res.totals[i] == -1 and res.error_message(i)
            else:
                assert res.totals[i] >= 0
        assert all(res.errors[i] == ERR_INVALID for i in np.flatnonzero(b.wildcards > 8))
        assert all(res.errors[i] == ERR_INVALID for i in np.flatnonzero((b.wild_kinds >> np.uint64(34)) != 0))
    # built from arrays with such values: rows flagged at once, by name
    c = HandBatch(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round, b.flowers,
                  wildcards=b.wildcards, rule_flags=b.rule_flags, wild_kinds=b.wild_kinds)
    for i in np.flatnonzero((b.wild_kinds >> np.uint64(34)) != 0):
        assert c.invalid[i]
    for i in np.flatnonzero(b.wildcards > 8):
        assert c.invalid[i]
    assert any("wildcards must be 0..8" in m for m in c.messages.values())


@pytest.mark.slow
@pytest.mark.parametrize("name, max_k, flowers", RULES)
def test_many_rows_with_wildcards_and_flags_score_as_score_does(name, max_k, flowers):
    # the differential above on 3,000 rows a rule set, up to three wildcards
    # (run by hand: python -m pytest -m slow tests/test_batch_rule_extras.py)
    rs = R.get(name)
    records = _records(rs, 3000, seed=1000 + len(name), max_k=max_k + 1, flowers=flowers)
    for strict in (False, True):
        _check(records, rs, strict=strict)


@pytest.mark.parametrize("value, message", [
    (["zz"], "wildcard_tiles: unknown tile 'zz'"),
    ([99], "wildcard_tiles: tile index 99 is outside 0..33"),
    ([], "wildcard_tiles must name at least one tile kind (absent or null: none)"),
    (True, "wildcard_tiles: a tile is an index 0..33 or a name like '5m', got true"),
    ([1.5], "wildcard_tiles: a tile is an index 0..33 or a name like '5m', got 1.5")])
def test_bad_wildcard_tiles_are_bad_records_naming_the_field(value, message):
    good = {"hand": "123m456m789m123p5p5p"}
    records = [good, dict(good, wildcard_tiles=value), dict(good, wildcard_tiles=["5p", "2m"])]
    res = score_batch(HandBatch.from_records(records))
    assert list(res.errors) == [ERR_OK, ERR_INVALID, ERR_OK]
    assert res.error_message(1) == message
    s = mjfast.score(good["hand"], wildcard_tiles=["5p", "2m"])
    assert (res.totals[2], res.substitutions[2]) == (s.total, s.substitutions)


def test_wildcard_tiles_beside_a_wildcard_count():
    h = "123m456m789m123p5p"
    res = score_batch(HandBatch.from_records([{"hand": h, "wildcards": 1, "wildcard_tiles": ["5p"]},
                                              {"hand": h + "5p", "wildcards": 0, "wildcard_tiles": ["5p"]}]))
    assert res.error_message(0) == "pass wildcards=k or wildcard_tiles=[...], not both"
    assert res.errors[1] == ERR_OK         # wildcards 0 is none, as absent
    assert res.totals[1] == mjfast.score(h + "5p", wildcard_tiles=["5p"]).total


def test_zhuji_rows_name_their_own_cai_shen():
    # a log of Zhuji games, each with its own 财神: one batch, a kind per row
    recs = [{"hand": "123m456m789m123s9s9s", "self_drawn": True, "wildcard_tiles": ["9s"]},
            {"hand": "123m456m789m123s9s9s", "self_drawn": True, "wildcard_tiles": ["1m"]},
            {"hand": "123m456m789m123s9s9s", "self_drawn": True}]
    res = score_batch(HandBatch.from_records(recs, rules="zhuji"))
    for i, r in enumerate(recs):
        assert _row(res, i) == _oracle(r, "zhuji")
    assert 0 in res.substitutions and 2 not in res.substitutions


def test_array_input_takes_a_wild_kinds_column():
    h = "123m456m789m123p5p5p"
    b0 = HandBatch.from_strings([h] * 4)
    b = HandBatch(b0.counts, b0.melds, b0.n_melds, b0.win_tile, b0.flags, b0.seat, b0.round, b0.flowers,
                  wild_kinds=np.array([1 << 13, 0, 1 << 40, 1 << 13], np.uint64), wildcards=[0, 0, 0, 1])
    assert list(b.invalid) == [False, False, True, True]
    assert "bits 0-33" in b.messages[2] and "not both" in b.messages[3]
    res = score_batch(b)
    s = mjfast.score(h, wildcard_tiles=["5p"])
    assert (res.totals[0], res.substitutions[0]) == (s.total, s.substitutions)
    assert 1 not in res.substitutions
    with pytest.raises(TypeError, match="wild_kinds"):
        HandBatch(b0.counts, b0.melds, b0.n_melds, b0.win_tile, b0.flags, b0.seat, b0.round, b0.flowers,
                  wild_kinds=np.zeros(4, np.float64))
