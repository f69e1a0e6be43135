"""Batch scoring (HandBatch / score_batch) and the bot helpers."""
import json

import numpy as np
import pytest

import mjfast
from mjfast.batch import ERR_INVALID, ERR_NOT_WINNING, ERR_OK, HandBatch, score_batch

from handgen import random_winning_records


@pytest.fixture(scope="module")
def records():
    return random_winning_records(3000, seed=77)


def _single(rec):
    kw = {k: v for k, v in rec.items() if k not in ("hand", "id")}
    return mjfast.score(rec["hand"], **kw)


def test_batch_matches_single_calls(records):
    res = score_batch(HandBatch.from_records(records))
    assert (res.errors == ERR_OK).all()
    for i, rec in enumerate(records[:1000]):
        s = _single(rec)
        assert res.totals[i] == s.total
        want = {f.name: f.count for f in s.fans}
        got = {name: c for name, _, _, c in res.fans(i)}
        assert got == want, rec
        assert res.legal[i] == s.is_legal_win


def test_fan_columns_follow_the_table(records):
    res = score_batch(HandBatch.from_records(records[:50]))
    assert res.fan_counts.shape == (50, len(mjfast.MCR))
    assert res.fan_names == tuple(f.en for f in mjfast.MCR)
    pts = np.array([f.points for f in mjfast.MCR])
    assert (res.fan_counts.astype(int) @ pts == res.totals).all()


@pytest.mark.parametrize("workers", [2, -1])
def test_results_do_not_depend_on_workers(records, workers):
    b = HandBatch.from_records(records)
    one = score_batch(b, workers=1)
    many = score_batch(b, workers=workers)
    assert np.array_equal(one.totals, many.totals)
    assert np.array_equal(one.fan_counts, many.fan_counts)


def test_bad_records_are_flagged_not_dropped():
    recs = [
        {"id": "a", "hand": "123m456m789m123p5p5p"},
        {"id": "b", "hand": "123m456m789m123p5p5x"},          # unknown tile
        {"id": "c", "hand": "11111m456m789m123p"},             # fifth copy
        {"id": "d", "hand": "123m456m789m123p5p6p"},           # not a win
        {"id": "e"},                                           # no hand
        {"id": "f", "hand": "123m456m789m123p5p5p", "seat_wind": "X"},
        {"id": "g", "hand": "123m456m789m123p5p5p", "flowers": 2},
    ]
    res = score_batch(HandBatch.from_records(recs))
    assert len(res) == len(recs)
    assert list(res.errors) == [ERR_OK, ERR_INVALID, ERR_INVALID, ERR_NOT_WINNING, ERR_INVALID, ERR_INVALID, ERR_OK]
    assert res.totals[0] == 23 and res.totals[6] == 25
    assert (res.totals[1:6] == -1).all()
    assert "unknown tile" in res.error_message(1)
    assert "fifth copy" in res.error_message(2)
    assert res.error_message(3) == "not a winning hand"
    assert "hand" in res.error_message(4)
    assert res.record(3) == {"id": "d", "line": None, "error": "not a winning hand"}
    assert res.record(0)["total"] == 23


def test_from_arrays_validates_rows():
    good = mjfast.to_counts("123m456m789m123p5p5p")
    counts = np.stack([good, good, good])
    counts[1, 0] = 5                                   # fifth copy
    melds = np.zeros((3, 4, 3), np.uint8)
    b = HandBatch(counts, melds, n_melds=[0, 0, 1], win_tile=[13, 13, 13], flags=0, seat=0, round=0, flowers=0)
    assert list(b.invalid) == [False, True, True]
    res = score_batch(b)
    assert res.totals[0] == 23 and list(res.errors) == [ERR_OK, ERR_INVALID, ERR_INVALID]


def test_from_strings_and_lists():
    res = score_batch(["123m456m789m123p5p5p", "EEESSSWWW456m9p9p"])
    assert list(res.totals) == [23, score_total := mjfast.score("EEESSSWWW456m9p9p").total] and score_total > 0
    b = HandBatch.from_strings(["123m456m789m123p5p5p"] * 2, self_drawn=[False, True])
    r = score_batch(b)
    assert r.totals[1] == mjfast.score("123m456m789m123p5p5p", self_drawn=True).total


def test_from_jsonl_streams_chunks(tmp_path, records):
    path = tmp_path / "hands.jsonl"
    with open(path, "w") as f:
        for r in records[:250]:
            f.write(json.dumps(r) + "\n")
        f.write("{not json\n")
    chunks = list(HandBatch.from_jsonl(path, chunk_size=100))
    assert [len(c) for c in chunks] == [100, 100, 51]
    last = score_batch(chunks[-1])
    assert last.errors[-1] == ERR_INVALID and "JSON" in last.error_message(50)


def test_to_pandas(records):
    pd = pytest.importorskip("pandas")
    res = score_batch(HandBatch.from_records(records[:20]))
    df = res.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 20
    assert (df["total"].to_numpy() == res.totals).all()
    assert "Pure Straight" in df.columns


def test_best_discards_orders_by_shanten():
    out = mjfast.best_discards("123m456p789s11pEN5s")
    assert out[0].shanten == min(d.shanten for d in out)
    assert {d.tile for d in out} == {int(t) for t in np.flatnonzero(mjfast.to_counts("123m456p789s11pEN5s"))}
    # every reported shanten is the shanten of the hand without that tile
    c = mjfast.to_counts("123m456p789s11pEN5s")
    for d in out:
        cc = c.copy()
        cc[d.tile] -= 1
        assert d.shanten == mjfast.shanten(cc)
    # tiles seen elsewhere reduce the useful copies left
    seen = np.zeros(34, np.uint8)
    seen[mjfast.tile_index("N")] = 3
    after = {d.tile: d for d in mjfast.best_discards("123m456p789s11pEN5s", visible=seen)}
    before = {d.tile: d for d in out}
    e = mjfast.tile_index("E")
    # discarding E keeps N, which is useful: its three visible copies are gone
    assert mjfast.tile_index("N") in mjfast.useful_tiles(c - np.eye(34, dtype=np.uint8)[e])
    assert after[e].useful_left == before[e].useful_left - 3
    # every count: copies neither in the hand (the discard included) nor visible
    for d in after.values():
        rest = c.copy()
        rest[d.tile] -= 1
        useful = mjfast.useful_tiles(rest)
        assert d.useful_kinds == len(useful)
        assert d.useful_left == sum(max(0, 4 - int(c[u]) - int(seen[u])) for u in useful), d
        assert before[d.tile].useful_left == sum(4 - int(c[u]) for u in useful), d


def test_winning_tiles_scores_each_wait():
    out = mjfast.winning_tiles("1112345678999m")
    assert [w.tile for w in out] == list(range(9))
    for w in out:
        hand = "1112345678999m" + mjfast.tile_name(w.tile)
        assert w.discard_total == mjfast.score(hand).total
        assert w.self_drawn_total == mjfast.score(hand, self_drawn=True).total
        assert w.discard_legal
    cheap = mjfast.winning_tiles("[567m2][EEE1]45m678pFF")
    assert {w.tile for w in cheap} == {mjfast.tile_index("3m"), mjfast.tile_index("6m")}
    assert not any(w.discard_legal for w in cheap)


def test_to_arrow(records):
    pa = pytest.importorskip("pyarrow")
    res = score_batch(HandBatch.from_records(records[:20]))
    t = res.to_arrow()
    assert isinstance(t, pa.Table) and t.num_rows == 20
    assert t.column("total").to_pylist() == res.totals.tolist()


def test_rows_changed_after_validation_are_refused_not_read_out_of_bounds():
    b = HandBatch.from_strings(["123m456m789m123p5p5p"] * 4)
    b.counts[1, 0] = 200          # would index far outside the tables
    b.n_melds[2] = 9              # would write past the meld slots
    b.melds[3, 0] = (7, 250, 1)   # a meld kind and tile that do not exist
    b.n_melds[3] = 1
    res = score_batch(b)
    assert res.totals[0] == 23
    assert list(res.errors) == [ERR_OK, ERR_INVALID, ERR_INVALID, ERR_INVALID]
    assert "out of range" in res.error_message(1)
