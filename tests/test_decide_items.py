"""The compiled read of a list or tuple of 34 counts (the fast path of
shanten / useful_tiles / best_discards) against the Python front ends.

The fast path takes an exact list or tuple of 34 exact ints 0..4 and hands
everything else to the front end (mjfast/core.py, mjfast/bots.py), which
parses it or names what is wrong.  So for any input, the compiled call and
the front end called directly must give the same outcome: the same answer,
or the same exception with the same message.  If the fast path took an item
it should not (True, an int subclass, 2**64, -1, a numpy integer), the two
would differ.  The inputs are lists and tuples of many kinds; plus a list that
another thread changes while the calls run: no crash, and every answer is
that of one of the list's two states.
"""
from __future__ import annotations

import os
import sys
import threading

import numpy as np
import pytest

import mjfast
from mjfast import _decide

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handgen  # noqa: E402


class Count(int):
    """An int subclass: the front end decides what it means, not the fast path."""


READY = (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 31, 31)      # 123m 123p 123s EE CC: ready


def _hand(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _front(name, x):
    if name == "shanten":
        return _decide._slow["shanten"](x, None, None, False)
    return _decide._slow[name](x, None, None)


CALLS = {"shanten": mjfast.shanten, "useful_tiles": mjfast.useful_tiles,
         "best_discards": mjfast.best_discards}


def _outcome(fn, x):
    try:
        r = fn(x)
    except Exception as e:          # the outcome compared includes the exception
        return ("raises", type(e).__name__, str(e))
    if isinstance(r, list):         # (hashable, to be kept in a set)
        return ("returns", "list", tuple(tuple(d) if isinstance(d, tuple) else d for d in r))
    return ("returns", type(r).__name__, r)


def _same(name, x):
    want = _outcome(lambda h: _front(name, h), x)
    got = _outcome(CALLS[name], x)
    assert got == want, (name, x)
    return got


def _variants(c):
    """Lists and tuples of 34 (or 33 / 35) items made from the counts c."""
    c = [int(v) for v in c]
    nz = [t for t in range(34) if c[t]]
    z = [t for t in range(34) if not c[t]]
    out = [c, tuple(c)]

    def put(t, v):
        h = list(c)
        h[t] = v
        out.extend((h, tuple(h)))

    put(nz[0], True if c[nz[0]] == 1 else c[nz[0]])   # True for a 1 (or unchanged)
    put(z[0], False)                                   # False for a 0
    out.append([bool(v) if v <= 1 else v for v in c])  # every 0 / 1 a bool
    put(nz[-1], Count(c[nz[-1]]))                      # an int subclass of the same value
    out.append([Count(v) for v in c])
    put(z[-1], Count(0))
    put(z[0], np.int64(0))                             # numpy integers inside a list
    out.append([np.int64(v) for v in c])
    out.append(tuple(np.uint8(v) for v in c))
    put(z[0], np.bool_(False))
    for big in (5, 2 ** 30 - 1, 2 ** 30, 2 ** 31, 2 ** 62, 2 ** 63, 2 ** 64, 2 ** 100):
        put(z[0], big)
    for neg in (-1, -4, -2 ** 30, -2 ** 63, -2 ** 64, -2 ** 100):
        put(z[-1], neg)
    put(z[0], 0.0)
    put(z[0], 4.0)
    put(z[0], None)
    put(z[0], "1")
    out += [c[:33], tuple(c[:33]), c + [0], tuple(c + [0]), c[1:] + [0], [0] + c, c[:-1]]
    return out


@pytest.mark.parametrize("name,size", [("shanten", 13), ("shanten", 14), ("shanten", 8),
                                       ("useful_tiles", 13), ("useful_tiles", 10),
                                       ("best_discards", 14), ("best_discards", 11)])
def test_fast_path_and_front_end_agree(name, size):
    for bias in (None, "pairs", "one_suit"):
        for c in handgen.random_hands(12, size, seed=100 + size, bias=bias):
            for x in _variants(c):
                _same(name, x)
    # the plain list / tuple answer (not an error) for every hand
    for c in handgen.random_hands(5, size, seed=7 + size):
        assert _same(name, [int(v) for v in c])[0] == "returns"
        assert _same(name, tuple(int(v) for v in c))[0] == "returns"


def test_what_main_did_with_bools_and_other_ints_is_kept():
    c = _hand(READY)
    assert mjfast.shanten(c) == 0
    with_true = list(c)
    with_true[0] = True
    with pytest.raises(mjfast.InvalidHand, match="True"):
        mjfast.shanten(with_true)
    with pytest.raises(mjfast.InvalidHand, match="False"):
        mjfast.useful_tiles(tuple(c[:33]) + (False,))
    # int subclasses and numpy integers are counts to the front end
    assert mjfast.shanten([Count(v) for v in c]) == 0
    assert mjfast.useful_tiles([np.int16(v) for v in c]) == mjfast.useful_tiles(c)
    for bad in (2 ** 64, -1, 5, 2 ** 30):
        with pytest.raises(mjfast.InvalidHand):
            mjfast.shanten(c[:33] + [bad])


def _set(t, v):
    def change(h, on):
        h[t] = v if on else _hand(READY)[t]
    return change


def _grow(h, on):
    if on:
        h.append(0)
    else:
        h.pop()


def _regrow(h, on):
    # replaces the whole item array (a slice assignment of a new length and back)
    if on:
        h[:] = h + [0] * 200
    else:
        del h[34:]


# Each case: a list in state A, the change that makes state B (applied and
# undone over and over by another thread), and the calls.  Both states are
# taken by the fast path in the first case; in the others one state is not
# (an int subclass, a bool, a 35th item, a resize that moves the item array).
CASES = [
    ("a 14th tile", _set(33, 1)),
    ("an int subclass", _set(33, Count(1))),
    ("a bool", _set(3, True)),
    ("a 35th item", _grow),
    ("the item array replaced", _regrow),
    ("a big int", _set(5, 2 ** 70)),
]


@pytest.mark.parametrize("label,change", CASES, ids=[c[0] for c in CASES])
def test_list_changed_by_another_thread(label, change):
    h = _hand(READY)
    a = list(h)
    change(h, True)
    b = list(h)
    change(h, False)
    assert h == a and a != b
    names = ("shanten", "useful_tiles", "best_discards")
    allowed = {n: {_outcome(lambda x: _front(n, x), a), _outcome(lambda x: _front(n, x), b)}
               for n in names}
    stop = threading.Event()
    started = threading.Event()

    def mutate():
        on = False
        while not stop.is_set():
            on = not on
            change(h, on)
            started.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    t = threading.Thread(target=mutate)
    t.start()
    started.wait()
    seen = {n: set() for n in names}
    two = [n for n in names if len(allowed[n]) == 2]
    assert two
    try:
        # until both states were answered (on a loaded machine the other
        # thread may not run for a while), at most 300,000 calls
        for i in range(300_000):
            n = names[i % 3]
            got = _outcome(CALLS[n], h)
            assert got in allowed[n], (label, n, got)
            seen[n].add(got)
            if i >= 3000 and all(len(seen[m]) == 2 for m in two):
                break
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    # the other thread did run during the calls
    assert all(len(seen[n]) == 2 for n in two), seen
