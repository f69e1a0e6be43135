"""A bad argument is an InvalidArgument and a bad hand an InvalidHand, in
every public function: an argument out of its own range or type (a wind
"east", flowers 9, melds 5, wildcards 9, a tile index 34, two arguments that
exclude each other) is the caller's argument, whatever the hand; a value
that makes this hand wrong (more tiles than a hand holds, more copies than
four, a rule set's wildcard limit) is the hand's.  The messages are the
ones these calls always gave."""
import numpy as np
import pytest

import mjfast
from mjfast import HandBatch, InvalidArgument, InvalidHand
from mjfast.hand import parse_hand

H = "[567m2][EEE1]45m678pFF6m"
READY = "123m456m789p1s2s3sE"


def _argument(fn, *args, match, **kw):
    with pytest.raises(InvalidArgument, match=match) as e:
        fn(*args, **kw)
    assert not isinstance(e.value, InvalidHand)
    return str(e.value)


def test_winds_and_flowers_are_arguments():
    # the issue: seat_wind="east" was an InvalidHand while self_drawn=1 was an InvalidArgument
    assert _argument(mjfast.score, H, seat_wind="east", match="seat_wind") == \
        'seat_wind must be one of "E" "S" "W" "N" or 0-3, got "east"'
    _argument(mjfast.score, H, self_drawn=1, match="self_drawn")
    _argument(mjfast.score, H, round_wind=4, match="round_wind must be one of")
    assert _argument(mjfast.score, H, flowers=9, match="flowers") == "flowers must be an integer 0-8, got 9"
    _argument(mjfast.score, H, flowers=-1, match="flowers must be an integer 0-8, got -1")
    for rules in mjfast.rules.available():
        _argument(mjfast.score, H, rules=rules, seat_wind="east", match="seat_wind")
    # the hand's own flowers beyond the limit: the hand's fault
    with pytest.raises(InvalidHand, match="at most 8 flowers"):
        mjfast.score("H1 H2 H3 H4 H5 H6 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5", flowers=3)


def test_settlement_seats_are_arguments():
    s = mjfast.score(H, self_drawn=True)
    _argument(s.settlement, winner_seat="east", match="winner_seat must be one of")


def test_batch_context_arguments():
    _argument(HandBatch.from_strings, [H, H], seat_wind="east", match="seat_wind must be one of")
    _argument(HandBatch.from_strings, [H], flowers=12, match="flowers must be an integer 0-8")
    # given per row, a bad value flags its row with the same words
    b = HandBatch.from_strings([H, H], seat_wind=["E", "east"])
    assert b.invalid.tolist() == [False, True]
    assert b.messages[1] == 'seat_wind must be one of "E" "S" "W" "N" or 0-3, got "east"'
    # a record's wind: the row's message (a record is data, not an argument)
    r = mjfast.score_batch([{"hand": H, "seat_wind": "east"}])
    assert r.error_message(0) == 'seat_wind must be one of "E" "S" "W" "N" or 0-3, got "east"'


def test_hand_batch_columns():
    b = HandBatch.from_strings([H, H])
    cols = [b.counts, b.melds, b.n_melds, b.win_tile, b.flags, b.seat, b.round, b.flowers]
    for k, name in ((5, "seat"), (4, "flags"), (7, "flowers")):
        bad = list(cols)
        bad[k] = 300
        _argument(HandBatch, *bad, match=f"{name} must be 0-255, got 300")
        bad[k] = np.zeros(3, np.uint8)
        _argument(HandBatch, *bad, match=rf"{name} must have shape \(2,\); got \(3,\)")
    _argument(HandBatch, *cols, invalid=np.zeros(3, bool), match="invalid must have shape")
    # the hands themselves stay InvalidHand
    bad = list(cols)
    bad[1] = np.zeros((3, 4, 3), np.uint8)
    with pytest.raises(InvalidHand, match="melds must have shape"):
        HandBatch(*bad)
    with pytest.raises(InvalidHand, match=r"counts must be \(N, 34\)"):
        HandBatch(np.zeros((2, 33), np.uint8), *cols[1:])


@pytest.mark.parametrize("fn, hand", [(mjfast.is_win, H), (mjfast.decompose, H), (mjfast.waits, READY),
                                      (mjfast.shanten, READY), (mjfast.useful_tiles, READY)])
def test_analysis_keywords(fn, hand):
    c = parse_hand(hand).counts
    _argument(fn, c, melds=5, match="melds must be None .* or an int 0..4, got 5")
    _argument(fn, hand, wildcards=9, match="wildcards must be 0..8, got 9")
    _argument(fn, hand, wildcard_tiles=[34], match="wildcard_tiles: tile index 34 is outside 0..33")
    _argument(fn, hand, wildcards=1, wildcard_tiles=["C"],
              match=r"pass wildcards=k or wildcard_tiles=\[...\], not both")
    # melds= contradicting the hand's own melds: the hand is not what melds= says
    with pytest.raises(InvalidHand, match="contradicts"):
        fn(H if hand == H else "[123m]456m789p1s2s3sE", melds=3)


def test_score_wildcard_arguments():
    _argument(mjfast.score, "123m456p789s5p5p", wildcards=9, match="wildcards must be 0..8, got 9")
    _argument(mjfast.score, "123m456p789s5p5p", wildcard_tiles=[40], match="outside 0..33")
    # a rule set's limit on the wildcards a hand holds stays the hand's
    with pytest.raises(InvalidHand, match="wildcards: 5 wildcards"):
        mjfast.score("123m456p789s", rules="shanghai_old", wildcards=5, self_drawn=True)


def test_fan_targets_melds_given_twice():
    _argument(mjfast.fan_targets, "[123m]456m789pEE1s2s", melds=[("chow", 0)],
              match="pass the melds in the hand")


def test_visible_tiles_are_an_argument():
    hand = "123m456m789p1s2s3sEE"
    _argument(mjfast.best_discards, hand, visible=[5] * 34, match="visible must be 34 integer counts 0..4")
    _argument(mjfast.best_discards, hand, visible=[0] * 33, match="visible must be 34 integer counts 0..4")
    _argument(mjfast.best_discards_batch, [parse_hand(hand).counts], visible=np.zeros(33, np.int64),
              match="visible must be 34 integer counts or one row of 34 per hand")
    # more copies than four between the hand and what is visible: the hand is wrong
    v = [0] * 34
    v[27] = 3
    with pytest.raises(InvalidHand, match="more than 4 copies"):
        mjfast.best_discards(hand, visible=v)
