#!/usr/bin/env python3
"""Fuzz the compiled game engine's Python surface: every public method of
``mjfast.game.fast.FastGame`` and the module entries of ``mjfast._game``
(``play_many``, ``play_seeded``, ``shuffled_walls``) with fuzzed arguments
of fuzzed types, and the engine against the Python one.

    python fuzz/fuzz_game.py fuzz/corpus/game -max_total_time=3600

Invariants:

* no call crashes the interpreter; a call either returns or raises
  ``ValueError`` / ``IndexError`` / ``TypeError`` (``AttributeError`` for
  writing a read-only attribute; a hostile ``hu_fn``'s own exception goes
  through);
* after any call, the game holds what the 136 tiles allow: counts 0-4 in
  every hand, no tile kind more than 4 times in hands, melds and rivers, and
  the tiles out of the walls are exactly those in hands, melds and rivers;
* a refused call changes nothing (the snapshot before and after is equal);
* driven by legal actions chosen by the input, FastGame and
  ``mjfast.game.GameState`` hold the same state at every step (hands,
  melds, shown tiles, rivers, walls, phase, every seat's legal actions and
  Hu value) and end with the same scores.
"""
from __future__ import annotations

import math
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
# the harness helpers, then this checkout's mjfast (ahead of an installed copy)
sys.path[:0] = [_HERE, os.path.dirname(_HERE)]
from _bytes import Bytes, fuzz_main  # noqa: E402


def _load():
    """Import mjfast on the first input: under atheris after fuzz_main has
    started instrumenting imports (a module imported before is not
    instrumented, and libFuzzer would see no coverage)."""
    global _game, GameState, FastGame, _hu_fn, action_string, parse_action
    from mjfast import _game
    from mjfast.game import GameState
    from mjfast.game.fast import FastGame, _hu_fn, action_string, parse_action


_ALLOWED = (ValueError, IndexError, TypeError)
_BIG = (2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -1, -(2 ** 64), 10 ** 30, 255, 256, 128)
_PHASE = {"draw": 0, "turn": 1, "claim": 2, "rob": 3, "over": 4}


class _Boom(Exception):
    """Raised by a hostile hu_fn: it must come out of the call unchanged."""


def _walls(b: Bytes):
    """Walls: valid (shuffled), mutated, of another shape / dtype / layout, or not an array."""
    w = _game.shuffled_walls(b.int(0, 2 ** 64 - 1))
    k = b.int(0, 11)
    if k <= 4:
        return w
    if k == 5:                       # one tile changed: a fifth copy and a missing one
        w[b.int(0, 3), b.int(0, 33)] = b.int(0, 255)
        return w
    if k == 6:                       # two tiles swapped: still valid
        i, j = b.int(0, 135), b.int(0, 135)
        f = w.reshape(-1)
        f[i], f[j] = f[j], f[i]
        return w
    if k == 7:
        return w.astype(b.pick((np.int8, np.int64, np.uint16, np.float64)))
    if k == 8:
        return np.ascontiguousarray(w.T).T            # the right shape, not C-contiguous
    if k == 9:
        n = b.int(0, 6)
        return np.zeros((n, b.int(0, 40)), np.uint8) if b.bool() else np.zeros((4, 34, n), np.uint8)
    if k == 10:
        return w.tolist()
    return _value(b, 1)


def _value(b: Bytes, depth: int = 0):
    """A value of a fuzzed type: ints small and huge, bools, floats, strings,
    None, numpy scalars and arrays, sequences of values."""
    k = b.int(0, 15)
    if k <= 4:
        return b.int(-3, 40)
    if k == 5:
        return b.pick(_BIG)
    if k == 6:
        return b.bool()
    if k == 7:
        return b.pick((0.0, 0.5, 1.0, 1.5, -0.1, math.nan, math.inf, 3.0, 1e300))
    if k == 8:
        return b.pick(("", "0", "1", "PLAY W1", "x" * 40, "\x00"))
    if k == 9:
        return None
    if k == 10:
        return b.pick((np.int8(-1), np.uint8(3), np.int64(2 ** 40), np.uint64(2 ** 64 - 1), np.float32(0.25),
                       np.bool_(True), np.int32(2)))
    if k == 11:
        return np.array([b.int(-2, 300) for _ in range(b.int(0, 5))], dtype=np.int64).astype(
            b.pick((np.int64, np.uint8, np.float64)))
    if k == 12:
        return object()
    if depth >= 2:
        return b.int(0, 6)
    n = b.int(0, 5)
    items = [_value(b, depth + 1) for _ in range(n)]
    return tuple(items) if k == 13 else (items if k == 14 else {i: v for i, v in enumerate(items)})


def _policies(b: Bytes):
    k = b.int(0, 3)
    if k <= 1:
        return [b.int(0, 2) for _ in range(4)]
    if k == 2:
        return [b.int(-1, 3) for _ in range(b.int(0, 6))]
    return _value(b)


def _answers(b: Bytes, g: FastGame):
    """Claim answers: usually legal ones, sometimes bent."""
    k = b.int(0, 5)
    if k <= 2 and g.phase in (2, 3):
        out = []
        for s in range(4):
            acts = g.legal(s)
            out.append(b.pick(acts) if acts and b.int(0, 3) else (0, 0, 0))
        return out
    if k == 3:
        return [(b.int(-1, 7), b.int(-2, 35), b.int(-2, 35)) for _ in range(b.int(0, 6))]
    if k == 4:
        return [_value(b, 1) for _ in range(b.pick((3, 4, 5)))]
    return _value(b)


def _hu(b: Bytes, g_ref):
    """A hu_fn: None, the Python scorer, or hostile (fuzzed answers, raising, re-entering the game)."""
    k = b.int(0, 5)
    if k <= 1:
        return None
    if k == 2:
        return _hu_fn
    if k == 3:
        vals = [_value(b, 1) for _ in range(4)]
        it = iter(vals * 1000)
        return lambda *a: next(it)
    if k == 4:
        mode = b.int(0, 2)

        def reenter(*a):
            g = g_ref[0]
            if g is not None:
                try:
                    if mode == 0:
                        g.reset(_game.shuffled_walls(1), 0)
                    elif mode == 1:
                        g.legal(0)
                    else:
                        g.claim([(0, 0, 0)] * 4)
                except ValueError:
                    pass
                else:
                    raise AssertionError("re-entering the game from its hu_fn was allowed")
            return -3
        return reenter
    return b.pick((5, "f", lambda: 0, lambda *a: (_ for _ in ()).throw(_Boom())))


def _tile_audit(g: FastGame):
    """The 136 tiles: hands, melds and rivers agree with the walls' counts."""
    hands, melds, shown, rivers, left, phase, current, last = g.snapshot()
    assert 0 <= phase <= 4 and all(0 <= x <= 34 for x in left), (phase, left)
    seen = [0] * 34
    n = 0
    for s in range(4):
        assert len(hands[s]) == 34 and all(0 <= c <= 4 for c in hands[s]), hands[s]
        for t, c in enumerate(hands[s]):
            seen[t] += c
            n += c
        assert len(melds[s]) <= 4, melds[s]
        for kind, tile, frm, claimed, added in melds[s]:
            assert kind in (0, 1, 2) and 0 <= tile <= 33, melds[s]
            tiles = (tile, tile + 1, tile + 2) if kind == 0 else (tile,) * (3 if kind == 1 else 4)
            for t in tiles:
                seen[t] += 1
            n += len(tiles)
        for t in rivers[s]:
            assert 0 <= t <= 33
            seen[t] += 1
            n += 1
    assert all(c <= 4 for c in seen), seen
    assert all(0 <= c <= 4 for c in shown), shown
    assert n == 136 - sum(left), (n, left)
    assert g.scores() and len(g.scores()) == 4 and sum(g.scores()) == 0, g.scores()


def _call(b: Bytes, g: FastGame):
    """One public call with fuzzed arguments; returns (name, args, thunk)."""
    k = b.int(0, 16)
    if k == 0:
        return "reset", lambda: g.reset(_walls(b), b.pick((0, 1, 2, 3, 3, -1, 4, 2 ** 40, 1.0, None, "1")))
    if k == 1:
        return "run", lambda: g.run(_policies(b), b.pick((0, 1, 7, 2 ** 64 - 1, -1, 2 ** 64, 1.5)),
                                    b.pick((0.5, 0.0, 1.0, math.nan, -1, 2, "x")), b.pick((0.7, 0.0, 1.0, 1.01)))
    if k == 2:
        return "decide", lambda: g.decide(_value(b) if b.int(0, 3) == 0 else b.int(-1, 4),
                                          _value(b) if b.int(0, 3) == 0 else b.int(-1, 3), b.int(0, 9))
    if k == 3:
        return "draw", g.draw
    if k in (4, 5):
        def turn():
            acts = g.legal(g.current) if g.phase == 1 and b.int(0, 3) else None
            if acts:
                a = b.pick(acts)
                return g.turn(a[0], a[1])
            return g.turn(_value(b) if b.bool() else b.int(-1, 7), _value(b) if b.bool() else b.int(-2, 35))
        return "turn", turn
    if k in (6, 7):
        return "claim", lambda: g.claim(_answers(b, g))
    if k == 8:
        return "legal", lambda: g.legal(_value(b) if b.bool() else b.int(-1, 4))
    if k == 9:
        return "hu_value", lambda: g.hu_value(_value(b) if b.bool() else b.int(-1, 4))
    if k == 10:
        return "hand_of", lambda: g.hand_of(_value(b) if b.bool() else b.int(-1, 4))
    if k == 11:
        return "melds_of", lambda: g.melds_of(_value(b) if b.bool() else b.int(-1, 4))
    if k == 12:
        return "views", lambda: (g.snapshot(), g.scores(), g.events(), g.rounds_array())
    if k == 13:
        name = b.pick(("phase", "current", "last_tile", "quan", "winner", "from_seat", "total", "huang",
                       "w_self", "w_fourth", "w_last", "w_kong"))
        return "setattr", lambda: setattr(g, name, _value(b))
    if k == 14:
        return "shuffled_walls", lambda: _game.shuffled_walls(_value(b) if b.bool() else b.int(0, 2 ** 64 - 1))
    if k == 15:
        return "play_many", lambda: _play_many(b)
    return "play_seeded", lambda: _play_seeded(b)


def _outputs(b: Bytes, n: int):
    k = b.int(0, 5)
    if k <= 2:
        out = np.zeros((n, 8), np.int32)
    elif k == 3:
        out = np.zeros((max(n - 1, 0), 8), np.int32)
    elif k == 4:
        out = np.zeros((n, 8), b.pick((np.int64, np.int16, np.uint32)))
    else:
        out = _value(b, 1)
    hk = b.int(0, 4)
    if hk <= 1:
        hands = None
    elif hk == 2:
        hands = (np.zeros((n, 34), np.uint8), np.zeros((n, 4, 3), np.uint8), np.zeros(n, np.uint8),
                 np.zeros(n, np.uint8))
    elif hk == 3:
        hands = tuple(np.zeros(b.pick(((n, 34), (n, 4, 3), (n,), (max(n - 1, 0),), (n, 3, 4))), np.uint8)
                      for _ in range(b.int(0, 5)))
    else:
        hands = _value(b, 1)
    return out, hands


def _play_many(b: Bytes):
    n = b.int(0, 3)
    walls = np.stack([_game.shuffled_walls(b.int(0, 999)) for _ in range(n)]) if n else np.zeros((0, 4, 34),
                                                                                                   np.uint8)
    if b.int(0, 3) == 0 and n:
        walls[b.int(0, n - 1), b.int(0, 3), b.int(0, 33)] = b.int(0, 255)
    quans = np.array([b.int(-1, 4) if b.int(0, 5) == 0 else b.int(0, 3) for _ in range(n)], np.int8)
    if b.int(0, 5) == 0:
        quans = _value(b)
    out, hands = _outputs(b, n)
    return _game.play_many(walls, quans, _policies(b), b.pick((0, 5, -1, 2 ** 64)), b.pick((0.5, 1.0, 2.0)),
                           b.pick((0.7, math.nan)), b.pick((None, None, _hu_fn, 3)), out, hands)


def _play_seeded(b: Bytes):
    n = b.int(0, 3)
    out, hands = _outputs(b, n)
    n_arg = n if b.int(0, 4) else b.pick((-1, 2 ** 63, 1.0, None))
    return _game.play_seeded(b.pick((0, 9, 2 ** 64 - 1, -5)), b.pick((0, 3, 2 ** 64 - 1, -1)), n_arg,
                             b.pick((-1, 0, 3, 4, -2)), _policies(b), 0.5, 0.7, None, out, hands)


def check_calls(b: Bytes) -> None:
    """A sequence of public calls with fuzzed arguments on one FastGame."""
    ref = [None]
    hu = _hu(b, ref)
    try:
        g = FastGame(hu)
    except TypeError:
        hu = None
        g = FastGame()
    ref[0] = g
    if b.int(0, 3):
        g.reset(_game.shuffled_walls(b.int(0, 2 ** 64 - 1)), b.int(0, 3))
    for _ in range(b.int(1, 40)):
        if not b.left():
            break
        name, thunk = _call(b, g)
        before = g.snapshot()
        try:
            thunk()
        except _ALLOWED:
            # the entries check before they change anything (run with a hu_fn may
            # stop mid-game on the hu_fn's bad answer)
            if name in ("reset", "draw", "turn", "claim", "legal", "hu_value", "decide") or \
                    (name == "run" and hu is None):
                assert g.snapshot() == before, name
        except AttributeError:
            assert name == "setattr", name
        except _Boom:
            pass
        else:
            assert name != "setattr", "a result attribute of FastGame was writable"
        _tile_audit(g)


def _py_melds(py):
    return [[(("chow", "pung", "kong").index(m.kind), m.tile, -1 if m.from_seat is None else m.from_seat,
              -1 if m.claimed is None else m.claimed, int(m.added)) for m in ms] for ms in py.melds]


def _same(py, fg):
    hands, melds, shown, rivers, left, phase, current, last = fg.snapshot()
    assert hands == py.hands and melds == _py_melds(py)
    assert shown == py.shown and rivers == py.discards
    assert left == py.tile_counts and phase == _PHASE[py.phase]
    if py.phase != "over":
        assert current == py.current
    for s in range(4):
        assert sorted(action_string(*a) for a in fg.legal(s)) == sorted(py.legal_actions(s)), s
        assert fg.hu_value(s) == py.hu_value(s), s


def check_engines(b: Bytes) -> None:
    """FastGame and GameState side by side on actions the input picks among the legal ones."""
    seed = b.int(0, 2 ** 64 - 1)
    quan = b.int(0, 3)
    w = _game.shuffled_walls(seed)
    py = GameState(quan, walls=w.tolist())
    fg = FastGame()
    fg.reset(w, quan)
    steps = 0
    while py.phase != "over" and steps < 400:
        steps += 1
        if py.phase == "draw":
            t = py.draw()
            assert fg.draw() == (-1 if t is None else t)
        elif py.phase == "turn":
            acts = sorted(py.legal_actions(py.current))
            # mostly discards: the game gets far; a byte of 0 ends the input's say (first legal action)
            r = b.pick(acts) if b.left() else acts[0]
            py.turn(r)
            assert fg.turn(*parse_action(r)[:2]) == 0, r
        else:
            answers = []
            for s in range(4):
                acts = sorted(py.legal_actions(s)) if s != py.current else ["PASS"]
                answers.append(b.pick(acts) if b.left() and b.int(0, 2) == 0 else "PASS")
            got = py.claim(answers)
            assert fg.claim([parse_action(a) for a in answers]) == (-1 if got is None else got[0]), answers
        _same(py, fg)
    if py.phase == "over":
        assert fg.scores() == py.scores


def check(data: bytes) -> None:
    _load()
    b = Bytes(data)
    if b.byte() % 3 == 0:
        check_engines(b)
    else:
        check_calls(b)


def seeds():
    import random

    r = random.Random(11)
    return [bytes(r.randrange(256) for _ in range(r.randrange(4, 300))) for _ in range(80)]


def main():
    fuzz_main(check, "mjfast.game", "mjfast.game.fast", "mjfast.game.state")


if __name__ == "__main__":
    main()
