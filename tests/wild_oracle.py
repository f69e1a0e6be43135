"""Test oracle for the wildcard functions: searches over substitutions.

Written apart from the compiled wildcard kernels (src/_wild.pyx), sharing no
code with them.  A substitution ``s`` (34 counts) says which tiles the ``k``
wildcards stand for; the wildcard answer is defined through the plain
functions of the substituted hand ``c + s``:

* is_win(c, k)  = some s makes ``mjfast.is_win(c + s)`` true;
* shanten(c, k) = the least ``mjfast.shanten(c + s)`` over s;
* waits / useful tiles follow from those two.

``s`` ranges over every multiset of k tiles with ``c + s <= 4`` (or every
multiset with ``fifth``, where ``c + s`` may pass 4 and the plain functions
cannot take it: then this module's own distance ``ref_dist`` decides).

Two ways of going over the substitutions:

* ``all_subs``: literally every multiset (small k only; the plain batch
  kernels check them in one call);
* a depth-first search over the multisets in nondecreasing tile order, cut
  where ``ref_dist`` (the fewest tiles to add, fifth copies allowed: a lower
  bound that a wildcard lowers by at most one) proves no leaf below can do
  better.  Every substitution is either reached or excluded by that bound.
  A claimed answer gives the search its target (to prove "no better" the
  search needs only the bound); a claimed "yes" is confirmed by a witness
  checked with the plain functions.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

import mjfast
from mjfast import _wild

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITS = []
for _perm in itertools.permutations(range(3)):
    KNITS.append(tuple(_perm[j] * 9 + j + 3 * r for j in range(3) for r in range(3)))

INF = 99


# ---------------------------------------------------------------------------
# ref_dist: fewest tiles to add (any number of copies) to reach a form
# ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _part(t: tuple, suited: bool) -> tuple:
    """Distance vector of one part (index 2m + p): the fewest tiles to add
    so that m melds and p pairs can be taken from the part's tiles."""
    n = len(t)
    i = next((j for j in range(n) if t[j]), None)
    if i is None:
        return tuple(3 * m + 2 * p for m in range(5) for p in range(2))
    out = [INF] * 10
    rest = list(t)
    rest[i] -= 1
    # tile i left unused
    r = _part(tuple(rest), suited)
    for x in range(10):
        out[x] = min(out[x], r[x])
    # tile i in a group: every pung, pair or chow containing i; the group's
    # other tiles come from the part when there, else are added
    groups = [((i, i, i), "meld"), ((i, i), "pair")]
    if suited:
        for lo in (i - 2, i - 1, i):
            if 0 <= lo and lo + 2 < n:
                groups.append(((lo, lo + 1, lo + 2), "meld"))
    for tiles, kind in groups:
        left = list(t)
        cost = 0
        for x in tiles:
            if left[x] > 0:
                left[x] -= 1
            else:
                cost += 1
        if left[i] == t[i]:
            continue                      # the group must hold tile i itself
        r = _part(tuple(left), suited)
        for m in range(5):
            for p in range(2):
                if kind == "meld" and m >= 1:
                    out[2 * m + p] = min(out[2 * m + p], r[2 * (m - 1) + p] + cost)
                if kind == "pair" and p == 1:
                    out[2 * m + 1] = min(out[2 * m + 1], r[2 * m] + cost)
    return tuple(out)


@lru_cache(maxsize=1 << 20)
def _comb(a: tuple, b: tuple) -> tuple:
    """Min-plus product of two distance vectors (index 2m + p, p <= 1)."""
    out = [INF] * 10
    for m1 in range(5):
        for p1 in range(2):
            for m2 in range(5 - m1):
                for p2 in range(2 - p1):
                    v = a[2 * m1 + p1] + b[2 * m2 + p2]
                    x = 2 * (m1 + m2) + p1 + p2
                    if v < out[x]:
                        out[x] = v
    return tuple(out)


def _regular(x, M):
    ab = _comb(_part(tuple(x[0:9]), True), _part(tuple(x[9:18]), True))
    ch = _comb(_part(tuple(x[18:27]), True), _part(tuple(x[27:34]), False))
    return _comb(ab, ch)[2 * M + 1]


def ref_dist(x, melds, form=None, r=0):
    """Fewest tiles to add to the counts x (any size, any counts) for a hand
    of 4 - melds melds and a pair, or one special form; form None = best.

    With r > 0: a lower bound of that distance after r more tiles are put
    anywhere (each tile lowers a distance by at most one: ``- r``; seven
    pairs more tightly: a tile adds a pair only on an odd count, or two
    tiles together)."""
    x = [int(v) for v in x]
    best = INF
    if form in (None, "regular"):
        best = min(best, _regular(x, 4 - melds))
    if melds == 0:
        if form in (None, "seven_pairs"):
            odd = sum(v & 1 for v in x)
            gain = min(r, odd) + (r - min(r, odd)) // 2
            best = min(best, 7 - sum(v // 2 for v in x) - gain + r)
        if form in (None, "thirteen_orphans"):
            kinds = sum(1 for t in ORPHANS if x[t])
            pair = any(x[t] >= 2 for t in ORPHANS)
            best = min(best, 14 - kinds - pair)
        if form in (None, "honors_knitted"):
            hon = sum(1 for t in range(27, 34) if x[t])
            best = min(best, min(14 - hon - sum(1 for t in kn if x[t]) for kn in KNITS))
    if melds <= 1 and form in (None, "knitted_straight"):
        for kn in KNITS:
            rest = list(x)
            got = 0
            for t in kn:
                if rest[t]:
                    rest[t] -= 1
                    got += 1
            if 9 - got < best:
                best = min(best, 9 - got + _regular(rest, 1 - melds))
    return best - r


# ---------------------------------------------------------------------------
# leaves: the plain functions on a substituted hand
# ---------------------------------------------------------------------------

def leaf_win(x, melds):
    if max(x) <= 4:
        return mjfast.is_win(np.asarray(x, dtype=np.uint8), melds=melds)
    return ref_dist(x, melds) == 0


def leaf_shanten(x, melds, form=None):
    if max(x) <= 4:
        return mjfast.shanten(np.asarray(x, dtype=np.uint8), melds=melds, form=form)
    return ref_dist(x, melds, form) - 1


@lru_cache(maxsize=None)
def _all_subs(k):
    rows = []
    for combo in itertools.combinations_with_replacement(range(34), k):
        s = [0] * 34
        for t in combo:
            s[t] += 1
        rows.append(s)
    return np.array(rows, dtype=np.uint8).reshape(-1, 34)


def all_subs(k, c=None, fifth=False):
    """Every substitution of k wildcards (rows of 34 counts), no count of
    c + s past 4 unless fifth."""
    rows = _all_subs(k)
    if c is not None and not fifth:
        rows = rows[((c[None, :].astype(np.int16) + rows) <= 4).all(axis=1)]
    return rows


# ---------------------------------------------------------------------------
# searches
# ---------------------------------------------------------------------------

class BudgetExceeded(Exception):
    """A search given a node budget visited more nodes than that."""


def _search(x, t0, r, melds, fifth, keep, leaf, form=None, budget=None):
    """Depth-first over the multisets of r more tiles at kinds >= t0; `keep`
    says whether a node (the bound on its leaves' distance, r) may still lead
    to what is looked for; `leaf` returns True to stop the search.
    ``budget``: a one-element list of nodes left (BudgetExceeded at 0)."""
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0:
            raise BudgetExceeded
    if not keep(ref_dist(x, melds, form, r), r):
        return False
    if r == 0:
        return leaf(x)
    for t in range(t0, 34):
        if not fifth and x[t] >= 4:
            continue
        x[t] += 1
        stop = _search(x, t, r - 1, melds, fifth, keep, leaf, form, budget)
        x[t] -= 1
        if stop:
            return True
    return False


def wins(c, k, melds, fifth, claim=None):
    """Does some substitution complete c + k wildcards?  ``claim`` (the
    answer under test) only decides which side is proved first."""
    c = [int(v) for v in c]
    if claim:
        # a witness: the first substitution the kernel lists, checked here
        if not fifth:
            subs = _wild.win_substitutions(np.asarray(c, dtype=np.uint8), k, melds, 1)
            if subs:
                s = np.frombuffer(subs[0], dtype=np.uint8)
                if leaf_win([a + b for a, b in zip(c, s)], melds):
                    return True
    return _search(list(c), 0, k, melds, fifth, lambda d, r: d <= 0, lambda x: leaf_win(x, melds))


def shanten(c, k, melds, fifth, claim, form=None):
    """The least shanten over the substitutions, proved around ``claim``:
    a witness reaching it (found by a walk that follows the kernel's answers,
    then checked by the plain functions) and a search showing nothing goes
    lower.  Returns the proved value, or None when the claim fails either
    half (the caller then reports a mismatch)."""
    c = [int(v) for v in c]
    code = -1 if form is None else mjfast.FORMS.index(form)
    # a hand of 13 tiles (counting 3 per meld) is at best ready (0)
    floor = 0 if sum(c) + k + 3 * melds == 13 else -1
    x = list(c) if not fifth else None
    # witness: at each step a tile after which the kernel still claims
    # `claim` (a guide only: the leaf is checked by the plain functions)
    if x is not None:
        for r in range(k, 0, -1):
            for t in range(34):
                if x[t] >= 4:
                    continue
                x[t] += 1
                if _wild.shanten_one(np.asarray(x, dtype=np.uint8), r - 1, melds, code, False) == claim:
                    break
                x[t] -= 1
            else:
                x = None
                break
    if x is None or leaf_shanten(x, melds, form) != claim:
        found = _search(list(c), 0, k, melds, fifth, lambda d, r: max(d - 1, floor) <= claim,
                        lambda y: leaf_shanten(y, melds, form) <= claim, form)
        if not found:
            return None
    # nothing lower: every leaf below a kept node is checked
    lower = _search(list(c), 0, k, melds, fifth, lambda d, r: max(d - 1, floor) < claim,
                    lambda y: leaf_shanten(y, melds, form) < claim, form)
    return None if lower else claim
