"""The shanten kernel against its plain definition.

``shanten_batch`` reads every form from one 16-byte record per suit pattern
(distance vector, knitted-triple rests, knitted counts; src/_tables.pyx, src/handkernel/shanten.pxd).
``_core.shanten_plain_batch`` is the straightforward per-form definition on
the full distance tables (a knitted straight's rest rebuilt as 34 counts and
looked up as a hand of its own): the two must agree on every hand, form by
form.  (tests/test_core.py checks both against the reference calculator.)

* every suit pattern of at most 14 tiles (405,350; each record once), in each
  of the three suits, every form;
* random hands of every size 1-14 (melds implied by the size) and every bias
  of the generator, every form the melds allow;
* ``-m slow``: 6,000,000 more random hands.

The same for ``exact=True``: the kernel over the exact records against
``shanten_plain_batch(..., exact=True)`` (the per-form definition on the exact
tables, src/_tables.pyx); tests/test_exact.py checks the exact answers against
a brute force and xiangting.
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import mjfast
from mjfast import _core

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handgen  # noqa: E402

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


def _melds_of(H):
    s = H.sum(axis=1, dtype=np.int64)
    return np.where(s % 3 == 2, (14 - s) // 3, (13 - s) // 3).astype(np.uint8)


def _forms(melds):
    if melds == 0:
        return (-1, 0, 1, 2, 3, 4)
    return (-1, 0, 4) if melds == 1 else (-1, 0)


def _compare(H, label, exact=False):
    """Kernel == plain definition on every row of H (one meld count), every form."""
    melds = _melds_of(H)
    assert (melds == melds[0]).all()
    n = len(H)
    for form in _forms(int(melds[0])):
        ref = np.empty(n, np.int8)
        _core.shanten_plain_batch(H, melds, form, ref, exact)
        got = mjfast.shanten_batch(H, form=None if form < 0 else mjfast.FORMS[form], exact=exact)
        bad = np.flatnonzero(got != ref)
        assert len(bad) == 0, (f"{label}, form {form}: {len(bad)} of {n} differ; first "
                               f"{mjfast.counts_to_str(H[bad[0]])}: kernel {got[bad[0]]}, plain {ref[bad[0]]}")


def _all_suit_patterns():
    """Every 9-count pattern (counts 0-4) of at most 14 tiles, by tile count."""
    counts = np.indices((5,) * 9, dtype=np.uint8).reshape(9, -1).T
    s = counts.sum(axis=1)
    return {t: counts[s == t] for t in range(15)}


_PATTERNS = None


def _patterns():
    global _PATTERNS
    if _PATTERNS is None:
        _PATTERNS = _all_suit_patterns()
    return _PATTERNS


def test_the_patterns_are_the_records():
    assert sum(len(p) for p in _patterns().values()) == 405_350


@pytest.mark.parametrize("exact", (False, True))
@pytest.mark.parametrize("suit", (0, 1, 2))
def test_every_suit_pattern(suit, exact):
    # a pattern of t tiles alone is a hand when t % 3 != 0; otherwise one
    # honor tile is added (East, or a pair of whites when that makes 14)
    for t, P in _patterns().items():
        H = np.zeros((len(P), 34), np.uint8)
        H[:, 9 * suit:9 * suit + 9] = P
        if t % 3 == 0:
            if t == 12:
                H[:, 33] = 2
            else:
                H[:, 27] = 1
        _compare(H, f"suit {suit}, {t} tiles", exact)


@pytest.mark.parametrize("exact", (False, True))
@pytest.mark.parametrize("size", SIZES)
def test_random_hands(size, exact):
    for b, bias in enumerate(handgen.BIASES):
        H = handgen.random_hands(4000, size, seed=700 + 10 * size + b, bias=bias)
        _compare(H, f"{size} tiles, bias {bias}", exact)


@pytest.mark.parametrize("exact", (False, True))
def test_four_of_a_kind_and_full_suits(exact):
    # four of a kind in every suit part and in the honors, one-suit hands
    rng = np.random.default_rng(5)
    rows = []
    for _ in range(4000):
        c = np.zeros(34, np.uint8)
        k = rng.integers(34)
        c[k] = 4
        while c.sum() < 13:
            t = rng.integers(9) + 9 * rng.integers(3) if rng.random() < 0.8 else rng.integers(27, 34)
            if c[t] < 4:
                c[t] += 1
        rows.append(c)
    H = np.array(rows)
    _compare(H, "four of a kind, 13 tiles", exact)
    H14 = H.copy()
    H14[np.arange(len(H)), np.argmin(np.where(H < 4, H, 9), axis=1)] += 1
    _compare(H14, "four of a kind, 14 tiles", exact)
    if exact:       # the exact records are the ones read: 1111m is no pung and pair
        q = np.zeros((2, 34), np.uint8)
        q[0, 0] = 4
        q[1, [0, 27, 28, 29]] = 4, 4, 3, 2
        assert mjfast.shanten_batch(q, form="regular", exact=True).tolist() == [1, 1]
        assert mjfast.shanten_batch(q, form="regular")[0] == 0      # the shape count: a pung and a pair


@pytest.mark.slow
def test_random_hands_slow():
    """6,000,000 random hands (every size, every bias), every form, plain and
    exact (~2 min)."""
    per = 6_000_000 // (len(SIZES) * len(handgen.BIASES))
    for size in SIZES:
        for b, bias in enumerate(handgen.BIASES):
            for part in range(0, per, 100_000):
                H = handgen.random_hands(min(100_000, per - part), size, seed=10**6 + 1000 * size + 10 * b + part,
                                         bias=bias)
                _compare(H, f"{size} tiles, bias {bias}")
                _compare(H, f"{size} tiles, bias {bias}, exact", True)


def test_plain_reference_refuses_bad_rows():
    H = np.zeros((2, 34), np.uint8)
    H[:, 0] = 5
    with pytest.raises(ValueError, match="row 0"):
        _core.shanten_plain_batch(H, np.zeros(2, np.uint8), -1, np.empty(2, np.int8))
    H = handgen.random_hands(2, 10, seed=1)
    with pytest.raises(ValueError, match="row 0"):
        _core.shanten_plain_batch(H, np.ones(2, np.uint8), 1, np.empty(2, np.int8))
    with pytest.raises(ValueError, match="row 0"):
        _core.shanten_plain_batch(H, np.ones(2, np.uint8), 1, np.empty(2, np.int8), True)


@pytest.mark.parametrize("exact", (False, True))
def test_form_sets_are_the_least_over_their_forms(exact):
    # shanten_checked(..., forms=mask): a rule set's forms in one pass
    # (shanten_batch(rules=...)); equal to the least of the forms one by one
    # (59 = BIG - 1 where a form cannot apply beside the melds)
    for size in SIZES:
        H = np.concatenate([handgen.random_hands(300, size, seed=900 + 10 * size + b, bias=bias)
                            for b, bias in enumerate(handgen.BIASES)])
        n = len(H)
        per = []
        for f in range(5):
            o = np.empty(n, np.int8)
            assert _core.shanten_checked(H, None, f, o, np.empty(n, np.uint8), np.empty(n, np.uint8), 1, exact) == 0
            per.append(o.astype(int))
        for mask in range(1, 32):
            o = np.empty(n, np.int8)
            _core.shanten_checked(H, None, -1, o, np.empty(n, np.uint8), np.empty(n, np.uint8), 1, exact, mask)
            want = np.min([per[f] for f in range(5) if mask >> f & 1], axis=0)
            assert (o == want).all(), (size, mask)
    with pytest.raises(ValueError, match="forms"):
        _core.shanten_checked(H, None, -1, o, np.empty(n, np.uint8), np.empty(n, np.uint8), 1, exact, 0)
