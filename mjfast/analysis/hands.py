"""Win check, waits, shanten and useful tiles: validation in Python, work in C.

Every public function here takes a notation string (melds in brackets count as
melds), a :class:`~mjfast.hand.Hand`, or a 34-count array of the concealed tiles
with ``melds=k`` (implied by the tile count when omitted).  Tiles come back as
ascending indices (see :func:`mjfast.tile_name`).
"""
from __future__ import annotations

import numpy as np

from .. import _core, _decide, _fans, _tablecache, _wild
from . import wild as _w
from ..errors import InvalidHand
# the error codes and resolve_workers are names of this module too
# (mjfast.core.ERR_RULES, mjfast.core.resolve_workers: README, docs)
from .inputs import (ERR_BAD_MELDS, ERR_BAD_SIZE, ERR_BAD_WILDCARDS, ERR_FORM, ERR_NEGATIVE, ERR_OK,
                     ERR_RULES, ERR_TOO_MANY_COPIES, ERROR_MESSAGES, resolve_workers)
from .inputs import batch_array as _batch_array, concealed as _concealed, raise_first as _raise_first
from .inputs import with_errors as _ret
from ..tiles import TILE_NAMES
from ..rules.base import get

__all__ = [
    "FORMS",
    "is_win",
    "decompose",
    "waits",
    "shanten",
    "useful_tiles",
    "is_win_batch",
    "shanten_batch",
    "waits_batch",
    "resolve_workers",
    "openmp_enabled",
    "cache_dir",
]

#: Winning forms, by name, in the order of their codes in the compiled core.
FORMS = ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")


def openmp_enabled() -> bool:
    """True when the compiled core was built with OpenMP (``workers`` > 1 runs in parallel)."""
    return _core._openmp_flag()


def cache_dir():
    """The directory of the lookup tables' disk cache (README, "The table
    cache"): ``$MJFAST_CACHE_DIR`` when set, else the user cache directory
    of this OS (``~/.cache/mjfast``, ``~/Library/Caches/mjfast``,
    ``%LOCALAPPDATA%\\mjfast\\Cache``); None when no directory can be named."""
    return _tablecache.cache_dir()


def form_code(form) -> int:
    if form is None:
        return -1
    try:
        return FORMS.index(form)
    except ValueError:
        raise ValueError(f"unknown form {form!r}; expected one of {', '.join(FORMS)}") from None


def _wild_hand(hand, melds, sizes, w):
    """(real counts, wildcards, melds, all-tiles counts, caps) of a wildcard
    call, validated: the wild kinds of ``wildcard_tiles`` emptied and
    counted, or ``wildcards`` counted in the size.  ``caps``: the most
    concealed copies of each kind, 4 less its copies in melds, or None when no
    melded tile is known (an array gives melds as a number only)."""
    if w.kinds is not None:
        counts, melds, full = _concealed(hand, melds, sizes)
        real, k = _w.split(counts, w.kinds)
    else:
        try:
            counts, melds, full = _concealed(hand, melds, sizes, w.k)
        except InvalidHand as e:
            if w.k and "tiles" in str(e):
                raise InvalidHand(f"{e} (counting wildcards={w.k} among the concealed tiles)") from None
            raise
        real, k = counts, w.k
    caps = None
    if full is not None:
        melded = full.astype(np.int16) - counts
        if melded.any():
            caps = np.clip(4 - melded, 0, 4).astype(np.uint8)
    return real, k, melds, counts if full is None else full, caps


def _form_fits(code, form, melds):
    if code in (1, 2, 3) and melds > 0:
        raise ValueError(f"form {form!r} needs a hand without melds")
    if code == 4 and melds > 1:
        raise ValueError("form 'knitted_straight' allows at most one meld")


def rule_set_of(rules, counts, full):
    """The rule set of a ``rules=`` argument, after checking that the hand's
    tiles (melds included when known) are among its tiles."""
    rs = get(rules)
    rs.check_tiles(full if full is not None else counts)
    return rs


def _rule_kinds(rules, wildcards, wildcard_tiles):
    """The wildcard kinds a call uses: those given, else the rule set's own
    (Zhuji's ``wildcards`` option, its 财神: every copy of those kinds in the
    hand is wild), so ``rules=`` alone answers under the rule set's 财神.
    Raises when the call names other wildcards than the rule set's."""
    if rules is None:
        return wildcard_tiles
    rs = get(rules)
    kinds = rs.wild_kinds
    if not kinds:
        return wildcard_tiles
    if wildcards is not None:
        raise ValueError(f"rule set {rs.name!r} makes {', '.join(kinds)} wild (its wildcards option); "
                         f"pass wildcard_tiles= or nothing, not wildcards={wildcards!r}")
    if wildcard_tiles is not None:
        if _w.check(None, wildcard_tiles, False).kinds != _w.check(None, kinds, False).kinds:
            raise ValueError(f"rule set {rs.name!r} makes {', '.join(kinds)} wild (its wildcards option); "
                             f"wildcard_tiles={wildcard_tiles!r} names other kinds")
    return tuple(kinds)


def all_forms(rs) -> bool:
    return set(rs.forms) >= set(FORMS)


def _wild_rules(rules, counts, full, k, w):
    """Wildcards beside ``rules=``: the rule set's tiles are checked (one that
    does not play every kind is refused) and its wildcard limit (``k``
    wildcards, ``w`` the call's WildArgs); returns the codes of the winning
    forms it allows, or None when it allows every form (the kernels'
    all-form answers then hold as they are)."""
    if rules is None:
        return None
    rs = rule_set_of(rules, counts, full)
    rs.check_wildcards(k, "wildcards" if w.kinds is None else "wildcard_tiles")
    if len(rs.tiles) < 34:
        # the kernels let a wildcard stand for any of the 34 kinds
        raise ValueError(f"wildcards are not supported with rule set {rs.name!r}, which does not play "
                         f"every tile ({rs.tile_text()})")
    if all_forms(rs):
        return None
    return tuple(FORMS.index(f) for f in rs.forms)


def _form_codes(codes, melds, form=None):
    """The allowed form codes that a hand with ``melds`` melds can take
    (``form``: one of them only; a form the rule set does not allow raises)."""
    if form is not None:
        code = form_code(form)
        if code not in codes:
            raise ValueError(f"form {form!r} is not a winning form of the rule set "
                             f"(its forms: {', '.join(FORMS[c] for c in codes)})")
        codes = (code,)
    return tuple(c for c in codes if c == 0 or (melds == 0 and c in (1, 2, 3)) or (c == 4 and melds <= 1))


def _wild_win_forms(counts, k, melds, caps, fifth, codes) -> bool:
    """``counts`` + ``k`` wildcards complete a hand in one of the forms
    ``codes``: per form, shanten -1 (no copies in melds), else the walk over
    the substitutions with the lower caps, each read by the decomposer."""
    codes = _form_codes(codes, melds)
    if caps is None or fifth:
        return any(_wild.shanten_one(counts, k, melds, c, fifth) == -1 for c in codes)
    names = {FORMS[c] for c in codes}
    for sub in _wild.win_substitutions(counts, k, melds, -1, caps):
        full = counts + np.frombuffer(sub, dtype=np.uint8)
        if any(form in names for form, _ in _fans.decompose_one(full, melds)):
            return True
    return False


def _wild_shanten_forms(counts, k, melds, fifth, codes, caps=None) -> int:
    return min(_wild.shanten_one(counts, k, melds, c, fifth, caps) for c in codes)


def is_win(hand, *, melds: int | None = None, rules=None, wildcards=None, wildcard_tiles=None,
           wild_fifth=False) -> bool:
    """True if the concealed tiles (14-3k) complete a hand in any MCR form
    (or, with ``rules=``, in a form the rule set allows; a tile the rule set
    does not play raises :class:`~mjfast.InvalidHand`).

    ``wildcards=k`` (k tiles that may stand for any tile, counted in the
    size) or ``wildcard_tiles=[kind, ...]`` (those kinds of the hand are
    wild); ``wild_fifth=True`` lets a wildcard make a fifth copy.  See
    docs/wildcards.md.

    >>> is_win("1112345678999m5m")
    True
    >>> is_win("123m456p789sEE3m", wildcards=2)
    True
    >>> is_win("123m456p789sESW", wildcards=2)
    False
    """
    wildcard_tiles = _rule_kinds(rules, wildcards, wildcard_tiles)
    if not _w.is_plain(wildcards, wildcard_tiles, wild_fifth):
        w = _w.check(wildcards, wildcard_tiles, wild_fifth)
        counts, k, melds, full, caps = _wild_hand(hand, melds, "win", w)
        codes = _wild_rules(rules, counts, full, k, w)
        if codes is not None:
            return _wild_win_forms(counts, k, melds, caps, w.fifth, codes)
        if caps is not None and not w.fifth:
            # copies in melds lower the four-copy cap: the walk over substitutions takes it
            return bool(_wild.win_substitutions(counts, k, melds, 1, caps))
        return _wild.is_win_one(counts, k, melds, w.fifth)
    counts, melds, full = _concealed(hand, melds, "win")
    if rules is not None:
        rs = rule_set_of(rules, counts, full)
        if not all_forms(rs):
            return any(form in rs.forms for form, _ in _fans.decompose_one(counts, melds))
    # the tile count fixes the melds: the kernel tries the special forms only
    # at 14 concealed tiles (or 11 for a knitted straight beside one meld)
    return _core.is_win_one(counts)


def decompose(hand, *, melds: int | None = None, rules=None, wildcards=None, wildcard_tiles=None,
              wild_fifth=False) -> list:
    """Every distinct reading of the concealed tiles (14-3k) as a winning hand.

    Returns a list of ``(form, items)``; ``items`` are ``(kind, tile)`` pairs:
    ``("chow", lowest tile)``, ``("pung", tile)``, ``("pair", tile)``, and for
    the special forms ``("single", tile)`` or ``("knitted", first tile of the
    knitted arrangement)``.  Regular readings come first, in the order the
    reference calculator meets them.  An empty list means not a win.

    >>> decompose("111222333m789p55s")[0]
    ('regular', (('pung', 0), ('pung', 1), ('pung', 2), ('chow', 15), ('pair', 22)))

    With wildcards (as :func:`is_win`) each reading is ``(form, items,
    substitution)``: ``substitution`` is the sorted tuple of the tiles the
    wildcards stand for, one per wildcard.  Every substitution that wins is
    listed (in ascending order of ``substitution``), each with all its
    readings.  ``wild_fifth=True`` is not supported here (ValueError).

    ``rules=``: only the readings in a form the rule set allows; a tile it
    does not play raises :class:`~mjfast.InvalidHand` naming the rule set.
    """
    wildcard_tiles = _rule_kinds(rules, wildcards, wildcard_tiles)
    if not _w.is_plain(wildcards, wildcard_tiles, wild_fifth):
        w = _w.check(wildcards, wildcard_tiles, wild_fifth)
        if w.fifth:
            raise ValueError("decompose does not support wild_fifth=True (a reading of five copies "
                             "has no place in the decomposer); use is_win / waits / shanten")
        counts, k, melds, full, caps = _wild_hand(hand, melds, "win", w)
        _wild_rules(rules, counts, full, k, w)
        out: list = []
        for sub in _wild.win_substitutions(counts, k, melds, -1, caps):
            s = np.frombuffer(sub, dtype=np.uint8)
            tiles = tuple(t for t in range(34) for _ in range(int(s[t])))
            for form, items in _fans.decompose_one(counts + s, melds):
                out.append((form, items, tiles))
        return out
    counts, melds, full = _concealed(hand, melds, "win")
    out = _fans.decompose_one(counts, melds)
    if rules is not None:
        rs = rule_set_of(rules, counts, full)
        out = [r for r in out if r[0] in rs.forms]
    return out


def waits(hand, *, melds: int | None = None, rules=None, wildcards=None, wildcard_tiles=None,
          wild_fifth=False) -> list[int]:
    """Tiles that complete a ready hand (13-3k concealed tiles), ascending.

    A tile whose four copies are all in the hand (melds included) is not a wait.
    ``rules=``: only the rule set's tiles, completing a form it allows.
    With wildcards (as :func:`is_win`) the list ends with
    :data:`mjfast.wild.WILDCARD` (34) when a drawn wildcard completes the
    hand (with ``wildcard_tiles`` the wild kind is listed instead).
    """
    wildcard_tiles = _rule_kinds(rules, wildcards, wildcard_tiles)
    if not _w.is_plain(wildcards, wildcard_tiles, wild_fifth):
        w = _w.check(wildcards, wildcard_tiles, wild_fifth)
        counts, k, melds, full, caps = _wild_hand(hand, melds, "ready", w)
        codes = _wild_rules(rules, counts, full, k, w)
        if codes is not None:
            # the rule set's forms only: each tile, and a drawn wildcard, tried
            mask = 0
            for t in range(34):
                if counts[t] < (4 if caps is None or w.fifth else caps[t]):
                    x = counts.copy()
                    x[t] += 1
                    if _wild_win_forms(x, k, melds, caps, w.fifth, codes):
                        mask |= 1 << t
            if k < _w.MAX_WILDCARDS and _wild_win_forms(counts, k + 1, melds, caps, w.fifth, codes):
                mask |= 1 << 34
        else:
            mask = _wild.waits_one(counts, k, melds, w.fifth)
            if caps is not None and not w.fifth:
                # copies in melds lower the cap: each wait rechecked by the walk
                # (a drawn wildcard wins when some real tile does, as without melds)
                keep = 0
                for t in range(34):
                    if (mask >> t) & 1 and counts[t] < caps[t]:
                        x = counts.copy()
                        x[t] += 1
                        if _wild.win_substitutions(x, k, melds, 1, caps):
                            keep |= 1 << t
                mask = keep | ((1 << 34) if keep else 0)
        if rules is not None and k >= rule_set_of(rules, counts, full).max_wildcards:
            mask &= ~(1 << 34)          # the rule set has no further wildcard to draw
        out = _w.mask_tiles(mask, w, full)
        if rules is not None:
            tiles = rule_set_of(rules, counts, full).tiles
            out = [t for t in out if t == _w.WILDCARD or t in tiles]
        return out
    counts, melds, full = _concealed(hand, melds, "ready")
    out = _core.waits_one(counts, melds)
    if rules is not None:
        rs = rule_set_of(rules, counts, full)
        out = [t for t in out if t in rs.tiles]
        if not all_forms(rs):
            kept = []
            for t in out:
                c = counts.copy()
                c[t] += 1
                if any(form in rs.forms for form, _ in _fans.decompose_one(c, melds)):
                    kept.append(t)
            out = kept
    if full is not None:
        out = [t for t in out if full[t] < 4]
    return out


def _shanten_py(hand, melds, form, exact, rules=None):
    """shanten() for every input its compiled fast path does not take
    (strings, Hand objects, other sequences, bad input to be named, rules=)."""
    kinds = _rule_kinds(rules, None, None)
    if kinds:
        return _shanten_wild(hand, melds, form, exact, rules, None, kinds, False)
    code = form_code(form)
    if not isinstance(exact, (bool, np.bool_)):
        raise TypeError(f"exact must be a bool, got {type(exact).__name__} {exact!r}")
    counts, melds, full = _concealed(hand, melds, "any")
    if rules is not None:
        rs = rule_set_of(rules, counts, full)
        _form_of_rules(rs, form)
        if form is None and not all_forms(rs):
            return min(_shanten_py(counts, melds, f, exact) for f in forms_for(rs, melds))
    if code in (1, 2, 3) and melds > 0:
        raise ValueError(f"form {form!r} needs a hand without melds")
    if code == 4 and melds > 1:
        raise ValueError("form 'knitted_straight' allows at most one meld")
    if exact:
        return _core.shanten_exact_one(counts, melds, code)
    return _core.shanten_one(counts, melds, code)


def _useful_py(hand, melds, form, rules=None):
    """useful_tiles() for every input its compiled fast path does not take
    (and for ``rules=``)."""
    kinds = _rule_kinds(rules, None, None)
    if kinds:
        return _useful_wild(hand, melds, form, rules, None, kinds, False)
    code = form_code(form)
    counts, melds, full = _concealed(hand, melds, "ready")
    rs = None
    if rules is not None:
        rs = rule_set_of(rules, counts, full)
        _form_of_rules(rs, form)
    if code in (1, 2, 3) and melds > 0:
        raise ValueError(f"form {form!r} needs a hand without melds")
    if code == 4 and melds > 1:
        raise ValueError("form 'knitted_straight' allows at most one meld")
    if rs is None:
        return useful_of(counts, melds, code, full)
    if form is not None or all_forms(rs):
        out = useful_of(counts, melds, code, full)
    else:
        # the shanten under the rule set is the least over its forms: a draw
        # lowers that least value exactly when it lowers the shanten of a
        # form at that value (no form's shanten drops by more than one)
        per = {f: _core.shanten_one(counts, melds, form_code(f)) for f in forms_for(rs, melds)}
        low = min(per.values())
        out = sorted({t for f, n in per.items() if n == low
                      for t in useful_of(counts, melds, form_code(f), full)})
    return [t for t in out if t in rs.tiles]


def _form_of_rules(rs, form):
    """Refuse a ``form=`` the rule set does not allow."""
    if form is not None and form not in rs.forms:
        raise ValueError(f"form {form!r} is not a winning form of rule set {rs.name!r} "
                         f"({', '.join(rs.forms)})")


def forms_for(rs, melds):
    """The rule set's forms a hand beside ``melds`` melds can still make."""
    return [f for f in rs.forms
            if f == "regular" or (f == "knitted_straight" and melds <= 1) or melds == 0]


def useful_of(counts, melds: int, code: int, held=None) -> list[int]:
    """The useful tiles of validated 13-3k ``counts`` (the one definition):
    the tiles whose draw lowers the shanten, minus those whose four copies
    are ``held`` (all the player's tiles, melds included; default ``counts``)."""
    held = counts if held is None else np.ascontiguousarray(held, dtype=np.uint8)
    _, mask = _decide.useful_mask(counts, melds, code, held)
    return [t for t in range(34) if (mask >> t) & 1]


# The compiled shanten / useful_tiles (the public functions) read a list,
# tuple or numpy array of 34 counts in one typed pass and answer without
# leaving C; any other input, and any call with wildcards, comes back to the
# Python front ends here.  They stay the public functions themselves: a
# Python wrapper in front of them cost a third of a per-call shanten.
shanten = _decide.shanten
useful_tiles = _decide.useful_tiles


def _shanten_wild(hand, melds, form, exact, rules, wildcards, wildcard_tiles, wild_fifth):
    """shanten() with wildcards (docs/wildcards.md)."""
    wildcard_tiles = _rule_kinds(rules, wildcards, wildcard_tiles)
    w = _w.check(wildcards, wildcard_tiles, wild_fifth)
    if not isinstance(exact, (bool, np.bool_)):
        raise TypeError(f"exact must be a bool, got {type(exact).__name__} {exact!r}")
    if exact:
        raise ValueError("exact=True is not supported with wildcards")
    code = form_code(form)
    counts, k, melds, full, caps = _wild_hand(hand, melds, "any", w)
    codes = _wild_rules(rules, counts, full, k, w)
    if codes is not None:
        # the least over the rule set's forms (or the one asked for)
        codes = _form_codes(codes, melds, form)
        return _wild_shanten_forms(counts, k, melds, w.fifth, codes, caps)
    _form_fits(code, form, melds)
    # copies in melds (when known) lower the four-copy cap of the wildcards
    return _wild.shanten_one(counts, k, melds, code, w.fifth, caps)


def _useful_wild(hand, melds, form, rules, wildcards, wildcard_tiles, wild_fifth):
    """useful_tiles() with wildcards (docs/wildcards.md)."""
    wildcard_tiles = _rule_kinds(rules, wildcards, wildcard_tiles)
    w = _w.check(wildcards, wildcard_tiles, wild_fifth)
    code = form_code(form)
    counts, k, melds, full, caps = _wild_hand(hand, melds, "ready", w)
    codes = _wild_rules(rules, counts, full, k, w)
    if codes is not None:
        # a tile lowers the least shanten over the rule set's forms exactly
        # when it lowers the shanten of a form that attains the least
        codes = _form_codes(codes, melds, form)
        per = [(c, _wild.useful_one(counts, k, melds, c, w.fifth, caps)) for c in codes]
        least = min(sh for _c, (sh, _m) in per)
        mask = 0
        for _c, (sh, m) in per:
            if sh == least:
                mask |= m
    else:
        _form_fits(code, form, melds)
        _, mask = _wild.useful_one(counts, k, melds, code, w.fifth, caps)
    out = _w.mask_tiles(mask, w, full)
    if rules is not None:
        tiles = rule_set_of(rules, counts, full).tiles
        out = [t for t in out if t == _w.WILDCARD or t in tiles]
    return out


_decide._set_slow("shanten_wild", _shanten_wild)
_decide._set_slow("useful_tiles_wild", _useful_wild)
_decide._set_slow("shanten", _shanten_py)
_decide._set_slow("useful_tiles", _useful_py)


# ---------------------------------------------------------------------------
# batch versions
# ---------------------------------------------------------------------------


def _wild_batch(hands, melds, errors, w):
    """(real counts uint8 (N, 34), wildcards uint8[N], given melds int64[N]
    or None, err uint8[N] with the rows already known bad) of a batch call
    with wildcards."""
    arr, given, negative = _batch_array(hands, melds, errors)
    n = arr.shape[0]
    err = np.zeros(n, dtype=np.uint8)
    if w.kinds is not None:
        kinds = list(w.kinds)
        k = arr[:, kinds].sum(axis=1, dtype=np.int64)
        arr = arr.copy()
        arr[:, kinds] = 0
    elif isinstance(w.k, int):
        k = np.full(n, w.k, dtype=np.int64)
    else:
        k = w.k
        if k.shape != (n,):
            raise ValueError(f"wildcards must be one int or {n} values (one per row), got shape {k.shape}")
    bad_k = (k < 0) | (k > _w.MAX_WILDCARDS)
    err[bad_k] = ERR_BAD_WILDCARDS
    ks = np.where(bad_k, 0, k).astype(np.uint8)
    if negative is not None:
        err[negative] = ERR_NEGATIVE
    return arr, ks, given, err


def _wild_finish(arr, ks, given, err, kernel_err, errors):
    """Merge the rows known bad before the kernel with its error codes; raise
    naming the first bad row unless errors="mask"."""
    known = err != 0
    err[~known] = kernel_err[~known]
    if errors == "raise" and err.any():
        first = int(np.flatnonzero(err)[0])
        detail = ""
        if err[first] in (ERR_BAD_SIZE, ERR_BAD_MELDS):
            m = f"melds={int(given[first])}" if given is not None else "melds implied by the size"
            detail = f" ({int(arr[first].sum())} tiles + {int(ks[first])} wildcards, {m})"
        raise InvalidHand(f"row {first}: {ERROR_MESSAGES[int(err[first])]}{detail}; "
                          "pass errors='mask' to flag bad rows instead")
    return known


_NO_MELDS = np.zeros(0, dtype=np.int64)


def _wild_is_win_batch(hands, melds, nthreads, errors, w):
    arr, ks, given, err = _wild_batch(hands, melds, errors, w)
    out = np.empty(arr.shape[0], dtype=np.uint8)
    kerr = np.empty(arr.shape[0], dtype=np.uint8)
    _wild.is_win_batch(arr, ks, _NO_MELDS if given is None else given, given is not None, w.fifth, out, kerr, nthreads)
    known = _wild_finish(arr, ks, given, err, kerr, errors)
    out[known] = 0
    return _ret(out.view(bool), err, errors)


def _wild_melds(arr, ks, given):
    """The melds of each row (given, or implied by tiles + wildcards), for the form check."""
    if given is not None:
        return given
    s = arr.sum(axis=1, dtype=np.int64) + ks
    return np.where(s % 3 == 2, (14 - s) // 3, (13 - s) // 3)


def is_win_batch(hands, *, melds=None, workers: int = 1, errors: str = "raise", rules=None,
                 wildcards=None, wildcard_tiles=None, wild_fifth=False):
    """(N,) bool: each row (14-3k concealed tile counts) is complete.

    With ``errors="mask"`` returns ``(result, err)``: err[i] != 0 flags a bad row
    (its result is False); see :data:`ERROR_MESSAGES`.
    ``workers``: threads, checked by :func:`resolve_workers` (-1 = all cores;
    counts above the usable cores are clamped to them); results never depend on it.

    Wildcards as :func:`is_win`: ``wildcards`` is one int for every row or
    an integer array of one count per row (the rows hold the real tiles);
    ``wildcard_tiles`` takes each row's counts of those kinds.  A count
    outside 0..8 is error 5 (:data:`ERROR_MESSAGES`).

    ``rules=`` (as :func:`is_win`): complete in a form the rule set allows; a
    row holding a tile it does not play is error 7 (``ERR_RULES``)."""
    nthreads = resolve_workers(workers)
    if rules is not None:
        return _is_win_batch_rules(hands, melds, nthreads, errors,
                                   _batch_rule_set(rules, wildcards, wildcard_tiles, wild_fifth))
    if not _w.is_plain(wildcards, wildcard_tiles, wild_fifth):
        return _wild_is_win_batch(hands, melds, nthreads, errors,
                                  _w.check(wildcards, wildcard_tiles, wild_fifth, batch=True))
    arr, given, negative = _batch_array(hands, melds, errors)
    n = arr.shape[0]
    out = np.empty(n, dtype=np.uint8)
    err = np.empty(n, dtype=np.uint8)
    # validation fused into the kernel: one pass over the rows
    nbad = _core.is_win_checked(arr, given, out, err, nthreads)
    _after_checked(arr, given, out, err, nbad, negative, 0, errors)
    return _ret(out.view(bool), err, errors)


def _after_checked(arr, given, out, err, nbad, negative, bad_value, errors):
    """After a kernel's checked pass (``*_checked``: the rows' checks and
    answers in one pass): rows with a negative count (emptied before the
    pass) get ERR_NEGATIVE and ``bad_value``; with errors="raise" the first
    bad row raises."""
    if negative is not None:
        err[negative] = ERR_NEGATIVE
        out[negative] = bad_value
        nbad = int(np.count_nonzero(err))
    if nbad and errors == "raise":
        _raise_first(arr, given, err)


def shanten_batch(hands, *, melds=None, form: str | None = None, workers: int = 1, errors: str = "raise",
                  exact: bool = False, rules=None, wildcards=None, wildcard_tiles=None, wild_fifth=False):
    """(N,) int8 shanten of each row (13-3k or 14-3k tiles). Bad rows (errors="mask") get -128.
    ``exact=True``: the exact replacement number - 1, as :func:`shanten`.

    ``workers``: threads, checked by :func:`resolve_workers` (-1 = all cores;
    counts above the usable cores are clamped to them); results never depend on it.
    Wildcards as :func:`is_win_batch` (``exact=True`` not supported with them).
    ``rules=`` (as :func:`shanten`): the least over the rule set's forms; a
    row holding a tile it does not play is error 7 (``ERR_RULES``)."""
    nthreads = resolve_workers(workers)
    if rules is not None:
        return _shanten_batch_rules(hands, melds, form, nthreads, errors, exact,
                                    _batch_rule_set(rules, wildcards, wildcard_tiles, wild_fifth))
    code = form_code(form)
    if not _w.is_plain(wildcards, wildcard_tiles, wild_fifth):
        w = _w.check(wildcards, wildcard_tiles, wild_fifth, batch=True)
        if not isinstance(exact, (bool, np.bool_)):
            raise TypeError(f"exact must be a bool, got {type(exact).__name__} {exact!r}")
        if exact:
            raise ValueError("exact=True is not supported with wildcards")
        arr, ks, given, err = _wild_batch(hands, melds, errors, w)
        mm = _wild_melds(arr, ks, given)[err == 0]
        if code in (1, 2, 3) and (mm > 0).any():
            raise ValueError(f"form {form!r} needs hands without melds")
        if code == 4 and (mm > 1).any():
            raise ValueError("form 'knitted_straight' allows at most one meld")
        out = np.empty(arr.shape[0], dtype=np.int8)
        kerr = np.empty(arr.shape[0], dtype=np.uint8)
        _wild.shanten_batch(arr, ks, _NO_MELDS if given is None else given, given is not None, code, w.fifth,
                            out, kerr, nthreads)
        known = _wild_finish(arr, ks, given, err, kerr, errors)
        out[known] = -128
        return _ret(out, err, errors)
    if not isinstance(exact, (bool, np.bool_)):
        raise TypeError(f"exact must be a bool, got {type(exact).__name__} {exact!r}")
    # validation fused into the kernel: one pass over the rows (a form that
    # does not apply beside a row's melds is refused after it, as before it)
    arr, given, negative = _batch_array(hands, melds, errors)
    n = arr.shape[0]
    out = np.empty(n, dtype=np.int8)
    err = np.empty(n, dtype=np.uint8)
    m = np.empty(n, dtype=np.uint8)
    nbad = _core.shanten_checked(arr, given, code, out, err, m, nthreads, bool(exact))
    _after_checked(arr, given, out, err, nbad, negative, -128, errors)
    _batch_forms(code, form, m)
    return _ret(out, err, errors)


def _batch_forms(code, form, m):
    """A form that cannot apply beside some row's melds refuses the call."""
    if code in (1, 2, 3) and (m > 0).any():
        raise ValueError(f"form {form!r} needs hands without melds")
    if code == 4 and (m > 1).any():
        raise ValueError("form 'knitted_straight' allows at most one meld")


def waits_batch(hands, *, melds=None, workers: int = 1, errors: str = "raise", rules=None,
                wildcards=None, wildcard_tiles=None, wild_fifth=False):
    """(N, 34) bool: the waits of each ready row (13-3k tiles).

    ``workers``: threads, checked by :func:`resolve_workers` (-1 = all cores;
    counts above the usable cores are clamped to them); results never depend on it.

    With wildcards (as :func:`is_win_batch`) the result is (N, 35): column
    34 (:data:`mjfast.wild.WILDCARD`) is True when a drawn wildcard completes
    the row.  Column t is True when drawing a real t does; with
    ``wildcard_tiles`` a wild kind's column repeats column 34 (drawing it is
    drawing a wildcard).  A kind whose four copies the row holds is never a
    wait.

    ``rules=`` (as :func:`waits`): only the rule set's tiles, completing a
    form it allows; a row holding a tile it does not play is error 7
    (``ERR_RULES``)."""
    nthreads = resolve_workers(workers)
    if rules is not None:
        return _waits_batch_rules(hands, melds, nthreads, errors,
                                  _batch_rule_set(rules, wildcards, wildcard_tiles, wild_fifth))
    if not _w.is_plain(wildcards, wildcard_tiles, wild_fifth):
        w = _w.check(wildcards, wildcard_tiles, wild_fifth, batch=True)
        held = np.asarray(hands)
        arr, ks, given, err = _wild_batch(hands, melds, errors, w)
        out = np.empty((arr.shape[0], 35), dtype=np.uint8)
        kerr = np.empty(arr.shape[0], dtype=np.uint8)
        _wild.waits_batch(arr, ks, _NO_MELDS if given is None else given, given is not None, w.fifth,
                          out, kerr, nthreads)
        known = _wild_finish(arr, ks, given, err, kerr, errors)
        if w.kinds is not None:
            kinds = list(w.kinds)
            out[:, kinds] = out[:, 34:35]
            out[:, kinds] &= (held[:, kinds] < 4)
        out[known] = 0
        return _ret(out.view(bool), err, errors)
    # validation fused into the kernel: one pass over the rows (bad rows get no waits)
    arr, given, negative = _batch_array(hands, melds, errors)
    n = arr.shape[0]
    out = np.empty((n, 34), dtype=np.uint8)
    err = np.empty(n, dtype=np.uint8)
    nbad = _core.waits_checked(arr, given, out, err, nthreads)
    _after_checked(arr, given, out, err, nbad, negative, 0, errors)
    return _ret(out.view(bool), err, errors)


# ---------------------------------------------------------------------------
# rules= on the batch functions: the rule set's tiles (a row holding another
# tile is error ERR_RULES) and its winning forms (the least over the forms it
# allows, as shanten(rules=) for one hand).  The kernels answer for every MCR
# form; a rule set that allows fewer is answered form by form.
# ---------------------------------------------------------------------------

def _batch_rule_set(rules, wildcards, wildcard_tiles, wild_fifth):
    rs = get(rules)
    if not _w.is_plain(wildcards, wildcard_tiles, wild_fifth):
        raise ValueError("rules= is not supported with wildcards in the batch functions yet "
                         "(the single-hand functions take both)")
    return rs


def _rows_melds(arr, given, sizes):
    """Melds per row (int64): given, or implied by the tile count."""
    if given is not None:
        return np.clip(given, 0, 4)
    n = arr.sum(axis=1, dtype=np.int64)
    if sizes == "win":
        return np.clip((14 - n) // 3, 0, 4)
    if sizes == "ready":
        return np.clip((13 - n) // 3, 0, 4)
    return np.clip(np.where(n % 3 == 2, (14 - n) // 3, (13 - n) // 3), 0, 4)


def _form_rows(form, m):
    """Rows whose melds leave room for ``form``."""
    if form == "regular":
        return np.ones(len(m), bool)
    if form == "knitted_straight":
        return m <= 1
    return m == 0


def _rules_shanten(arr, m, rs, nthreads, form=None):
    """Shanten (int8) of valid rows under the rule set's forms (or ``form``)."""
    forms = [form] if form is not None else list(rs.forms)
    if "regular" in forms and len(arr):
        # every form in one compiled pass (shanten_checked's bit set of forms;
        # with the regular form among them every row has an answer)
        a = np.ascontiguousarray(arr, np.uint8)
        out = np.empty(len(a), np.int8)
        err = np.empty(len(a), np.uint8)
        mo = np.empty(len(a), np.uint8)
        mask = sum(1 << FORMS.index(f) for f in set(forms))
        if not _core.shanten_checked(a, np.ascontiguousarray(m, np.int64), -1, out, err, mo, nthreads, False, mask):
            return out
    out = np.full(len(arr), 127, np.int8)
    for f in forms:
        rows = _form_rows(f, m)
        if rows.any():
            s = _core_shanten_rows(arr[rows], m[rows], f, nthreads)
            out[rows] = np.minimum(out[rows], s)
    return out


def _core_shanten_rows(arr, m, form, nthreads):
    return shanten_batch(np.ascontiguousarray(arr), melds=m.astype(np.int64), form=form, workers=nthreads)


def rules_errors(arr, err, rs, errors):
    """Flag the rows holding a tile the rule set does not play (ERR_RULES);
    with errors="raise" name the first bad row (the rule set's first)."""
    if len(rs.tiles) < 34:
        foreign = np.ones(34, bool)
        foreign[sorted(rs.tiles)] = False
        bad = (arr[:, foreign] > 0).any(axis=1) & (err == 0)
        err[bad] = ERR_RULES
    if errors == "raise" and err.any():
        first = int(np.flatnonzero(err)[0])
        if err[first] == ERR_RULES:
            t = int(np.flatnonzero(arr[first] * ~np.isin(np.arange(34), sorted(rs.tiles)))[0])
            raise InvalidHand(f"row {first}: tile {TILE_NAMES[t]} is not played in rule set {rs.name!r} "
                              f"({rs.tile_text()}); pass errors='mask' to flag bad rows instead")
    return err


def _is_win_batch_rules(hands, melds, nthreads, errors, rs):
    out, err = is_win_batch(hands, melds=melds, workers=nthreads, errors="mask")
    arr, given, _ = _batch_array(hands, melds, "mask")
    if errors == "raise" and err.any():
        _raise_first(arr, given, err)
    err = rules_errors(arr, err.copy(), rs, errors)
    out = out & (err == 0)
    if not all_forms(rs) and out.any():
        rows = np.flatnonzero(out)
        m = _rows_melds(arr[rows], None if given is None else given[rows], "win")
        out[rows] = _rules_shanten(arr[rows], m, rs, nthreads) == -1
    return _ret(out, err, errors)


def _shanten_batch_rules(hands, melds, form, nthreads, errors, exact, rs):
    if form is not None and form not in rs.forms:
        raise ValueError(f"form {form!r} is not a winning form of rule set {rs.name!r} ({', '.join(rs.forms)})")
    if form is None and not exact and "regular" in rs.forms and not all_forms(rs):
        # the rows' checks and the least shanten over the rule set's forms in
        # one compiled pass (as shanten_batch; the same results and errors)
        arr, given, negative = _batch_array(hands, melds, errors)
        n = arr.shape[0]
        out = np.empty(n, dtype=np.int8)
        err = np.empty(n, dtype=np.uint8)
        m = np.empty(n, dtype=np.uint8)
        mask = sum(1 << FORMS.index(f) for f in set(rs.forms))
        _core.shanten_checked(arr, given, -1, out, err, m, nthreads, False, mask)
        if negative is not None:
            err[negative] = ERR_NEGATIVE
        if errors == "raise" and err.any():
            _raise_first(arr, given, err)
        err = rules_errors(arr, err, rs, errors)
        out[err != 0] = -128
        return _ret(out, err, errors)
    out, err = shanten_batch(hands, melds=melds, form=form, workers=nthreads, errors="mask", exact=exact)
    arr, given, _ = _batch_array(hands, melds, "mask")
    if errors == "raise" and err.any():
        _raise_first(arr, given, err)
    err = rules_errors(arr, err.copy(), rs, errors)
    out = out.copy()
    if form is None and not all_forms(rs):
        if exact:
            raise ValueError(f"exact=True with rule set {rs.name!r} (fewer forms than MCR) is not supported "
                             "in shanten_batch yet; shanten() takes it hand by hand")
        rows = np.flatnonzero(err == 0)
        if len(rows):
            m = _rows_melds(arr[rows], None if given is None else given[rows], "any")
            out[rows] = _rules_shanten(arr[rows], m, rs, nthreads)
    out[err != 0] = -128
    return _ret(out, err, errors)


def _waits_batch_rules(hands, melds, nthreads, errors, rs):
    out, err = waits_batch(hands, melds=melds, workers=nthreads, errors="mask")
    arr, given, _ = _batch_array(hands, melds, "mask")
    if errors == "raise" and err.any():
        _raise_first(arr, given, err)
    err = rules_errors(arr, err.copy(), rs, errors)
    out = out.copy()
    out[err != 0] = False
    if len(rs.tiles) < 34:
        foreign = np.ones(34, bool)
        foreign[sorted(rs.tiles)] = False
        out[:, foreign] = False
    if not all_forms(rs):
        m_all = _rows_melds(arr, given, "ready")
        for t in np.flatnonzero(out.any(axis=0)):
            rows = np.flatnonzero(out[:, t])
            c = arr[rows].copy()
            c[:, t] += 1
            out[rows, t] = _rules_shanten(c, m_all[rows], rs, nthreads) == -1
    return _ret(out, err, errors)
