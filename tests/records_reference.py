"""The record path as it was written in Python, row by row: the oracle of the
compiled record reader (tests/test_records_fast.py).

Every row goes through the Python validator (mjfast.records.validate_record)
and the Python notation parser (mjfast.score.hand_args); nothing compiled
reads the records here.
"""
from __future__ import annotations

import numpy as np

from mjfast.batch import RULE_FLAG_BITS, _records_rules
from mjfast.errors import InvalidHand
from mjfast.scoring.records import RecordError, check_context, validate_record, show as _show
from mjfast.score import hand_args


def _row(cols, i, args):
    h, counts, melds, n_melds, win, flags, seat, rnd, fl = hand_args(*args)
    cols["counts"][i] = counts
    cols["melds"][i] = melds
    cols["n_melds"][i] = n_melds
    cols["win_tile"][i] = win
    cols["flags"][i] = flags
    cols["seat"][i] = seat
    cols["round"][i] = rnd
    cols["flowers"][i] = fl


def _cols(n):
    return dict(counts=np.zeros((n, 34), np.uint8), melds=np.zeros((n, 4, 3), np.uint8),
                n_melds=np.zeros(n, np.uint8), win_tile=np.zeros(n, np.uint8), flags=np.zeros(n, np.uint8),
                seat=np.zeros(n, np.uint8), round=np.zeros(n, np.uint8), flowers=np.zeros(n, np.uint8))


def from_records(records, rules=None) -> dict:
    """{columns..., ids, invalid, messages, rule_flags, rules} of HandBatch.from_records."""
    records = list(records)
    rules, rule_msgs = _records_rules(records, rules)
    n = len(records)
    cols = _cols(n)
    invalid = np.zeros(n, bool)
    messages = {}
    for i, rec in enumerate(records):
        try:
            args = validate_record(rec)
            _row(cols, i, args)
        except (RecordError, InvalidHand, TypeError, ValueError) as exc:
            invalid[i] = True
            messages[i] = str(exc)
    for i, msg in rule_msgs.items():
        if not invalid[i]:
            invalid[i] = True
            messages[i] = msg
    rflags = np.zeros(n, np.uint8)
    for i, rec in enumerate(records):
        if not invalid[i]:
            for name, bit in RULE_FLAG_BITS.items():
                v = rec.get(name)
                if v is None or v is False:
                    continue
                if v is True:
                    rflags[i] |= bit
                else:
                    # no break: the last bad flag is the one named
                    invalid[i] = True
                    messages[i] = f"{name} must be true or false (a bool), got {_show(v)}"
    rflags[invalid] = 0
    return dict(cols, ids=[r.get("id") if type(r) is dict else None for r in records], invalid=invalid,
                messages=messages, rule_flags=rflags, rules=rules)


def from_strings(hands, **context) -> dict:
    """{columns..., invalid, messages} of HandBatch.from_strings; a bad scalar
    raises as the call does."""
    names = ("self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "round_wind", "flowers")
    defaults = (False, False, False, False, "E", "E", 0)
    values = [context.get(k, d) for k, d in zip(names, defaults)]
    n = len(hands)
    scalar = [isinstance(v, (str, bool, int, np.integer, np.bool_)) or v is None for v in values]
    check_context(*(v if sc else d for v, sc, d in zip(values, scalar, defaults)))
    per_row = []
    for v, sc, name in zip(values, scalar, names):
        if sc:
            per_row.append([v] * n)
        else:
            v = list(v)
            if len(v) != n:
                raise ValueError(f"{name} has {len(v)} items for {n} hands")
            per_row.append(v)
    cols = _cols(n)
    invalid = np.zeros(n, bool)
    messages = {}
    for i in range(n):
        try:
            _row(cols, i, [hands[i]] + [col[i] for col in per_row])
        except (InvalidHand, TypeError, ValueError) as exc:
            invalid[i] = True
            messages[i] = str(exc)
    return dict(cols, invalid=invalid, messages=messages)
