"""Hostile arguments to the compiled game engine (mjfast._game, FastGame).

Every public entry checks its arguments before they reach the engine's C
arrays: a bad one raises ValueError (out of range, wrong length, walls that
are not the 136 tiles), TypeError (not an int, not an array) — never a crash
or a read of unrelated memory.  The calls run in a subprocess, so that a
crash fails the test instead of killing pytest; each call's outcome (the
exception's type name, or "ok") is compared with the expected one.
"""
import json
import os
import subprocess
import sys
import numpy as np
import pytest

from mjfast import _game
from mjfast.game.fast import FastGame, _hu_fn
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_PRELUDE = """
import json, math, sys
import numpy as np
from mjfast import _game, _replay
from mjfast.game.fast import FastGame, _hu_fn
W = _game.shuffled_walls(1)
def fresh(hu=None):
    g = FastGame(hu)
    g.reset(W, 0)
    return g
def claiming():
    # seat 0 has drawn and discarded its drawn tile: the claim phase
    g = fresh()
    g.draw()
    g.turn(1, g.last_tile)
    assert g.phase == 2
    return g
def turning():
    g = fresh()
    g.draw()
    return g
from mjfast.game.state import read_answer
from mjfast.logs.model import TILE_CODES
import types
_IDX = {c: i for i, c in enumerate(TILE_CODES)}
DEALS = [["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B1", "B2", "B3", "B4"]] * 4
def match(**kw):
    m = dict(end="hu", quan=0, deals=DEALS, events=[(1, 0, "DRAW", "T1", None, None, ())], error_seat=None,
             error_code=None, error_response=None, recorded_scores=None)
    m.update(kw)
    return types.SimpleNamespace(**m)
def answered(r):
    # None (not representable: the caller words it) or the driver's answer, a tuple
    if not (r is None or (isinstance(r, tuple) and r[0] in (-1, 1, 2, 3))):
        raise AssertionError(r)
"""

_RUNNER = """
out = []
for expr in json.loads(sys.stdin.read()):
    print(expr, file=sys.stderr, flush=True)      # the last one named is the one that crashed
    try:
        eval(expr)
        out.append("ok")
    except Exception as exc:
        out.append(type(exc).__name__)
print(json.dumps(out))
"""


def outcomes(exprs):
    """Each expression's outcome ("ok" or the exception's type name), evaluated in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", _PRELUDE + _RUNNER], input=json.dumps(exprs), capture_output=True,
                       text=True, env=env, timeout=600)
    last = p.stderr.strip().splitlines()[-1:] if p.stderr.strip() else []
    assert p.returncode == 0, f"the interpreter died (status {p.returncode}) on: {last}"
    return dict(zip(exprs, json.loads(p.stdout)))


def check(cases):
    got = outcomes([e for e, _ in cases])
    wrong = {e: (got[e], want) for e, want in cases if got[e] != want}
    assert not wrong, wrong


# --------------------------------------------------------------------------- the calls named in the report

REPORTED = [
    ("fresh().hand_of(10**6)", "ValueError"),
    ("fresh().melds_of(10**6)", "ValueError"),
    ("fresh().hand_of(4)", "ValueError"),
    ("fresh().hand_of(-1)", "ValueError"),
    ("fresh().run([1], 3)", "ValueError"),
    ("fresh().run((1, 1), 3)", "ValueError"),
    ("claiming().claim([(0, 0, 0)] * 3)", "ValueError"),
    ("fresh().claim([(0, 0, 0)] * 3)", "ValueError"),
    ("FastGame().reset(np.zeros((4, 34), np.uint8), 0)", "ValueError"),
    ("fresh().run([7, 7, 7, 7], 1)", "ValueError"),
    ("fresh().legal(100)", "ValueError"),
    ("fresh().hu_value(100)", "ValueError"),
]


def test_reported_calls_raise():
    check(REPORTED)


def test_good_arguments_still_work():
    # the same calls with good arguments work: the checks refuse only what is wrong
    check([("fresh().hand_of(3)", "ok"), ("fresh().melds_of(0)", "ok"), ("fresh().run([1, 1, 2, 0], 3)", "ok"),
           ("claiming().claim([(0, 0, 0)] * 4)", "ok"), ("FastGame().reset(W, 3)", "ok"),
           ("fresh().legal(3)", "ok"), ("fresh().hu_value(0)", "ok")])


# --------------------------------------------------------------------------- a sweep of every entry

#: values that are not ints (TypeError wherever an int is wanted)
NOT_INT = ["None", "'1'", "1.0", "1.5", "[]", "[0]", "object()", "np.float64(1)", "True", "b'1'", "math.nan"]
#: ints no seat can be
BAD_SEAT = ["-1", "4", "100", "10**6", "2**31", "2**63", "2**64", "-2**63", "np.int64(7)", "np.uint64(2**64 - 1)"]
GOOD_SEAT = ["0", "3", "np.int8(2)", "np.uint64(1)"]


def _sweep_seat(method, game="fresh()"):
    cases = [(f"{game}.{method}({v})", "TypeError") for v in NOT_INT]
    cases += [(f"{game}.{method}({v})", "ValueError") for v in BAD_SEAT]
    cases += [(f"{game}.{method}({v})", "ok") for v in GOOD_SEAT]
    return cases


SWEEP = []
for _m in ("hand_of", "melds_of", "legal", "hu_value"):
    SWEEP += _sweep_seat(_m)
SWEEP += _sweep_seat("legal", "claiming()") + _sweep_seat("hu_value", "turning()")
# decide(seat, policy, seed, p_claim, p_kong)
SWEEP += [(f"fresh().decide({v}, 1)", "TypeError") for v in NOT_INT]
SWEEP += [(f"fresh().decide({v}, 1)", "ValueError") for v in BAD_SEAT]
SWEEP += [(f"turning().decide(0, {v})", "TypeError") for v in NOT_INT]
SWEEP += [(f"turning().decide(0, {v})", "ValueError") for v in ("-1", "3", "2**40", "2**64")]
SWEEP += [(f"turning().decide(0, 1, {v})", "ValueError") for v in ("-1", "2**64", "-2**70")]
SWEEP += [(f"turning().decide(0, 1, {v})", "TypeError") for v in ("None", "1.0", "'7'")]
SWEEP += [(f"turning().decide(0, 1, 1, {v})", "ValueError") for v in ("-0.1", "1.01", "math.nan", "math.inf", "2")]
SWEEP += [(f"turning().decide(0, 1, 1, 0.5, {v})", "TypeError") for v in ("None", "'0.5'", "[0.5]", "True")]
SWEEP += [(f"turning().decide(0, {p}, 2**64 - 1, 1, 0)", "ok") for p in (0, 1, 2)]
# run(policies, seed, p_claim, p_kong)
SWEEP += [(f"fresh().run({v}, 1)", "ValueError") for v in ("[]", "[0] * 3", "[0] * 5", "(1, 1)", "'0123'[:3]",
                                                        "[0, 0, 0, 3]", "[-1, 0, 0, 0]", "[0, 0, 0, 2**64]")]
SWEEP += [(f"fresh().run({v}, 1)", "TypeError") for v in ("None", "5", "object()", "[0, 0, 0, None]",
                                                       "[0, 0, 0, 1.0]", "['0'] * 4", "[True] * 4")]
SWEEP += [(f"fresh().run([1] * 4, {v})", "ValueError") for v in ("-1", "2**64", "-2**64")]
SWEEP += [(f"fresh().run([1] * 4, {v})", "TypeError") for v in ("None", "0.0", "'1'")]
SWEEP += [(f"fresh().run([1] * 4, 1, {v})", "ValueError") for v in ("-1", "1.5", "math.nan")]
SWEEP += [(f"fresh().run([1] * 4, 1, 0.5, {v})", "TypeError") for v in ("None", "'x'")]
SWEEP += [("FastGame().run([1] * 4, 1)", "ValueError"),                 # no game dealt
          ("(lambda g: (g.run([0] * 4, 1), g.run([0] * 4, 1)))(fresh())", "ValueError"),   # run twice
          ("(lambda g: (g.draw(), g.run([0] * 4, 1)))(fresh())", "ValueError"),   # run mid-game
          ("fresh().run([0, 1, 2, 1], 2**64 - 1, 0, 1)", "ok"),
          ("fresh().run(np.array([2, 2, 2, 2]), np.uint64(5))", "ok")]
# turn(op, a)
SWEEP += [(f"turning().turn({v}, 0)", "TypeError") for v in NOT_INT]
SWEEP += [(f"turning().turn(1, {v})", "TypeError") for v in NOT_INT]
SWEEP += [(f"turning().turn({v}, 0)", "ValueError") for v in ("2**31", "-2**31 - 1", "2**64", "10**30")]
SWEEP += [(f"turning().turn(1, {v})", "ValueError") for v in ("2**31", "-2**31 - 1", "2**64", "10**30")]
SWEEP += [(f"turning().turn({o}, {a}) == -1", "ok") for o, a in ((1, 34), (1, -1), (1, 255), (99, 0), (-7, 3),
                                                                  (2, 40), (3, -100), (5, 0), (6, 9))]
SWEEP += [("FastGame().turn(1, 0)", "ValueError"), ("fresh().turn(1, 0) == -1", "ok")]
# claim(answers)
SWEEP += [(f"claiming().claim({v})", "ValueError") for v in ("[]", "[(0, 0, 0)] * 5", "[(0, 0, 0)] * 3",
                                                          "[(0, 0)] * 4", "[(0, 0, 0, 0)] * 4", "[()] * 4",
                                                          "[(0, 0, 2**31)] * 4", "[(2**64, 0, 0)] * 4",
                                                          "[(0, -2**40, 0)] * 4", "'abcd'")]
SWEEP += [(f"claiming().claim({v})", "TypeError") for v in ("None", "5", "object()", "[0, 0, 0, 0]",
                                                         "[None] * 4", "[(0, 0, None)] * 4",
                                                         "[(0.0, 0, 0)] * 4", "[('0', 0, 0)] * 4",
                                                         "[(True, 0, 0)] * 4")]
SWEEP += [(f"claiming().claim({v}) == -2", "ok") for v in ("[(5, 0, 0)] * 4", "[(0, 0, 0), (6, 200, -5), (0, 0, 0), "
                                                                            "(0, 0, 0)]", "[(9, 9, 9)] * 4",
                                                        "[(4, 0, 0)] * 4")]
SWEEP += [("claiming().claim(np.zeros((4, 3), np.int64)) == -1", "ok"),
          ("fresh().claim([(0, 0, 0)] * 4) == -2", "ok"), ("FastGame().claim([(0, 0, 0)] * 4)", "ValueError")]
# draw(), views, attributes
SWEEP += [("FastGame().draw()", "ValueError"), ("turning().draw()", "ValueError"), ("fresh().draw()", "ok"),
          ("FastGame().snapshot()", "ok"), ("FastGame().events()", "ok"), ("FastGame().rounds_array()", "ok"),
          ("FastGame().scores()", "ok"), ("FastGame().hand_of(0)", "ok")]
for _a in ("phase", "current", "last_tile", "quan", "winner", "from_seat", "total", "huang", "w_self", "w_kong"):
    SWEEP += [(f"setattr(fresh(), {_a!r}, 10**6)", "AttributeError")]
# reset(walls, quan)
_BAD_WALLS = ["np.zeros((4, 34), np.uint8)", "np.full((4, 34), 33, np.uint8)", "W * 0 + 34",
              "np.where(W == 5, 6, W).astype(np.uint8)", "np.zeros((4, 33), np.uint8)", "np.zeros((3, 34), np.uint8)",
              "np.zeros((0, 34), np.uint8)", "np.ascontiguousarray(W.T).T", "W.astype(np.int64)", "W.reshape(136)",
              "W.reshape(1, 4, 34)", "W.astype(np.int8)", "W.astype(np.float64)"]
SWEEP += [(f"FastGame().reset({w}, 0)", "ValueError") for w in _BAD_WALLS]
SWEEP += [(f"FastGame().reset({w}, 0)", "TypeError") for w in ("None", "W.tolist()", "5", "'walls'", "object()")]
SWEEP += [(f"FastGame().reset(W, {q})", "ValueError") for q in ("-1", "4", "2**64", "np.int64(9)")]
SWEEP += [(f"FastGame().reset(W, {q})", "TypeError") for q in ("None", "0.0", "'0'", "True")]
SWEEP += [("(lambda g: (g.reset(np.zeros((4, 34), np.uint8), 0), ))(fresh())", "ValueError"),
          ("FastGame().reset(_game.shuffled_walls(2**64 - 1), np.uint8(3))", "ok")]
# the hu_fn callback
SWEEP += [("FastGame(5)", "TypeError"), ("FastGame('f')", "TypeError"),
          ("(lambda g: (g.draw(), g.legal(0)))(fresh(lambda *a: 'x'))", "ValueError"),
          ("(lambda g: (g.draw(), g.legal(0)))(fresh(lambda *a: 2**40))", "ValueError"),
          ("(lambda g: (g.draw(), g.legal(0)))(fresh(lambda *a: None))", "ValueError"),
          ("(lambda g: (g.draw(), g.legal(0)))(fresh(lambda *a: -10))", "ValueError"),
          ("(lambda g: (g.draw(), g.legal(0)))(fresh(lambda: 0))", "TypeError"),
          ("(lambda g: (g.draw(), g.legal(0)))(fresh(_hu_fn))", "ok")]
# module functions
SWEEP += [(f"_game.shuffled_walls({v})", "ValueError") for v in ("-1", "2**64", "-2**100")]
SWEEP += [(f"_game.shuffled_walls({v})", "TypeError") for v in ("None", "1.0", "'1'", "[1]")]
_OUT = "np.zeros((2, 8), np.int32)"
_WALLS2 = "np.stack([W, _game.shuffled_walls(2)])"
_Q2 = "np.zeros(2, np.int8)"
SWEEP += [(f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, None, {_OUT})", "ok"),
          (f"_game.play_many(np.stack([W, W * 0]), {_Q2}, [1] * 4, 0, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_many({_WALLS2}, np.array([0, 9], np.int8), [1] * 4, 0, 0.5, 0.7, None, {_OUT})",
           "ValueError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 3, 0, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, -1, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, 3, {_OUT})", "TypeError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, None, None)", "TypeError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, None, np.int32(0))", "TypeError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, None, np.zeros((1, 8), np.int32))",
           "ValueError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, None, {_OUT}, (None,) * 4)", "TypeError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, None, {_OUT}, (np.uint8(0),) * 4)",
           "TypeError"),
          (f"_game.play_many({_WALLS2}, {_Q2}, [1] * 4, 0, 0.5, 0.7, None, {_OUT}, (1, 2))", "TypeError"),
          (f"_game.play_many(None, None, [1] * 4, 0, 0.5, 0.7, None, {_OUT})", "TypeError"),
          (f"_game.play_seeded(0, 0, 2, -1, [2] * 4, 0.5, 0.7, None, {_OUT})", "ok"),
          (f"_game.play_seeded(-1, 0, 2, -1, [2] * 4, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_seeded(0, 2**64, 2, -1, [2] * 4, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_seeded(0, 0, -1, -1, [2] * 4, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_seeded(0, 0, 2**63, -1, [2] * 4, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_seeded(0, 0, 3, -1, [2] * 4, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_seeded(0, 0, 2.0, -1, [2] * 4, 0.5, 0.7, None, {_OUT})", "TypeError"),
          (f"_game.play_seeded(0, 0, 2, 4, [2] * 4, 0.5, 0.7, None, {_OUT})", "ValueError"),
          (f"_game.play_seeded(0, 0, 2, -1, [2] * 4, 0.5, math.nan, None, {_OUT})", "ValueError")]
# the compiled text-archive reader
SWEEP += [("_replay.replay_text(None, 1, tuple(range(82)))", "TypeError"),
          ("_replay.replay_text(b'Match 1', 1, None)", "TypeError"),
          ("_replay.replay_text(b'Match 1', 1, tuple(range(81)))", "ValueError"),
          ("_replay.replay_text(b'Match 1', 10**20, tuple(range(82)))", "ValueError"),
          ("_replay.replay_text(b'Match 1', '1', tuple(range(82)))", "TypeError"),
          ("_replay.replay_text(b'Match 1\\nWind E\\nDeal 1m', 1, tuple(range(82)))", "ok")]
# the replay driver on values no reader writes: refused, or None (not representable: mjfast.logs.replay words it)
SWEEP += [(f"answered(_replay.replay_match({m}, {w}, {i}, read_answer))", "ok") for m, w, i in (
    ('match(events=[(1, 100, "DRAW", "T1", None, None, ())])', None, "_IDX"),
    ('match(events=[(1, -1, "DRAW", "T1", None, None, ())])', None, "_IDX"),
    ('match(events=[(1, 0, "DRAW", None, None, None, ())])', None, "_IDX"),
    ('match(events=[(1, 0, "DRAW", "H1", None, None, ())])', None, "_IDX"),
    ('match(events=[(10 ** 20, 0, "DRAW", "T1", None, None, ())])', None, "_IDX"),
    ('match(events=[(1, 0, "DRAW", "T1", None, None, ()), (2, 0, "PLAY", "T1", None, None, ((9, "PENG", None, None),))])',
     None, "_IDX"),
    ('match(events=[(1, 0, "PLAY", "T1", None, None, ((1, "XX", None, None),))])', None, "_IDX"),
    ('match(events=[(1, 0, "PLAY", "T1", None, None, ((1, None, None, "PLAY H1"),))])', None, "_IDX"),
    ('match(events=[(1, 0, "PLAY", "Q7", None, None, ())])', None, "_IDX"),
    ("match(quan=9)", None, "_IDX"), ("match(quan=-1)", None, "_IDX"),
    ("match()", None, "dict(_IDX, W1=200)"), ("match()", None, "dict(_IDX, W1=-1)"),
    ("match()", "[['W1'] * 34] * 4", "_IDX"), ("match()", "[['W1'] * 3] * 4", "_IDX"),
    ("match()", "[['W1'] * 34] * 3", "_IDX"))]


def test_every_entry_checks_its_arguments():
    check(SWEEP)


# --------------------------------------------------------------------------- in process: what the checks keep


def test_refused_calls_leave_the_game_unchanged():
    g = FastGame()
    g.reset(_game.shuffled_walls(3), 1)
    g.draw()
    before = g.snapshot()
    for call in (lambda: g.turn(1, 2 ** 40), lambda: g.claim([(0, 0, 0)] * 3), lambda: g.legal(9),
                 lambda: g.run([1] * 4, 0), lambda: g.draw(), lambda: g.reset(np.zeros((4, 34), np.uint8), 0)):
        with pytest.raises((ValueError, TypeError)):
            call()
        assert g.snapshot() == before


def test_hu_fn_cannot_reenter_the_game():
    seen = []

    def hu(*args):
        for call in (lambda: g.reset(_game.shuffled_walls(1), 0), lambda: g.legal(0), lambda: g.draw(),
                     lambda: g.claim([(0, 0, 0)] * 4)):
            with pytest.raises(ValueError, match="inside its own hu_fn"):
                call()
        seen.append(args[0])
        return _hu_fn(*args)

    g = FastGame(hu)
    g.reset(_game.shuffled_walls(4), 0)
    g.draw()
    g.legal(0)
    assert seen == [0]


def test_walls_must_hold_each_tile_four_times():
    w = _game.shuffled_walls(5)
    g = FastGame()
    g.reset(w, 0)
    bad = w.copy()
    bad[0, 0] = (bad[0, 0] + 1) % 34         # a fifth copy of one tile, three of another
    with pytest.raises(ValueError, match="copies of tile"):
        g.reset(bad, 0)
    swapped = w.copy()
    swapped[0, 0], swapped[3, 33] = w[3, 33], w[0, 0]
    g.reset(swapped, 0)                      # any order of the 136 tiles is a game
    assert sum(g.hand_of(0)) == 13 and g.hand_of(0)[int(w[3, 33])] >= 1


def test_valid_self_play_is_unchanged():
    # the compiled self-play entries still play (and agree with each other)
    out = np.zeros((4, 8), np.int32)
    _game.play_seeded(7, 0, 4, -1, [2] * 4, 0.5, 0.7, None, out)
    walls = np.stack([_game.shuffled_walls(_game_seed) for _game_seed in range(4)])
    out2 = np.zeros((4, 8), np.int32)
    _game.play_many(walls, np.zeros(4, np.int8), [1] * 4, 3, 0.5, 0.7, None, out2)
    assert (out[:, :4].sum(axis=1) == 0).all() and (out2[:, :4].sum(axis=1) == 0).all()
