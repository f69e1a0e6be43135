"""Batch scoring (HandBatch / score_batch) and the bot helpers."""
import json

import numpy as np
import pytest

import mjfast
from mjfast.batch import ERR_INVALID, ERR_NOT_WINNING, ERR_OK, HandBatch, score_batch
from mjfast.rules.mcr import MCR

import flags_reference
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
    # the record is the result line `mjfast score --jsonl` writes: the hand is named
    assert res.record(3) == {"id": "d", "line": None, "error": "not a winning hand: 123m456m789m123p5p6p"}
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
    # fan columns by key (as mjfast.logs.score's fans), display names on request
    assert "pure_straight" in df.columns and "Pure Straight" not in df.columns
    assert list(df.columns[-len(MCR):]) == list(MCR.keys) == list(res.fan_keys)
    shown = res.to_pandas(names="display")
    assert list(shown.columns[-len(MCR):]) == list(res.fan_names)
    assert (shown.iloc[:, -len(MCR):].to_numpy() == df.iloc[:, -len(MCR):].to_numpy()).all()


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


def _mixed_batch(records, seed):
    """Winning records with random context flags (so that flags get dropped),
    some rows made non-winning, some flagged invalid."""
    import random
    rng = random.Random(seed)
    recs = [dict(r) for r in records]
    for r in recs:
        if rng.random() < 0.5:
            for k in ("self_drawn", "fourth_tile", "kong", "last_tile"):
                r[k] = rng.random() < 0.4
    b = HandBatch.from_records(recs)
    for i in range(0, len(b), 11):          # a tile moved: most of these no longer win
        c = b.counts[i]
        t = next((t for t in range(34) if c[t] and t != b.win_tile[i]), None)
        u = None if t is None else (t + 5) % 34
        if t is not None and c[u] < 4:
            c[t] -= 1
            c[u] += 1
    b.invalid[::13] = True
    b.messages.update({i: "bad row" for i in range(0, len(b), 13)})
    return b


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("workers", [1, 2])
def test_fused_outputs_match_their_definitions(records, strict, workers):
    # score_batch writes every output in one compiled pass (_fans.score_batch_mcr);
    # here each is rebuilt from its definition: the scores of the kernel alone,
    # the dropped flags of the rulings (tests/flags_reference.py), the error codes, legal against the minimum
    from mjfast import _core, _fans
    from mjfast.score import ignored_message
    b = _mixed_batch(records[:1500], seed=5)
    res = score_batch(b, strict=strict, workers=workers)
    n = len(b)
    drop = np.array(flags_reference.dropped_batch(b.counts, b.melds, b.n_melds, b.win_tile,
                                                  np.where(b.invalid, 0, b.flags)), np.uint8)
    assert drop.any()
    skip = b.invalid | (strict & (drop != 0))
    totals = np.full(n, -1, np.int32)
    fans = np.zeros((n, len(mjfast.MCR)), np.uint8)
    _fans.score_batch_kernel(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round, b.flowers,
                             skip.view(np.uint8), totals, fans, 1)
    errors = np.where(skip, ERR_INVALID, np.where(totals < 0, ERR_NOT_WINNING, ERR_OK))
    assert (errors == ERR_NOT_WINNING).any() and (errors == ERR_OK).any()
    assert res.errors.dtype == np.uint8 and res.errors.tolist() == errors.tolist()
    assert res.totals.tolist() == np.where(errors == 0, totals, -1).tolist()
    assert (res.fan_counts == fans).all()
    assert res.ignored.tolist() == np.where(errors == 0, drop, 0).tolist()
    assert res.legal.tolist() == ((errors == 0) & (totals - b.flowers.astype(int) >= 8)).tolist()
    want = {i: "bad row" for i in range(0, n, 13)}
    if strict:
        want.update({int(i): ignored_message(int(drop[i]), bool(b.flags[i] & 1)) + " (strict=True)"
                     for i in np.flatnonzero((drop != 0) & ~b.invalid)})
    assert res.messages == want
    # a rule set's minimum reaches legal
    res0 = score_batch(b, strict=strict, workers=workers, rules=mjfast.rules.get("mcr", min_points=0))
    assert res0.legal.tolist() == (errors == 0).tolist()


def test_fused_pass_writes_every_output(records):
    # the outputs may come uninitialised (np.empty): every cell is written
    from mjfast import _core, _fans
    b = _mixed_batch(records[:300], seed=9)
    n = len(b)
    outs = []
    for fill in (0, 0xAB):
        o = (np.full(n, fill * 0x10101, np.int32), np.full((n, 82), fill, np.uint8), np.full(n, fill, np.uint8),
             np.full(n, fill, np.uint8), np.full(n, fill, np.uint8))
        nflag = _fans.score_batch_mcr(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round,
                                      b.flowers, b.invalid.view(np.uint8), *o, 1, 0, 8, True)
        assert nflag == (o[2] >= 3).sum() > 0
        outs.append(o)
    for x, y in zip(*outs):
        assert (x == y).all()


def test_rows_scored_grouped_keep_their_places(records):
    # score_batch_mcr scores rows grouped by meld shape (a counting sort per
    # 32,768 rows) and writes each result to its own row: a batch of more
    # than one chunk, every shape present, invalid and changed rows among
    # them, against the row-order kernel (score_batch_kernel)
    from mjfast import _core, _fans
    b0 = _mixed_batch(records, seed=11)
    rng = np.random.default_rng(3)
    idx = rng.integers(0, len(b0), 70_000)
    cols = [np.ascontiguousarray(getattr(b0, c)[idx]) for c in
            ("counts", "melds", "n_melds", "win_tile", "flags", "seat", "round", "flowers")]
    b = HandBatch(*cols, ids=None, invalid=b0.invalid[idx].copy(), messages={}, validate=False)
    live = np.arange(4)[None, :] < b.n_melds[:, None]
    shapes = set((5 * b.n_melds + ((b.melds[:, :, 0] == 0) & live).sum(1))[~b.invalid].tolist())
    assert len(shapes) == 15        # every (melds, chow melds) pair with chows <= melds
    b.n_melds[40_000] = 9           # changed after validation: refused where it is
    for workers in (1, 2, 3):
        res = score_batch(b, workers=workers)
        totals = np.full(len(b), -1, np.int32)
        fans = np.zeros((len(b), len(mjfast.MCR)), np.uint8)
        _fans.score_batch_kernel(b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round, b.flowers,
                                 b.invalid.view(np.uint8), totals, fans, 1)
        ok = res.errors == ERR_OK
        assert ok.sum() > 50_000
        assert (res.totals[ok] == totals[ok]).all() and (res.fan_counts == fans).all()
        assert (res.errors[~ok] != ERR_OK).all() and (totals[~ok] < 0).all()
        assert res.errors[40_000] == ERR_INVALID and "out of range" in res.error_message(40_000)


def test_fused_pass_checks_its_shapes():
    from mjfast import _core, _fans
    b = HandBatch.from_strings(["123m456m789m123p5p5p"] * 4)
    n = len(b)
    args = [b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round, b.flowers, b.invalid.view(np.uint8),
            np.zeros(n, np.int32), np.zeros((n, 82), np.uint8), np.zeros(n, np.uint8), np.zeros(n, np.uint8),
            np.zeros(n, np.uint8)]
    assert _fans.score_batch_mcr(*args, 1) == 0
    assert args[9].tolist() == [mjfast.score("123m456m789m123p5p5p").total] * n
    for k in range(len(args)):
        with pytest.raises(ValueError):
            _fans.score_batch_mcr(*(a[:n - 1] if j == k else a for j, a in enumerate(args)), 1)
    with pytest.raises(ValueError, match="variant"):
        _fans.score_batch_mcr(*args, 1, 99)


def _numpy_row_checks(b, invalid):
    """HandBatch's array checks as they were written in numpy (the
    definition the compiled pass, _core.batch_row_codes, must match):
    {row: message} in the order the checks flag them."""
    n = len(b)
    c, m, k = b.counts, b.melds, b.n_melds
    bad = {}

    def flag(mask, msg):
        for i in np.flatnonzero(mask & ~invalid):
            if int(i) not in bad:
                bad[int(i)] = msg

    flag(k > 4, "more than 4 melds")
    kk = np.minimum(k, 4)
    slot = np.arange(4)[None, :] < kk[:, None]
    kind, tile, open_ = m[:, :, 0], m[:, :, 1], m[:, :, 2]
    flag(((kind > 2) & slot).any(1), "meld kind must be 0 (chow), 1 (pung) or 2 (kong)")
    flag(((tile > 33) & slot).any(1), "meld tile out of range")
    flag((((kind == 0) & ((tile >= 27) | (tile % 9 > 6))) & slot).any(1), "a chow must start on a suited 1-7")
    flag((((kind != 2) & (open_ == 0)) & slot).any(1), "only a kong can be concealed")
    full = c.astype(np.int16).copy()
    rows = np.arange(n)
    for j in range(4):
        s = slot[:, j] & (kind[:, j] <= 2) & (tile[:, j] <= 33)
        t = tile[:, j].astype(np.int64)
        ch = s & (kind[:, j] == 0) & (t < 27) & (t % 9 <= 6)
        for d in range(3):
            np.add.at(full, (rows[ch], t[ch] + d), 1)
        pg = s & (kind[:, j] > 0)
        np.add.at(full, (rows[pg], t[pg]), np.where(kind[pg, j] == 2, 4, 3))
    flag((full > 4).any(1), "a fifth copy of a tile")
    flag(c.sum(1, dtype=np.int64) + 3 * kk.astype(np.int64) != 14, "a winning hand has 14 tiles counting 3 per meld")
    flag(b.win_tile > 33, "winning tile out of range")
    wt = np.minimum(b.win_tile, 33)
    flag(c[rows, wt] == 0, "the winning tile is not among the concealed tiles")
    flag(b.flags > 15, "unknown flag bits")
    flag((b.seat > 3) | (b.round > 3), "winds must be 0-3")
    flag(b.flowers > 8, "flowers must be 0-8")
    ad = b.added
    flag(((ad > 3) | ((ad > 0) & ~(slot & (kind == 2) & (open_ == 1)))).any(1),
         "added must be 0, or 1-3 on a melded kong (the discarder of the pung it was added to)")
    return bad


@pytest.mark.parametrize("seed", range(3))
def test_array_checks_match_their_numpy_definition(records, seed):
    # HandBatch's checks of array input run as one compiled pass; against the
    # numpy formulation they replaced, on rows damaged field by field (and
    # some rows flagged invalid beforehand, which are not checked)
    rng = np.random.default_rng(seed)
    b0 = HandBatch.from_records(records[:2000])
    cols = {name: getattr(b0, name).copy() for name in
            ("counts", "melds", "n_melds", "win_tile", "flags", "seat", "round", "flowers")}
    added = np.zeros((len(b0), 4), np.uint8)
    n = len(b0)
    for i in range(n):
        r = rng.random()
        if r < 0.5:
            continue
        what = rng.integers(0, 10)
        if what == 0:
            cols["n_melds"][i] = rng.choice([5, 6, 255, 4, 0])
        elif what == 1:
            cols["melds"][i, rng.integers(0, 4)] = rng.integers(0, [4, 40, 3])
        elif what == 2:
            cols["counts"][i, rng.integers(0, 34)] = rng.integers(0, 6)
        elif what == 3:
            cols["win_tile"][i] = rng.choice([33, 34, 255, int(rng.integers(0, 34))])
        elif what == 4:
            cols["flags"][i] = rng.integers(0, 20)
        elif what == 5:
            cols["seat"][i] = rng.integers(0, 6)
            cols["round"][i] = rng.integers(0, 6)
        elif what == 6:
            cols["flowers"][i] = rng.integers(0, 11)
        elif what == 7:
            added[i, rng.integers(0, 4)] = rng.integers(0, 5)
        else:                               # two fields at once
            cols["melds"][i, rng.integers(0, 4), 2] = rng.integers(0, 2)
            cols["counts"][i, rng.integers(0, 34)] += 1
    invalid = rng.random(n) < 0.05
    messages = {int(i): "read badly" for i in np.flatnonzero(invalid)}
    b = HandBatch(**cols, added=added, invalid=invalid.copy(), messages=messages)
    ref = HandBatch(**cols, added=added, invalid=invalid.copy(), messages=messages, validate=False)
    want = _numpy_row_checks(ref, invalid)
    assert len(want) > n // 4 and len(set(want.values())) == 13
    assert b.messages == {**messages, **want}
    assert list(b.messages) == list(messages) + list(want)      # the same order of insertion
    assert b.invalid.tolist() == [i in want or bool(invalid[i]) for i in range(n)]
