"""A kong added to one's own melded pung (``[EEEE5]``..``[EEEE7]``) in
batches: HandBatch carries it (``added``), so a rule set that scores it apart
(two_player's ``added_kong_is_melded_kong``) scores a batch as score() does."""
import numpy as np
import pytest

import mjfast
from mjfast import rules as R
from mjfast.batch import HandBatch, score_batch

import handgen

OFF = R.get("two_player", added_kong_is_melded_kong=False)

# 1111m added to a pung claimed from the left, 234m 567m EEE, 9m pair won on 9m
# (a discard).  Two-player: Half Flush 8 + Win off a Discard 4 + Short Straight
# (234m 567m) 1 + Single Wait 1 + Terminal Pair 1 + Pung of Terminals or Honors
# (1111m, EEE) 1 x2 = 17, and Melded Kong 1 when the option counts an added
# kong as melded (the default): 18.  A kong melded from a discard ([1111m1])
# is a Melded Kong either way: 18.
ADDED = "[1111m5]234m567mEEE9m9m"
MELDED = "[1111m1]234m567mEEE9m9m"
# two kongs, both added: Two Kongs 4 replaces the single-kong fans, so the
# option changes nothing: 8 + 4 + 4 + 1 + 1 + 1 + 2 = 21
TWO = "[EEEE7][1111m6]234m567m9m9m"


@pytest.mark.parametrize("hand,default,off", [(ADDED, 18, 17), (MELDED, 18, 18), (TWO, 21, 21)])
def test_added_kong_option_in_batches(hand, default, off):
    for rs, want in ((R.get("two_player"), default), (OFF, off)):
        assert mjfast.score(hand, rules=rs).total == want
        assert score_batch([hand], rules=rs).totals[0] == want
        assert score_batch([{"hand": hand}], rules=rs).totals[0] == want
        b = HandBatch.from_records([{"hand": hand, "rules": "two_player"}], rules=rs)
        assert score_batch(b).totals[0] == want
    res = score_batch([hand], rules=OFF)
    row = {k for k, c in zip(res.fan_keys, res.fan_counts[0]) if c}
    assert ("melded_kong" in row) == (hand == MELDED)


def test_added_column_from_notation():
    b = HandBatch.from_strings([ADDED, MELDED, TWO, "[EEEE][1111m3]234m567m9m9m"])
    # the digit 5-7 is 4 + the discarder of the pung the kong was added to
    assert b.added.tolist() == [[1, 0, 0, 0], [0, 0, 0, 0], [3, 2, 0, 0], [0, 0, 0, 0]]
    # on the generated corpus (melded, added and concealed kongs): the column
    # is what the Python parser reads, and MCR totals do not depend on it
    recs = handgen.random_winning_records(20000, seed=41)
    b = HandBatch.from_records(recs)
    n_added = 0
    for i, r in enumerate(recs):
        if b.invalid[i]:
            continue
        want = {m.tile: m.claimed for m in mjfast.parse_hand(r["hand"]).melds if m.added}
        got = {int(b.melds[i, j, 1]): int(b.added[i, j]) for j in range(int(b.n_melds[i])) if b.added[i, j]}
        assert got == want, r["hand"]
        n_added += len(want)
    assert n_added > 100
    plain = score_batch(b)
    b.added[:] = 0
    again = score_batch(b)
    assert np.array_equal(plain.totals, again.totals) and np.array_equal(plain.fan_counts, again.fan_counts)


def test_added_column_from_arrays_is_checked():
    b = HandBatch.from_strings([ADDED])
    cols = dict(counts=b.counts, melds=b.melds, n_melds=b.n_melds, win_tile=b.win_tile, flags=b.flags,
                seat=b.seat, round=b.round, flowers=b.flowers)
    ok = HandBatch(**cols, added=b.added)
    assert not ok.invalid.any() and score_batch(ok, rules=OFF).totals[0] == 17
    assert score_batch(HandBatch(**cols), rules=OFF).totals[0] == 18     # no column: a melded kong
    for bad in ([[4, 0, 0, 0]], [[0, 1, 0, 0]]):          # digit out of range; on an empty slot
        h = HandBatch(**cols, added=np.array(bad, np.uint8))
        assert h.invalid[0] and "added must be" in h.messages[0]
    with pytest.raises(mjfast.InvalidHand):
        HandBatch(**cols, added=np.zeros((2, 4), np.uint8))


def test_batch_does_not_read_the_records_after_it_is_built():
    # the added column is read on first use, from notation taken when the
    # batch was built: changing, emptying or dropping the records afterwards
    # changes nothing (before, a later score_batch read the changed records)
    # (the last record is read by the Python reader: flowers as a numpy int)
    recs = [{"hand": ADDED}, {"hand": MELDED}, {"hand": TWO}, {"hand": ADDED, "flowers": np.int64(0)}]
    hands = [r["hand"] for r in recs[:3]]
    b = HandBatch.from_records(recs, rules=OFF)
    recs[0]["hand"] = MELDED
    recs[1]["hand"] = ADDED
    recs[2].clear()
    recs[3]["hand"] = MELDED
    assert score_batch(b).totals.tolist() == [17, 18, 21, 17]
    assert b.added.tolist() == [[1, 0, 0, 0], [0, 0, 0, 0], [3, 2, 0, 0], [1, 0, 0, 0]]
    # the same for a list of strings changed in place
    b = HandBatch.from_strings(hands, rules=OFF)
    hands[:] = [MELDED, ADDED, MELDED]
    assert score_batch(b).totals.tolist() == [17, 18, 21]


def test_added_column_from_json_lines(tmp_path):
    # JSONL batches carry the column too (before, HandBatch.from_jsonl left it
    # empty, so an added kong scored as a melded one under OFF); the lines are
    # read by the compiled scanner, and by the Python reader when not flat
    import json
    lines = [json.dumps({"hand": ADDED}), json.dumps({"hand": ADDED, "id": [1]}), json.dumps({"hand": MELDED}),
             json.dumps({"hand": TWO, "seat_wind": "S"}), "{bad"]
    p = tmp_path / "a.jsonl"
    p.write_text("\n".join(lines) + "\n")
    (b,) = HandBatch.from_jsonl(p)
    assert b.added.tolist()[:4] == [[1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [3, 2, 0, 0]]
    res = score_batch(b, rules=OFF)
    assert res.totals.tolist()[:4] == [17, 17, 18, 21] and b.invalid[4]
    chunk = [bytearray(x.encode()) for x in lines[:2]]
    (b,) = HandBatch.from_lines(chunk, rules=OFF)
    chunk[0][:] = b" " * len(chunk[0])     # a bytearray line changed after the batch is built
    assert score_batch(b).totals.tolist() == [17, 17]
