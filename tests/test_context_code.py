"""The win context read by the compiled core (_core.context_code / wind_code,
which the record readers and the scorer's fast path share) against the Python
checks it replaced, kept here as the oracle: the same values, and for a bad
argument the same exception class and message."""
from __future__ import annotations

import enum
import itertools

import numpy as np
import pytest

import mjfast
from mjfast.errors import InvalidArgument, InvalidHand
from mjfast.scoring.records import FLAG_BITS, FLAG_NAMES, check_context, check_wind, show as _show


def _ref_flag(value, name):
    if value is True or value is False:
        return value
    if type(value) is np.bool_:
        return bool(value)
    raise InvalidArgument(f"{name} must be true or false (a bool), got {_show(value)}")


def _ref_wind(value, name):
    codes = {w: i for i, w in enumerate("ESWN")} | {w.lower(): i for i, w in enumerate("ESWN")}
    if type(value) is str:
        w = codes.get(value)
        if w is not None:
            return w
    elif isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if 0 <= value <= 3:
            return int(value)
    # a bad value or a bad type: an argument error either way
    raise InvalidArgument(f"{name} must be one of \"E\" \"S\" \"W\" \"N\" or 0-3, got {_show(value)}")


def _ref_flowers(value, name="flowers"):
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if 0 <= value <= 8:
            return int(value)
    raise InvalidArgument(f"{name} must be an integer 0-8, got {_show(value)}")


def _ref_context(sd, ft, kg, lt, seat, rnd, fl):
    flags = 0
    for name, value in zip(FLAG_NAMES, (sd, ft, kg, lt)):
        if _ref_flag(value, name):
            flags |= FLAG_BITS[name]
    return (flags, _ref_wind(seat, "seat_wind"), _ref_wind(rnd, "round_wind"), _ref_flowers(fl))


class _Seat(enum.IntEnum):
    SOUTH = 1


class _Str(str):
    pass


VALUES = [True, False, None, 0, 1, 2, 3, 4, 8, 9, -1, 2 ** 70, -(2 ** 70), "E", "e", "S", "w", "N", "n", "x", "",
          "EE", "东", _Str("E"), np.int64(2), np.uint8(9), np.int8(-1), np.bool_(True), np.bool_(False), 2.0, [],
          _Seat.SOUTH, b"E"]


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except (InvalidHand, InvalidArgument) as e:
        return (type(e).__name__, str(e))


def test_wind_code_matches_the_python_check():
    for v in VALUES:
        assert _outcome(check_wind, v, "seat_wind") == _outcome(_ref_wind, v, "seat_wind"), v


def test_flowers_code_matches_the_python_check():
    from mjfast.records import check_flowers
    for v in VALUES:
        assert _outcome(check_flowers, v) == _outcome(_ref_flowers, v), v


def test_context_code_matches_the_python_checks():
    base = [False, False, False, False, "E", "E", 0]
    for k, v in itertools.product(range(7), VALUES):
        args = list(base)
        args[k] = v
        assert _outcome(check_context, *args) == _outcome(_ref_context, *args), (k, v)
    # two bad arguments: the first one is named
    for a, b in itertools.combinations(range(7), 2):
        args = list(base)
        args[a] = args[b] = "bad"
        assert _outcome(check_context, *args) == _outcome(_ref_context, *args), (a, b)
    for sd, ft, kg, lt in itertools.product([True, False, np.bool_(True)], repeat=4):
        args = [sd, ft, kg, lt, "w", 3, 8]
        assert _outcome(check_context, *args) == _outcome(_ref_context, *args)


def test_score_fast_path_reads_the_context_like_the_slow_one():
    # numpy flags and winds now take the compiled path: the same score as plain values
    h = "[567m2][EEE1]45m678pFF6m"
    a = mjfast.score(h, self_drawn=np.bool_(True), last_tile=True, seat_wind=np.int64(2), round_wind="s",
                     flowers=np.int64(3))
    b = mjfast.score(h, self_drawn=True, last_tile=True, seat_wind="W", round_wind="S", flowers=3)
    assert (a.total, [(f.key, f.count) for f in a.fans]) == (b.total, [(f.key, f.count) for f in b.fans])
    assert a.self_drawn is True and a.flowers == 3
    with pytest.raises(InvalidArgument, match="seat_wind must be one of"):
        mjfast.score(h, seat_wind=4)
    with pytest.raises(InvalidArgument, match="last_tile must be true or false"):
        mjfast.score(h, last_tile=1)
