"""The compiled record reader against the Python one (tests/records_reference.py):
HandBatch.from_records and from_strings give the same rows, the same invalid
rows and the same messages, on random records many of which are malformed."""
import json
import random

import numpy as np
import pytest

import mjfast
from mjfast import HandBatch, score_batch

import handgen
import records_reference as ref

_COLS = ("counts", "melds", "n_melds", "win_tile", "flags", "seat", "round", "flowers")

# values a field may hold, good and bad (types the validator must refuse, numpy
# scalars it accepts, out-of-range ints, null)
_FLAG_VALUES = [True, False, None, 1, 0, "true", "no", 2.0, np.bool_(True), np.bool_(False), [], {}]
_WIND_VALUES = ["E", "s", "W", "n", 0, 3, 4, -1, "X", "", "EE", "east", True, None, 1.0, np.int64(2),
                np.int8(5), 2 ** 70, "\u4e1c"]
_FLOWER_VALUES = [0, 8, 9, -1, 3, None, True, 2.5, "2", np.int32(4), np.uint8(9), 2 ** 64]
_HAND_NOISE = list("0123456789mpsESWNCFPHBTJ[] \t") + ["\u4e00", "\x00", "[123m", "]", "[EEEE5]", "H1 ", "W1 "]


def _mangle_hand(rng, s):
    k = rng.randrange(6)
    if k == 0 and s:
        i = rng.randrange(len(s))
        return s[:i] + s[i + 1:]
    if k == 1:
        i = rng.randrange(len(s) + 1)
        return s[:i] + rng.choice(_HAND_NOISE) + s[i:]
    if k == 2 and s:
        i = rng.randrange(len(s))
        return s[:i] + rng.choice(_HAND_NOISE) + s[i + 1:]
    if k == 3:
        return rng.choice([None, 5, b"123m", ["1m"], "", " ", "1112345678999m", "W1 W2 W3 B1 B2 B3 T1 T2 T3 F1 F1 F1 J1 J1"])
    if k == 4:
        return rng.choice(["W1 W1 W1 W2 W3 W4 B5 B5 B5 T7 T8 T9 F1 F1 H1", "H1 H2 W1 W2 W3 B1 B2 B3 T1 T2 T3 J2 J2 J2 F3 F3",
                           "[123m]456m789m123p5p 5p", "\u4e00\u4e07" + s, s + "H1"])
    return s.replace("m", "M", 1)


def random_records(n, seed, bad=0.5):
    rng = random.Random(seed)
    recs = handgen.random_winning_records(n, seed=seed)
    out = []
    for i, r in enumerate(recs):
        r = dict(r)
        if rng.random() < 0.5:
            r["id"] = rng.choice([i, str(i), None, [i], {"k": i}, 1.5, True])
        if rng.random() < bad:
            for _ in range(rng.randrange(1, 3)):
                what = rng.randrange(8)
                if what == 0:
                    r["hand"] = _mangle_hand(rng, r["hand"]) if isinstance(r.get("hand"), str) else "123m"
                elif what == 1:
                    r[rng.choice(("self_drawn", "fourth_tile", "kong", "last_tile"))] = rng.choice(_FLAG_VALUES)
                elif what == 2:
                    r[rng.choice(("seat_wind", "round_wind"))] = rng.choice(_WIND_VALUES)
                elif what == 3:
                    r["flowers"] = rng.choice(_FLOWER_VALUES)
                elif what == 4:
                    r[rng.choice(("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start"))] = \
                        rng.choice(_FLAG_VALUES)
                elif what == 5:
                    r.pop("hand", None) if rng.random() < 0.5 else r.update(hand=None)
                elif what == 6:
                    r = rng.choice([[r], "x", 5, None, (), r["hand"] if "hand" in r else "h"])
                    break
                else:
                    r["extra"] = rng.random()
        out.append(r)
    return out


def _check_same(batch, want, rows_equal=True):
    assert batch.invalid.tolist() == want["invalid"].tolist()
    assert batch.messages == want["messages"]
    ok = ~want["invalid"]
    for c in _COLS:
        got = getattr(batch, c)
        assert np.array_equal(got[ok], want[c][ok]), c
    if "ids" in want:
        assert batch.ids == want["ids"]
        assert np.array_equal(batch.rule_flags[ok], want["rule_flags"][ok])


@pytest.mark.parametrize("seed", range(6))
def test_from_records_matches_the_python_reader(seed):
    recs = random_records(1500, seed)
    want = ref.from_records(recs)
    b = HandBatch.from_records(recs)
    _check_same(b, want)
    assert want["invalid"].sum() > 300 and (~want["invalid"]).sum() > 300    # both kinds are exercised


def test_from_records_all_valid_and_scores_unchanged():
    recs = handgen.random_winning_records(4000, seed=77)
    want = ref.from_records(recs)
    b = HandBatch.from_records(recs)
    _check_same(b, want)
    assert not b.invalid.any()
    # the scores of the compiled rows equal those of the Python-built rows
    r1 = score_batch(b)
    cols = {c: want[c] for c in _COLS}
    r2 = score_batch(HandBatch(**cols))
    assert np.array_equal(r1.totals, r2.totals) and np.array_equal(r1.fan_counts, r2.fan_counts)


def test_from_records_rule_sets_and_two_player_flags():
    rng = random.Random(5)
    recs = random_records(600, 11, bad=0.3)
    for r in recs:
        if type(r) is dict and rng.random() < 0.3:
            r["rules"] = rng.choice(["mcr", "two_player", "nope", 5, None, "mcr-2023"])
    for rules in (None, "mcr", "two_player"):
        want = ref.from_records(recs, rules)
        b = HandBatch.from_records(recs, rules=rules)
        _check_same(b, want)
        assert (b.rules is None) == (want["rules"] is None)


def test_from_records_flag_bits_and_winds_exact():
    # every combination of the four flags and both winds, read by the compiled reader
    recs = []
    for f in range(16):
        for s, w in ((0, "E"), (1, "s"), (2, 2), (3, "N")):
            recs.append({"hand": "[567m2][EEE1]45m678pFF6m", "self_drawn": bool(f & 1), "fourth_tile": bool(f & 2),
                         "kong": bool(f & 4), "last_tile": bool(f & 8), "seat_wind": w, "round_wind": s,
                         "flowers": f % 9, "heavenly_hand": bool(f & 1), "ready_at_start": None})
    b = HandBatch.from_records(recs)
    assert not b.invalid.any()
    assert b.flags.tolist() == [f for f in range(16) for _ in range(4)]
    assert b.seat.tolist() == [0, 1, 2, 3] * 16 and b.round.tolist() == [0, 1, 2, 3] * 16
    assert b.flowers.tolist() == [f % 9 for f in range(16) for _ in range(4)]
    assert b.rule_flags.tolist() == [f & 1 for f in range(16) for _ in range(4)]


@pytest.mark.parametrize("seed", range(3))
def test_from_strings_matches_the_python_reader(seed):
    rng = random.Random(seed)
    recs = handgen.random_winning_records(800, seed=100 + seed)
    hands = [_mangle_hand(rng, r["hand"]) if rng.random() < 0.4 else r["hand"] for r in recs]
    n = len(hands)
    contexts = [
        {},
        {"self_drawn": True, "seat_wind": "S", "flowers": 3, "last_tile": np.bool_(True)},
        {"kong": True, "round_wind": np.int64(3)},
        {"self_drawn": [rng.choice(_FLAG_VALUES) for _ in range(n)], "seat_wind": "w"},
        {"seat_wind": [rng.choice(_WIND_VALUES) for _ in range(n)], "flowers": [rng.choice(_FLOWER_VALUES)
                                                                                  for _ in range(n)],
         "fourth_tile": True},
        {"round_wind": np.array([i % 4 for i in range(n)]), "kong": np.array([i % 3 == 0 for i in range(n)])},
    ]
    for ctx in contexts:
        want = ref.from_strings(hands, **ctx)
        b = HandBatch.from_strings(hands, **ctx)
        _check_same(b, want)


def test_from_strings_bad_scalar_raises_as_before():
    for ctx in ({"self_drawn": 1}, {"seat_wind": "X"}, {"flowers": 9}, {"kong": None}):
        with pytest.raises((TypeError, ValueError)) as e1:
            ref.from_strings(["123m456m789m123p55p"], **ctx)
        with pytest.raises(type(e1.value)) as e2:
            HandBatch.from_strings(["123m456m789m123p55p"], **ctx)
        assert str(e1.value) == str(e2.value)
    with pytest.raises(ValueError, match="has 2 items for 1 hands"):
        HandBatch.from_strings(["123m456m789m123p55p"], seat_wind=["E", "S"])


@pytest.mark.slow
def test_from_records_matches_the_python_reader_many():
    for seed in range(100, 140):
        recs = random_records(5000, seed)
        _check_same(HandBatch.from_records(recs), ref.from_records(recs))


def test_the_compiled_reader_takes_the_common_record():
    # well-typed records of winning hands (compact or Botzone codes) never reach the Python validator
    from mjfast import _core
    from mjfast.batch import _empty
    recs = handgen.random_winning_records(500, seed=3)
    recs += [{"hand": "123m456m789m123p55p", "seat_wind": w, "round_wind": 3, "flowers": 8, "id": [1],
              "human_hand": False, "extra": 1.5} for w in "ESWNeswn"]
    recs += [{"hand": "W1 W2 W3 B1 B2 B3 T1 T2 T3 F1 F1 F1 J1 J1"},
             {"hand": "123m456m789m123p55p", "flowers": np.int64(1), "seat_wind": np.uint8(2)}]
    recs += [{"hand": "123m456m789m123p55p", "kong": 1}, [], {"hand": "123m456m789m123p5p"}]
    n = len(recs)
    c = _empty(n)
    rf, st, ids = np.zeros(n, np.uint8), np.zeros(n, np.uint8), [None] * n
    assert _core.read_records(recs, c["counts"], c["melds"], c["n_melds"], c["win_tile"], c["flags"], c["seat"],
                              c["round"], c["flowers"], rf, st, ids) == 0
    assert st.tolist() == [0] * (n - 3) + [1] * 3
    assert ids[-6] == [1]
    assert c["counts"][n - 5].tolist() == mjfast.to_counts("123m123p123sEEECC").tolist()
    assert c["win_tile"][n - 5] == 31
    assert (c["flowers"][n - 4], c["seat"][n - 4]) == (1, 2)


def test_records_with_odd_keys_keep_their_id_and_are_read_by_the_validator():
    recs = [{"hand": "123m456m789m123p55p", "id": 4, 5: "x"}, {"hand": "123m456m789m123p55p", "id": "k", "\u4e1c": 1},
            {"id": 9, "hand": "123m456m789m123p55p", "seat_wind": "S"}]
    b = HandBatch.from_records(recs)
    want = ref.from_records(recs)
    _check_same(b, want)
    assert b.ids == [4, "k", 9] and not b.invalid.any() and b.seat.tolist() == [0, 0, 1]


def test_two_bad_two_player_flags_name_the_last():
    # as the Python reader always did (the JSONL output of such records is unchanged)
    rec = {"hand": "123m456m789m123p55p", "earthly_hand": 1, "ready_at_start": "x"}
    b = HandBatch.from_records([rec])
    assert b.messages[0] == 'ready_at_start must be true or false (a bool), got "x"'
    assert ref.from_records([rec])["messages"] == b.messages


@pytest.mark.parametrize("key, value", [("wild_fifth", True)])
def test_a_context_key_no_batch_column_holds_is_reported_not_dropped(key, value):
    # A batch row has no column for these (wildcards, wildcard_tiles,
    # wild_win, declared_ready and discard_after_kong have one since: see
    # tests/test_batch_rule_extras.py): a record setting one is a bad
    # record naming the key (dict and JSON-lines paths), never a row scored
    # as if the key were absent.  Unset values (null, false, 0) are fine.
    hand = "123m456m789m123p5p5p"
    batch = mjfast.HandBatch.from_records([{"hand": hand, "self_drawn": True},
                                           {"hand": hand, "self_drawn": True, key: value},
                                           {"hand": hand, "self_drawn": True, key: None}])
    assert list(batch.invalid) == [False, True, False]
    from mjfast.io.jsonl import process_jsonl
    lines = [json.dumps({"hand": hand, "self_drawn": True, key: v}).encode() for v in (value, None, False)]
    out = []
    n, errors = process_jsonl(lines, out.append)
    rows = [json.loads(line) for chunk in out for line in chunk.splitlines() if line.strip()]
    assert (n, errors) == (3, 1)
    assert key in rows[0]["error"] and rows[1]["total"] == rows[2]["total"] == 25
