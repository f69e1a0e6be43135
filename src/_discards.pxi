# best_discards and the Python entry points of the per-call decisions
# (included into _core.pyx after _decide.pxi, whose kernels and useful-tile
# records they use): the decision step, for bots and the game engine's
# baseline policy (through _kernels.pxi).  One compiled call ranks every
# discard of a hand; the parts a discard does not touch are combined once per
# hand (see _discards), so a discard costs a few small products, not a
# shanten of its own.

# ---------------------------------------------------------------------------
# best_discards: one compiled call per hand
# ---------------------------------------------------------------------------


# For parts j != k of the four, the pair of parts left (as an index into the
# six pair products: 01 02 03 12 13 23).
cdef int OTHER2[4][4]
_pair_ids = {(0, 1): 0, (0, 2): 1, (0, 3): 2, (1, 2): 3, (1, 3): 4, (2, 3): 5}
for _j in range(4):
    for _k in range(4):
        _rest = tuple(x for x in range(4) if x != _j and x != _k)
        OTHER2[_j][_k] = _pair_ids[_rest] if len(_rest) == 2 else -1


cdef inline void _vec_of(int* V, const Part* P, int M) noexcept nogil:
    """A part's distance vector in the [p * 5 + m] layout of _mp2."""
    cdef int m
    for m in range(M + 1):
        V[m] = P.v[m * 2]
        V[5 + m] = P.v[m * 2 + 1]


cdef int _discards(const uint8_t* c, int melds, const uint8_t* held, const uint8_t* seen,
                   Choice* out) noexcept nogil:
    """Every distinct discard of a 14-3k hand with the shanten left, the kinds
    of useful tile (lowering it, not held four times after the discard) and
    their unseen copies (4 - seen).  Unsorted; returns how many.

    A discard changes one part: the min-plus products of the other parts
    (the six pairs and, for each part, the three others) are made once per
    hand, so a discard costs one product with its new part for each part
    whose useful tiles are asked (three) instead of six.  The new parts'
    table records are all requested before the first is read."""
    cdef Part Q[4]
    cdef Part S[14]
    cdef Part K[9]
    cdef Part* P[4]
    cdef int dj[14]
    cdef int dt[14]
    cdef int V[4][10]
    cdef int PP[6][10]
    cdef int T[4][10]
    cdef int QD[4][10]          # the hand's parts: useful-tile mask of each entry, [p * 5 + m]
    cdef int SV[10]
    cdef int X[10]
    cdef uint64_t eq[5]
    cdef uint64_t sp[5]
    cdef uint64_t eqd[5]
    cdef int j, k, i, t, m, n = 0, nd, base, best, e, v, M = 4 - melds
    cdef uint64_t mreg, mask, four, bit
    cdef int off[4]
    off[0] = 0; off[1] = 9; off[2] = 18; off[3] = 27
    for j in range(9):
        K[j].key = -1
    _part_load(&Q[0], c, 9)
    _part_load(&Q[1], c + 9, 9)
    _part_load(&Q[2], c + 18, 9)
    _part_load(&Q[3], c + 27, 7)
    # request every discard's new part now: the loads overlap
    nd = 0
    for j in range(4):
        for i in range(Q[j].n):
            t = off[j] + i
            if c[t] and nd < 14:
                _part_at(&S[nd], Q[j].key - P5[i], Q[j].n)
                dj[nd] = j
                dt[nd] = t
                nd += 1
    for j in range(4):
        _vec_of(V[j], &Q[j], M)
        for m in range(M + 1):
            QD[j][m] = <int>_dec_mask(Q[j].dec, m * 2)
            QD[j][5 + m] = <int>_dec_mask(Q[j].dec, m * 2 + 1)
    _mp2(PP[0], V[0], V[1], M)
    _mp2(PP[1], V[0], V[2], M)
    _mp2(PP[2], V[0], V[3], M)
    _mp2(PP[3], V[1], V[2], M)
    _mp2(PP[4], V[1], V[3], M)
    _mp2(PP[5], V[2], V[3], M)
    _mp2(T[0], V[1], PP[5], M)
    _mp2(T[1], V[0], PP[5], M)
    _mp2(T[2], V[3], PP[0], M)
    _mp2(T[3], V[2], PP[0], M)
    _planes_of(c, eq)
    _planes_of(seen, sp)
    four = _eq34(held, 4)
    for n in range(nd):
        j = dj[n]
        t = dt[n]
        bit = (<uint64_t>1) << t
        _vec_of(SV, &S[n], M)
        base = BIG
        for m in range(M + 1):
            v = SV[m] + T[j][5 + M - m]
            base = v if v < base else base
            v = SV[5 + m] + T[j][M - m]
            base = v if v < base else base
        # useful tiles of the regular form: those lowering a tight entry
        e = 0
        for m in range(M + 1):
            if SV[m] + T[j][5 + M - m] == base:
                e |= <int>_dec_mask(S[n].dec, m * 2)
            if SV[5 + m] + T[j][M - m] == base:
                e |= <int>_dec_mask(S[n].dec, m * 2 + 1)
        mreg = (<uint64_t>e) << off[j]
        for k in range(4):
            if k == j:
                continue
            _mp2(X, SV, PP[OTHER2[j][k]], M)
            e = 0
            for m in range(M + 1):
                if V[k][m] + X[5 + M - m] == base:
                    e |= QD[k][m]
                if V[k][5 + m] + X[M - m] == base:
                    e |= QD[k][5 + m]
            mreg |= (<uint64_t>e) << off[k]
        if melds > 1:
            best = base
            mask = mreg
        else:
            v = c[t]
            eqd[0] = 0; eqd[1] = eq[1]; eqd[2] = eq[2]; eqd[3] = eq[3]; eqd[4] = eq[4]
            eqd[v] &= ~bit
            eqd[v - 1] |= bit
            eqd[0] = 0
            P[0] = &Q[0]; P[1] = &Q[1]; P[2] = &Q[2]; P[3] = &Q[3]
            P[j] = &S[n]
            best = _special_useful(eqd, melds, -1, base, mreg, P, K, &mask)
        # useful: lowers the shanten, and not held four times after the discard
        mask &= ~((four | eq[4]) & ~bit) & ALL34
        out[n].tile = t
        out[n].shanten = best - 1
        out[n].kinds = _popcount64(mask)
        # unseen copies: 4 - seen of each (seen <= 4, checked by the callers)
        out[n].left = 4 * out[n].kinds - (_popcount64(mask & sp[1]) + 2 * _popcount64(mask & sp[2])
                                          + 3 * _popcount64(mask & sp[3]) + 4 * _popcount64(mask & sp[4]))
    return nd


cdef inline bint _choice_before(const Choice* a, const Choice* b) noexcept nogil:
    # lowest shanten, then most unseen useful copies, most kinds, lowest tile
    if a.shanten != b.shanten:
        return a.shanten < b.shanten
    if a.left != b.left:
        return a.left > b.left
    if a.kinds != b.kinds:
        return a.kinds > b.kinds
    return a.tile < b.tile


cdef inline void _sort_choices(Choice* ch, int n) noexcept nogil:
    cdef int i, k
    cdef Choice x
    for i in range(1, n):
        x = ch[i]
        k = i - 1
        while k >= 0 and _choice_before(&x, &ch[k]):
            ch[k + 1] = ch[k]
            k -= 1
        ch[k + 1] = x


cdef list _choices_list(Choice* ch, int n):
    cdef list out = []
    cdef int i
    for i in range(n):
        out.append(mjfast_discard_new(ch[i].tile, ch[i].shanten, ch[i].kinds, ch[i].left))
    return out


# ---------------------------------------------------------------------------
# Python entry points
# ---------------------------------------------------------------------------

# The Python front ends (mjfast/core.py, mjfast/bots.py) for every input the
# fast path does not take: they parse, validate and name what is wrong.
_slow = {}


def _set_slow(name, fn):
    """Register the Python front end of shanten / useful_tiles / best_discards."""
    if name not in ("shanten", "useful_tiles", "best_discards", "shanten_wild", "useful_tiles_wild"):
        raise ValueError(f"no compiled front named {name!r}")
    if not callable(fn):
        raise TypeError("the front end must be callable")
    _slow[name] = fn


def shanten(hand, *, melds=None, form=None, exact=False, rules=None, wildcards=None, wildcard_tiles=None,
            wild_fifth=False):
    """Tiles away from ready: -1 = complete, 0 = ready (tenpai), 1, 2, ...

    ``hand``: a notation string, a :class:`~mjfast.Hand`, or the 34 counts of
    the concealed tiles (list, tuple or numpy array of any integer dtype) with
    ``melds=k`` (implied by the tile count when omitted).  Minimum over every
    MCR form, or one ``form`` of :data:`mjfast.FORMS`; a form that cannot
    apply (seven pairs with a meld, say) raises ``ValueError``.  Like the
    reference calculator, shanten counts shapes only: ``1111m`` is ready.

    ``exact=True``: the exact number of exchanges still needed, minus one
    (xiangting's replacement number - 1): no tile is counted on past its
    four copies, so ``1111m`` beside three melds is 1, not 0 (docs/bots.md).
    It differs from the shape count only on hands holding four of a kind
    (about 1 in 6,000 one-suit hands; none of 200,000 uniform random ones).

    ``rules=``: a rule-set name or :class:`~mjfast.rules.RuleSet`: the
    minimum over the forms it allows (its tiles only; another tile raises).

    Wildcards (as :func:`is_win`; docs/wildcards.md): the least shanten over
    every tile the wildcards may stand for (``exact=True`` not supported).
    """
    cdef uint8_t c[34]
    cdef int m, f
    if wildcards is not None or wildcard_tiles is not None or wild_fifth is not False:
        return _slow["shanten_wild"](hand, melds, form, exact, rules, wildcards, wildcard_tiles, wild_fifth)
    if rules is None and (exact is False or exact is True) and _conv34(hand, c):
        f = _form_of(form)
        m = _melds_of(melds, _sum34(c), 2)
        if m >= 0 and f >= -1 and (f <= 0 or (f == 4 and m <= 1) or m == 0):
            if exact is True:
                _need_exact()
                return _shanten_exact(c, m, f)
            _need_tables()
            return _shanten(c, m, f)
    if rules is not None:
        return _slow["shanten"](hand, melds, form, exact, rules)
    return _slow["shanten"](hand, melds, form, exact)


def useful_tiles(hand, *, melds=None, form=None, rules=None, wildcards=None, wildcard_tiles=None,
                 wild_fifth=False):
    """Tiles whose draw lowers the shanten of a 13-3k tile hand, ascending.

    A tile is useful when drawing it lowers the shanten and the player does
    not already hold all four copies (concealed or in melds; for an array,
    the concealed counts).  :func:`mjfast.best_discards` counts the same way.

    ``rules=``: a rule-set name or :class:`~mjfast.rules.RuleSet`: the tiles
    of the rule set whose draw lowers its shanten (the minimum over the forms
    it allows); a hand holding a tile it does not play raises.

    With wildcards (as :func:`is_win`) the list ends with
    :data:`mjfast.wild.WILDCARD` (34) when a drawn wildcard lowers the
    shanten (with ``wildcard_tiles`` the wild kind is listed instead).
    """
    cdef uint8_t c[34]
    cdef int m, f
    cdef uint64_t mask
    if wildcards is not None or wildcard_tiles is not None or wild_fifth is not False:
        return _slow["useful_tiles_wild"](hand, melds, form, rules, wildcards, wildcard_tiles, wild_fifth)
    if rules is not None:
        return _slow["useful_tiles"](hand, melds, form, rules)
    if _conv34(hand, c):
        f = _form_of(form)
        m = _melds_of(melds, _sum34(c), 1)
        if m >= 0 and f >= -1 and (f <= 0 or (f == 4 and m <= 1) or m == 0):
            _need_dec()
            _shanten_useful(c, m, f, &mask)
            return _mask_list(mask)
    return _slow["useful_tiles"](hand, melds, form)


cdef int _take34(const uint8_t[::1] src, uint8_t* h, str name) except -1:
    """Copy 34 counts 0..4 (tiles held or seen) and check the copy."""
    _check_len(src.shape[0], 34, name)
    memcpy(h, &src[0], 34)
    if _over4(h):
        raise ValueError(f"{name}: a tile count above 4")
    return 0


def useful_mask(const uint8_t[::1] c, int melds, int form, const uint8_t[::1] held):
    """(shanten, useful tiles as a 34-bit int) of 13-3k counts; a tile whose
    four copies are ``held`` is not useful."""
    cdef uint8_t h[34]
    cdef uint8_t hd[34]
    cdef uint64_t mask
    _need_dec()
    _check_form(form)
    _take_hand(c, h, melds, 1)
    _take34(held, hd, "held")
    if (form in (1, 2, 3) and melds > 0) or (form == 4 and melds > 1):
        raise ValueError(f"form {form} does not apply beside {melds} melds")
    cdef int sh = _shanten_useful(h, melds, form, &mask)
    return sh, mask & ~_eq34(hd, 4)


def best_discards(hand, *, melds=None, visible=None, **options):
    """For a 14-3k tile hand, every distinct discard with the shanten left and
    the useful tiles it keeps, best first (lowest shanten, then most useful
    copies left, most useful kinds, lowest tile).

    Each answer is a :class:`Discard` ``(tile, shanten, useful_kinds,
    useful_left)``.  ``visible``: optional 34 counts of tiles seen elsewhere
    (discards, other players' melds) that can no longer be drawn.  Useful
    tiles are counted as :func:`mjfast.useful_tiles` does; their copies left
    are 4 minus those held (the discarded tile included: it is on the table)
    minus those visible.

    Options (handled in Python): ``check_points=True`` sets ``below_8`` on
    each discard that leaves a ready hand, ``rank="fan"`` orders by
    fan-aware distance first (see :func:`mjfast.bots.best_discards`).
    """
    cdef uint8_t c[34]
    cdef uint8_t vis[34]
    cdef uint8_t seen[34]
    cdef Choice ch[34]
    cdef int m, n, t
    if not options and _conv34(hand, c):
        m = _melds_of(melds, _sum34(c), 0)
        if m >= 0:
            if visible is None:
                memcpy(seen, c, 34)
            elif _conv34(visible, vis):
                for t in range(34):
                    seen[t] = c[t] + vis[t]
                if _over4(seen):
                    m = -1
            else:
                m = -1
        if m >= 0:
            _need_dec()
            n = _discards(c, m, c, seen, ch)
            _sort_choices(ch, n)
            return _choices_list(ch, n)
    return _slow["best_discards"](hand, melds, visible, **options)


def discards_core(const uint8_t[::1] c, int melds, const uint8_t[::1] held, const uint8_t[::1] seen):
    """best_discards on 14-3k concealed counts ``c``, every tile the player
    holds ``held`` and ``seen`` = held + visible (all counts <= 4)."""
    cdef Choice ch[34]
    cdef uint8_t h[34]
    cdef uint8_t hd[34]
    cdef uint8_t sn[34]
    _need_dec()
    _take_hand(c, h, melds, 0)
    _take34(held, hd, "held")
    _take34(seen, sn, "seen")
    cdef int n = _discards(h, melds, hd, sn, ch)
    _sort_choices(ch, n)
    return _choices_list(ch, n)


def discards_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] melds, uint8_t[::1] err, const uint8_t[:, ::1] seen,
                   cnp.int8_t[:, ::1] sh_out, uint8_t[:, ::1] kinds_out, uint8_t[:, ::1] left_out, int nthreads):
    """best_discards for N rows: per row and tile, the shanten after
    discarding it (127 where the tile is not held), the useful kinds and
    their unseen copies.  Rows with err[i] != 0 are skipped; a row failing
    the re-check (it changed since it was validated) is flagged as in
    shanten_batch.  Returns the number of rows the re-check flagged."""
    _need_dec()
    nthreads = _nthreads(nthreads)
    cdef Py_ssize_t r, n = _check_rows(hands, "hands")
    _check_len(melds.shape[0], n, "melds")
    _check_len(err.shape[0], n, "err")
    _check_rows(seen, "seen")
    _check_len(seen.shape[0], n, "seen")
    for name, a in (("sh_out", sh_out), ("kinds_out", kinds_out), ("left_out", left_out)):
        if a.shape[0] != n or a.shape[1] != 34:
            raise ValueError(f"{name} must be ({n}, 34), got ({a.shape[0]}, {a.shape[1]})")
    cdef int e
    if nthreads <= 1:
        with nogil:
            for r in range(n):
                e = err[r] or _discards_row(&hands[r, 0], melds[r], &seen[r, 0], &sh_out[r, 0],
                                            &kinds_out[r, 0], &left_out[r, 0])
                if e and not err[r]:
                    err[r] = 0x80 | e
    else:
        for r in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=256):
            e = err[r] or _discards_row(&hands[r, 0], melds[r], &seen[r, 0], &sh_out[r, 0],
                                        &kinds_out[r, 0], &left_out[r, 0])
            if e and not err[r]:
                err[r] = 0x80 | e
    return _flagged(err)


cdef inline int _discards_row(const uint8_t* src, int melds, const uint8_t* seen_src, cnp.int8_t* sh,
                              uint8_t* kinds, uint8_t* left) noexcept nogil:
    """One row of discards_batch: copied and re-checked (14-3k tiles, seen
    within four copies), then answered.  Returns the error code."""
    cdef Choice ch[34]
    cdef uint8_t c[34]
    cdef uint8_t sn[34]
    cdef int i, k, e
    _copy_row(c, src)
    memcpy(sn, seen_src, 34)
    for i in range(34):
        sh[i] = -128
        kinds[i] = 0
        left[i] = 0
    e = _recheck(c, melds, 0)
    if e:
        return e
    if _over4(sn):
        return 1
    k = _discards(c, melds, c, sn, ch)
    for i in range(34):
        sh[i] = 127
    for i in range(k):
        sh[ch[i].tile] = ch[i].shanten
        kinds[ch[i].tile] = ch[i].kinds
        left[ch[i].tile] = ch[i].left
    return 0
