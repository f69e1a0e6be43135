"""Zhuji's 财神 search (mjfast.rules.zhuji._best_substitution) against the
exhaustive one it replaces from 5 财神 on: every substitution under which
the hand wins (mjfast._wild.win_substitutions), each scored as a concrete
hand.  The search is forced on for every count of 财神 here (1-8), on
winning hands, hands that cannot win, hands with melds, one or two 财神
kinds and every option that changes what a set is worth."""
import random

import numpy as np
import pytest

import mjfast
from mjfast import _wild
from mjfast import rules as R
from mjfast.errors import NotWinning
from mjfast.hand import Hand
from mjfast.rules import zhuji
from mjfast.tiles import TILE_NAMES

from test_rules_zhuji import _random_wild_hand


def exhaustive(h, rs):
    """(best total, its substitutions) by scoring every winning substitution
    (the search before 5 财神, and the whole search before this test's commit);
    None when no substitution wins."""
    kinds = zhuji.wild_kinds(rs)
    real = np.array(h.counts, dtype=np.uint8)
    k = 0
    for t in kinds:
        k += int(real[t])
        real[t] = 0
    meld_copies = np.asarray(h.all_counts, dtype=np.int16) - np.asarray(h.counts, dtype=np.int16)
    caps = np.clip(4 - meld_copies, 0, 4).astype(np.uint8)
    plain = rs.with_options(wildcards=())
    best, subs = None, []
    for sub in _wild.win_substitutions(real, k, len(h.melds), -1, caps):
        s = np.frombuffer(sub, dtype=np.uint8)
        tiles = [t for t in range(34) for _ in range(int(real[t]) + int(s[t]))]
        try:
            tot = zhuji.score_zhuji(Hand(h.melds, tuple(tiles), 0), plain, self_drawn=True, held_wilds=k).total
        except NotWinning:
            continue
        if best is None or tot > best:
            best, subs = tot, [s]
        elif tot == best:
            subs.append(s)
    return best, subs


def _case(rng, n_wild, winning=True):
    if rng.random() < 0.5:
        kinds = [rng.randrange(34)]
    else:
        a = rng.randrange(3) * 9 + rng.randrange(8)
        kinds = [a, a + 1]
    opts = {"wildcards": tuple(TILE_NAMES[t] for t in kinds), "wild_adjacency": "any"}
    for name, values in (("special_mode", ("max8", "add8")), ("three_wilds", ("at_least", "exactly")),
                         ("no_wild", ("special", "plus_one")), ("all_honors_tai", (8, 7)),
                         ("special_min_tai", (3, 2, 5))):
        if rng.random() < 0.25:
            opts[name] = rng.choice(values)
    rs = R.get("zhuji", **opts)
    if n_wild > 4 * len(kinds):
        return None
    melds, tiles = _random_wild_hand(rng, kinds, n_wild, rng.random() < 0.3)
    if not winning:
        # one real tile swapped for a random other: mostly no longer a win
        real = [i for i, t in enumerate(tiles) if t not in kinds]
        if real:
            i = rng.choice(real)
            tiles[i] = rng.choice([t for t in range(34) if t not in kinds])
    h = Hand(tuple(melds), tuple(tiles), 0)
    if h.all_counts.max() > 4:
        return None
    return h, rs


def _check(rng, n_wild, n, winning=True):
    checked = 0
    while checked < n:
        got = _case(rng, n_wild, winning)
        if got is None:
            continue
        h, rs = got
        checked += 1
        want, subs = exhaustive(h, rs)
        try:
            s = mjfast.score(h, rules=rs, self_drawn=True, heavenly_hand=rng.random() < 0.1)
        except NotWinning:
            assert want is None, (str(h), rs.changed_options)
            continue
        if s.ignored_flags:        # heavenly_hand dropped (a meld): score it plainly
            s = mjfast.score(h, rules=rs, self_drawn=True)
        assert want is not None, (str(h), rs.changed_options)
        if "heavenly_hand" in s.items and s.total != want:
            continue               # the flag can only raise it; the exhaustive side scores without it
        assert s.total == want, (str(h), rs.changed_options, s.total, want)
        # the reported stand-ins are one of the best substitutions
        sub = np.zeros(34, np.uint8)
        for t in s.substitutions:
            sub[t] += 1
        assert any(np.array_equal(sub, x) for x in subs), (str(h), s.substitutions)


@pytest.fixture
def search_always(monkeypatch):
    monkeypatch.setattr(zhuji, "_SEARCH_FROM", 1)


@pytest.mark.parametrize("n_wild", [1, 2, 3, 4, 5, 6])
def test_search_equals_the_exhaustive_one(search_always, n_wild):
    rng = random.Random(500 + n_wild)
    _check(rng, n_wild, 25 if n_wild <= 4 else 8)
    _check(rng, n_wild, 10 if n_wild <= 4 else 4, winning=False)


# hands whose best reading needs sets or a pair made of 财神 alone, of a
# given suit or kind (a flush, a dragon or East pung, all pungs / all chows)
FIXED = [("123p456p789p111p5s5s", "5s"), ("123p456p789p1p5s5s5s5s", "5s"), ("CCCEP1p5s5s5s5s6s6s6s6s", "5s6s"),
         ("5s5s5s5s6s6s6s6sPP1p2p3pC", "5s6s"), ("1p1p2p3p4p5p5s5s5s5s6s6s9p9p", "5s6s"),
         ("EEE9p9p5s5s5s5s6s6s9p1m1m", "5s6s"), ("2m3m4m5s5s5s6s6s6s7m7m7mCC", "5s6s"), ("EEESSSWWWNNN5s5s", "5s"),
         ("CFP1m5s5s5s6s6s6s9m9mFF", "5s6s"), ("EEENNN5s5s5s6s6s6sWW", "5s6s")]
# 8 财神 (the exhaustive side scores thousands of substitutions: seconds each)
FIXED_8 = [("1p1p2p3p4p5p5s5s5s5s6s6s6s6s", "5s6s"), ("EEE9p9p5s5s5s5s6s6s6s6s9p", "5s6s"),
           ("2m3m4m5s5s5s5s6s6s6s6s7m7m7m", "5s6s"), ("CFP1m5s5s5s5s6s6s6s6s9m9m", "5s6s"),
           ("EEENNN5s5s5s5s6s6s6s6s", "5s6s")]


def _fixed(hand, kinds):
    rs = R.get("zhuji", wildcards=kinds)
    h = mjfast.parse_hand(hand)
    want, subs = exhaustive(h, rs)
    s = mjfast.score(h, rules=rs, self_drawn=True)
    assert s.total == want
    sub = np.zeros(34, np.uint8)
    for t in s.substitutions:
        sub[t] += 1
    assert any(np.array_equal(sub, x) for x in subs)


@pytest.mark.parametrize("hand,kinds", FIXED)
def test_search_builds_sets_of_wildcards_alone(search_always, hand, kinds):
    _fixed(hand, kinds)


@pytest.mark.slow
@pytest.mark.parametrize("hand,kinds", FIXED_8)
def test_search_builds_sets_of_wildcards_alone_8(search_always, hand, kinds):
    _fixed(hand, kinds)


def test_search_is_used_from_five_wildcards():
    # the search, not the exhaustive scoring, answers 5 or more (8 财神 took
    # up to 1.3 s a hand before): a hand of 8 is scored and agrees
    assert zhuji._SEARCH_FROM == 5
    rs = R.get("zhuji", wildcards="5p6p")
    h = mjfast.parse_hand("EE123m9m5p5p5p5p6p6p6p6p")
    s = mjfast.score(h, rules=rs, self_drawn=True)
    assert s.total == exhaustive(h, rs)[0] and len(s.substitutions) == 8


@pytest.mark.slow
@pytest.mark.parametrize("n_wild", [5, 6, 7, 8])
def test_search_equals_the_exhaustive_one_many(search_always, n_wild):
    # by hand: python -m pytest tests/test_zhuji_search.py -m slow
    rng = random.Random(900 + n_wild)
    _check(rng, n_wild, 40)
    _check(rng, n_wild, 15, winning=False)


def test_batch_results_carry_the_substitutions(tmp_path):
    # score_batch / JSONL results of Zhuji rows report what the 财神 stood for,
    # as score() does (an empty tuple for a hand without 财神 in a game with them)
    rs = R.get("zhuji", wildcards="5p")
    rng = random.Random(3)
    recs = [{"hand": "EEECCC111m999m5m5p", "self_drawn": True}, {"hand": "EEECCC111m999m5m5m", "self_drawn": True},
            {"hand": "123m456m789m5p5p5p5p9m", "self_drawn": True}, {"hand": "123m456m789m5p5p5p5p9m"},
            {"hand": "1m2m4m6m8mEESWNCFP", "self_drawn": True}]
    while len(recs) < 40:
        melds, tiles = _random_wild_hand(rng, [13], rng.choice((1, 2, 3, 4)), rng.random() < 0.3)
        recs.append({"hand": str(Hand(tuple(melds), tuple(tiles), 0)), "self_drawn": True})
    res = mjfast.score_batch(recs, rules=rs)
    from mjfast.io.jsonl import score_records
    lines = score_records(recs, rules=rs)
    n_subs = 0
    for i, r in enumerate(recs):
        try:
            s = mjfast.score(r["hand"], rules=rs, self_drawn=r.get("self_drawn", False))
        except (mjfast.NotWinning, mjfast.InvalidHand):
            assert res.errors[i] and i not in res.substitutions and "substitutions" not in res.record(i)
            continue
        assert res.totals[i] == s.total and res.substitutions[i] == s.substitutions
        want = [TILE_NAMES[t] for t in s.substitutions]
        assert res.record(i)["substitutions"] == want and lines[i]["substitutions"] == want
        n_subs += bool(s.substitutions)
    assert n_subs >= 10
    assert res.substitutions[0] == (4,) and res.substitutions[1] == ()
    # rule sets without wildcards in the batch report none
    assert mjfast.score_batch(["123m456m789m123p5p5p"]).substitutions == {}
    assert "substitutions" not in mjfast.score_batch(["123m456m789mEEE5m5m"], rules="two_player").record(0)


def test_search_with_jokers_equals_the_exhaustive_one(monkeypatch):
    # wildcards=k (jokers beside the tiles, no 财神 kind named): the same search
    rng = random.Random(4)
    rs = R.get("zhuji")
    checked = 0
    while checked < 40:
        k = rng.choice((1, 2, 3, 4, 5, 6))
        melds, tiles = _random_wild_hand(rng, [32, 33], k, rng.random() < 0.3)
        real = [t for t in tiles if t < 32]            # the F / P stand-ins become jokers
        h = Hand(tuple(melds), tuple(real), 0)
        if not real or h.all_counts.max() > 4:
            continue
        checked += 1
        out = []
        for start in (99, 1):
            monkeypatch.setattr(zhuji, "_SEARCH_FROM", start)
            try:
                s = mjfast.score(h, rules=rs, self_drawn=True, wildcards=k)
                out.append((s.total, len(s.substitutions)))
            except NotWinning:
                out.append(None)
        assert out[0] == out[1], (str(h), k, out)


def test_substitutions_column_in_tables():
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    rs = R.get("zhuji", wildcards="5p")
    recs = [{"hand": "EEECCC111m999m5m5p", "self_drawn": True}, {"hand": "EEECCC111m999m5m5m", "self_drawn": True},
            {"hand": "123m456m789m1p9pESW"}]
    res = mjfast.score_batch(recs, rules=rs)
    df = res.to_pandas()
    want = [" ".join(TILE_NAMES[t] for t in res.substitutions[i]) if i in res.substitutions else None
            for i in range(len(recs))]
    assert want[0] == "5m" and want[1] == "" and want[2] is None      # 5p as 5m; no 财神; not a win
    assert list(df["substitutions"]) == want
    assert res.to_arrow().column("substitutions").to_pylist() == want
    # no wildcards in the rule set: no column
    plain = mjfast.score_batch(["123m456m789m123p5p5p"])
    assert "substitutions" not in plain.to_pandas().columns
    assert "substitutions" not in plain.to_arrow().column_names
