"""Fan-aware distance: how far a hand is from a win that scores 8 points.

MCR only lets a hand win with 8 points (flowers aside), so the plain shanten
can point a bot at wins it is not allowed to declare.  A *target* is a
pattern a winning hand can contain that scores at least its points by
itself: a fan worth 8 or more (Mixed Straight, Pure Straight, Seven Pairs,
Full Flush, ...) or a pair of smaller fans that always come together here
(All Pungs + Half Flush = 12, Half Flush + Outside Hand = 10).  For each
target, :func:`fan_targets` gives the exact number of tile exchanges still
needed to reach a winning hand with that pattern (in shanten units: -1 =
such a win now, 0 = one tile away) and the tiles that reduce it;
:func:`fan_shanten` is the minimum over the targets worth ``min_points``.

The computation is table-driven (``src/_targets.pxi``): fixed tile sets plus
a small remainder, regular hands over restricted ranks and shapes, pungs
only over allowed tiles, and the special forms.  docs/bots.md defines every
target with a hand, and says what is not a target (Chicken Hand, wins that
reach 8 only through several small fans, concealment fans).
"""
from __future__ import annotations

import itertools
from typing import NamedTuple, Optional

import numpy as np

from .. import _targets
from ..errors import InvalidArgument, InvalidHand
from ..hand import Hand, parse_hand
from ..scoring.records import check_flag
from ..rules import MCR
from ..rules.base import get
from .inputs import concealed as _concealed

__all__ = ["FanTarget", "fan_targets", "fan_shanten", "TARGETS"]

_BIG = 60
_SUITS = (0, 9, 18)
_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)


class FanTarget(NamedTuple):
    key: str            # target key: the fan's key, or "a+b" for a pair of fans
    name: str           # English name(s)
    points: int         # points the pattern guarantees (sum for a pair of fans)
    shanten: Optional[int]  # -1 = a win with this pattern now, 0 = one tile away, ...; None = out of reach
    useful: list        # tiles whose draw lowers it (13-3k tile hands; [] otherwise)


def _chow(t):
    return ("chow", t)


def _pung(t):
    return ("pung", t)


# ---------------------------------------------------------------------------
# the targets, as data
# ---------------------------------------------------------------------------

def _fixed_variants():
    """(fan key, fixed melds, fixed pair or None, R, p) for the fixed-set targets."""
    out = []
    for s in _SUITS:
        out.append(("pure_straight", [_chow(s), _chow(s + 3), _chow(s + 6)], None, 1, 1))
        for r in range(7):
            out.append(("pure_triple_chow", [_chow(s + r)] * 3, None, 1, 1))
            out.append(("quadruple_chow", [_chow(s + r)] * 4, None, 0, 1))
            out.append(("pure_shifted_pungs", [_pung(s + r), _pung(s + r + 1), _pung(s + r + 2)], None, 1, 1))
        for r in range(6):
            out.append(("four_pure_shifted_pungs", [_pung(s + r + i) for i in range(4)], None, 0, 1))
        for r in range(5):
            out.append(("pure_shifted_chows", [_chow(s + r), _chow(s + r + 1), _chow(s + r + 2)], None, 1, 1))
        for r in range(3):
            out.append(("pure_shifted_chows", [_chow(s + r), _chow(s + r + 2), _chow(s + r + 4)], None, 1, 1))
        for r in range(4):
            out.append(("four_pure_shifted_chows", [_chow(s + r + i) for i in range(4)], None, 0, 1))
        out.append(("four_pure_shifted_chows", [_chow(s + 2 * i) for i in range(4)], None, 0, 1))
        out.append(("pure_terminal_chows", [_chow(s), _chow(s), _chow(s + 6), _chow(s + 6)], s + 4, 0, 0))
    for a, b, c in itertools.permutations(_SUITS):
        out.append(("mixed_straight", [_chow(a), _chow(b + 3), _chow(c + 6)], None, 1, 1))
        for r in range(7):
            out.append(("mixed_shifted_pungs", [_pung(a + r), _pung(b + r + 1), _pung(c + r + 2)], None, 1, 1))
    for a, b, c in ((0, 9, 18), (0, 18, 9), (9, 18, 0)):
        out.append(("three_suited_terminal_chows", [_chow(a), _chow(a + 6), _chow(b), _chow(b + 6)], c + 4, 0, 0))
    for r in range(7):
        out.append(("mixed_triple_chow", [_chow(r), _chow(9 + r), _chow(18 + r)], None, 1, 1))
    for r in range(9):
        out.append(("triple_pung", [_pung(r), _pung(9 + r), _pung(18 + r)], None, 1, 1))
    for w in itertools.combinations(_WINDS, 3):
        out.append(("big_three_winds", [_pung(t) for t in w], None, 1, 1))
        pair = [t for t in _WINDS if t not in w][0]
        out.append(("little_four_winds", [_pung(t) for t in w], pair, 1, 0))
    out.append(("big_four_winds", [_pung(t) for t in _WINDS], None, 0, 1))
    for d in itertools.combinations(_DRAGONS, 2):
        pair = [t for t in _DRAGONS if t not in d][0]
        out.append(("little_three_dragons", [_pung(t) for t in d], pair, 2, 0))
    out.append(("big_three_dragons", [_pung(t) for t in _DRAGONS], None, 1, 1))
    return out


def _tiles_fixed():
    """Fixed 14-tile targets that are not melds + pair: (key, counts)."""
    out = []
    for s in _SUITS:
        for r in range(3):
            c = np.zeros(34, np.uint8)
            c[s + r:s + r + 7] = 2
            out.append(("seven_shifted_pairs", c))
        for extra in range(9):
            c = np.zeros(34, np.uint8)
            c[s:s + 9] = 1
            c[s] = c[s + 8] = 3
            c[s + extra] += 1
            out.append(("nine_gates", c))
    return out


def _ranks(*rs):
    m = 0
    for r in rs:
        m |= 1 << (r - 1)
    return m


# restricted tables: (nrank, allowed ranks, chow starts, pungs, pairs) as bit masks (rank 1 = bit 0)
_RSPECS = {
    "upper_four": (9, _ranks(6, 7, 8, 9), _ranks(6, 7), _ranks(6, 7, 8, 9), _ranks(6, 7, 8, 9)),
    "lower_four": (9, _ranks(1, 2, 3, 4), _ranks(1, 2), _ranks(1, 2, 3, 4), _ranks(1, 2, 3, 4)),
    "upper_tiles": (9, _ranks(7, 8, 9), _ranks(7), _ranks(7, 8, 9), _ranks(7, 8, 9)),
    "middle_tiles": (9, _ranks(4, 5, 6), _ranks(4), _ranks(4, 5, 6), _ranks(4, 5, 6)),
    "lower_tiles": (9, _ranks(1, 2, 3), _ranks(1), _ranks(1, 2, 3), _ranks(1, 2, 3)),
    "all_five": (9, _ranks(3, 4, 5, 6, 7), _ranks(3, 4, 5), _ranks(5), _ranks(5)),
    "rev_p": (9, _ranks(1, 2, 3, 4, 5, 8, 9), _ranks(1, 2, 3), _ranks(1, 2, 3, 4, 5, 8, 9), _ranks(1, 2, 3, 4, 5, 8, 9)),
    "rev_s": (9, _ranks(2, 4, 5, 6, 8, 9), _ranks(4), _ranks(2, 4, 5, 6, 8, 9), _ranks(2, 4, 5, 6, 8, 9)),
    "rev_h": (7, _ranks(7), 0, _ranks(7), _ranks(7)),                      # White Dragon (P)
    "green_s": (9, _ranks(2, 3, 4, 6, 8), _ranks(2), _ranks(2, 3, 4, 6, 8), _ranks(2, 3, 4, 6, 8)),
    "green_h": (7, _ranks(6), 0, _ranks(6), _ranks(6)),                    # Green Dragon (F)
    "outside": (9, _ranks(1, 2, 3, 7, 8, 9), _ranks(1, 7), _ranks(1, 9), _ranks(1, 9)),
}
_RNAMES = list(_RSPECS)
_NONE, _FULL, _OFF = -1, -2, -3


def _restricted_variants():
    """(target key, spec per part: table index / _NONE / _FULL)."""
    r = _RNAMES.index
    out = []
    for key in ("upper_four", "lower_four", "upper_tiles", "middle_tiles", "lower_tiles", "all_five"):
        out.append((key, (r(key), r(key), r(key), _NONE)))
    out.append(("reversible_tiles", (_NONE, r("rev_p"), r("rev_s"), r("rev_h"))))
    out.append(("all_green", (_NONE, _NONE, r("green_s"), r("green_h"))))
    for j in range(3):
        spec = [_NONE] * 4
        spec[j] = _FULL
        out.append(("full_flush", tuple(spec)))
        spec = [_NONE, _NONE, _NONE, _FULL]
        spec[j] = r("outside")
        out.append(("half_flush+outside_hand", tuple(spec)))
    return out


def _pung_variants():
    """(target key, allowed tiles) for the pungs-only targets."""
    out = []
    even = np.zeros(34, np.uint8)
    term = np.zeros(34, np.uint8)
    for s in _SUITS:
        even[[s + 1, s + 3, s + 5, s + 7]] = 1
        term[[s, s + 8]] = 1
    hon = np.zeros(34, np.uint8)
    hon[27:] = 1
    out.append(("all_even_pungs", even))
    out.append(("all_terminals", term))
    out.append(("all_terminals_and_honors", term | hon))
    out.append(("all_honors", hon))
    for s in _SUITS:
        a = hon.copy()
        a[s:s + 9] = 1
        out.append(("all_pungs+half_flush", a))
    return out


_FORMS = ("seven_pairs", "thirteen_orphans", "lesser_honors_and_knitted_tiles",
          "greater_honors_and_knitted_tiles", "knitted_straight")


def _target_keys():
    keys = []
    for k in [v[0] for v in _fixed_variants()] + [v[0] for v in _tiles_fixed()] + \
             [v[0] for v in _restricted_variants()] + [v[0] for v in _pung_variants()] + list(_FORMS):
        if k not in keys:
            keys.append(k)
    return keys


def _points(key):
    return sum(MCR[k].points for k in key.split("+"))


def _name(key):
    return " + ".join(MCR[k].en for k in key.split("+"))


#: Every target: key -> points it guarantees (a fan's points, or the sum for a pair of fans).
TARGETS = {k: _points(k) for k in _target_keys()}


class _Tables:
    """The target tables as arrays for the compiled kernel (built once)."""

    def __init__(self):
        self.keys = list(TARGETS)
        idx = {k: i for i, k in enumerate(self.keys)}
        self.fixed = _fixed_variants()
        self.tiles_fixed = _tiles_fixed()
        rv = _restricted_variants()
        self.rspec = np.array([s for _, s in rv], dtype=np.int8)
        self.rfan = np.array([idx[k] for k, _ in rv], dtype=np.int16)
        self.rvariants = rv
        pv = _pung_variants()
        self.pallow = np.ascontiguousarray([a for _, a in pv], dtype=np.uint8)
        self.pfan = np.array([idx[k] for k, _ in pv], dtype=np.int16)
        self.form_fan = np.array([idx[k] for k in _FORMS], dtype=np.int16)
        self.idx = idx
        _targets.build_restricted([_RSPECS[n] for n in _RNAMES])
        # the meld-free arrays (the common case) are built once
        self.F0, self.RP0, self.fan0 = self.fixed_arrays(())
        self.meld_cache = {}

    def fixed_arrays(self, melds):
        """F (K, 34), RP (K, 2), fan (K,) with the exposed melds matched:
        a meld equal to one of the target's fixed melds takes its place,
        any other uses a remainder meld (RP = -1: out of reach)."""
        F, RP, fan = [], [], []
        for key, fm, pair, R, p in self.fixed:
            left = list(fm)
            r = R
            for m in melds:
                if m in left:
                    left.remove(m)
                else:
                    r -= 1
            c = np.zeros(34, np.uint8)
            for kind, t in left:
                if kind == "chow":
                    c[t:t + 3] += 1
                else:
                    c[t] += 3
            if pair is not None:
                c[pair] += 2
            F.append(c)
            RP.append((r if r >= 0 else -1, p))
            fan.append(self.idx[key])
        for key, c in self.tiles_fixed:
            F.append(c)
            RP.append((0 if not melds else -1, 0))
            fan.append(self.idx[key])
        return (np.ascontiguousarray(F, dtype=np.uint8), np.ascontiguousarray(RP, dtype=np.int8),
                np.ascontiguousarray(fan, dtype=np.int16))


_tables: Optional[_Tables] = None


def _get_tables() -> _Tables:
    global _tables
    if _tables is None:
        _tables = _Tables()
    return _tables


def _meld_fits(spec_name, meld):
    """Whether an exposed meld (kind, lowest tile) fits a restricted spec."""
    kind, t = meld
    if spec_name is None:
        return False
    nrank, allowed, chow, pung, pair = _RSPECS[spec_name]
    r = t % 9 if t < 27 else t - 27
    if kind == "chow":
        return bool((chow >> r) & 1)
    return bool((pung >> r) & 1)


def _melds_of(h: Hand):
    """Exposed melds as (kind, lowest tile): a kong is a pung here."""
    return [("chow" if m.kind == "chow" else "pung", int(m.tile)) for m in h.melds]


def _hand_input(hand, melds):
    """(concealed counts uint8[34], exposed melds, shown counts uint8[34])."""
    if isinstance(hand, str):
        hand = parse_hand(hand)
    if isinstance(hand, Hand):
        if melds is not None:
            raise InvalidArgument("pass the melds in the hand (notation with brackets), not melds=")
        ms = _melds_of(hand)
        shown = np.asarray(hand.all_counts, dtype=np.int64) - np.asarray(hand.counts, dtype=np.int64)
        return (np.ascontiguousarray(hand.counts, dtype=np.uint8), ms,
                np.ascontiguousarray(shown, dtype=np.uint8))
    counts, k, _ = _concealed(hand, None, "any")
    if melds is None:
        ms = []
    else:
        ms = [(str(kind), int(t)) for kind, t in melds]
        for kind, t in ms:
            if kind not in ("chow", "pung", "kong") or not 0 <= t < 34 or (kind == "chow" and (t >= 27 or t % 9 > 6)):
                raise InvalidHand(f"bad meld {(kind, t)!r}: expected ('chow', lowest tile) or ('pung'|'kong', tile)")
        ms = [("pung" if kind == "kong" else kind, t) for kind, t in ms]
    if len(ms) != k:
        raise InvalidHand(f"{int(counts.sum())} concealed tiles need {k} melds, got {len(ms)}")
    shown = np.zeros(34, np.int64)
    for kind, t in ms:
        if kind == "chow":
            shown[t:t + 3] += 1
        else:
            shown[t] += 3
    if (shown + counts > 4).any():
        raise InvalidHand("more than 4 copies of a tile between the hand and its melds")
    return np.ascontiguousarray(counts, dtype=np.uint8), ms, np.ascontiguousarray(shown, dtype=np.uint8)


def _meld_tables(T, ms):
    """The target arrays with exposed melds ``ms`` matched (see
    fixed_arrays).  They depend only on the melds, and a bot asks about the
    same few melds all game: kept per multiset of melds (building them in
    Python costs far more than the kernel's query)."""
    key = tuple(sorted(ms))
    got = T.meld_cache.get(key)
    if got is not None:
        return got
    F, RP, fan = T.fixed_arrays(ms)
    rspec = T.rspec.copy()
    for i, (_rk, spec) in enumerate(T.rvariants):
        for m in ms:
            part = 3 if m[1] >= 27 else m[1] // 9
            s = spec[part]
            name = _RNAMES[s] if s >= 0 else None
            if s == _FULL:
                ok = True
            else:
                ok = _meld_fits(name, m)
            if not ok:
                rspec[i, 0] = _OFF
    pallow = T.pallow.copy()
    for i in range(len(pallow)):
        for kind, t in ms:
            if kind == "chow" or not T.pallow[i, t]:
                pallow[i, 0] = 255
    form_fan = T.form_fan.copy()
    form_fan[:4] = -1                         # seven pairs, orphans, honors-knitted: no melds
    if len(ms) > 1:
        form_fan[4] = -1
    if len(T.meld_cache) >= 4096:
        T.meld_cache.clear()
    got = (F, RP, fan, rspec, pallow, form_fan)
    for a in got:
        a.setflags(write=False)             # shared by every later call with these melds
    T.meld_cache[key] = got
    return got


def _distances(counts, ms, shown, useful):
    T = _get_tables()
    if ms:
        F, RP, fan, rspec, pallow, form_fan = _meld_tables(T, ms)
    else:
        F, RP, fan = T.F0, T.RP0, T.fan0
        rspec, pallow, form_fan = T.rspec, T.pallow, T.form_fan
    out = np.empty(len(T.keys), np.int16)
    umask = np.zeros(len(T.keys), np.int64)
    _targets.target_dists(counts, len(ms), shown, F, RP, fan, rspec, T.rfan, pallow, T.pfan,
                       form_fan, out, bool(useful), umask)
    return T, out, umask


#: the largest ``min_points``: the most a target is worth (88)
_MAX_POINTS = max(TARGETS.values())


def _target_rules(rules, counts, shown, min_points):
    """The minimum of a fan-target call, after checking ``rules=``: the
    targets are MCR fan patterns, so only a rule set scored with the MCR fan
    table takes them; its tiles are checked and its minimum is the default.
    ``min_points``: None or an int 0..88 (not a bool, a float or NaN)."""
    if min_points is not None:
        if isinstance(min_points, (bool, np.bool_)) or not isinstance(min_points, (int, np.integer)):
            raise InvalidArgument(f"min_points must be None or an int 0..{_MAX_POINTS}, "
                                  f"got {min_points!r}")
        if not 0 <= min_points <= _MAX_POINTS:
            raise InvalidArgument(f"min_points must be an int 0..{_MAX_POINTS} (the most a target "
                                  f"is worth), got {min_points!r}")
        min_points = int(min_points)
    if rules is None:
        return 8 if min_points is None else min_points
    rs = get(rules)
    if not rs.impl.mcr_fans:
        raise ValueError(f"fan targets are MCR fan patterns; rule set {rs.name!r} has its own fan "
                         f"table ({rs.title})")
    rs.check_tiles(np.asarray(counts, np.int64) + np.asarray(shown, np.int64))
    return rs.min_points if min_points is None else min_points


def fan_targets(hand, *, melds=None, min_points: Optional[int] = None, useful: bool = True,
                rules=None) -> list:
    """Every target worth ``min_points`` or more, with its distance, nearest first.

    ``hand``: a notation string (melds in brackets), a :class:`~mjfast.Hand`,
    or 34 concealed counts (13-3k or 14-3k tiles) with ``melds`` given as
    ``[("chow", lowest tile) | ("pung", tile) | ("kong", tile), ...]``.
    Each :class:`FanTarget` has ``shanten`` (-1 = a win with the pattern now,
    0 = ready for it, ...; ``None`` when the exposed melds rule it out) and
    ``useful``: the tiles whose draw lowers it (13-3k tile hands; a tile whose
    four copies are held or shown is never useful).  See docs/bots.md.

    ``min_points`` defaults to 8, or with ``rules=`` to the rule set's
    minimum (``rules=`` takes a rule set scored with the MCR fan table:
    ``mcr``, ``dazhong``; another raises ``ValueError``); given, it is an int
    0..88 (88: the most a target is worth), else
    :class:`~mjfast.errors.InvalidArgument`, as is a ``useful`` that is not
    a bool.
    """
    useful = check_flag(useful, "useful")
    counts, ms, shown = _hand_input(hand, melds)
    min_points = _target_rules(rules, counts, shown, min_points)
    T, out, umask = _distances(counts, ms, shown, useful)
    res = []
    for i, key in enumerate(T.keys):
        if TARGETS[key] < min_points:
            continue
        d = int(out[i])
        sh = d - 1 if d < _BIG else None
        u = [t for t in range(34) if (int(umask[i]) >> t) & 1] if sh is not None else []
        res.append(FanTarget(key, _name(key), TARGETS[key], sh, u))
    res.sort(key=lambda f: (f.shanten if f.shanten is not None else 99, -f.points, f.key))
    return res


def fan_shanten(hand, *, melds=None, min_points: Optional[int] = None, rules=None) -> Optional[int]:
    """The fewest exchanges - 1 to a win containing a target worth
    ``min_points`` (the minimum of :func:`fan_targets`' distances); None when
    the exposed melds rule out every target.  A hand can sometimes reach 8
    points by other means (several small fans, Chicken Hand): this is the
    distance through the targets, an upper bound on the true one.
    ``min_points`` and ``rules=`` as in :func:`fan_targets`."""
    counts, ms, shown = _hand_input(hand, melds)
    min_points = _target_rules(rules, counts, shown, min_points)
    T, out, _ = _distances(counts, ms, shown, False)
    best = _BIG
    for i, key in enumerate(T.keys):
        if TARGETS[key] >= min_points and out[i] < best:
            best = int(out[i])
    return best - 1 if best < _BIG else None
