"""Seeded random winning hands and hand records, for tests and test files.

    import mjfast.testing as mt
    mt.winning_hands(3, seed=1)          # notation strings: ['[789s3]...', ...]
    mt.winning_records(1000, seed=1)     # JSONL-ready dicts with context flags
    mt.write_jsonl("hands.jsonl", 10_000, seed=1)
    mt.winning_records(100, seed=1, rules="dazhong")   # wins under another rule set

Everything here is reproducible: the same arguments give the same hands on
every machine and Python version (the generator is ``random.Random(seed)``).
Every hand is a win (``mjfast.is_win`` holds and ``mjfast.score`` scores it),
with at most four copies of a tile, melds included; not every one reaches
the 8-point minimum (``Score.is_legal_win``).  See docs/testing.md.

``iter_winning_records`` / ``winning_records``
    Records in the JSONL record format (docs/notation.md): melds first, then
    the concealed tiles, the winning tile last; ``self_drawn``,
    ``fourth_tile``, ``kong``, ``last_tile``, ``seat_wind``, ``round_wind``,
    ``flowers``.  By default every flag holds for its hand (no scorer drops
    one: a flag the hand contradicts is False); ``contradictions=True`` keeps the 1-2 % of kong / fourth-tile flags
    that the hand contradicts, which scorers drop and report.  Under
    ``rules=`` the records are those of the MCR stream that win under that
    rule set, with the fields it does not use removed and ``"rules"`` set.
``winning_hands`` / ``winning_hand_objects``
    The same hands as notation strings / :class:`mjfast.Hand` objects.
``random_hands(n, size, seed=0, bias=None)``
    ``(n, 34) uint8`` random concealed tile sets of ``size`` tiles drawn
    without replacement from the 136-tile wall, optionally biased:
    None, "one_suit", "honors", "knitted", "pairs", "terminals".

The mix of winning hands is biased so that every one of the 81 fans of MCR
appears in 100,000 records (weights of ``_KINDS``):

* about 30 %: a regular hand whose 4 sets and pair all come from one *pool*
  (any tile; one suit; one suit + honors; honors; terminals; terminals +
  honors; outside-hand sets; all-green; reversible; simples; upper / middle /
  lower tiles; upper / lower four; all-five; even pungs; two suits; all chows;
  all pungs).
* about 50 %: a regular hand built around a *template* (pure / mixed
  straight, pure / mixed shifted chows, four pure shifted chows, 2-4
  identical chows, mixed double / triple chow, short straight, two terminal
  chows, pure terminal chows, three-suited terminal chows, pure / four pure /
  mixed shifted pungs, triple / double pung, big / little winds and dragons,
  all types, a wind pung, tile hogs), its other sets filled from a
  compatible pool, from one suit, or from any tile.
* about 20 %: special forms: seven pairs (random, themed, with a
  four-of-a-kind, seven shifted pairs), thirteen orphans, lesser / greater
  honors and knitted tiles, knitted straight + set + pair (0 or 1 meld), nine
  gates.

Regular hands get 0-4 melds (about 40 % fully concealed); each pung becomes a
kong now and then (melded ``[XXXX1-3]``, added ``[XXXX5-7]``, concealed
``[XXXX]``), with a "kong-heavy" mode that reaches three and four kongs.
Flags: self-drawn 45 %; kong flag mostly where meaningful (replacement tile
after a kong, robbing a kong of a tile held nowhere else); fourth_tile ~10 %;
last_tile ~8 %; seat and round winds uniform; flowers 0 (55 %) or 1-8.
Generation is pure Python, about 15 us a record (1,000,000 in about 15 s;
checking the flags, the default, adds a scoring call per record).
"""

from __future__ import annotations

import json
import random
from typing import Dict, Iterator, List, Optional, Tuple

import numpy as np

import itertools
from .errors import InvalidArgument, InvalidHand
from .hand import Hand, parse_hand
from .rules.base import RuleSet, get as _get_rules
from .scoring.score import score as _score

__all__ = ["iter_winning_records", "winning_records", "winning_hands", "winning_hand_objects",
           "write_jsonl", "random_hands", "BIASES"]

# ---------------------------------------------------------------------------
# tile tables
# ---------------------------------------------------------------------------

_M, _P, _S = 0, 9, 18
_SUITS = (_M, _P, _S)
_SUIT_LETTER = {0: "m", 9: "p", 18: "s"}
_HON = "ESWNCFP"
_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)
_HONORS = tuple(range(27, 34))
_WIND_NAMES = ("E", "S", "W", "N")


def _t(suit: int, rank: int) -> int:
    return suit + rank - 1


def _tile_str(i: int) -> str:
    return f"{i % 9 + 1}{_SUIT_LETTER[i - i % 9]}" if i < 27 else _HON[i - 27]


_TILE_STR = tuple(_tile_str(i) for i in range(34))


def _meld_str(tiles: Tuple[int, ...], digit: str) -> str:
    t0 = tiles[0]
    if t0 < 27:
        return "[" + "".join(str(t % 9 + 1) for t in tiles) + _SUIT_LETTER[t0 - t0 % 9] + digit + "]"
    return "[" + "".join(_HON[t - 27] for t in tiles) + digit + "]"


# Chow meld strings: _CHOW_STR[start][claimed 1..3]
_CHOW_STR: Dict[int, list] = {s: [None] + [_meld_str((s, s + 1, s + 2), str(d)) for d in (1, 2, 3)]
             for su in _SUITS for s in range(su, su + 7)}
# Pung / kong meld strings keyed by digit string ('' = no digit)
_PUNG_STR = [{d: _meld_str((i, i, i), d) for d in ("1", "2", "3")} for i in range(34)]
_KONG_STR = [{d: _meld_str((i, i, i, i), d) for d in ("", "1", "2", "3", "5", "6", "7")}
             for i in range(34)]

_DIGITS = [str(r) for r in range(1, 10)]


def _compact(counts: List[int]) -> str:
    parts = []
    for su in _SUITS:
        d = "".join(_DIGITS[r] * counts[su + r] for r in range(9) if counts[su + r])
        if d:
            parts.append(d + _SUIT_LETTER[su])
    for i in range(27, 34):
        if counts[i]:
            parts.append(_HON[i - 27] * counts[i])
    return "".join(parts)


# ---------------------------------------------------------------------------
# pools: (chow starts, pung tiles, pair tiles, probability of a chow)
# ---------------------------------------------------------------------------

Pool = Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[int, ...], float]


def _pool(chows, pungs, pairs=None, p_chow=0.5) -> Pool:
    chows = tuple(chows)
    pungs = tuple(pungs)
    pairs = tuple(pairs) if pairs is not None else pungs
    if not chows:
        p_chow = 0.0
    if not pungs:
        p_chow = 1.0
    return (chows, pungs, pairs, p_chow)


def _ranks(rs, suits=_SUITS):
    return [_t(su, r) for su in suits for r in rs]


def _chows(starts, suits=_SUITS):
    return [_t(su, r) for su in suits for r in starts]


_ALL = tuple(range(34))
_SUITED = tuple(range(27))
_TERMS = tuple(_ranks((1, 9)))
_GREEN = (_t(_S, 2), _t(_S, 3), _t(_S, 4), _t(_S, 6), _t(_S, 8), 32)
_REVERSIBLE = tuple(_ranks((1, 2, 3, 4, 5, 8, 9), (_P,)) + _ranks((2, 4, 5, 6, 8, 9), (_S,)) + [33])

POOLS: Dict[str, Pool] = {
    "any": _pool(_chows(range(1, 8)), _ALL, p_chow=0.55),
    "any_chowy": _pool(_chows(range(1, 8)), _ALL, p_chow=0.8),
    "suited": _pool(_chows(range(1, 8)), _SUITED, p_chow=0.6),
    "honors": _pool((), _HONORS),
    "terminals": _pool((), _TERMS),
    "term_honors": _pool((), _TERMS + _HONORS),
    "outside": _pool(_chows((1, 7)), _TERMS + _HONORS, p_chow=0.55),
    "green": _pool((_t(_S, 2),), _GREEN, p_chow=0.45),
    "reversible": _pool((_t(_P, 1), _t(_P, 2), _t(_P, 3), _t(_S, 4)), _REVERSIBLE, p_chow=0.5),
    "simples": _pool(_chows(range(2, 7)), _ranks(range(2, 9)), p_chow=0.6),
    "upper": _pool(_chows((7,)), _ranks((7, 8, 9)), p_chow=0.5),
    "middle": _pool(_chows((4,)), _ranks((4, 5, 6)), p_chow=0.5),
    "lower": _pool(_chows((1,)), _ranks((1, 2, 3)), p_chow=0.5),
    "upper4": _pool(_chows((6, 7)), _ranks((6, 7, 8, 9)), p_chow=0.55),
    "lower4": _pool(_chows((1, 2)), _ranks((1, 2, 3, 4)), p_chow=0.55),
    "five": _pool(_chows((3, 4, 5)), _ranks((5,)), p_chow=0.7),
    "even": _pool((), _ranks((2, 4, 6, 8))),
    "chows": _pool(_chows(range(1, 8)), (), _SUITED, p_chow=1.0),
    "pungs": _pool((), _ALL),
}
for _su in _SUITS:
    L = _SUIT_LETTER[_su]
    POOLS["flush_" + L] = _pool(_chows(range(1, 8), (_su,)), _ranks(range(1, 10), (_su,)), p_chow=0.6)
    POOLS["half_" + L] = _pool(_chows(range(1, 8), (_su,)), _ranks(range(1, 10), (_su,)) + list(_HONORS),
                               p_chow=0.45)
    _two = tuple(s for s in _SUITS if s != _su)
    POOLS["void_" + L] = _pool(_chows(range(1, 8), _two), _ranks(range(1, 10), _two) + list(_HONORS),
                               p_chow=0.55)

# Pools used by the "pool" kind, with weights
_POOL_CHOICE = [
    ("any", 8), ("any_chowy", 4), ("suited", 3), ("honors", 2.5), ("terminals", 3), ("term_honors", 2),
    ("outside", 3), ("green", 2.5), ("reversible", 2.5), ("simples", 3), ("upper", 2), ("middle", 2),
    ("lower", 2), ("upper4", 2), ("lower4", 2), ("five", 2), ("even", 2), ("chows", 4),
    ("pungs", 4), ("flush_m", 1.5), ("flush_p", 1.5), ("flush_s", 1.5), ("half_m", 1.5),
    ("half_p", 1.5), ("half_s", 1.5), ("void_m", 1), ("void_p", 1), ("void_s", 1),
]


def _cum(weights):
    out, acc = [], 0.0
    for w in weights:
        acc += w
        out.append(acc)
    return out


_POOL_NAMES = [p for p, _ in _POOL_CHOICE]
_POOL_CUM = _cum([w for _, w in _POOL_CHOICE])


# ---------------------------------------------------------------------------
# building blocks; a set is (0, start) for a chow or (1, tile) for a pung
# ---------------------------------------------------------------------------

def _fill(rng: random.Random, sets: list, pool: Pool, n: int) -> None:
    chows, pungs, _, p = pool
    for _ in range(n):
        if rng.random() < p:
            sets.append((0, rng.choice(chows)))
        else:
            sets.append((1, rng.choice(pungs)))


def _suit_pools(su: int) -> Tuple[Pool, ...]:
    L = _SUIT_LETTER[su]
    return (POOLS["flush_" + L], POOLS["half_" + L])


def _filler(rng: random.Random, su: Optional[int] = None, compat: Optional[Pool] = None) -> Pool:
    """Pool for the remaining sets of a template."""
    x = rng.random()
    if compat is not None and x < 0.35:
        return compat
    if su is not None and x < 0.65:
        return _suit_pools(su)[0 if rng.random() < 0.6 else 1]
    if x < 0.8:
        return POOLS["any"]
    return POOLS[rng.choice(("suited", "outside", "simples", "pungs", "chows", "any_chowy"))]


def _perm3(rng: random.Random) -> List[int]:
    s = list(_SUITS)
    rng.shuffle(s)
    return s


# Each template returns (sets, pair or None, filler pool)

def _tp_pure_straight(rng):
    su = rng.choice(_SUITS)
    return [(0, _t(su, 1)), (0, _t(su, 4)), (0, _t(su, 7))], None, _filler(rng, su)


def _tp_mixed_straight(rng):
    a, b, c = _perm3(rng)
    return [(0, _t(a, 1)), (0, _t(b, 4)), (0, _t(c, 7))], None, _filler(rng, compat=POOLS["chows"])


def _tp_pure_shifted_chows(rng):
    su = rng.choice(_SUITS)
    if rng.random() < 0.5:
        r = rng.randint(1, 5)
        sets = [(0, _t(su, r)), (0, _t(su, r + 1)), (0, _t(su, r + 2))]
    else:
        r = rng.randint(1, 3)
        sets = [(0, _t(su, r)), (0, _t(su, r + 2)), (0, _t(su, r + 4))]
    return sets, None, _filler(rng, su)


def _tp_four_shifted_chows(rng):
    su = rng.choice(_SUITS)
    if rng.random() < 0.6:
        r = rng.randint(1, 4)
        sets = [(0, _t(su, r + i)) for i in range(4)]
    else:
        sets = [(0, _t(su, 1 + 2 * i)) for i in range(4)]
    return sets, None, _filler(rng, su)


def _tp_identical_chows(rng):
    su = rng.choice(_SUITS)
    s = _t(su, rng.randint(1, 7))
    k = rng.choice((2, 2, 3, 3, 4))
    return [(0, s)] * k, None, _filler(rng, su)


def _tp_mixed_triple_chow(rng):
    r = rng.randint(1, 7)
    k = 3 if rng.random() < 0.6 else 2
    suits = _perm3(rng)[:k]
    return [(0, _t(su, r)) for su in suits], None, _filler(rng, compat=POOLS["chows"])


def _tp_mixed_shifted_chows(rng):
    r = rng.randint(1, 5)
    a, b, c = _perm3(rng)
    return [(0, _t(a, r)), (0, _t(b, r + 1)), (0, _t(c, r + 2))], None, _filler(rng, compat=POOLS["chows"])


def _tp_short_straight(rng):
    su = rng.choice(_SUITS)
    r = rng.randint(1, 4)
    return [(0, _t(su, r)), (0, _t(su, r + 3))], None, _filler(rng, su)


def _tp_terminal_chows(rng):
    su = rng.choice(_SUITS)
    return [(0, _t(su, 1)), (0, _t(su, 7))], None, _filler(rng, su, POOLS["outside"])


def _tp_pure_terminal_chows(rng):
    su = rng.choice(_SUITS)
    sets = [(0, _t(su, 1)), (0, _t(su, 1)), (0, _t(su, 7)), (0, _t(su, 7))]
    pair = _t(su, 5) if rng.random() < 0.85 else rng.choice(_ALL)
    return sets, pair, POOLS["any"]


def _tp_three_suited_terminal(rng):
    a, b, c = _perm3(rng)
    sets = [(0, _t(a, 1)), (0, _t(a, 7)), (0, _t(b, 1)), (0, _t(b, 7))]
    pair = _t(c, 5) if rng.random() < 0.85 else rng.choice(_ALL)
    return sets, pair, POOLS["any"]


def _tp_pure_shifted_pungs(rng):
    su = rng.choice(_SUITS)
    k = 3 if rng.random() < 0.6 else 4
    r = rng.randint(1, 10 - k)
    return [(1, _t(su, r + i)) for i in range(k)], None, _filler(rng, su, POOLS["pungs"])


def _tp_mixed_shifted_pungs(rng):
    r = rng.randint(1, 7)
    a, b, c = _perm3(rng)
    return [(1, _t(a, r)), (1, _t(b, r + 1)), (1, _t(c, r + 2))], None, _filler(rng, compat=POOLS["pungs"])


def _tp_triple_pung(rng):
    r = rng.randint(1, 9)
    k = 3 if rng.random() < 0.55 else 2
    suits = _perm3(rng)[:k]
    return [(1, _t(su, r)) for su in suits], None, _filler(rng, compat=POOLS["pungs"])


def _tp_winds(rng):
    w = list(_WINDS)
    rng.shuffle(w)
    x = rng.random()
    if x < 0.3:      # big four winds
        return [(1, t) for t in w], None, POOLS["any"]
    if x < 0.65:     # little four winds
        return [(1, t) for t in w[:3]], w[3], _filler(rng, compat=POOLS["honors"])
    # big three winds
    return [(1, t) for t in w[:3]], None, _filler(rng, compat=POOLS["honors"])


def _tp_dragons(rng):
    d = list(_DRAGONS)
    rng.shuffle(d)
    x = rng.random()
    if x < 0.3:
        return [(1, t) for t in d], None, _filler(rng, compat=POOLS["honors"])
    if x < 0.6:
        return [(1, t) for t in d[:2]], d[2], _filler(rng, compat=POOLS["honors"])
    if x < 0.8:
        return [(1, t) for t in d[:2]], None, _filler(rng)
    return [(1, d[0])], None, _filler(rng)


def _tp_all_types(rng):
    sets = []
    for su in _SUITS:
        if rng.random() < 0.6:
            sets.append((0, _t(su, rng.randint(1, 7))))
        else:
            sets.append((1, _t(su, rng.randint(1, 9))))
    w, d = rng.choice(_WINDS), rng.choice(_DRAGONS)
    if rng.random() < 0.5:
        sets.append((1, w))
        pair = d
    else:
        sets.append((1, d))
        pair = w
    return sets, pair, POOLS["any"]


def _tp_wind_pung(rng):
    return [(1, rng.choice(_WINDS))], None, _filler(rng)


def _tp_tile_hog(rng):
    # a pung plus a chow (or the pair) using the fourth copy
    su = rng.choice(_SUITS)
    r = rng.randint(1, 9)
    t = _t(su, r)
    lo = max(1, r - 2)
    hi = min(7, r)
    if rng.random() < 0.7:
        return [(1, t), (0, _t(su, rng.randint(lo, hi)))], None, _filler(rng, su)
    # two identical chows + a pair on the shared tile: 4 copies without a pung
    s = _t(su, rng.randint(lo, hi))
    return [(0, s), (0, s)], t, _filler(rng, su)


_TEMPLATES = [
    (_tp_pure_straight, 3), (_tp_mixed_straight, 3), (_tp_pure_shifted_chows, 3),
    (_tp_four_shifted_chows, 1.5), (_tp_identical_chows, 3.5), (_tp_mixed_triple_chow, 3),
    (_tp_mixed_shifted_chows, 2.5), (_tp_short_straight, 2), (_tp_terminal_chows, 2),
    (_tp_pure_terminal_chows, 1), (_tp_three_suited_terminal, 1.2), (_tp_pure_shifted_pungs, 3),
    (_tp_mixed_shifted_pungs, 2.5), (_tp_triple_pung, 3), (_tp_winds, 3), (_tp_dragons, 3),
    (_tp_all_types, 3), (_tp_wind_pung, 2), (_tp_tile_hog, 2),
]
_TP_FUNCS = [f for f, _ in _TEMPLATES]
_TP_CUM = _cum([w for _, w in _TEMPLATES])


# ---------------------------------------------------------------------------
# record assembly
# ---------------------------------------------------------------------------

def _flags(rng: random.Random, rec: dict, counts: List[int], win: int,
           melds_have_win: bool, has_kong: bool) -> None:
    self_drawn = rng.random() < 0.45
    # Is the winning tile held anywhere else (concealed or in a meld)?
    alone = counts[win] == 1 and not melds_have_win
    if self_drawn:
        kong = rng.random() < (0.3 if has_kong else 0.015)
    else:
        kong = rng.random() < (0.12 if alone else 0.015)
    fourth = rng.random() < (0.1 if counts[win] == 1 else 0.02)
    rec["self_drawn"] = self_drawn
    rec["fourth_tile"] = fourth
    rec["kong"] = kong
    rec["last_tile"] = rng.random() < 0.08
    rec["seat_wind"] = _WIND_NAMES[rng.getrandbits(2)]
    rec["round_wind"] = _WIND_NAMES[rng.getrandbits(2)]
    rec["flowers"] = 0 if rng.random() < 0.55 else rng.randint(1, 8)


def _finish(rng: random.Random, meld_strs: List[str], counts: List[int], meld_tiles: List[int],
            has_kong: bool, win: Optional[int] = None) -> dict:
    """counts: concealed tiles incl. the winning tile.  Picks the winning tile if not given."""
    if win is None:
        n = sum(counts)
        k = rng.randrange(n)
        for i in range(34):
            k -= counts[i]
            if k < 0:
                win = i
                break
    assert win is not None      # k < n: the loop picks one
    counts[win] -= 1
    hand = "".join(meld_strs) + _compact(counts) + _TILE_STR[win]
    counts[win] += 1
    rec = {"hand": hand}
    _flags(rng, rec, counts, win, win in meld_tiles, has_kong)
    return rec


_N_OPEN_CUM = _cum((0.4, 0.2, 0.15, 0.11, 0.14))


def _regular(rng: random.Random, sets: list, pair: int, n_open: Optional[int] = None) -> Optional[dict]:
    total = [0] * 34
    for kind, t in sets:
        if kind:
            total[t] += 3
        else:
            total[t] += 1
            total[t + 1] += 1
            total[t + 2] += 1
    total[pair] += 2
    if max(total) > 4:
        return None
    rng.shuffle(sets)
    if n_open is None:
        x = rng.random()
        n_open = 0
        while x >= _N_OPEN_CUM[n_open]:
            n_open += 1
    # kong propensity: normal or kong-heavy
    x = rng.random()
    p_kong = 0.08 if x < 0.8 else (0.5 if x < 0.93 else 0.95)
    concealed = [0] * 34
    concealed[pair] += 2
    meld_strs: List[str] = []
    meld_tiles: List[int] = []
    has_kong = False
    for i, (kind, t) in enumerate(sets):
        is_open = i < n_open
        if kind == 0:
            if is_open:
                meld_strs.append(_CHOW_STR[t][1 + rng.randrange(3)])
                meld_tiles.extend((t, t + 1, t + 2))
            else:
                concealed[t] += 1
                concealed[t + 1] += 1
                concealed[t + 2] += 1
            continue
        if total[t] == 3 and rng.random() < p_kong:
            has_kong = True
            if is_open:
                d = rng.choice("123567")
            else:
                d = ""
            meld_strs.append(_KONG_STR[t][d])
            meld_tiles.append(t)
        elif is_open:
            meld_strs.append(_PUNG_STR[t]["123"[rng.randrange(3)]])
            meld_tiles.append(t)
        else:
            concealed[t] += 3
    return _finish(rng, meld_strs, concealed, meld_tiles, has_kong)


def _kind_pool(rng):
    name = _POOL_NAMES[_pick(rng, _POOL_CUM)]
    pool = POOLS[name]
    sets: list = []
    _fill(rng, sets, pool, 4)
    pair = rng.choice(pool[2])
    return _regular(rng, sets, pair)


def _kind_template(rng):
    f = _TP_FUNCS[_pick(rng, _TP_CUM)]
    sets, pair, filler = f(rng)
    sets = list(sets)
    _fill(rng, sets, filler, 4 - len(sets))
    if pair is None:
        pair = rng.choice(filler[2])
    return _regular(rng, sets, pair)


_PAIR_POOLS = (
    _ALL, _ALL, _ALL, _SUITED, _HONORS + _TERMS, _TERMS, _HONORS, _GREEN, _REVERSIBLE,
    tuple(_ranks(range(2, 9))), tuple(_ranks(range(1, 10), (_M,))), tuple(_ranks(range(1, 10), (_P,))),
    tuple(_ranks(range(1, 10), (_S,))), tuple(_ranks(range(1, 10), (_S,))) + _HONORS,
    tuple(_ranks((7, 8, 9))), tuple(_ranks((1, 2, 3))), tuple(_ranks((4, 5, 6))),
)


def _kind_seven_pairs(rng):
    counts = [0] * 34
    x = rng.random()
    if x < 0.2:  # seven shifted pairs
        su = rng.choice(_SUITS)
        r = rng.randint(1, 3)
        for i in range(7):
            counts[_t(su, r + i)] = 2
    else:
        pool = rng.choice(_PAIR_POOLS)
        if len(pool) < 7:
            # green: widen with honors to make 7 pairs possible (no duplicates)
            pool = tuple(dict.fromkeys(pool + _HONORS))
        kinds = rng.sample(pool, 7) if len(pool) >= 7 else None
        if kinds is None:
            return None
        if rng.random() < 0.25:  # a four-of-a-kind used as two pairs
            kinds[6] = kinds[0]
        for t in kinds:
            counts[t] += 2
    return _finish(rng, [], counts, [], False)


_ORPHANS = _TERMS + _HONORS


def _kind_orphans(rng):
    counts = [0] * 34
    for t in _ORPHANS:
        counts[t] = 1
    counts[rng.choice(_ORPHANS)] += 1
    return _finish(rng, [], counts, [], False)


def _knitted_tiles(rng) -> List[int]:
    a, b, c = _perm3(rng)
    return [_t(a, 1), _t(a, 4), _t(a, 7), _t(b, 2), _t(b, 5), _t(b, 8), _t(c, 3), _t(c, 6), _t(c, 9)]


def _kind_honors_knitted(rng):
    knit = _knitted_tiles(rng)
    x = rng.random()
    h = 7 if x < 0.4 else (5 if x < 0.75 else 6)
    counts = [0] * 34
    for t in rng.sample(_HONORS, h):
        counts[t] = 1
    for t in rng.sample(knit, 14 - h):
        counts[t] = 1
    return _finish(rng, [], counts, [], False)


def _kind_knitted_straight(rng):
    knit = _knitted_tiles(rng)
    pool = POOLS["any"] if rng.random() < 0.6 else POOLS[rng.choice(("chows", "honors", "pungs", "outside"))]
    sets: list = []
    _fill(rng, sets, pool, 1)
    pair = rng.choice(pool[2])
    kind, t = sets[0]
    total = [0] * 34
    for k in knit:
        total[k] += 1
    total[pair] += 2
    if kind:
        total[t] += 3
    else:
        total[t] += 1
        total[t + 1] += 1
        total[t + 2] += 1
    if max(total) > 4:
        return None
    concealed = [0] * 34
    for k in knit:
        concealed[k] += 1
    concealed[pair] += 2
    meld_strs: List[str] = []
    meld_tiles: List[int] = []
    has_kong = False
    x = rng.random()
    if kind == 1 and total[t] == 3 and x < 0.12:
        has_kong = True
        meld_strs.append(_KONG_STR[t][rng.choice(("", "1", "2", "3", "5"))])
        meld_tiles.append(t)
    elif x < 0.4:  # melded set
        if kind:
            meld_strs.append(_PUNG_STR[t]["123"[rng.randrange(3)]])
            meld_tiles.append(t)
        else:
            meld_strs.append(_CHOW_STR[t][1 + rng.randrange(3)])
            meld_tiles.extend((t, t + 1, t + 2))
    else:
        if kind:
            concealed[t] += 3
        else:
            concealed[t] += 1
            concealed[t + 1] += 1
            concealed[t + 2] += 1
    return _finish(rng, meld_strs, concealed, meld_tiles, has_kong)


def _kind_nine_gates(rng):
    su = rng.choice(_SUITS)
    counts = [0] * 34
    for r, c in zip(range(9), (3, 1, 1, 1, 1, 1, 1, 1, 3)):
        counts[su + r] = c
    extra = su + rng.randrange(9)
    counts[extra] += 1
    win = extra if rng.random() < 0.8 else None
    return _finish(rng, [], counts, [], False, win)


def _kind_chicken(rng):
    # one set per suit + one more, simple pungs only, an honor pair, 1-3 melds:
    # the shape of a Chicken Hand when the flags and the wait cooperate
    sets = []
    for su in _SUITS:
        if rng.random() < 0.75:
            sets.append((0, _t(su, rng.randint(1, 7))))
        else:
            sets.append((1, _t(su, rng.randint(2, 8))))
    su = rng.choice(_SUITS)
    sets.append((0, _t(su, rng.randint(1, 7))))
    return _regular(rng, sets, rng.choice(_HONORS), n_open=rng.randint(1, 3))


_KINDS = [
    (_kind_pool, 30), (_kind_template, 50), (_kind_chicken, 3), (_kind_seven_pairs, 7), (_kind_orphans, 2),
    (_kind_honors_knitted, 3.5), (_kind_knitted_straight, 5), (_kind_nine_gates, 2.5),
]
_KIND_FUNCS = [f for f, _ in _KINDS]
_KIND_CUM = _cum([w for _, w in _KINDS])


def _pick(rng: random.Random, cum: List[float]) -> int:
    x = rng.random() * cum[-1]
    i = 0
    while x >= cum[i]:
        i += 1
    return i


def _mcr_stream(seed: int) -> Iterator[dict]:
    """The endless stream of MCR winning records, flags as drawn."""
    rng = random.Random(seed)
    funcs, cum = _KIND_FUNCS, _KIND_CUM
    while True:
        rec = funcs[_pick(rng, cum)](rng)
        if rec is not None:
            yield rec


# the record fields that a dropped flag name stands for ("winds": both winds)
_FIELDS_OF_FLAG = {"winds": ("seat_wind", "round_wind")}


def _under(rec: dict, rules: Optional[RuleSet]) -> Optional[dict]:
    """``rec`` with every flag the scorer drops removed, or None when the
    hand does not win under ``rules``."""
    hand = rec["hand"]
    ctx = {k: v for k, v in rec.items() if k != "hand"}
    try:
        s = _score(hand, rules=rules, **ctx)
    except InvalidHand:
        if rules is None:
            raise                      # an MCR hand of the mix always scores
        if not ctx.get("flowers"):
            return None
        # rule sets with fewer (or no) flowers: the hand without them
        ctx["flowers"] = 0
        try:
            s = _score(hand, rules=rules, **ctx)
        except InvalidHand:
            return None
    if s.ignored_flags:
        for flag in s.ignored_flags:
            for field in _FIELDS_OF_FLAG.get(flag, (flag,)):
                if ctx.get(field) is True:
                    ctx[field] = False     # a flag that cannot hold: the record keeps the field
                else:
                    ctx.pop(field, None)   # a field the rule set does not use
    out = {"hand": hand}
    out.update(ctx)
    if rules is not None:
        out["rules"] = rules.name
    return out


def _check_args(n, seed, rules, contradictions):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise InvalidArgument(f"n must be an int >= 0, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InvalidArgument(f"seed must be an int, got {seed!r}")
    if not isinstance(contradictions, (bool, np.bool_)):
        raise InvalidArgument(f"contradictions must be a bool, got {contradictions!r}")
    if rules is None:
        return None
    rs = _get_rules(rules)
    if rs.is_default and not rs.changed_options:
        rs = None
    elif rs != _get_rules(rs.name):
        # a record names its rule set; options cannot travel in it
        raise InvalidArgument(f"rules: a record names its rule set, so the rule set must be one of "
                              f"mjfast.rules.available() with its default options, got {rs!r}")
    if rs is not None and contradictions:
        raise InvalidArgument("contradictions=True is for MCR records only: under another rule set "
                              "every flag of a record holds")
    return rs


def iter_winning_records(n: int, seed: int = 0, *, rules=None, contradictions: bool = False) -> Iterator[dict]:
    """Yield ``n`` winning hand records (dicts of the JSONL record format),
    the same ones for the same arguments.

    ``rules``: a rule-set name (or an unchanged :class:`mjfast.rules.RuleSet`):
    the records of the MCR stream that win under it, with ``"rules"`` set and
    the fields it does not use removed (flowers set to 0 where it plays none).
    ``contradictions=True`` (MCR only) keeps the kong / fourth-tile flags a
    hand contradicts, as drawn; by default they are False, so that no
    scorer drops a flag."""
    rs = _check_args(n, seed, rules, contradictions)
    n = int(n)
    if n == 0:
        return
    stream = _mcr_stream(int(seed))
    done = 0
    for rec in stream:
        if rs is not None or not contradictions:
            under = _under(rec, rs)
            if under is None:
                continue
            rec = under
        done += 1
        yield rec
        if done == n:
            return


def winning_records(n: int, seed: int = 0, *, rules=None, contradictions: bool = False) -> List[dict]:
    """A list of ``n`` winning hand records: see :func:`iter_winning_records`."""
    return list(iter_winning_records(n, seed, rules=rules, contradictions=contradictions))


def winning_hands(n: int, seed: int = 0, *, rules=None) -> List[str]:
    """``n`` winning hands as notation strings (the ``"hand"`` of
    :func:`winning_records` with the same arguments)."""
    return [r["hand"] for r in iter_winning_records(n, seed, rules=rules)]


def winning_hand_objects(n: int, seed: int = 0, *, rules=None) -> List[Hand]:
    """``n`` winning hands as :class:`mjfast.Hand` objects (the hands of
    :func:`winning_hands` with the same arguments)."""
    return [parse_hand(h) for h in winning_hands(n, seed, rules=rules)]


def write_jsonl(path, n: int, seed: int = 0, *, rules=None, contradictions: bool = False) -> str:
    """Write ``n`` records of :func:`iter_winning_records` to ``path``, one JSON
    object a line (``mjfast score --jsonl`` / ``HandBatch.from_jsonl`` read
    it).  Returns the path."""
    recs = iter_winning_records(n, seed, rules=rules, contradictions=contradictions)
    with open(path, "w", encoding="utf-8") as f:
        for rec in recs:
            f.write(json.dumps(rec, ensure_ascii=False))
            f.write("\n")
    return path


# ---------------------------------------------------------------------------
# random concealed tile sets (numpy)
# ---------------------------------------------------------------------------

BIASES = (None, "one_suit", "honors", "knitted", "pairs", "terminals")

_TILE_OF_SLOT = np.repeat(np.arange(34), 4)  # wall slot -> tile index


def _weights_table(bias: str) -> np.ndarray:
    """(variants, 34) tile weights; one variant is chosen per hand."""
    rows = []
    if bias == "one_suit":
        for su in _SUITS:
            w = np.full(34, 0.02)
            w[27:] = 0.04
            w[su:su + 9] = 1.0
            rows.append(w)
    elif bias == "honors":
        w = np.full(34, 0.15)
        w[27:] = 1.0
        rows.append(w)
    elif bias == "knitted":
        for a, b, c in itertools.permutations(_SUITS):
            w = np.full(34, 0.04)
            w[27:] = 1.0
            for su, rs in ((a, (1, 4, 7)), (b, (2, 5, 8)), (c, (3, 6, 9))):
                for r in rs:
                    w[_t(su, r)] = 1.0
            rows.append(w)
    elif bias == "terminals":
        w = np.full(34, 0.05)
        for su in _SUITS:
            w[su] = w[su + 8] = 1.0
            w[su + 1] = w[su + 7] = 0.3
        w[27:] = 1.0
        rows.append(w)
    else:
        raise InvalidArgument(f"unknown bias {bias!r}; one of {BIASES}")
    return np.asarray(rows)


def _draw(rng: np.random.Generator, n: int, size: int, slot_w: Optional[np.ndarray]) -> np.ndarray:
    """Draw `size` of the 136 slots per row without replacement (weighted by slot_w (n,136))."""
    keys = rng.random((n, 136))
    if slot_w is not None:
        # Efraimidis-Spirakis: smallest -log(u)/w wins
        with np.errstate(divide="ignore"):
            keys = -np.log(keys) / slot_w
    if size < 136:
        idx = np.argpartition(keys, size - 1, axis=1)[:, :size]
    else:
        idx = np.broadcast_to(np.arange(136), (n, 136))
    tiles = _TILE_OF_SLOT[idx]
    flat = (np.arange(n)[:, None] * 34 + tiles).ravel()
    return np.bincount(flat, minlength=n * 34).reshape(n, 34)


def random_hands(n: int, size: int, seed: int = 0, bias: Optional[str] = None) -> np.ndarray:
    """(n, 34) uint8 counts of `size` tiles drawn from the 136-tile wall.

    bias: None (uniform), "one_suit" (mostly one suit, chosen per hand),
    "honors" (honor-heavy), "knitted" (tiles of one knitted arrangement plus
    honors), "pairs" (drawn mostly as pairs: size//2 pairs of distinct-or-not
    kinds, plus one single tile when size is odd), "terminals" (1/9/honors
    heavy, some 2/8).
    """
    if not 0 <= size <= 136:
        raise InvalidArgument(f"size must be 0..136, got {size!r}")
    if bias not in BIASES:
        raise InvalidArgument(f"unknown bias {bias!r}; one of {BIASES}")
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 34), dtype=np.uint8)
    if n == 0 or size == 0:
        return out
    chunk = 20000
    for lo in range(0, n, chunk):
        m = min(chunk, n - lo)
        if bias is None:
            c = _draw(rng, m, size, None)
        elif bias == "pairs":
            # 68 pair units (2 per kind), take size//2 of them, then one more tile
            npair = size // 2
            keys = rng.random((m, 68))
            c = np.zeros((m, 34), dtype=np.int64)
            if npair:
                idx = np.argpartition(keys, npair - 1, axis=1)[:, :npair] // 2
                flat = (np.arange(m)[:, None] * 34 + idx).ravel()
                c += 2 * np.bincount(flat, minlength=m * 34).reshape(m, 34)
            if size % 2:
                w = (4 - c).astype(float)  # remaining copies of each kind
                with np.errstate(divide="ignore"):
                    k2 = -np.log(rng.random((m, 34))) / w  # w == 0 -> inf, never chosen
                extra = np.argmin(k2, axis=1)
                c[np.arange(m), extra] += 1
        else:
            table = _weights_table(bias)
            var = rng.integers(0, len(table), size=m)
            slot_w = np.repeat(table[var], 4, axis=1)
            c = _draw(rng, m, size, slot_w)
        out[lo:lo + m] = c
    return out
