"""Properties that must hold for every hand, checked with hypothesis.

* printing a hand and parsing it back gives the same hand;
* a hand's score never depends on the order its tiles or melds are written in;
* ``score_batch`` row i equals ``score`` of hand i;
* batch results are identical for every ``workers``;
* drawing a tile lowers the shanten by at most one, and exactly the useful
  tiles lower it;
* every wait completes the hand, and nothing else does.

hypothesis is a dev dependency: these tests always run.  Each is kept to a
few seconds (``max_examples``); ``derandomize`` keeps CI reproducible.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import mjfast
from mjfast import InvalidHand, NotWinning
from mjfast.hand import Hand, Meld, format_hand, parse_hand

from handgen import random_winning_records

_SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

_RECORDS = random_winning_records(2000, seed=2718)
_FIELDS = ("self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind", "flowers")


def _kw(rec):
    return {k: rec[k] for k in _FIELDS if k in rec}


def _key(s):
    return (s.total, sorted((f.key, f.count) for f in s.fans), s.is_legal_win)


# ---------------------------------------------------------------------------
# hands: melds of every kind and digit, then concealed tiles

@st.composite
def melds(draw):
    kind = draw(st.sampled_from(["chow", "pung", "kong"]))
    if kind == "chow":
        suit = draw(st.sampled_from([0, 9, 18]))
        return Meld("chow", suit + draw(st.integers(0, 6)), claimed=draw(st.integers(0, 3)))
    tile = draw(st.integers(0, 33))
    if kind == "pung":
        return Meld("pung", tile, claimed=draw(st.integers(0, 3)))
    how = draw(st.sampled_from(["concealed", "melded", "added"]))
    if how == "concealed":
        return Meld("kong", tile, concealed=True)
    return Meld("kong", tile, claimed=draw(st.integers(1, 3)), added=how == "added")


@st.composite
def hands(draw, flowers=False, max_melds=4):
    ms = draw(st.lists(melds(), max_size=max_melds))
    tiles = draw(st.lists(st.integers(0, 33), min_size=0, max_size=14 - 3 * len(ms)))
    fl = draw(st.integers(0, 8)) if flowers else 0
    try:
        return Hand(tuple(ms), tuple(tiles), fl)
    except InvalidHand:           # a fifth copy: not a hand
        assume(False)


@settings(max_examples=300, **_SETTINGS)
@given(hands())
def test_parse_print_round_trip(h):
    text = format_hand(h)
    assert parse_hand(text) == h
    assert format_hand(parse_hand(text)) == text          # the printed form is canonical
    assert [m.notation() for m in parse_hand(text).melds] == [m.notation() for m in h.melds]


@settings(max_examples=200, **_SETTINGS)
@given(hands(flowers=True, max_melds=0))
def test_botzone_round_trip(h):
    text = format_hand(h, "botzone")
    back = parse_hand(text)
    assert back == h and back.flowers == h.flowers


# ---------------------------------------------------------------------------
# scoring

def _spelled_out(h: Hand, order, meld_order) -> str:
    """The hand with its melds and its concealed tiles (winning tile kept
    last) written one tile at a time in the given orders."""
    names = mjfast.TILE_NAMES
    body = list(h.tiles[:-1])
    body = [body[i] for i in order]
    melds_ = [h.melds[i].notation() for i in meld_order]
    return "".join(melds_) + "".join(names[t] for t in body) + names[h.tiles[-1]]


@settings(max_examples=200, **_SETTINGS)
@given(st.sampled_from(_RECORDS), st.randoms(use_true_random=False))
def test_score_does_not_depend_on_tile_order(rec, rnd):
    h = parse_hand(rec["hand"])
    order = list(range(len(h.tiles) - 1))
    rnd.shuffle(order)
    meld_order = list(range(len(h.melds)))
    rnd.shuffle(meld_order)
    text = _spelled_out(h, order, meld_order)
    a = mjfast.score(rec["hand"], **_kw(rec))
    b = mjfast.score(text, **_kw(rec))
    assert _key(a) == _key(b), (rec, text)


@settings(max_examples=60, **_SETTINGS)
@given(st.lists(st.sampled_from(_RECORDS), min_size=1, max_size=40),
       st.lists(st.sampled_from(["", "x", "123m", "[EEE]"]), max_size=3))
def test_score_batch_row_equals_score(recs, junk):
    recs = list(recs) + [{"hand": j} for j in junk]         # bad rows in between do not shift anything
    res = mjfast.score_batch(mjfast.HandBatch.from_records(recs))
    for i, rec in enumerate(recs):
        try:
            s = mjfast.score(rec["hand"], **_kw(rec))
        except (InvalidHand, NotWinning):
            assert res.errors[i] != 0 and res.totals[i] == -1
            continue
        assert res.errors[i] == 0
        assert res.totals[i] == s.total and bool(res.legal[i]) == s.is_legal_win
        assert (res.fan_counts[i] == s.fan_counts()[1:]).all()


@settings(max_examples=25, **_SETTINGS)
@given(st.lists(st.sampled_from(_RECORDS), min_size=1, max_size=300), st.sampled_from([2, 3, 4, -1]),
       st.integers(0, 2 ** 32 - 1))
def test_results_identical_for_every_worker_count(recs, workers, seed):
    batch = mjfast.HandBatch.from_records(recs)
    one = mjfast.score_batch(batch, workers=1)
    many = mjfast.score_batch(batch, workers=workers)
    assert np.array_equal(one.totals, many.totals) and np.array_equal(one.fan_counts, many.fan_counts)
    assert np.array_equal(one.errors, many.errors) and np.array_equal(one.legal, many.legal)
    from handgen import random_hands

    for size, fns in ((14, (mjfast.is_win_batch, mjfast.shanten_batch)),
                      (13, (mjfast.shanten_batch, mjfast.waits_batch))):
        H = random_hands(200, size, seed=seed % 1000)
        for fn in fns:
            assert np.array_equal(fn(H, workers=1), fn(H, workers=workers)), (fn.__name__, workers)


# ---------------------------------------------------------------------------
# shanten, useful tiles and waits

@st.composite
def concealed(draw, size):
    """Counts of ``size`` tiles, at most 4 of a kind."""
    c = np.zeros(34, np.uint8)
    for t in draw(st.lists(st.integers(0, 33), min_size=size * 2, max_size=size * 2)):
        if c.sum() == size:
            break
        if c[t] < 4:
            c[t] += 1
    assume(c.sum() == size)
    return c


@settings(max_examples=150, **_SETTINGS)
@given(st.integers(0, 3).flatmap(lambda k: st.tuples(st.just(k), concealed(13 - 3 * k))))
def test_a_drawn_tile_lowers_shanten_by_at_most_one(km):
    k, c = km
    s = mjfast.shanten(c, melds=k)
    useful = set(mjfast.useful_tiles(c, melds=k))
    for t in range(34):
        if c[t] == 4:
            continue
        d = c.copy()
        d[t] += 1
        s2 = mjfast.shanten(d, melds=k)
        assert s - 1 <= s2 <= s, (c.tolist(), k, t)
        assert (s2 < s) == (t in useful), (c.tolist(), k, t)


@st.composite
def ready_hands(draw):
    """A ready hand: a generated winning hand less one concealed tile."""
    rec = draw(st.sampled_from(_RECORDS))
    h = parse_hand(rec["hand"])
    drop = draw(st.integers(0, len(h.tiles) - 1))
    tiles = h.tiles[:drop] + h.tiles[drop + 1:]
    return Hand(h.melds, tiles, 0)


@settings(max_examples=200, **_SETTINGS)
@given(ready_hands())
def test_every_wait_completes_the_hand_and_nothing_else_does(h):
    w = mjfast.waits(h)
    assert w, str(h)                      # a winning hand less a tile waits on at least that tile
    full = h.all_counts
    c = h.counts
    completes = []
    for t in range(34):
        d = c.copy()
        d[t] += 1
        if full[t] < 4 and mjfast.is_win(d, melds=len(h.melds)):
            completes.append(t)
    assert w == completes, str(h)
    for t in w:                           # and the completed hand scores (or is refused as a win: never)
        s = mjfast.score(Hand(h.melds, h.tiles + (t,), 0))
        assert s.total > 0
    assert mjfast.shanten(h) == 0
