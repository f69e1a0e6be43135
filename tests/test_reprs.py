"""The reprs a user meets at a prompt: Discard (best_discards) and FanStats."""
from __future__ import annotations

import pickle

import mjfast
from mjfast.bots import Discard
from mjfast.rules.mcr import MCR
from mjfast.stats import FanStats
from mjfast.tiles import TILE_NAMES

from handgen import random_winning_records


def test_discard_repr_names_the_tile_and_keeps_the_numbers():
    out = mjfast.best_discards("123m456p789s11pEN5s")
    d = out[0]
    assert repr(d) == (f"Discard(tile={TILE_NAMES[d.tile]} ({d.tile}), shanten={d.shanten}, "
                       f"useful_kinds={d.useful_kinds}, useful_left={d.useful_left})")
    assert repr(d).startswith("Discard(tile=E (27), shanten=1,")
    # a list of them reads as a list of tiles
    assert [r.split(" ", 1)[0] for r in map(repr, out)] == [f"Discard(tile={TILE_NAMES[x.tile]}" for x in out]
    # still the tuple it was
    assert tuple(d) == (d.tile, d.shanten, d.useful_kinds, d.useful_left) and d == tuple(d)
    assert pickle.loads(pickle.dumps(d)) == d


def test_discard_repr_shows_the_fields_filled_on_request():
    ready = mjfast.best_discards("123m456m789m1p23p5p9s", check_points=True)
    assert any(x.below_8 is not None for x in ready)
    for x in ready:
        assert ("below_8=" in repr(x)) == (x.below_8 is not None)
        if x.below_8 is not None:
            assert repr(x).endswith(f", below_8={x.below_8!r})")
    ranked = mjfast.best_discards("123m456p789s11pEN5s", rank="fan")
    assert all(repr(x).endswith(f", fan_shanten={x.fan_shanten!r})") for x in ranked)
    plain = mjfast.best_discards("123m456p789s11pEN5s")
    assert not any("below_8" in repr(x) or "fan_shanten" in repr(x) for x in plain)


def test_discard_repr_of_a_hand_made_value():
    assert repr(Discard((0, 2, 5, 17))) == "Discard(tile=1m (0), shanten=2, useful_kinds=5, useful_left=17)"
    assert repr(Discard((99, 0, 0, 0))).startswith("Discard(tile=99, ")      # no such tile: the number


def test_fanstats_repr_summarises_what_it_holds():
    recs = random_winning_records(400, seed=2) + [{"hand": "xx"}, {"hand": "123m456m789m123p5p6p"}]
    res = mjfast.score_batch(recs)
    acc = FanStats().update(res)
    text = repr(acc)
    assert text.startswith("FanStats(402 rows (1 invalid, 1 not winning): 400 wins, ")
    s = acc.summary()
    assert f"{100 * s['legal_share']:.1f}% legal" in text and f"mean total {s['totals']['mean']:.1f}" in text
    top = acc.top_fans(3)
    want = ", ".join(f"{MCR.keys[j]} {100 * acc.fan_wins[j] / acc.wins:.1f}%" for j in top)
    assert text.endswith(f"top fans {want})")
    # the commonest fan really is the commonest
    first = MCR.keys.index(text.split("top fans ")[1].split(" ")[0])
    assert (res.fan_counts[res.errors == 0, first] > 0).sum() == max(
        (res.fan_counts[res.errors == 0, j] > 0).sum() for j in range(len(MCR)))


def test_fanstats_repr_of_empty_weighted_and_winless():
    assert repr(FanStats()) == "FanStats(empty)"
    assert repr(FanStats(weighted=True)) == "FanStats(weighted, empty)"
    assert repr(FanStats().update(mjfast.score_batch([{"hand": "xx"}]))) == "FanStats(1 row (1 invalid), no wins)"
    w = FanStats(weighted=True)
    res = mjfast.score_batch(["123m456m789m123p5p5p"])
    w.update(res, weights=[3])
    assert repr(w).startswith("FanStats(weighted, 1 row: 3 wins (weighted), 100.0% legal, mean total ")
    one = FanStats().update(res)
    assert repr(one).startswith("FanStats(1 row: 1 win, 100.0% legal, mean total ")
