"""Helpers for bots: which tile to discard, and what each wait is worth.

best_discards is compiled (src/_decide.pxi) for count arrays; the Python
front end here reads every other input and adds the options that need the
fan engine (below_8, rank="fan").  winning_tiles scores each wait.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _core, _decide
from ..errors import InvalidArgument, InvalidHand, NotWinning
from ..hand import Hand, format_hand, parse_hand
from ..rules.base import get
from ..scoring.records import show as _show
from ..scoring.score import score
from ..tiles import TILE_NAMES
from .hands import (all_forms as _all_forms, form_code as _form_code, forms_for as _forms_for,
                    resolve_workers, rule_set_of as _rule_set, rules_errors as _rules_errors, shanten, waits)
from .inputs import (batch_input as _batch_input, check_unchanged as _changed, concealed as _concealed,
                     raise_first as _raise_first)
from .targets import fan_shanten

__all__ = ["Discard", "WinningTile", "best_discards", "best_discards_batch", "winning_tiles"]


#: One answer of :func:`best_discards`: a tuple ``(tile, shanten,
#: useful_kinds, useful_left)`` with ``below_8`` and ``fan_shanten`` by name
#: (None unless asked for).  Built in compiled code (a struct sequence, like
#: ``os.stat_result``): ``Discard((tile, shanten, kinds, left))``.
Discard = _decide.Discard


def _discard_repr(d) -> str:
    # what a prompt wants: the tile by name (the field holds its index), and the
    # two fields filled only on request shown only when they were asked for
    t = d.tile
    name = TILE_NAMES[t] if type(t) is int and 0 <= t < len(TILE_NAMES) else None
    tile = f"{name} ({t})" if name is not None else repr(t)
    extra = "".join(f", {k}={getattr(d, k)!r}" for k in ("below_8", "fan_shanten") if getattr(d, k) is not None)
    return (f"Discard(tile={tile}, shanten={d.shanten!r}, useful_kinds={d.useful_kinds!r}, "
            f"useful_left={d.useful_left!r}{extra})")


# the type is built in compiled code (src/include/discard.h) as a heap type,
# so its repr can be set here, with the tile names
Discard.__repr__ = _discard_repr  # type: ignore[method-assign]  # on purpose: the tile by name


class WinningTile(NamedTuple):
    tile: int                 # the wait (index)
    discard_total: int        # points when won on a discard (flowers included)
    self_drawn_total: int     # points when self-drawn
    discard_legal: bool       # >= 8 points without flowers on a discard
    self_drawn_legal: bool


def _best_discards_py(hand, melds, visible, **options):
    """best_discards() for every input its compiled fast path does not take
    (strings, Hand objects, bad input to be named) and for the options."""
    check_points = options.pop("check_points", False)
    rank = options.pop("rank", "shanten")
    rules = options.pop("rules", None)
    context = {k: options.pop(k) for k in _CONTEXT if k in options}
    if options:
        raise TypeError(f"best_discards got unexpected keyword arguments: {', '.join(sorted(options))}")
    if not isinstance(check_points, (bool, np.bool_)):
        raise TypeError(f"check_points must be a bool, got {type(check_points).__name__}")
    if rank not in ("shanten", "fan"):
        raise ValueError(f"rank must be 'shanten' or 'fan', got {rank!r}")
    if context and not check_points:
        raise TypeError(f"{', '.join(sorted(context))}: scoring context only applies with check_points=True")
    counts, melds, full = _concealed(hand, melds, "win")
    held = np.ascontiguousarray(full if full is not None else counts, dtype=np.uint8)
    seen = held.astype(np.int64)
    if visible is not None:
        vis = np.asarray(visible)
        if vis.dtype == object or vis.dtype.kind not in "iu":
            raise InvalidArgument(f"visible must be 34 integer counts 0..4 (tiles seen elsewhere), "
                                  f"got {_show(visible)}")
        if vis.shape != (34,) or (vis < 0).any() or (vis > 4).any():
            raise InvalidArgument(f"visible must be 34 integer counts 0..4 (tiles seen elsewhere), "
                                  f"got {_show(visible)}")
        vis = vis.astype(np.int64)
        seen = seen + vis
        if (seen > 4).any():
            bad = int(np.flatnonzero(seen > 4)[0])
            raise InvalidHand(f"more than 4 copies of tile {bad} between the hand and the visible tiles")
    # useful tiles as mjfast.useful_tiles counts them; their copies left are
    # 4 - seen, the discarded tile counting as seen (it is on the table)
    if rules is not None:
        rs = _rule_set(rules, counts, full)
        if rs.wild_kinds:
            # the discard ranking counts real tiles; 财神 would need a search of their own
            raise ValueError(f"best_discards does not support rule set {rs.name!r} with wildcards "
                             f"({', '.join(rs.wild_kinds)}): it reads every tile as itself")
        if rank == "fan" and not rs.is_default:
            raise ValueError(f"rank='fan' ranks by MCR fan targets; it is not available for rule set {rs.name!r}")
        if not rs.is_default:
            context["rules"] = rs
        if not _all_forms(rs) or len(rs.tiles) < 34:
            out = _discards_forms(counts, melds, held, seen, rs)
        else:
            out = _decide.discards_core(counts, melds, held, seen.astype(np.uint8))
    else:
        out = _decide.discards_core(counts, melds, held, seen.astype(np.uint8))
    if not check_points and rank == "shanten":
        return out
    return _with_points(hand, counts, melds, out, check_points, rank, context)


def _discards_forms(counts, melds, held, seen, rs):
    """best_discards under a rule set that allows only some forms (or plays
    only some tiles): shanten over those forms, useful tiles among its tiles
    (the same order as the compiled search: lowest shanten, most copies left,
    most kinds, lowest tile)."""
    res = [Discard(d) for d in _rules_discards(np.ascontiguousarray(counts, dtype=np.uint8), melds,
                                               np.ascontiguousarray(held, dtype=np.uint8),
                                               np.asarray(seen, dtype=np.int64), rs)]
    res.sort(key=lambda d: (d.shanten, -d.useful_left, -d.useful_kinds, d.tile))
    return res


def _rules_discards(counts, melds, held, seen, rs):
    """(tile, shanten, useful kinds, useful copies left) of each distinct
    discard of 14-3k ``counts`` under the rule set's forms and tiles, as the
    compiled search counts them: a useful tile lowers the least shanten over
    the forms (so it lowers that of a form at the least value), is one of the
    rule set's tiles and is not held four times after the discard (``held``:
    every tile the player holds, melds included when known); its copies left
    are 4 - ``seen`` (held + visible, the discard still counted: it is on
    the table)."""
    codes = [_form_code(f) for f in _forms_for(rs, melds)]
    allowed = 0
    for u in rs.tiles:
        allowed |= 1 << u
    out = []
    for t in np.flatnonzero(counts).tolist():
        c = counts.copy()
        c[t] -= 1
        h = held.copy()
        h[t] -= 1
        best, mask = 127, 0
        for code in codes:
            sh, m = _decide.useful_mask(c, melds, code, h)
            if sh < best:
                best, mask = sh, m
            elif sh == best:
                mask |= m
        mask &= allowed
        kinds = left = 0
        while mask:
            low = mask & -mask
            u = low.bit_length() - 1
            kinds += 1
            left += 4 - int(seen[u])
            mask ^= low
        out.append((t, best, kinds, left))
    return out


_CONTEXT = ("seat_wind", "round_wind", "flowers", "fourth_tile", "kong", "last_tile")


def _with_points(hand, counts, melds, out, check_points, rank, context):
    """The options of best_discards: below_8 (check_points) and fan_shanten
    (rank="fan") for each discard, and the order rank asks for."""
    if isinstance(hand, str):
        hand = parse_hand(hand)
    if not isinstance(hand, Hand):
        if melds:
            raise InvalidHand("check_points / rank='fan' need the melds themselves: pass a notation "
                              "string or a Hand, not counts beside melds=k")
        hand = Hand((), tuple(t for t in range(34) for _ in range(int(counts[t]))))
    res = []
    for d in out:
        tiles = list(hand.tiles)
        tiles.remove(d.tile)
        left = Hand(hand.melds, tuple(tiles), hand.flowers)
        below = None
        if check_points and d.shanten == 0:
            waits = winning_tiles(left, **context)
            below = not any(w.discard_legal or w.self_drawn_legal for w in waits)
        fs = fan_shanten(left) if rank == "fan" else None
        res.append(Discard(tuple(d) + (below, fs)))
    if rank == "fan":
        res.sort(key=lambda d: (99 if d.fan_shanten is None else d.fan_shanten, d.shanten,
                                -d.useful_left, -d.useful_kinds, d.tile))
    return res


#: The compiled front: a list/tuple/array of 34 counts (and ``visible`` the
#: same) is answered in one call; anything else goes to _best_discards_py.
best_discards = _decide.best_discards
_decide._set_slow("best_discards", _best_discards_py)


def best_discards_batch(hands, *, melds=None, visible=None, workers: int = 1, errors: str = "raise", rules=None):
    """best_discards for N hands at once, for search loops.

    ``hands``: (N, 34) concealed counts of 14-3k tiles (``melds``: None =
    implied by the size, an int, or one per row); ``visible``: None, 34
    counts for every row, or (N, 34).  Returns ``(shanten, useful_kinds,
    useful_left)``, each (N, 34): column t answers "discard tile t" as
    :func:`best_discards` does; shanten is 127 where the row does not hold
    t.  With ``errors="mask"`` returns ``(shanten, kinds, left, err)`` and a
    bad row gets -128 everywhere.  ``workers`` as in the other batch calls.

    ``rules=`` (as ``best_discards(rules=)``): shanten over the rule set's
    winning forms, useful tiles among its tiles; a row holding a tile it does
    not play is error 7 (``ERR_RULES``).  A rule set with every MCR form and
    tile (mcr, dazhong) is answered by the compiled kernel; the others
    (fewer forms or tiles) row by row in Python, many times slower
    (benchmarks/README.md, "Per-call speed for bots").  The rule set's
    wildcards (Zhuji's 财神 option) are not applied here: a batch function
    reads tiles as themselves, and one given wildcards is refused."""
    nthreads = resolve_workers(workers)
    rs = None
    if rules is not None:
        rs = get(rules)
        if rs.wild_kinds:
            raise ValueError(f"best_discards_batch does not support rule set {rs.name!r} with wildcards "
                             f"({rs.wild_kinds!r}): it reads every tile as itself")
        if _all_forms(rs) and len(rs.tiles) == 34:
            rs = None          # the kernel's answer is the rule set's
    arr, given, m, err = _batch_input(hands, melds, "win", "mask" if rs is not None else errors)
    if rs is not None:
        if errors == "raise" and err.any():
            _raise_first(arr, given, err)
        err = _rules_errors(arr, err.copy(), rs, errors)
    n = arr.shape[0]
    seen = arr
    if visible is not None:
        vis = np.asarray(visible)
        if vis.dtype.kind not in "iu" or vis.shape not in ((34,), (n, 34)):
            raise InvalidArgument(f"visible must be 34 integer counts or one row of 34 per hand, "
                                  f"got shape {vis.shape}")
        tot = arr.astype(np.int64) + vis.astype(np.int64)
        over = (tot > 4).any(axis=1) | (vis < 0).any(axis=-1)
        if over.any():
            if errors == "raise":
                bad = int(np.flatnonzero(over)[0])
                raise InvalidHand(f"row {bad}: more than 4 copies of a tile between the hand and the visible "
                                  "tiles (or a negative visible count)")
            err = err.copy()
            err[over & (err == 0)] = 1
            arr = arr.copy()
            arr[over] = 0
            tot[over] = 0
        seen = np.ascontiguousarray(tot, dtype=np.uint8)
    sh = np.empty((n, 34), dtype=np.int8)
    kinds = np.empty((n, 34), dtype=np.uint8)
    left = np.empty((n, 34), dtype=np.uint8)
    if rs is None:
        # bad rows (flagged in err) get -128; the kernel flags any row that changed since
        _changed(arr, given, err, errors, _decide.discards_batch(arr, m, err, seen, sh, kinds, left, nthreads))
    else:
        sh[:] = 127
        kinds[:] = 0
        left[:] = 0
        seen64 = seen.astype(np.int64)
        for i in np.flatnonzero(err == 0).tolist():
            for t, s, k, l in _rules_discards(arr[i], int(m[i]), arr[i], seen64[i], rs):
                sh[i, t], kinds[i, t], left[i, t] = s, k, l
    if errors == "mask":
        bad = err != 0
        sh[bad] = -128
        kinds[bad] = 0
        left[bad] = 0
        return sh, kinds, left, err
    return sh, kinds, left


def winning_tiles(hand, *, rules=None, **context) -> list:
    """For a ready hand (notation with melds, 13 tiles counting 3 per meld),
    each winning tile with the total it scores on a discard and self-drawn.

    ``context``: the keyword arguments of :func:`mjfast.score` other than
    ``self_drawn`` (seat_wind, round_wind, flowers, fourth_tile, kong, last_tile).
    A wait that cannot score at all (not a win under the fan engine) is left out.
    ``rules=``: scored under that rule set (legal = its minimum); a tile it
    does not play raises :class:`~mjfast.InvalidHand`.
    """
    if "self_drawn" in context:
        raise TypeError("winning_tiles scores both ways; do not pass self_drawn")
    h = parse_hand(hand) if isinstance(hand, str) else hand
    if not isinstance(h, Hand):
        raise InvalidArgument(f"hand must be a notation string or a Hand, got {type(hand).__name__}")
    if h.n_tiles != 13:
        raise InvalidHand(f"a ready hand has 13 tiles counting 3 per meld; got {h.n_tiles}")
    full = h.all_counts
    counts = np.ascontiguousarray(h.counts, dtype=np.uint8)
    out = []
    if rules is not None:
        rs = _rule_set(rules, counts, full)
        context["rules"] = rs
        cands = waits(h, rules=rs)
    else:
        cands = _core.waits_one(counts, len(h.melds))
    for t in cands:
        if full[t] >= 4:
            continue
        won = Hand(h.melds, tuple(h.tiles) + (t,), h.flowers)
        text = format_hand(won)
        try:
            d = score(text, self_drawn=False, **context)
            s = score(text, self_drawn=True, **context)
        except NotWinning:
            continue
        out.append(WinningTile(int(t), d.total, s.total, d.is_legal_win, s.is_legal_win))
    return out
