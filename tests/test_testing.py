"""mjfast.testing: the public generator of winning hands and hand records.

Every hand it makes wins (is_win, score), is the same for the same seed, and
for MCR scores as the reference calculator (PyMahjongGB) scores it.
"""
import json

import numpy as np
import pytest

import mjfast
import mjfast.testing as mt
from oracle import oracle_score

import handgen

CONTEXT = ("self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind", "flowers")


def _ctx(rec):
    return {k: v for k, v in rec.items() if k != "hand"}


def test_same_seed_same_records_other_seed_other_records():
    a = mt.winning_records(300, seed=11)
    assert a == mt.winning_records(300, seed=11)
    assert a[:100] == mt.winning_records(100, seed=11)          # a prefix of the longer run
    b = mt.winning_records(300, seed=12)
    assert sum(x["hand"] != y["hand"] for x, y in zip(a, b)) > 250
    assert list(mt.iter_winning_records(300, seed=11)) == a
    assert mt.winning_hands(300, seed=11) == [r["hand"] for r in a]


def test_every_mcr_record_wins_and_no_flag_is_dropped():
    recs = mt.winning_records(3000, seed=5)
    assert len(recs) == 3000
    for r in recs:
        assert set(r) == {"hand", *CONTEXT}
        assert mjfast.is_win(r["hand"]), r
        s = mjfast.score(r["hand"], strict=True, **_ctx(r))       # strict: a dropped flag would raise
        assert s.ignored_flags == {}
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs))
    assert not res.errors.any()
    # the mix is not trivial: some of each flag, melds, special forms
    for flag in ("self_drawn", "kong", "fourth_tile", "last_tile"):
        assert 0 < sum(r[flag] for r in recs) < 3000, flag
    assert 0.1 < np.mean([r["hand"].startswith("[") for r in recs]) < 0.9
    assert (res.totals < 8).any() and (res.totals >= 8).any()


def test_contradictions_keep_the_drawn_flags_and_the_default_clears_exactly_those():
    raw = mt.winning_records(3000, seed=6, contradictions=True)
    clean = mt.winning_records(3000, seed=6)
    assert [r["hand"] for r in raw] == [r["hand"] for r in clean]
    changed = 0
    for r, c in zip(raw, clean):
        dropped = mjfast.score(r["hand"], **_ctx(r)).ignored_flags
        if dropped:
            changed += 1
            assert set(dropped) <= {"kong", "fourth_tile"}
            assert all(r[k] is True and c[k] is False for k in dropped)
            assert all(c[k] == r[k] for k in c if k not in dropped) and set(c) == set(r)
        else:
            assert c == r
    assert 20 < changed < 200       # 1-2 % of the records


def test_the_tests_stream_is_the_public_one_with_contradictions():
    assert handgen.random_winning_records(500, seed=3) == mt.winning_records(500, seed=3, contradictions=True)


def test_mcr_records_score_as_the_reference_scores_them():
    recs = mt.winning_records(2000, seed=7)
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs))
    bad = []
    for i, r in enumerate(recs):
        total, _ = oracle_score(r)
        if total != int(res.totals[i]):
            bad.append((r, total, int(res.totals[i])))
    assert not bad, bad[:5]


@pytest.mark.parametrize("rules", [r for r in mjfast.rules.available() if r != "mcr"])
def test_records_under_another_rule_set_win_there_with_every_flag_used(rules):
    recs = mt.winning_records(60, seed=8, rules=rules)
    assert len(recs) == 60
    for r in recs:
        assert r["rules"] == rules
        assert mjfast.is_win(r["hand"], rules=rules), r
        s = mjfast.score(r["hand"], strict=True, **_ctx(r))
        assert s.ignored_flags == {}
    assert recs == mt.winning_records(60, seed=8, rules=mjfast.rules.get(rules))
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs))
    assert not res.errors.any()


def test_rules_mcr_is_the_plain_stream():
    assert mt.winning_records(50, seed=9, rules="mcr") == mt.winning_records(50, seed=9)


def test_hand_objects_are_the_parsed_hands():
    hands = mt.winning_hands(200, seed=4)
    objs = mt.winning_hand_objects(200, seed=4)
    assert all(isinstance(h, mjfast.Hand) for h in objs)
    assert [mjfast.format_hand(h) for h in objs] == [mjfast.format_hand(mjfast.parse_hand(h)) for h in hands]
    assert all(mjfast.score(h).total == mjfast.score(s).total for h, s in zip(objs[:50], hands))


def test_write_jsonl_writes_the_records_that_score_jsonl_reads(tmp_path):
    p = mt.write_jsonl(tmp_path / "hands.jsonl", 500, seed=10)
    with open(p, encoding="utf-8") as f:
        lines = [json.loads(x) for x in f]
    assert lines == mt.winning_records(500, seed=10)
    n = sum(len(b) for b in mjfast.HandBatch.from_jsonl(p))
    assert n == 500
    for b in mjfast.HandBatch.from_jsonl(p):
        assert not mjfast.score_batch(b).errors.any()


def test_random_hands_are_seeded_tile_sets():
    a = mt.random_hands(1000, 13, seed=1)
    assert a.shape == (1000, 34) and a.dtype == np.uint8
    assert (a.sum(axis=1) == 13).all() and a.max() <= 4
    assert np.array_equal(a, mt.random_hands(1000, 13, seed=1))
    assert not np.array_equal(a, mt.random_hands(1000, 13, seed=2))
    for bias in mt.BIASES:
        b = mt.random_hands(200, 14, seed=1, bias=bias)
        assert (b.sum(axis=1) == 14).all() and b.max() <= 4


@pytest.mark.parametrize("call", [
    lambda: mt.winning_records(-1),
    lambda: mt.winning_records(1.5),
    lambda: mt.winning_records(3, seed="x"),
    lambda: mt.winning_records(3, contradictions="yes"),
    lambda: mt.winning_records(3, rules="dazhong", contradictions=True),
    lambda: mt.winning_records(3, rules=mjfast.rules.get("mcr", min_points=0)),
    lambda: mt.random_hands(3, 140),
    lambda: mt.random_hands(3, 13, bias="nope"),
])
def test_bad_arguments_are_invalid_argument(call):
    with pytest.raises(mjfast.InvalidArgument):
        call()


def test_unknown_rules_name():
    with pytest.raises(mjfast.UnknownRules):
        mt.winning_records(3, rules="nosuch")
