# One hand end to end (included into _core.pyx after _readings.pxi): the
# search over readings for the best total and the Python entry points of the
# fan engine (the notation parser is in _parse.pxi).

# ---------------------------------------------------------------------------
# one hand
# ---------------------------------------------------------------------------

cdef int _score_hand(const PHand* h, int16_t* out_ft, Division* out_div, int* out_form) noexcept nogil:
    """Score a validated hand. Returns the total (flowers included), -1 if it
    is not a win, -3 if its counts are out of range (re-checked, never trusted).  out_ft receives the fan counts of the best reading."""
    cdef Ctx ctx
    cdef uint8_t all_c[34]
    cdef int i, t, n_kongs = 0, best = -1, tot, win_in_melds = 0
    cdef int16_t ft[NFAN]
    cdef int16_t special[NFAN]
    cdef Division divs[MAXDIV]
    cdef Division sdiv
    cdef Pack cur[5]
    cdef int ndiv = 0, best_i = -1
    cdef bint have_special = False
    cdef uint64_t w
    cdef uint8_t c[34]
    memcpy(c, h.counts, 34)
    memcpy(all_c, h.counts, 34)
    memset(&sdiv, 0, sizeof(Division))
    ctx.n_fixed = h.n_melds
    ctx.n_melded_fixed = 0
    ctx.win = REFCODE[h.win_tile]
    ctx.seat = h.seat
    ctx.round = h.round
    for i in range(h.n_melds):
        t = h.meld_tile[i]
        if h.meld_kind[i] == 0:
            ctx.fixed[i].type = P_CHOW
            ctx.fixed[i].tile = REFCODE[t + 1]
            all_c[t] += 1; all_c[t + 1] += 1; all_c[t + 2] += 1
            if t == h.win_tile or t + 1 == h.win_tile or t + 2 == h.win_tile:
                win_in_melds += 1
        else:
            ctx.fixed[i].type = P_PUNG if h.meld_kind[i] == 1 else P_KONG
            ctx.fixed[i].tile = REFCODE[t]
            all_c[t] += 3 if h.meld_kind[i] == 1 else 4
            if h.meld_kind[i] == 2:
                n_kongs += 1
            if t == h.win_tile:
                win_in_melds += 3 if h.meld_kind[i] == 1 else 4
        ctx.fixed[i].melded = h.meld_open[i]
        if h.meld_open[i]:
            ctx.n_melded_fixed += 1
    # counts, melds included, within four copies and 14 tiles (kongs as 3):
    # validation established it; checked again so that nothing can index out
    # of the tables
    if _over4(h.counts) or _over4(all_c) or _sum34(h.counts) + 3 * h.n_melds != 14 or h.counts[h.win_tile] == 0:
        return -3
    memcpy(ctx.standing, h.counts, 34)
    ctx.standing[h.win_tile] -= 1
    # normalise the flags as the reference does (docs/rulings.md, 4)
    ctx.flags = h.flags
    if ctx.standing[h.win_tile] > 0:
        ctx.flags &= ~W_FOURTH
    if win_in_melds == 3:
        ctx.flags |= W_FOURTH
    if ctx.flags & W_KONG:
        if ctx.flags & W_SELF_DRAWN:
            if n_kongs == 0:
                ctx.flags &= ~W_KONG
        elif win_in_melds > 0 or ctx.standing[h.win_tile] > 0:
            ctx.flags &= ~W_KONG
    ctx.unique_wait = -1
    ctx.variant = h.variant
    # fans of the whole tile set, shared by every reading
    _fans_zero(ctx.hand_fans)
    _win_flag_fans(ctx.flags, ctx.hand_fans)
    _tile_set_fans(all_c, n_kongs, TF_SUITS | TF_TRAITS | TF_RANKS | TF_HOG, ctx.hand_fans)
    if h.n_melds == 0 and _is_nine_gates(ctx.standing):
        ctx.hand_fans[NINE_GATES] = 1
    # concealment (the same for every reading): Fully Concealed Hand /
    # Concealed Hand / Melded Hand / Self-Drawn
    if ctx.n_melded_fixed == 0:
        ctx.hand_fans[FULLY_CONCEALED_HAND if ctx.flags & W_SELF_DRAWN else CONCEALED_HAND] = 1
    elif ctx.n_melded_fixed == 4:
        ctx.hand_fans[SELF_DRAWN if ctx.flags & W_SELF_DRAWN else MELDED_HAND] = 1
    out_form[0] = FORM_REGULAR
    # special forms first; a knitted straight, when it fits, is the only reading
    if h.n_melds <= 1 and _full_knit(c) >= 0 and _score_knitted_straight(&ctx, c, all_c, n_kongs, special, &sdiv):
        have_special = True
        out_form[0] = FORM_KNITTED_STRAIGHT
    elif h.n_melds == 0 and _special_possible(c) and _score_special(&ctx, c, all_c, special):
        have_special = True
        out_form[0] = FORM_SEVEN_PAIRS if special[SEVEN_PAIRS] or special[SEVEN_SHIFTED_PAIRS] else (
            FORM_THIRTEEN_ORPHANS if special[THIRTEEN_ORPHANS] else FORM_HONORS_KNITTED)
    if have_special:
        best = _total(special)
        _fans_copy(out_ft, special)
        out_div[0] = sdiv
    if not have_special or special[SEVEN_PAIRS]:
        # "take the highest" over every reading, in the order the reference
        # meets them (a special form before any division)
        _divide(c, 0, 0, cur, 0, 4 - h.n_melds, False, divs, &ndiv, &ctx, _present34(c))
        _sort_divisions(divs, ndiv)
        for i in range(ndiv):
            tot = _score_division(&ctx, &divs[i], ft)
            # ties: the reference (2022/2023 revisions) moves to a later equal
            # reading when it has Pure Triple Chow or Triple Pung, and always
            # leaves plain Seven Pairs for an equal division
            if tot > best or (tot == best and (ft[PURE_TRIPLE_CHOW] == 1 or ft[TRIPLE_PUNG] > 0
                                                or (have_special and special[SEVEN_PAIRS] == 1))):
                best = tot
                best_i = i
                _fans_copy(out_ft, ft)
        if best_i >= 0:
            out_div[0] = divs[best_i]
            out_form[0] = FORM_REGULAR
    if best < 0:
        return -1
    out_ft[FLOWER_TILES] = h.flowers
    return best + h.flowers


cdef void _sort_divisions(Division* d, int n) noexcept nogil:
    cdef int i, j
    cdef Division t
    for i in range(1, n):
        t = d[i]
        j = i - 1
        while j >= 0 and d[j].order > t.order:
            d[j + 1] = d[j]
            j -= 1
        d[j + 1] = t


cdef bint _is_nine_gates(const uint8_t* st) noexcept nogil:
    """13 tiles before the win: 1112345678999 of one suit."""
    cdef int s, r
    cdef bint ok
    for s in range(3):
        if st[s * 9] == 3 and st[s * 9 + 8] == 3:
            ok = True
            for r in range(1, 8):
                if st[s * 9 + r] != 1:
                    ok = False
                    break
            if ok:
                return True
    return False


# ---------------------------------------------------------------------------
# Python entry points
# ---------------------------------------------------------------------------

cdef int _check_context(int n_melds, int win, int flags, int seat, int rnd, int flowers) except -1:
    """The scalar fields of a hand, in the ranges the kernel indexes with."""
    if not 0 <= n_melds <= 4:
        raise ValueError(f"n_melds must be 0..4, got {n_melds}")
    if not 0 <= win <= 33:
        raise ValueError(f"win must be a tile index 0..33, got {win}")
    if not 0 <= flags <= 15:
        raise ValueError(f"flags must be 0..15 (bits: self-drawn, fourth tile, kong, last tile), got {flags}")
    if not (0 <= seat <= 3 and 0 <= rnd <= 3):
        raise ValueError(f"seat and round must be 0..3, got {seat}, {rnd}")
    if not 0 <= flowers <= 8:
        raise ValueError(f"flowers must be 0..8, got {flowers}")
    return 0


cdef int _check_variant(int variant) except -1:
    if not 0 <= variant <= (V_KNIT_NO_WAIT | V_DAZHONG):
        raise ValueError(f"variant must be a combination of the V_* bits (0..3), got {variant}")
    return 0


cdef inline void _load_phand(PHand* h, const uint8_t[::1] counts, const uint8_t[:, ::1] melds, int n_melds,
                             int win, int flags, int seat, int rnd, int flowers, int variant) noexcept nogil:
    cdef int i
    for i in range(34):
        h.counts[i] = counts[i]
    h.n_melds = n_melds
    for i in range(n_melds):
        h.meld_kind[i] = melds[i, 0]
        h.meld_tile[i] = melds[i, 1]
        h.meld_open[i] = melds[i, 2]
    h.win_tile = win
    h.flags = flags
    h.seat = seat
    h.round = rnd
    h.flowers = flowers
    h.variant = variant


def score_one(const uint8_t[::1] counts, const uint8_t[:, ::1] melds, int n_melds, int win,
              int flags, int seat, int rnd, int flowers, cnp.int16_t[::1] fans_out, int variant=0):
    """Score one validated hand. melds: (4, 3) uint8 rows (kind 0/1/2, tile,
    open).  Fills fans_out (int16[84], by fan id); returns (total, form, packs) with
    packs = [(type, our tile index of the lowest tile, melded), ...] of the
    reading used, or total -1 when the hand is not a win, -3 when the melds
    add a fifth copy or the size is not 14 counting 3 per meld.  Shapes and
    ranges are checked (ValueError)."""
    _need_tables()
    if not _fan_table_loaded:
        raise RuntimeError("mjfast: the fan table is not loaded (import mjfast.score)")
    cdef PHand h
    cdef Division d
    cdef int form = 0, total, i, t
    _check_len(counts.shape[0], 34, "counts")
    if melds.shape[1] != 3 or melds.shape[0] < n_melds:
        raise ValueError(f"melds must be (4, 3) rows (kind, tile, open); got {melds.shape[0]} x {melds.shape[1]}")
    if fans_out.shape[0] < NFAN:
        raise ValueError(f"fans_out must have {NFAN} entries, got {fans_out.shape[0]}")
    _check_context(n_melds, win, flags, seat, rnd, flowers)
    _check_variant(variant)
    _load_phand(&h, counts, melds, n_melds, win, flags, seat, rnd, flowers, variant)
    if _over4(h.counts):
        raise ValueError("a tile count above 4")
    if not _phand_sane(&h):
        raise ValueError("a meld is not (kind 0 chow / 1 pung / 2 kong, tile 0..33 - a chow's a suited 1-7 -,"
                         " open 0/1 - only a kong concealed -)")
    memset(&d, 0, sizeof(Division))
    with nogil:
        total = _score_hand(&h, &fans_out[0], &d, &form)
    packs = []
    if total >= 0:
        for i in range(5):
            if d.packs[i].type == 0:
                continue
            t = FROMREF[d.packs[i].tile]
            if d.packs[i].type == P_CHOW:
                t -= 1
            packs.append((d.packs[i].type, t, d.packs[i].melded))
    return total, form, packs


def score_batch_kernel(const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds, const uint8_t[::1] n_melds,
                       const uint8_t[::1] win, const uint8_t[::1] flags, const uint8_t[::1] seat,
                       const uint8_t[::1] rnd, const uint8_t[::1] flowers, const uint8_t[::1] skip,
                       int32_t[::1] totals_out, uint8_t[:, ::1] fans_out, int nthreads, int variant=0):
    """Score N validated hands (rows with skip[i] != 0 are left untouched).
    totals_out[i] = total (flowers included) or -1 if not a win;
    fans_out[i, j] = count of fan id j + 1 (the table's order)."""
    _need_tables()
    nthreads = _nthreads(nthreads)
    if not _fan_table_loaded:
        raise RuntimeError("mjfast: the fan table is not loaded (import mjfast.score)")
    cdef Py_ssize_t i, n = _check_rows(counts, "counts")
    if melds.shape[0] != n or melds.shape[1] != 4 or melds.shape[2] != 3:
        raise ValueError(f"melds must be ({n}, 4, 3), got ({melds.shape[0]}, {melds.shape[1]}, {melds.shape[2]})")
    _check_len(n_melds.shape[0], n, "n_melds")
    _check_len(win.shape[0], n, "win_tile")
    _check_len(flags.shape[0], n, "flags")
    _check_len(seat.shape[0], n, "seat")
    _check_len(rnd.shape[0], n, "round")
    _check_len(flowers.shape[0], n, "flowers")
    _check_len(skip.shape[0], n, "skip")
    _check_len(totals_out.shape[0], n, "totals_out")
    _check_variant(variant)
    if fans_out.shape[0] != n or fans_out.shape[1] != NFAN_TABLE - 1:
        raise ValueError(f"fans_out must be ({n}, {NFAN_TABLE - 1}), got ({fans_out.shape[0]}, {fans_out.shape[1]})")
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                if not skip[i]:
                    _score_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, totals_out, fans_out, variant)
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=256):
            if not skip[i]:
                _score_row(i, counts, melds, n_melds, win, flags, seat, rnd, flowers, totals_out, fans_out, variant)


cdef inline bint _phand_sane(const PHand* h) noexcept nogil:
    """Every field within the ranges the kernel indexes with (a cheap re-check
    of what validation established; the tile counts are re-checked in
    _score_hand, where the meld tiles are added anyway)."""
    cdef int j, t
    if h.n_melds > 4 or h.win_tile > 33 or h.seat > 3 or h.round > 3 or h.flowers > 8 or h.flags > 15:
        return False
    for j in range(h.n_melds):
        t = h.meld_tile[j]
        if h.meld_kind[j] > 2 or t > 33 or h.meld_open[j] > 1:
            return False
        if h.meld_kind[j] == 0 and (t >= 27 or t % 9 > 6 or h.meld_open[j] == 0):
            return False
        if h.meld_kind[j] == 1 and h.meld_open[j] == 0:
            return False
    return True


cdef inline void _score_row(Py_ssize_t i, const uint8_t[:, ::1] counts, const uint8_t[:, :, ::1] melds,
                            const uint8_t[::1] n_melds, const uint8_t[::1] win, const uint8_t[::1] flags,
                            const uint8_t[::1] seat, const uint8_t[::1] rnd, const uint8_t[::1] flowers,
                            int32_t[::1] totals_out, uint8_t[:, ::1] fans_out, int variant) noexcept nogil:
    cdef PHand h
    cdef int16_t ft[NFAN]
    cdef Division d
    cdef int form, j, total
    # every field is read once into h, then h is checked: the columns may be
    # changed by another thread meanwhile
    h.n_melds = n_melds[i]
    _barrier()                  # h.n_melds, not the caller's byte, bounds the loop below
    if h.n_melds > 4:
        totals_out[i] = -3
        return
    memcpy(h.counts, &counts[i, 0], 34)
    for j in range(h.n_melds):
        h.meld_kind[j] = melds[i, j, 0]
        h.meld_tile[j] = melds[i, j, 1]
        h.meld_open[j] = melds[i, j, 2]
    h.win_tile = win[i]
    h.flags = flags[i]
    h.seat = seat[i]
    h.round = rnd[i]
    h.flowers = flowers[i]
    h.variant = variant
    _barrier()                  # what is checked below is what is scored (see mjfast_copy_row)
    if not _phand_sane(&h):
        # the arrays were validated when the batch was built; a row changed
        # since is refused here rather than read out of bounds
        totals_out[i] = -3
        return
    total = _score_hand(&h, ft, &d, &form)
    totals_out[i] = total
    cdef uint8_t* o
    if total >= 0:
        o = &fans_out[i, 0]
        for j in range(NFAN_TABLE - 1):          # a plain loop the compiler vectorises
            o[j] = <uint8_t>ft[j + 1]


cdef list _reading_items(const Division* d, int nsets):
    """(kind, our tile index) of a reading's concealed sets and pair; a chow
    is named by its lowest tile."""
    cdef int k, t
    items = []
    for k in list(range(nsets)) + [4]:
        t = FROMREF[d.packs[k].tile]
        if d.packs[k].type == P_CHOW:
            t -= 1
        items.append(({P_CHOW: "chow", P_PUNG: "pung", P_PAIR: "pair"}[d.packs[k].type], t))
    return items


def decompose_one(const uint8_t[::1] counts, int melds):
    """Every reading of 14-3k concealed tiles: a list of (form, items) where
    items are (kind, tile) with kind "chow" (tile = lowest), "pung", "pair",
    "single", or "knitted" (tile = the first tile of the knitted arrangement)."""
    _need_tables()
    cdef uint8_t c[34]
    cdef Division divs[MAXDIV]
    cdef Pack cur[5]
    cdef Ctx ctx
    cdef int ndiv = 0, i, k, t, a
    cdef int need = 4 - melds
    _take_hand(counts, c, melds, 0)
    out = []
    ctx.n_fixed = 0
    _divide(c, 0, 0, cur, 0, need, False, divs, &ndiv, &ctx, _present34(c))
    _sort_divisions(divs, ndiv)
    for i in range(ndiv):
        out.append(("regular", tuple(_reading_items(&divs[i], need))))
    if melds == 0 and _seven_pairs_win(c):
        out.append(("seven_pairs", tuple(("pair", t) for t in range(34) for k in range(c[t] // 2))))
    if melds == 0 and _orphans_win(c):
        out.append(("thirteen_orphans", tuple(("pair" if c[t] == 2 else "single", t) for t in range(34) if c[t])))
    if melds == 0 and _honors_knitted_win(c):
        out.append(("honors_knitted", tuple(("single", t) for t in range(34) if c[t])))
    a = _full_knit(c) if melds <= 1 else -1
    if a >= 0:
        for k in range(9):
            c[KNIT_TILES[a][k]] -= 1
        ndiv = 0
        _divide(c, 0, 0, cur, 0, 1 - melds, False, divs, &ndiv, &ctx, _present34(c))
        for i in range(ndiv):
            out.append(("knitted_straight", tuple([("knitted", KNIT_TILES[a][0])] + _reading_items(&divs[i], 1 - melds))))
    return out
