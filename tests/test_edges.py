"""Edges of the Python API (issue 7): argument validation shared by every entry
point, flags the rules drop, batch inputs of the wrong kind, line numbers of
bad records, optional dependencies."""
import json

import numpy as np
import pytest

import mjfast
from mjfast import HandBatch, InvalidArgument, InvalidHand, score_batch
from mjfast.batch import ERR_INVALID, ERR_OK

from handgen import random_winning_records

WIN = "123m456m789m123p5p5p"          # 23 points; the winning 5p pairs another 5p
SINGLE = "123m456m789m11p23p4p"        # the winning 4p is the only one held
FLAGS = ("self_drawn", "fourth_tile", "kong", "last_tile")
BAD_FLAGS = ["no", "yes", "", 2, 1, 0, -1, 1.0, None, [True], np.int64(1), np.float64(0.0)]


# ---------------------------------------------------------------------------
# 1. flags are real booleans, everywhere, with one message


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("value", BAD_FLAGS, ids=repr)
def test_score_rejects_non_bool_flags(flag, value):
    with pytest.raises(TypeError, match=flag) as ei:
        mjfast.score(WIN, **{flag: value})
    # an InvalidArgument (a TypeError and a ValueError), not a problem with the hand
    assert isinstance(ei.value, InvalidArgument) and isinstance(ei.value, ValueError)
    assert not isinstance(ei.value, InvalidHand)


@pytest.mark.parametrize("flag", FLAGS)
def test_numpy_bools_are_bools(flag):
    a = mjfast.score(SINGLE, **{flag: np.bool_(True)})
    b = mjfast.score(SINGLE, **{flag: True})
    assert a.total == b.total and [f.key for f in a.fans] == [f.key for f in b.fans]
    assert mjfast.score(SINGLE, **{flag: np.bool_(False)}).total == mjfast.score(SINGLE).total


@pytest.mark.parametrize("value", ["no", 2, 1, 1.0], ids=repr)
def test_every_entry_point_says_the_same_about_a_bad_flag(value):
    with pytest.raises(TypeError) as ei:
        mjfast.score(WIN, last_tile=value)
    msg = str(ei.value)
    # records (batch and JSONL share the record reader): the row is flagged with the same words
    res = score_batch(HandBatch.from_records([{"hand": WIN, "last_tile": value}, {"hand": WIN}]))
    assert list(res.errors) == [ERR_INVALID, ERR_OK]
    assert res.error_message(0) == msg
    # a flag sequence of from_strings: the row is flagged with the same words
    res = score_batch(HandBatch.from_strings([WIN, WIN], last_tile=[value, False]))
    assert list(res.errors) == [ERR_INVALID, ERR_OK] and res.error_message(0) == msg
    # a scalar flag of from_strings is an argument: the call raises
    with pytest.raises(TypeError, match="last_tile"):
        HandBatch.from_strings([WIN], last_tile=value)
    # winning_tiles passes its context to score
    with pytest.raises(TypeError, match="last_tile"):
        mjfast.winning_tiles("123m456m789m123p5p", last_tile=value)
    with pytest.raises(TypeError, match="strict"):
        mjfast.score(WIN, strict=value)
    with pytest.raises(TypeError, match="strict"):
        score_batch([WIN], strict=value)


def test_jsonl_rejects_non_bool_flags(tmp_path):
    from mjfast.io.jsonl import score_records
    out = score_records([{"id": 1, "hand": WIN, "kong": "no"}, {"id": 2, "hand": WIN, "kong": 1}])
    assert all("kong" in r["error"] and "true or false" in r["error"] for r in out)


# ---------------------------------------------------------------------------
# 2. flags the rules drop are reported (or, with strict=True, an error)


def test_ignored_flags_worked_examples():
    # the winning 5p pairs another 5p: it cannot be the last 5p
    s = mjfast.score(WIN, fourth_tile=True)
    assert list(s.ignored_flags) == ["fourth_tile"] and "another copy" in s.ignored_flags["fourth_tile"]
    assert s.total == mjfast.score(WIN).total == 23
    # out with a replacement tile needs a kong
    s = mjfast.score(SINGLE, self_drawn=True, kong=True)
    assert list(s.ignored_flags) == ["kong"] and "replacement" in s.ignored_flags["kong"]
    assert "Out with Replacement Tile" not in s
    # robbing the kong of a tile the hand also holds (5p in hand)
    s = mjfast.score(WIN, kong=True)
    assert list(s.ignored_flags) == ["kong"] and "robbing" in s.ignored_flags["kong"]
    # ... or in a meld: [345p] holds a 4p, the winning tile
    s = mjfast.score("[345p]123m456m11p23p4p", kong=True)
    assert list(s.ignored_flags) == ["kong"]
    # applied flags are not reported
    s = mjfast.score(SINGLE, fourth_tile=True, kong=True)
    assert s.ignored_flags == {} and "Last Tile" not in s and "Robbing The Kong" in s
    s = mjfast.score(SINGLE, fourth_tile=True)
    assert s.ignored_flags == {} and "Last Tile" in s
    s = mjfast.score("[5555p]123m456m789m4p4p", self_drawn=True, kong=True)
    assert s.ignored_flags == {} and "Out with Replacement Tile" in s
    assert "ignored_flags" not in mjfast.score(SINGLE).as_dict()
    assert mjfast.score(WIN, fourth_tile=True).as_dict()["ignored_flags"] == \
        mjfast.score(WIN, fourth_tile=True).ignored_flags


def test_strict_raises_on_a_dropped_flag():
    with pytest.raises(InvalidHand, match="fourth_tile"):
        mjfast.score(WIN, fourth_tile=True, strict=True)
    with pytest.raises(InvalidHand, match="kong"):
        mjfast.score(SINGLE, self_drawn=True, kong=True, strict=True)
    assert mjfast.score(SINGLE, fourth_tile=True, strict=True).ignored_flags == {}
    res = score_batch(HandBatch.from_strings([WIN, SINGLE, WIN], fourth_tile=[True, True, False]), strict=True)
    assert list(res.errors) == [ERR_INVALID, ERR_OK, ERR_OK]
    assert "fourth_tile" in res.error_message(0) and res.totals[0] == -1
    assert res.record(0)["error"] == res.error_message(0)
    # without strict: scored, and reported per row
    res = score_batch(HandBatch.from_strings([WIN, SINGLE, WIN], fourth_tile=[True, True, False]))
    assert list(res.errors) == [ERR_OK] * 3
    assert list(res.ignored_flags(0)) == ["fourth_tile"] and res.ignored_flags(1) == {} == res.ignored_flags(2)
    assert res.record(0)["ignored_flags"] == mjfast.score(WIN, fourth_tile=True).ignored_flags
    assert "ignored_flags" not in res.record(1)
    assert res.to_pandas()["ignored_flags"].tolist() == ["fourth_tile", None, None]


def test_ignored_flags_agree_with_the_fan_engine():
    """Differential: a reported flag changes nothing; an unreported one scores its fan."""
    recs = random_winning_records(1500, seed=7)
    n_dropped = n_kept = 0
    for rec in recs:
        base = {k: rec[k] for k in ("self_drawn", "seat_wind", "round_wind", "flowers")}
        off = mjfast.score(rec["hand"], **base)
        for flag, fans in (("fourth_tile", {"last_tile"}),
                           ("kong", {"robbing_the_kong", "out_with_replacement_tile"})):
            s = mjfast.score(rec["hand"], **base, **{flag: True})
            if flag in s.ignored_flags:
                n_dropped += 1
                assert (s.total, [f.key for f in s.fans]) == (off.total, [f.key for f in off.fans]), rec
            else:
                n_kept += 1
                assert s.ignored_flags == {} and fans & {f.key for f in s.fans}, rec
            # the batch says the same
            b = score_batch(HandBatch.from_strings([rec["hand"]], **base, **{flag: True}))
            assert b.ignored_flags(0) == s.ignored_flags
    assert n_dropped > 100 and n_kept > 100


def test_cli_reports_ignored_flags(capsys):
    from mjfast.cli import main
    assert main(["score", WIN, "--fourth-tile"]) == 0
    out = capsys.readouterr().out
    assert "Ignored: fourth tile" in out and "another copy" in out
    assert main(["score", WIN, "--fourth-tile", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert list(d["ignored_flags"]) == ["fourth_tile"]
    assert main(["score", WIN, "--fourth-tile", "--strict"]) == 2
    assert "fourth_tile" in capsys.readouterr().err
    assert main(["score", SINGLE, "--fourth-tile"]) == 0
    assert "Ignored" not in capsys.readouterr().out


def test_jsonl_reports_ignored_flags():
    from mjfast.io.jsonl import score_records
    a, b = score_records([{"id": 1, "hand": WIN, "fourth_tile": True}, {"id": 2, "hand": SINGLE, "fourth_tile": True}])
    assert list(a["ignored_flags"]) == ["fourth_tile"] and "ignored_flags" not in b


# ---------------------------------------------------------------------------
# 3. a single string / dict is not a batch


@pytest.mark.parametrize("call", [
    lambda: score_batch(WIN),
    lambda: score_batch(WIN.encode()),
    lambda: score_batch({"hand": WIN}),
    lambda: score_batch(5),
    lambda: HandBatch.from_records({"hand": WIN}),
    lambda: HandBatch.from_records(WIN),
    lambda: HandBatch.from_records(None),
    lambda: HandBatch.from_strings(WIN),
    lambda: HandBatch.from_strings({WIN: 1}),
    lambda: HandBatch.from_strings([WIN, WIN], self_drawn={"a": True, "b": False}),
])
def test_single_items_are_not_batches(call):
    with pytest.raises(TypeError):
        call()


def test_iterables_still_work():
    assert list(score_batch(iter([WIN, SINGLE])).totals) == [23, mjfast.score(SINGLE).total]
    assert list(score_batch((r for r in [{"hand": WIN}])).totals) == [23]
    assert list(score_batch(np.array([WIN])).totals) == [23]


# ---------------------------------------------------------------------------
# 5. chunk sizes


def _jsonl(tmp_path, lines):
    p = tmp_path / "hands.jsonl"
    p.write_text("".join(line + "\n" for line in lines))
    return p


@pytest.mark.parametrize("size,exc", [(0, ValueError), (-1, ValueError), (1.5, TypeError), ("2", TypeError),
                                      (True, TypeError), (None, TypeError)])
def test_from_jsonl_rejects_bad_chunk_sizes_at_the_call(tmp_path, size, exc):
    p = _jsonl(tmp_path, [json.dumps({"hand": WIN})] * 3)
    with pytest.raises(exc, match="chunk_size"):
        HandBatch.from_jsonl(p, chunk_size=size)      # raised before any iteration
    assert [len(b) for b in HandBatch.from_jsonl(p, chunk_size=np.int64(2))] == [2, 1]


# ---------------------------------------------------------------------------
# 9. error rows carry the message and the file's line number


def test_line_numbers_across_chunks(tmp_path):
    lines = [json.dumps({"id": i, "hand": WIN}) for i in range(7)]
    lines[4] = '{"id": 4, "hand": '                       # bad JSON on line 5
    lines[5] = json.dumps({"id": 5, "hand": "123m"})      # bad hand on line 6
    p = _jsonl(tmp_path, lines)
    results = [score_batch(b) for b in HandBatch.from_jsonl(p, chunk_size=3)]
    assert [len(r) for r in results] == [3, 3, 1]
    r = results[1]                                        # lines 4, 5, 6
    assert list(r.errors) == [ERR_OK, ERR_INVALID, ERR_INVALID]
    assert r.record(1)["line"] == 5 and "line 5" in r.error_message(1) and "line 2" not in r.error_message(1)
    assert r.record(2)["line"] == 6 and r.record(2)["id"] == 5
    df = r.to_pandas()
    assert df["line"].tolist() == [4, 5, 6]
    assert df["error"].iloc[0] is None and "bad JSON" in df["error"].iloc[1]
    assert df["error_code"].tolist() == [0, 1, 1]
    t = r.to_arrow()
    assert t.column("line").to_pylist() == [4, 5, 6] and t.column("error").to_pylist()[0] is None


def test_error_columns_without_lines():
    res = score_batch([WIN, "123m456m789m123p5p6p", "bad"])
    df = res.to_pandas()
    assert df["error"].tolist()[0] is None
    assert df["error"].tolist()[1] == "not a winning hand: 123m456m789m123p5p6p"
    assert "unknown tile" in df["error"].tolist()[2]
    assert df["line"].isna().all()
    assert res.record(2)["line"] is None and "unknown tile" in res.record(2)["error"]
    assert res.to_arrow().column("line").null_count == 3


# ---------------------------------------------------------------------------
# 4. errors="mask" never raises for a bad row, whatever the dtype


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64])
def test_mask_flags_bad_rows_of_any_integer_dtype(dtype):
    good14 = mjfast.to_counts("123m456m789m123p55p")
    good13 = mjfast.to_counts("123m456m789m123p5p")
    big = min(300, int(np.iinfo(dtype).max))
    for good, call in ((good14, mjfast.is_win_batch), (good14, mjfast.shanten_batch),
                       (good13, mjfast.shanten_batch), (good13, mjfast.waits_batch)):
        H = np.stack([good, good, good, good]).astype(dtype)
        H[1, 0] = big
        if np.iinfo(dtype).min < 0:
            H[2, 5] = -1
        res, err = call(H, errors="mask")
        ref_res, ref_err = call(np.stack([good, good, good, good]), errors="mask")
        assert err[0] == 0 and err[3] == 0 and err[1] == mjfast.core.ERR_TOO_MANY_COPIES
        assert np.array_equal(res[0], ref_res[0]) and np.array_equal(res[3], ref_res[3])
        if np.iinfo(dtype).min < 0:
            assert err[2] == mjfast.core.ERR_NEGATIVE
            assert mjfast.core.ERROR_MESSAGES[int(err[2])] == "a negative tile count"
        bad = [1, 2] if np.iinfo(dtype).min < 0 else [1]
        if call is mjfast.is_win_batch:
            assert not res[bad].any()
        elif call is mjfast.shanten_batch:
            assert (res[bad] == -128).all()
        else:
            assert not res[bad].any()
        with pytest.raises(InvalidHand, match="row 1"):
            call(H)                                # errors="raise" still names the first bad row


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64])
def test_narrowing_pass_matches_its_definition(dtype):
    # the batch functions and HandBatch narrow wider integers in one compiled
    # pass (_core.narrow_rows, blocks of rows tested by an OR): against the
    # definition, value by value, with bad values in some blocks only
    from mjfast import _core
    rng = np.random.default_rng(np.dtype(dtype).itemsize)
    info = np.iinfo(dtype)
    edge = [v for v in (-(2**63), -(2**31), -256, -129, -1, 0, 4, 5, 127, 128, 255, 256, 2**31 - 1, 2**32,
                        2**63 - 1, 2**64 - 1) if info.min <= v <= info.max]
    for n in (0, 1, 15, 16, 17, 100):
        for k in (34, 12, 1, 5):
            a = rng.integers(0, 5, (n, k)).astype(dtype)
            for _ in range(n // 8):
                a[rng.integers(0, n), rng.integers(0, k)] = rng.choice(edge)
            out = np.full((n, k), 7, np.uint8)
            fl = np.full(n, 7, np.uint8)
            nbad = _core.narrow_rows(a, out, fl)
            rows = a.astype(object).tolist()
            want_fl = [int(any(x < 0 for x in r)) | 2 * int(any(x > 255 for x in r)) for r in rows]
            assert out.tolist() == [[min(max(x, 0), 255) for x in r] for r in rows]
            assert fl.tolist() == want_fl and nbad == sum(f != 0 for f in want_fl)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64])
def test_wide_handbatch_columns_as_their_uint8_copies(dtype):
    # HandBatch from wider integer columns: the batch of their uint8 values,
    # and a value outside 0..255 flags its row naming the column
    b = HandBatch.from_strings(["123m456m789m123p55p", "[123m]456m789m123p55p", "19m19p19sESWNCFP1m"] * 6)
    names = ("counts", "melds", "n_melds", "win_tile", "flags", "seat", "round", "flowers")
    cols = {k: getattr(b, k).astype(dtype) for k in names}
    w = HandBatch(**cols)
    for k in names:
        assert getattr(w, k).dtype == np.uint8 and (getattr(w, k) == getattr(b, k)).all()
    assert not w.invalid.any()
    info = np.iinfo(dtype)
    if info.max > 255:
        cols["counts"][4, 7] = 300
        cols["flowers"][9] = 256
    if info.min < 0:
        cols["melds"][11, 0, 1] = -1
    w = HandBatch(**cols)
    bad = {4: "counts", 9: "flowers"} if info.max > 255 else {}
    if info.min < 0:
        bad[11] = "melds"
    assert sorted(np.flatnonzero(w.invalid).tolist()) == sorted(bad)
    for i, name in bad.items():
        assert w.messages[i] == f"{name} out of range (a value below 0 or above 255)"


def test_mask_whole_call_errors_stay_errors():
    H = np.zeros((2, 34), np.uint8)
    for call in (mjfast.is_win_batch, mjfast.shanten_batch, mjfast.waits_batch):
        with pytest.raises(TypeError, match="hands"):
            call(H.astype(np.float64), errors="mask")
        with pytest.raises(TypeError, match="hands"):
            call(H.astype(bool), errors="mask")
        with pytest.raises(ValueError, match="hands"):
            call(np.zeros((2, 33), np.uint8), errors="mask")
        with pytest.raises(ValueError, match="errors"):
            call(H, errors="ignore")
        with pytest.raises(TypeError, match="melds"):
            call(H, melds=1.5, errors="mask")
        with pytest.raises(ValueError, match="melds"):
            call(H, melds=[1, 2, 3], errors="mask")
        # melds out of range, however large, flag the rows
        for m in (10**20, -1, 5, np.uint64(2**64 - 1), [0, 10**30]):
            _, err = call(H, melds=m, errors="mask")
            assert err[-1] == mjfast.core.ERR_BAD_MELDS


# ---------------------------------------------------------------------------
# 6. strings and arrays take the same hand sizes


def _short_hands():
    rng = np.random.default_rng(3)
    out = ["1111m", "11m", "1m", "1112m", "5p5p5p5p", "EEEE", "123m5p", "1m9p", "147m258p", "1234m"]
    for n in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14):
        for _ in range(25):
            wall = rng.permutation(np.repeat(np.arange(34), 4))[:n]
            out.append(mjfast.counts_to_str(np.bincount(wall, minlength=34).astype(np.uint8)))
    return out


def _outcome(f, *a, **k):
    try:
        return ("ok", f(*a, **k))
    except InvalidHand as exc:
        return ("raise", type(exc).__name__)


@pytest.mark.parametrize("call", [mjfast.shanten, mjfast.waits, mjfast.useful_tiles, mjfast.is_win,
                                  mjfast.decompose])
def test_string_and_array_take_the_same_sizes(call):
    for text in _short_hands():
        a = _outcome(call, text)
        b = _outcome(call, mjfast.to_counts(text))
        assert a == b, (call.__name__, text, a, b)
        assert _outcome(call, mjfast.parse_hand(text)) == a


def test_short_strings_worked_examples():
    assert mjfast.shanten("1111m") == 0 == mjfast.shanten(mjfast.to_counts("1111m"))
    assert mjfast.waits("1111m") == []                  # the fifth 1m does not exist
    assert mjfast.is_win("11m") and mjfast.is_win("1m2m") is False
    assert mjfast.shanten("1111m", melds=3) == 0
    with pytest.raises(InvalidHand, match="13 or 14"):
        mjfast.shanten("1111m", melds=2)
    with pytest.raises(InvalidHand, match="contradicts"):
        mjfast.shanten("[111m]1m", melds=3)              # brackets fix the melds


# ---------------------------------------------------------------------------
# 7. hostile arguments: the right exception, naming the argument

_S = None


def _score():
    global _S
    if _S is None:
        _S = mjfast.score(WIN)
    return _S


_H = np.zeros((2, 34), np.uint8)
HOSTILE = [
    # (call, exception type, word the message must contain)
    (lambda: mjfast.shanten("123m456p789s11pEEN", melds=np.array([0, 1])), TypeError, "melds"),
    (lambda: mjfast.shanten("123m456p789s11pEEN", melds=np.array([0])), TypeError, "melds"),
    (lambda: mjfast.shanten(mjfast.to_counts("123m456p789s11pEEN"), melds=np.array([0, 1])), TypeError, "melds"),
    (lambda: mjfast.shanten("123m456p789s11pEEN", melds=10**20), ValueError, "melds"),
    (lambda: mjfast.is_win("123m456p789s11pEEN5m", melds=1.0), TypeError, "melds"),
    (lambda: mjfast.waits("123m456p789s11pEE", melds="0"), TypeError, "melds"),
    (lambda: mjfast.useful_tiles("123m456p789s11pEE", melds=True), TypeError, "melds"),
    (lambda: mjfast.decompose("123m456p789s11p55s", melds=-1), ValueError, "melds"),
    (lambda: mjfast.best_discards("123m456p789s11p55s", melds=[0]), TypeError, "melds"),
    (lambda: mjfast.best_discards(WIN, visible="x"), TypeError, "visible"),
    (lambda: mjfast.best_discards(WIN, visible=[0.5] * 34), TypeError, "visible"),
    (lambda: mjfast.best_discards(WIN, visible=[10**20] * 34), TypeError, "visible"),
    (lambda: mjfast.best_discards(WIN, visible=[0] * 33), ValueError, "visible"),
    (lambda: mjfast.shanten("1m", form=3), ValueError, "form"),
    (lambda: mjfast.to_counts([10**20] + [0] * 33), ValueError, "item 0"),
    (lambda: mjfast.score(None), TypeError, "hand"),
    (lambda: mjfast.score(WIN, flowers=10**20), ValueError, "flowers"),
    (lambda: mjfast.score(WIN, flowers="1"), TypeError, "flowers"),
    (lambda: mjfast.score(WIN, seat_wind=1.5), TypeError, "seat_wind"),
    (lambda: mjfast.score(WIN, round_wind=10**20), ValueError, "round_wind"),
    (lambda: mjfast.score(WIN, self_drawn=np.array([True, False])), TypeError, "self_drawn"),
    (lambda: mjfast.winning_tiles(123), TypeError, "hand"),
    (lambda: mjfast.winning_tiles("123m456m789m123p5p", flowers=1.5), TypeError, "flowers"),
    (lambda: _score().settlement(discarder=1.0), TypeError, "discarder"),
    (lambda: _score().settlement(discarder="1"), TypeError, "discarder"),
    (lambda: _score().settlement(discarder=True), TypeError, "discarder"),
    (lambda: _score().settlement(discarder=0), ValueError, "discarder"),
    (lambda: _score().settlement(discarder=4), ValueError, "discarder"),
    (lambda: _score().settlement(discarder=10**20), ValueError, "discarder"),
    (lambda: _score().settlement(), ValueError, "discarder"),
    (lambda: _score().settlement(discarder_seat=1), TypeError, "winner_seat"),
    (lambda: _score().settlement(1, winner_seat=0, discarder_seat=1), TypeError, "discarder"),
    (lambda: _score().settlement(winner_seat=0, discarder_seat=0), ValueError, "same seat"),
    (lambda: _score().settlement(winner_seat=0, discarder_seat=2.0), TypeError, "discarder_seat"),
    (lambda: _score().settlement(winner_seat="X", discarder_seat=1), ValueError, "winner_seat"),
    (lambda: mjfast.is_win_batch(_H, errors=None), ValueError, "errors"),
    (lambda: mjfast.is_win_batch("123m"), ValueError, "hands"),
    (lambda: mjfast.shanten_batch(np.array([[None] * 34])), TypeError, "hands"),
    (lambda: mjfast.shanten_batch(_H, form=3), ValueError, "form"),
    (lambda: score_batch(WIN), TypeError, "batch"),
    (lambda: score_batch([WIN], strict="yes"), TypeError, "strict"),
    (lambda: HandBatch.from_records({"hand": WIN}), TypeError, "records"),
    (lambda: HandBatch.from_strings(WIN), TypeError, "hands"),
    (lambda: HandBatch.from_strings([WIN], flowers=1.5), TypeError, "flowers"),
    (lambda: HandBatch.from_strings([WIN], seat_wind="X"), ValueError, "seat_wind"),
    (lambda: HandBatch.from_strings([WIN, WIN], kong=[True]), ValueError, "kong"),
    (lambda: HandBatch.from_jsonl("x", chunk_size=0), ValueError, "chunk_size"),
]


@pytest.mark.parametrize("k", range(len(HOSTILE)))
def test_hostile_arguments(k):
    call, exc, word = HOSTILE[k]
    with pytest.raises(exc) as ei:
        call()
    assert word in str(ei.value)
    # never a bare numpy / CPython message
    for bare in ("truth value", "too large to convert", "list indices", "invalid literal"):
        assert bare not in str(ei.value)


# ---------------------------------------------------------------------------
# 10. one definition of a useful tile


def test_best_discards_and_useful_tiles_agree():
    hand = "[111m]1m456p789s11p3s5s"                  # all four 1m held: drawing one is impossible
    d = {x.tile: x for x in mjfast.best_discards(hand)}
    one_p = mjfast.tile_index("1p")
    assert mjfast.useful_tiles("[111m]1m456p789s1p3s5s") == [one_p, mjfast.tile_index("4s")]
    assert d[one_p].useful_kinds == 2
    assert d[one_p].useful_left == 2 + 4      # 1p: 4 - 2 seen (one kept, one discarded); 4s: 4
    # every discard, checked against useful_tiles of the hand left
    h = mjfast.parse_hand(hand)
    for t, x in d.items():
        tiles = list(h.tiles)
        tiles.remove(t)
        left = mjfast.format_hand(mjfast.Hand(h.melds, tuple(tiles)))
        assert x.useful_kinds == len(mjfast.useful_tiles(left)), (t, left)


# ---------------------------------------------------------------------------
# 11. seats: 1 = left (上家), 2 = opposite (对家), 3 = right (下家), as the meld digits


def test_settlement_seats_worked_example():
    # 123m456m789m123p5p5p on a discard: F = 23, the discarder pays 8 + 23 = 31,
    # the two others 8 each, the winner gains 31 + 8 + 8 = 47.
    s = mjfast.score(WIN)
    assert s.total == 23
    assert s.settlement(discarder=1) == (47, -31, -8, -8)     # the winner's left (上家) discarded
    assert s.settlement(discarder=2) == (47, -8, -31, -8)     # opposite (对家)
    assert s.settlement(discarder=3) == (47, -8, -8, -31)     # right (下家)
    # The same with absolute seats (E S W N = 0..3, play order E -> S -> W -> N).
    # Winner South: the player on South's left plays just before South: East.
    assert s.settlement(winner_seat="S", discarder_seat="E") == (-31, 47, -8, -8)
    assert s.settlement(winner_seat=1, discarder_seat=0) == (-31, 47, -8, -8)
    # Winner East: North plays before East (left, 1), West sits opposite (2), South after (3)
    assert s.settlement(winner_seat="E", discarder_seat="N") == (47, -8, -8, -31)
    assert s.settlement(winner_seat="E", discarder_seat="S") == (47, -31, -8, -8)
    assert s.settlement(winner_seat="E", discarder_seat="W") == (47, -8, -31, -8)
    # the relative and absolute forms agree for every pair of seats
    for w in range(4):
        for r in (1, 2, 3):
            rel = s.settlement(discarder=r)
            ab = s.settlement(winner_seat=w, discarder_seat=(w - r) % 4)
            assert ab[w] == rel[0] and ab[(w - r) % 4] == rel[r]
    sd = mjfast.score(WIN, self_drawn=True)
    assert sd.settlement(winner_seat="W") == (-(8 + sd.total),) * 2 + (3 * (8 + sd.total),) + (-(8 + sd.total),)
    # the meld digit means the same: [EEE1] was claimed from the left
    assert mjfast.parse_hand("[EEE1]123m456m789m5p5p").melds[0].claimed == 1


def test_cli_seats(capsys):
    from mjfast.cli import main
    assert main(["score", WIN, "--discarder", "1", "--seat", "S", "--json"]) == 0
    st = json.loads(capsys.readouterr().out)["settlement"]
    assert st["seats"] == [47, -31, -8, -8] and st["by_wind"] == {"E": -31, "S": 47, "W": -8, "N": -8}
    assert main(["score", WIN, "--discarder-seat", "E", "--seat", "S", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["settlement"] == st
    assert main(["score", WIN, "--discarder", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 right 下家 (S)" in out and "-31  discarder" in out.split("3 right")[1]
    assert main(["score", WIN, "--discarder", "1", "--discarder-seat", "N"]) == 2
    assert main(["score", WIN, "--discarder-seat", "E"]) == 2          # the winner's own seat (E)
    assert "own seat" in capsys.readouterr().err
    assert main(["score", "--help"]) == 0 if False else True
    from mjfast.cli import build_parser
    helptext = build_parser()._subparsers._group_actions[0].choices["score"].format_help()
    assert "1 = the player on the left (上家" in " ".join(helptext.split())


# ---------------------------------------------------------------------------
# 8. a closed pipe is not a failure


def test_closed_pipe_exits_quietly(tmp_path):
    import subprocess
    import sys
    p = _jsonl(tmp_path, [json.dumps({"id": i, "hand": WIN}) for i in range(40000)])
    proc = subprocess.Popen([sys.executable, "-m", "mjfast", "score", "--jsonl", str(p)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()                       # the reader goes away, as `| head -1` does
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert json.loads(first)["id"] == 0
    assert proc.returncode == 0, err
    assert b"Traceback" not in err and b"BrokenPipe" not in err and err == b""


def test_closed_pipe_in_a_shell_pipeline(tmp_path):
    import shutil
    import subprocess
    import sys
    if shutil.which("head") is None or shutil.which("bash") is None:  # pragma: no cover
        pytest.skip("needs bash and head")
    p = _jsonl(tmp_path, [json.dumps({"id": i, "hand": WIN}) for i in range(40000)])
    cmd = f'"{sys.executable}" -m mjfast score --jsonl "{p}" | head -n 2 >/dev/null; echo "${{PIPESTATUS[0]}}"'
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=120)
    assert r.stdout.strip() == b"0" and r.stderr == b""


# ---------------------------------------------------------------------------
# 12. --json for waits / shanten / fans; optional dependencies


def test_cli_json_outputs(capsys):
    from mjfast.cli import main
    assert main(["waits", "1112345678999m", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["waits"] == [f"{i}m" for i in range(1, 10)] and d["shanten"] == 0
    assert d["tiles_left"] == sum(4 - n for n in (3, 1, 1, 1, 1, 1, 1, 1, 3))
    assert main(["shanten", "123m456p789sEE19s", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["shanten"] == 1 and d["waits"] is None
    assert d["useful_tiles"] == [mjfast.tile_name(t) for t in mjfast.useful_tiles("123m456p789sEE19s")]
    assert main(["shanten", "123m456p789sEE12s", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["waits"] == ["3s"]
    assert main(["shanten", "123m456p789sEE12s3s", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["shanten"] == -1 and d["useful_tiles"] is None
    assert main(["fans", "--json"]) == 0
    fans = json.loads(capsys.readouterr().out)
    assert len(fans) == len(mjfast.MCR) and fans[0]["key"] == mjfast.MCR.fans[0].key
    assert main(["fans", "pure_straight", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["points"] == 16 and d["zh"] == "清龙" and isinstance(d["excludes"], list)


@pytest.mark.parametrize("module,method,extra", [("pandas", "to_pandas", "tables"),
                                                 ("pyarrow", "to_arrow", "tables")])
def test_missing_optional_dependency_says_how_to_install(monkeypatch, module, method, extra):
    import sys
    res = score_batch([WIN])
    for name in list(sys.modules):
        if name == module or name.startswith(module + "."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)     # makes `import module` raise ImportError
    with pytest.raises(ImportError) as ei:
        getattr(res, method)()
    assert f"pip install '.[{extra}]'" in str(ei.value)
    assert not type(ei.value) is ModuleNotFoundError


def test_extras_are_declared():
    import tomllib  # noqa: F401 - python >= 3.11 for the check; the package supports 3.9
    from pathlib import Path
    meta = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    extras = meta["project"]["optional-dependencies"]
    assert any(d.startswith("pandas") for d in extras["pandas"])
    assert any(d.startswith("pyarrow") for d in extras["arrow"])
    assert {"pandas", "pyarrow"} <= {d.split(">")[0].split("=")[0] for d in extras["dev"]}


def test_process_jsonl_rejects_a_single_string():
    from mjfast.io.jsonl import process_jsonl
    for bad in ('{"hand": "123m456m789m123p5p5p"}', b'{"hand": "x"}'):
        with pytest.raises(TypeError, match="lines"):
            process_jsonl(bad, lambda b: None)


def test_array_batch_columns_are_not_wrapped_or_truncated():
    good = mjfast.to_counts(WIN)
    C = np.stack([good, good])
    M = np.zeros((2, 4, 3))                       # float zeros: whole numbers are fine
    # a value no uint8 can hold flags its row instead of wrapping (-1 -> 255, 256 -> 0)
    for bad in ([10**20, 13], [-1, 13], np.array([256, 13], np.int32)):
        b = HandBatch(C, M, [0, 0], bad, 0, 0, 0, 0)
        assert list(b.invalid) == [True, False] and "win_tile" in b.messages[0]
        assert list(score_batch(b).totals) == [-1, 23]
    neg = C.astype(np.int16)
    neg[1, 0] = -1
    assert list(HandBatch(neg, M, [0, 0], [13, 13], 0, 0, 0, 0).invalid) == [False, True]
    # a fraction is not silently truncated
    with pytest.raises(TypeError, match="win_tile"):
        HandBatch(C, M, [0, 0], [13.5, 13], 0, 0, 0, 0)
    with pytest.raises(TypeError, match="flowers"):
        HandBatch(C, M, [0, 0], [13, 13], 0, 0, 0, [0, np.nan])
    with pytest.raises(TypeError, match="counts"):
        HandBatch(None, M, [0, 0], [13, 13], 0, 0, 0, 0)
    with pytest.raises(ValueError, match="flowers"):
        HandBatch(C, M, [0, 0], [13, 13], 0, 0, 0, -1)      # a bad scalar is an argument error


def test_jsonl_strict(tmp_path, capsys):
    from mjfast.cli import main
    p = _jsonl(tmp_path, [json.dumps({"id": 1, "hand": WIN, "fourth_tile": True}),
                          json.dumps({"id": 2, "hand": SINGLE, "fourth_tile": True})])
    assert main(["score", "--jsonl", str(p), "--no-progress"]) == 0
    a, b = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert "ignored_flags" in a and "ignored_flags" not in b
    assert main(["score", "--jsonl", str(p), "--no-progress", "--strict"]) == 1
    a, b = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert a["line"] == 1 and "fourth_tile" in a["error"] and b["total"] > 0
