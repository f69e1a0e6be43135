"""score_batch under a rule set other than plain MCR: the rows its own
predicates score.

:func:`mjfast.scoring.batch.score_batch` comes here when the batch or the call names
a rule set, or a row carries what only a rule set reads (wildcards, its
flags).  Rule sets on MCR's engine go back to the compiled MCR pass with
their variant bits; two-player rows go to its compiled engine where it can
take them; the rest -- rule sets that score hands in Python (``score_fn``),
and rows with wildcards -- are scored row by row, each exactly as
:func:`mjfast.score` would score it.  Loaded on the first such call, like
the rule sets themselves.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidHand, NotWinning
from ..hand import Hand, Meld
from .records import FLAG_NAMES, flag_values as _flag_values
from .batch_result import (BatchResult, ERR_INVALID, ERR_NOT_WINNING, ERR_OK, RULE_FLAG_BITS,
                           score_batch_mcr as _score_batch_mcr)
from ..rules.base import ignored_flags, strict_message
from ..rules.mcr import MCR
from .score import score


def _row_kinds(batch, i):
    """Row i's wild kinds (wildcard_tiles) as a list, or None."""
    m = int(batch.wild_kinds[i])
    return [t for t in range(34) if m >> t & 1] or None


def _tile_errors(batch, rs, invalid, messages):
    """Flag rows holding a tile the rule set does not play (melds included)."""
    if len(rs.tiles) == 34:
        return invalid
    allowed = np.zeros(34, bool)
    allowed[list(rs.tiles)] = True
    n = len(batch)
    k = np.minimum(batch.n_melds, 4)
    slot = np.arange(4)[None, :] < k[:, None]
    mt = np.minimum(batch.melds[:, :, 1], 33)
    # a chow covers its tile and the next two: all of one suit, so its first tile decides
    bad = (batch.counts[:, ~allowed] > 0).any(1) | (slot & ~allowed[mt]).any(1)
    bad &= ~invalid
    if bad.any():
        invalid = invalid.copy()
        names = [f"{r}m" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)] \
            + [f"{r}s" for r in range(1, 10)] + list("ESWNCFP")
        for i in np.flatnonzero(bad):
            full = batch.counts[i].astype(int).copy()
            for j in range(int(k[i])):
                full[int(mt[i, j])] += 1
            t = next(t for t in range(34) if full[t] and not allowed[t])
            invalid[i] = True
            messages[int(i)] = (f"tile {names[t]} is not played in rule set {rs.name!r} "
                                f"({rs.tile_text()})")
    return invalid


def score_batch_rules(batch, rs, nthreads, strict, compiled=True) -> BatchResult:
    """score_batch under ``rs``: its engine's (mjfast.rules.engine);
    ``compiled=False`` asks an engine with a compiled batch pass for its row
    path instead (the tests hold the two together)."""
    return rs.impl.score_batch(rs, batch, nthreads, strict, compiled)


def _checked_rows(batch, rs):
    """(rows, messages, invalid) of a batch under ``rs``: the batch's own
    checks, a tile the rule set does not play, wild kinds out of range."""
    batch.check_columns()
    n = len(batch)
    messages = dict(batch.messages)
    invalid = _tile_errors(batch, rs, batch.invalid, messages)
    high = (batch.wild_kinds >> np.uint64(34)) != 0
    if high.any():          # (set after the batch was validated: no tile kind to read them as)
        invalid = invalid.copy()
        for i in np.flatnonzero(high & ~invalid).tolist():
            invalid[i] = True
            messages[i] = "wild_kinds: bits 0-33 only (one per tile kind)"
    return n, messages, invalid


def score_rows_mcr(batch, rs, nthreads, strict) -> BatchResult:
    """score_batch under a rule set of the compiled MCR engine (mcr,
    dazhong): the compiled MCR pass with its variant bits and minimum."""
    n, messages, invalid = _checked_rows(batch, rs)
    extra = {}
    # rows beside wildcards are scored as mjfast.score(hand, wildcards=k)
    # scores them (every substitution), after the compiled pass
    wild_rows = np.flatnonzero(((batch.wildcards > 0) | (batch.wild_kinds != 0)) & ~invalid)
    kernel_invalid = invalid
    if wild_rows.size:
        kernel_invalid = invalid.copy()
        kernel_invalid[wild_rows] = True
    for r in np.flatnonzero((batch.rule_flags != 0) & ~kernel_invalid):
        rf = int(batch.rule_flags[r])
        d = ignored_flags(rs, {k: rf & b for k, b in RULE_FLAG_BITS.items()})
        if d:
            extra[int(r)] = d
    if strict and extra:
        kernel_invalid = kernel_invalid.copy()
        for i, d in extra.items():
            kernel_invalid[i] = True
            messages[i] = strict_message(d)
        extra = {}
    res = _score_batch_mcr(batch, nthreads, strict, invalid=kernel_invalid, messages=messages,
                           variant=rs.variant, min_points=rs.min_points)
    res.rules = rs
    if rs.table is not MCR:
        # a table of MCR's records (dazhong's): its columns, by fan id
        res.fan_counts = np.ascontiguousarray(res.fan_counts[:, [MCR.index(f.key) for f in rs.table]])
    res.extra_ignored = extra
    if wild_rows.size:
        assert res.ignored is not None      # the MCR pass fills every column
        res.ignored[wild_rows] = 0
        own_legal: dict = {}
        _score_rows_by_score(batch, rs, wild_rows, strict, res.totals, res.fan_counts, res.errors, messages,
                             extra, res.substitutions, own_legal)
        for i, ok in own_legal.items():
            res.legal[i] = ok
        res.legal[wild_rows[res.errors[wild_rows] != 0]] = False
    return res


def score_rows_own(batch, rs, nthreads, strict, *, by_score=None, compiled=None,
                   report_winds=False) -> BatchResult:
    """score_batch under a rule set with its own predicates: each row by its
    engine's ``score_row``.  An engine may hand over: ``by_score(batch)``, a
    mask of rows :func:`mjfast.score` itself scores (what its row function
    does not take); ``compiled(batch, rs, nthreads, strict, skip, totals,
    fans, errors, messages, extra)``, a compiled pass that fills the arrays
    and returns the rows left to the row path; ``report_winds``: winds it
    has no fan for are reported as score() reports them."""
    n, messages, invalid = _checked_rows(batch, rs)
    extra: dict = {}
    eng = rs.impl
    totals = np.full(n, -1, dtype=np.int32)
    fans = np.zeros((n, len(rs.table)), dtype=np.uint8)
    errors = np.zeros(n, np.uint8)
    ignored = np.zeros(n, np.uint8)
    own_illegal = np.zeros(n, bool)     # a score_fn result's own legality (guizhou: the pass)
    col = {f.key: j for j, f in enumerate(rs.table.fans)}
    own_legal: dict = {}    # row -> the rule set's own verdict (zhuji: self-drawn only, its minimum)
    subs: dict = {}         # row -> what its wildcards stood for
    errors[invalid] = ERR_INVALID
    rows = np.flatnonzero(~invalid)
    score_mask, by_score = by_score, []     # rows scored by mjfast.score itself
    if score_mask is not None:
        by_score = np.flatnonzero(score_mask(batch) & ~invalid)
        if len(by_score):
            rows = np.setdiff1d(rows, by_score)
    if compiled is not None:
        # the compiled engine scores the batch; rows it does not take (-3) go
        # the row path below, which words their error
        skip = invalid
        if len(by_score):
            skip = invalid.copy()
            skip[by_score] = True
        rows = compiled(batch, rs, nthreads, strict, skip, totals, fans, errors, messages, extra)
    scored_legal: dict = {}
    if len(by_score):
        _score_rows_by_score(batch, rs, by_score, strict, totals, fans, errors, messages, extra, subs,
                             scored_legal)
    for r in rows:
        i = int(r)
        try:
            h = _row_hand(batch, i)
            f = int(batch.flags[i])
            given = dict(zip(FLAG_NAMES, _flag_values(f)))
            for name, b in RULE_FLAG_BITS.items():
                given[name] = bool(batch.rule_flags[i] & b)
            total, fd, dropped, ok, stood = eng.score_row(rs, h, f, given, batch.seat[i], batch.round[i],
                                                          int(batch.wildcards[i]), strict, _row_kinds(batch, i))
            own_illegal[i] = not ok
            if stood is not None and total >= 0:
                subs[i] = tuple(int(t) for t in stood)
        except (InvalidHand, ValueError, IndexError) as exc:
            errors[i] = ERR_INVALID
            messages[i] = str(exc)
            continue
        if dropped and strict:
            errors[i] = ERR_INVALID
            messages[i] = strict_message(dropped)
            continue
        if total < 0:
            errors[i] = ERR_NOT_WINNING
            continue
        totals[i] = total
        for key, c in fd.items():
            fans[i, col[key]] = c
        if dropped:
            extra[i] = dropped
    if report_winds and "seat_wind" not in rs.flags:
        # winds a rule set has no fan for (two_player): reported as score()
        # reports them (the rows scored by score() have it already)
        windy = (batch.seat | batch.round) != 0
        if len(by_score):
            windy[by_score] = False
        why = f"ignored: rule set {rs.name!r} has no wind fan"
        for i in np.flatnonzero(windy & ~invalid).tolist():
            if errors[i] == ERR_OK:
                if strict:
                    errors[i] = ERR_INVALID
                    totals[i] = -1
                    fans[i] = 0
                    messages[i] = f"winds {why} (strict=True)"
                else:
                    extra.setdefault(i, {})["winds"] = why
            elif strict and messages.get(i, "").endswith(" (strict=True)"):
                messages[i] = messages[i][:-len(" (strict=True)")] + f"; winds {why} (strict=True)"
    legal = (errors == 0) & ~own_illegal & (totals - (0 if rs.flowers_count_to_minimum
                                                      else batch.flowers.astype(np.int32)) >= rs.min_points)
    for i, ok in scored_legal.items():
        legal[i] = ok and errors[i] == 0
    for i in [i for i in subs if errors[i]]:        # (a row then failed: strict)
        del subs[i]
    return BatchResult(totals, fans, legal, errors, messages, batch.ids, batch.lines, ignored, batch.flags,
                       rules=rs, extra_ignored=extra, substitutions=subs)


def _row_hand(batch, i) -> Hand:
    """Row i of a batch as a Hand (its real tiles; the winning tile last)."""
    kinds = ("chow", "pung", "kong")
    k = int(batch.n_melds[i])
    melds = tuple(Meld(kinds[int(batch.melds[i, j, 0])], int(batch.melds[i, j, 1]),
                       concealed=not batch.melds[i, j, 2], claimed=int(batch.added[i, j]),
                       added=bool(batch.added[i, j])) for j in range(k))
    win = int(batch.win_tile[i])
    tiles = []
    for t in range(34):
        tiles += [t] * (int(batch.counts[i, t]) - (1 if t == win else 0))
    tiles.append(win)
    return Hand(melds, tuple(tiles), int(batch.flowers[i]))


def _score_rows_by_score(batch, rs, rows, strict, totals, fans, errors, messages, extra, subs, legal):
    """Rows scored by :func:`mjfast.score` itself, with the row's wildcards
    and flags as its keywords (MCR-engine and two-player rows beside
    wildcards, two-player rows with a flag it has no use for): the results
    are score()'s by construction.  Fills the arrays and dicts in place
    (``legal``: row -> the result's is_legal_win)."""
    col = {f.key: j for j, f in enumerate(rs.table.fans)}
    for i in rows:
        i = int(i)
        f = int(batch.flags[i])
        k = int(batch.wildcards[i])
        ctx = dict(zip(FLAG_NAMES, _flag_values(f)), seat_wind=int(batch.seat[i]), round_wind=int(batch.round[i]))
        rf = int(batch.rule_flags[i])
        flags = {name: True for name, b in RULE_FLAG_BITS.items() if rf & b}
        totals[i] = -1
        fans[i] = 0
        try:
            res = score(_row_hand(batch, i), rules=rs, strict=strict, wildcards=k or None,
                        wildcard_tiles=_row_kinds(batch, i), **ctx, **flags)
        except NotWinning:
            errors[i] = ERR_NOT_WINNING
            continue
        except (InvalidHand, TypeError, ValueError, IndexError) as exc:
            errors[i] = ERR_INVALID
            messages[i] = str(exc)
            continue
        errors[i] = ERR_OK
        messages.pop(i, None)
        totals[i] = res.total
        for fr in res.fans:
            fans[i, col[fr.key]] = fr.count
        legal[i] = bool(res.is_legal_win)
        ign = res.ignored_flags
        if ign:
            extra[i] = dict(ign)
        stood = getattr(res, "substitutions", None)
        if stood is not None:
            subs[i] = tuple(int(t) for t in stood)


def score_row_by_engine(eng, rs, h, f, given, seat, rnd, k=0, strict=False, kinds=None):
    """One row under a rule set that scores hands on its own (its engine's
    ``score``, the default ``Engine.score_row``):
    (total or -1 when not winning, {fan key: count}, {flag: reason}, legal by
    the rule set's own test beside its minimum: the result's ``is_legal_win``,
    the tiles its wildcards stood for or None).  The
    row's flags are passed as keyword flags; the rule set reports those it does
    not use, so nothing is dropped silently."""
    ctx = dict(zip(FLAG_NAMES, _flag_values(int(f))), seat_wind=int(seat), round_wind=int(rnd), flowers=0)
    extra = {k: True for k, v in given.items() if v and k in RULE_FLAG_BITS}
    try:
        # (strict as score() passes it: a flag that cannot hold is an error
        # before the hand is found not winning, as there)
        res = eng.score(rs, h, ctx, extra, strict, dict(wildcards=k or None, wildcard_tiles=kinds, wild_fifth=False))
    except NotWinning:
        return -1, {}, {}, False, None
    return (res.total, {fr.key: fr.count for fr in res.fans}, dict(res.ignored_flags),
            bool(getattr(res, "is_legal_win", True)), getattr(res, "substitutions", None))
