# Readings of a hand (included into _core.pyx after _fans.pxi): the waits
# used by the wait fans, the divisions of the regular form, scoring one
# division with the predicates of _fans.pxi, and the special forms.

# ---------------------------------------------------------------------------
# waits (for Edge / Closed / Single Wait)
# ---------------------------------------------------------------------------

cdef bint _complete_dfs(int* c, int need_sets, bint need_pair) noexcept nogil:
    """Shape-only check that c (any counts, a fifth copy allowed) is
    need_sets sets + (need_pair) a pair.  Used only for the rare wait test on a
    tile the hand already holds four of."""
    cdef int i = 0
    cdef bint ok
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return need_sets == 0 and not need_pair
    if need_pair and c[i] >= 2:
        c[i] -= 2
        ok = _complete_dfs(c, need_sets, False)
        c[i] += 2
        if ok:
            return True
    if need_sets > 0 and c[i] >= 3:
        c[i] -= 3
        ok = _complete_dfs(c, need_sets - 1, need_pair)
        c[i] += 3
        if ok:
            return True
    if need_sets > 0 and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        ok = _complete_dfs(c, need_sets - 1, need_pair)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
        if ok:
            return True
    return False


cdef uint64_t _shape_waits(const uint8_t* st) noexcept nogil:
    """Regular-form waits of 13-3k standing tiles, by shape only: like the
    reference, a tile counts even when it would be a fifth copy."""
    cdef uint64_t m = _regular_waits(st)
    cdef uint64_t fours = _eq34(st, 4)
    cdef int c[34]
    cdef int t, n = 0
    if not fours:
        return m
    for t in range(34):
        n += st[t]
    for t in range(34):
        if st[t] == 4:
            for i in range(34):
                c[i] = st[i]
            c[t] += 1
            if _complete_dfs(c, (n + 1) // 3, True):
                m |= (<uint64_t>1) << t
    return m


cdef inline void _set_wait_fan(int16_t* ft, int position) noexcept nogil:
    """With a unique wait (position from _wait_position): Edge Wait if the
    winning tile ends a concealed chow, else Closed Wait if it is a chow's
    middle tile, else Single Wait if it completes the pair."""
    if position & 1:
        ft[EDGE_WAIT] = 1
    elif position & 2:
        ft[CLOSED_WAIT] = 1
    elif position & 4:
        ft[SINGLE_WAIT] = 1


# ---------------------------------------------------------------------------
# readings (divisions) of the regular form
# ---------------------------------------------------------------------------

ctypedef struct Division:
    Pack packs[5]        # the 4 sets (melds first) and the pair at [4]
    uint32_t order       # the order the reference finds it in (ties go to the first)


cdef void _divide(uint8_t* c, int i, int min_kind, Pack* cur, int nused, int need, bint pair_done,
                  Division* out, int* nout, const Ctx* ctx, uint64_t present) noexcept nogil:
    """Every distinct split of the concealed tiles into `need` sets and a pair.
    The lowest remaining tile must be used now; blocks that start on the same
    tile are taken in the order pair, pung, chow so each split appears once.
    `present` has a bit for every tile still held, kept up to date on the way
    down, so the lowest tile is one count-trailing-zeros away."""
    cdef int k, j, t
    cdef int nsets = nused - pair_done
    cdef uint32_t keys[4]
    cdef uint32_t key
    cdef Division* d
    cdef uint64_t rest = present >> i << i              # tiles left from i on
    cdef uint64_t bit
    if rest == 0:
        i = 34
    else:
        t = _ctz64(rest)
        if t != i:
            min_kind = 0
        i = t
    if i == 34:
        if nsets == need and pair_done and nout[0] < MAXDIV:
            d = &out[nout[0]]
            for k in range(ctx.n_fixed):
                d.packs[k] = ctx.fixed[k]
            j = ctx.n_fixed
            for k in range(nused):
                if cur[k].type == P_PAIR:
                    d.packs[4] = cur[k]
                else:
                    d.packs[j] = cur[k]
                    # the reference's depth-first search meets sets by
                    # (tile in m-s-p-honor order, pung before chow)
                    t = cur[k].tile - 1 if cur[k].type == P_CHOW else cur[k].tile
                    keys[j - ctx.n_fixed] = t * 2 + (cur[k].type == P_CHOW)
                    j += 1
            _sort_u32(keys, need)
            key = 0
            for k in range(4):
                key = (key << 8) | (keys[k] if k < need else 0)
            d.order = key
            nout[0] += 1
        return
    bit = (<uint64_t>1) << i
    if min_kind <= 0 and not pair_done and c[i] >= 2:
        c[i] -= 2
        _push(cur, nused, P_PAIR, REFCODE[i])
        _divide(c, i, 1, cur, nused + 1, need, True, out, nout, ctx, present if c[i] else present & ~bit)
        c[i] += 2
    if nsets == need:
        return
    if min_kind <= 1 and c[i] >= 3:
        c[i] -= 3
        _push(cur, nused, P_PUNG, REFCODE[i])
        _divide(c, i, 2, cur, nused + 1, need, pair_done, out, nout, ctx, present if c[i] else present & ~bit)
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        _push(cur, nused, P_CHOW, REFCODE[i + 1])
        _divide(c, i, 2, cur, nused + 1, need, pair_done, out, nout, ctx,
                present & ~((bit if c[i] == 0 else 0) | (bit << 1 if c[i + 1] == 0 else 0)
                            | (bit << 2 if c[i + 2] == 0 else 0)))
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1


cdef inline void _push(Pack* cur, int n, int typ, int tile) noexcept nogil:
    cur[n].type = typ
    cur[n].tile = tile
    cur[n].melded = 0


cdef inline void _sort_u32(uint32_t* a, int n) noexcept nogil:
    cdef int i, j
    cdef uint32_t t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


# ---------------------------------------------------------------------------
# scoring one reading of the regular form
# ---------------------------------------------------------------------------

cdef inline int _wait_position(const Pack* packs, int n, int win) noexcept nogil:
    """Where the winning tile sits among the concealed sets and pair: bit 1 at
    the end of a chow, 2 in a chow's middle, 4 in the pair; bit 8 when it ends
    a chow whose other end is open (45 + 3 or 6: the same reading then also
    completes on the far tile, so the hand had two waits at least)."""
    cdef int i, r, flag = 0
    for i in range(n):
        if packs[i].type == P_CHOW:
            r = _rank(packs[i].tile)
            if packs[i].tile == win:
                flag |= 2
            elif packs[i].tile - 1 == win:
                flag |= 1 | (8 if r + 2 <= 9 else 0)
            elif packs[i].tile + 1 == win:
                flag |= 1 | (8 if r - 2 >= 1 else 0)
        elif packs[i].type == P_PAIR and packs[i].tile == win:
            flag |= 4
    return flag


cdef inline bint _pair_wait_shared(const Pack* sets, int n, int win, int f) noexcept nogil:
    """The winning tile w completes the pair, and a concealed set sits just
    beside it, so the hand had another wait: a chow w+1..w+3 (or w-3..w-1)
    makes w + chow wait on the far tile too."""
    cdef int i
    if not (f & 4) or not _numbered(win):
        return False
    for i in range(n):
        if sets[i].type == P_CHOW and (sets[i].tile == win + 2 or sets[i].tile == win - 2):
            return True
        # a concealed pung next to it: w + (w+1)x3 is also (w, w+1, w+2) or
        # (w-1, w, w+1) beside a (w+1) pair, waiting on w+2 or w-1 too
        if sets[i].type == P_PUNG and (sets[i].tile == win + 1 or sets[i].tile == win - 1):
            return True
    return False


cdef int _unique_wait(const uint8_t* standing, int n_fixed) noexcept nogil:
    """1 if the tiles before the win waited on exactly one tile: regular shape
    (fifth copies included, as the reference), plus seven pairs without melds."""
    cdef uint64_t w = _shape_waits(standing)
    cdef int i
    if not w:
        return 0
    if n_fixed == 0 and _seven_pairs_dist(standing) == 1:
        for i in range(34):
            if standing[i] & 1:
                w |= (<uint64_t>1) << i
    return _popcount64(w) == 1


cdef int _score_division(Ctx* ctx, const Division* d, int16_t* ft) noexcept nogil:
    cdef Pack pungs[4]
    cdef int chows[4]
    cdef int pt[4]
    cdef int nchow = 0, npung = 0, i, f, win = ctx.win
    cdef const Pack* packs = d.packs
    cdef bint fits_chow
    cdef Pack pair = packs[4]
    cdef int r, tot
    _fans_copy(ft, ctx.hand_fans)
    for i in range(4):
        if packs[i].type == P_CHOW:
            chows[nchow] = packs[i].tile
            nchow += 1
        else:
            pungs[npung] = packs[i]
            npung += 1
    # 8.4: on a discard, a concealed pung of the winning tile counts as
    # melded, unless the winning tile can be read inside a concealed chow
    if not (ctx.flags & W_SELF_DRAWN):
        fits_chow = False
        for i in range(4):
            if packs[i].type == P_CHOW and not packs[i].melded and packs[i].tile - 1 <= win <= packs[i].tile + 1:
                fits_chow = True
        if not fits_chow:
            for i in range(npung):
                if pungs[i].tile == win and not pungs[i].melded:
                    pungs[i].melded = 1
    if npung:
        _kong_and_concealed_pung_fans(pungs, npung, ft)
    if nchow == 4:
        if _three_suited_terminal_chows(chows, pair.tile):
            ft[THREE_SUITED_TERMINAL_CHOWS] = 1
        elif _pure_terminal_chows(chows, pair.tile):
            ft[PURE_TERMINAL_CHOWS] = 1
        else:
            _sort_small(chows, 4)
            _four_chows(chows, ft)
    elif nchow == 3:
        _sort_small(chows, 3)
        _three_chows(chows, ft)
    elif nchow == 2:
        f = fan_of_two_chows(chows[0], chows[1])
        if f:
            ft[f] += 1
        f = fan_of_two_pungs(pungs[0].tile, pungs[1].tile)
        if f:
            ft[f] += 1
    elif nchow == 1:
        for i in range(3):
            pt[i] = pungs[i].tile
        _sort_small(pt, 3)
        _three_pungs(pt, ft)
    else:
        for i in range(4):
            pt[i] = pungs[i].tile
        _sort_small(pt, 4)
        _four_pungs(pt, ft)
    # the pair: All Chows; two dragon pungs + dragon pair = Little Three
    # Dragons; three wind pungs + wind pair = Little Four Winds
    if nchow == 4:
        if _numbered(pair.tile):
            ft[ALL_CHOWS] = 1
    elif ft[TWO_DRAGONS_PUNGS]:
        if _is_dragon(pair.tile):
            ft[LITTLE_THREE_DRAGONS] = 1
            ft[TWO_DRAGONS_PUNGS] = 0
    elif ft[BIG_THREE_WINDS]:
        if _is_wind(pair.tile):
            ft[LITTLE_FOUR_WINDS] = 1
            ft[BIG_THREE_WINDS] = 0
    # whole-hand fans of the sets: Outside Hand, All Five, All Even Pungs;
    # a set's traits come from SET_TRAITS and are AND-ed over the five sets
    r = SET_TRAITS[packs[0].type == P_CHOW][packs[0].tile] & SET_TRAITS[packs[1].type == P_CHOW][packs[1].tile] \
        & SET_TRAITS[packs[2].type == P_CHOW][packs[2].tile] & SET_TRAITS[packs[3].type == P_CHOW][packs[3].tile] \
        & SET_TRAITS[0][packs[4].tile]
    if r & ST_OUTSIDE:
        ft[OUTSIDE_HAND] = 1
    elif r & ST_FIVE:
        ft[ALL_FIVE] = 1
    elif r & ST_EVEN:
        ft[ALL_EVEN_PUNGS] = 1
    if not ft[MELDED_HAND] and not ft[FOUR_KONGS]:
        f = _wait_position(packs + ctx.n_fixed, 5 - ctx.n_fixed, win)
        if f & 7:
            if ctx.unique_wait < 0:
                # an open-ended chow end means a second wait: no look-up needed
                ctx.unique_wait = 0 if (f & 8) or _pair_wait_shared(packs + ctx.n_fixed, 4 - ctx.n_fixed, win, f) \
                    else _unique_wait(ctx.standing, ctx.n_fixed)
            if ctx.unique_wait:
                _set_wait_fan(ft, f)
    # partial exclusions: Nine Gates takes back one Pung of Terminals or
    # Honors (its 111 or 999); Big Three Winds the three of its wind pungs
    if ft[NINE_GATES]:
        ft[PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if ft[BIG_THREE_WINDS] and not ft[ALL_HONORS] and not ft[ALL_TERMINALS_AND_HONORS]:
        ft[PUNG_OF_TERMINALS_OR_HONORS] -= 3
    _apply_exclusions(ft)
    if ctx.variant & V_DAZHONG:
        _dazhong_exclusions(ctx.flags, ft)
    if not ft[BIG_FOUR_WINDS]:
        _wind_pungs(pungs, npung, ctx.seat, ctx.round, ft)
    tot = _total(ft)
    if tot == 0:
        # no fan at all (every fan is worth points, so a zero total means none)
        ft[CHICKEN_HAND] = 1
        tot = POINTS[CHICKEN_HAND]
    return tot


cdef bint _pure_terminal_chows(const int* m, int pair) noexcept nogil:
    cdef int i, lo = 0, hi = 0
    if not _numbered(pair) or _rank(pair) != 5:
        return False
    for i in range(4):
        if _suit(m[i]) != _suit(pair):
            return False
        if _rank(m[i]) == 2:
            lo += 1
        elif _rank(m[i]) == 8:
            hi += 1
        else:
            return False
    return lo == 2 and hi == 2


cdef bint _three_suited_terminal_chows(const int* m, int pair) noexcept nogil:
    cdef int i, s
    cdef int lo[4]
    cdef int hi[4]
    if not _numbered(pair) or _rank(pair) != 5:
        return False
    for i in range(4):
        lo[i] = 0
        hi[i] = 0
    for i in range(4):
        s = _suit(m[i])
        if s == _suit(pair):
            return False
        if _rank(m[i]) == 2:
            lo[s] += 1
        elif _rank(m[i]) == 8:
            hi[s] += 1
        else:
            return False
    for s in range(1, 4):
        if s != _suit(pair) and not (lo[s] and hi[s]):
            return False
    return True


# ---------------------------------------------------------------------------
# the special forms
# ---------------------------------------------------------------------------

cdef inline bint _special_possible(const uint8_t* c) noexcept nogil:
    """Cheap gate before the special forms: seven pairs needs no odd count,
    honors-and-knitted no count above one, thirteen orphans both 1m and 9m."""
    cdef bint odd, many
    _count_shape(c, &odd, &many)
    return not odd or not many or (c[0] != 0 and c[8] != 0 and c[27] != 0)


cdef bint _score_special(const Ctx* ctx, const uint8_t* c, const uint8_t* all_c, int16_t* ft) noexcept nogil:
    """Seven pairs (and Seven Shifted Pairs), thirteen orphans, honors and
    knitted tiles: 14 concealed tiles, no melds."""
    cdef int i, j, hon, a
    _fans_zero(ft)
    if _seven_pairs_win(c):
        j = -1
        for i in range(27):
            if c[i]:
                j = i
                break
        a = j >= 0
        if a:
            for i in range(7):
                if j + i >= 27 or (j % 9) + i > 8 or c[j + i] != 2:
                    a = 0
                    break
        if a:
            ft[SEVEN_SHIFTED_PAIRS] = 1
            _tile_set_fans(all_c, 0, TF_TRAITS, ft)
        else:
            ft[SEVEN_PAIRS] = 1
            _tile_set_fans(all_c, 0, TF_SUITS | TF_TRAITS | TF_RANKS | TF_HOG, ft)
    elif _orphans_win(c):
        ft[THIRTEEN_ORPHANS] = 1
    elif _honors_knitted_win(c):
        # 14 single tiles: 5-7 honors, the rest from one knitted arrangement
        hon = _popcount9(<int>((_present34(c) >> 27) & 0x7F))
        if hon == 7:
            ft[GREATER_HONORS_AND_KNITTED_TILES] = 1
        else:
            ft[LESSER_HONORS_AND_KNITTED_TILES] = 1
            if hon == 5:
                ft[KNITTED_STRAIGHT] = 1
    else:
        return False
    _win_flag_fans(ctx.flags, ft)
    _apply_exclusions(ft)
    return True


cdef inline bint _knit_holds(int a, int t) noexcept nogil:
    """Whether tile t is one of the nine tiles of knitted arrangement a."""
    return (KNIT_MASK[a] >> t) & 1


cdef bint _score_knitted_straight(const Ctx* ctx, const uint8_t* c, const uint8_t* all_c, int n_kongs,
                                  int16_t* ft, Division* used) noexcept nogil:
    """Knitted straight + one set + a pair (the set may be the one meld)."""
    cdef uint8_t rest[34]
    cdef Division divs[4]
    cdef Pack cur[5]
    cdef int ndiv = 0, a = -1, j, t, n, k
    cdef uint64_t w
    cdef uint8_t temp[34]
    cdef int tmp_rest[34]
    cdef Pack packs[5]
    cdef Ctx sub
    a = _full_knit(c)
    if a < 0:
        return False
    memcpy(rest, c, 34)
    for j in range(9):
        rest[KNIT_TILES[a][j]] -= 1
    # split the rest into (1 - melds) sets and a pair; exactly one way
    sub.n_fixed = 0
    _divide(rest, 0, 0, cur, 0, 1 - ctx.n_fixed, False, divs, &ndiv, &sub, _present34(rest))
    if ndiv != 1:
        return False
    if ctx.n_fixed == 1:
        packs[3] = ctx.fixed[0]
    else:
        packs[3] = divs[0].packs[0]
    packs[4] = divs[0].packs[4]
    memset(used, 0, sizeof(Division))
    used[0].packs[3] = packs[3]
    used[0].packs[4] = packs[4]
    _fans_zero(ft)
    ft[KNITTED_STRAIGHT] = 1
    if packs[3].type == P_CHOW:
        if _numbered(packs[4].tile):
            ft[ALL_CHOWS] = 1
    else:
        _kong_and_concealed_pung_fans(&packs[3], 1, ft)
    _win_flag_fans(ctx.flags, ft)
    if ctx.n_fixed == 0 or (packs[3].type == P_KONG and not packs[3].melded):
        ft[FULLY_CONCEALED_HAND if ctx.flags & W_SELF_DRAWN else CONCEALED_HAND] = 1
    _tile_set_fans(all_c, n_kongs, TF_SUITS | TF_HOG, ft)
    if (ctx.variant & V_KNIT_NO_WAIT) and _knit_holds(a, FROMREF[ctx.win]):
        pass                    # the option's ruling: a knitted tile is no edge/closed/single wait
    elif ctx.n_fixed == 0:
        # Like the reference: the wait is judged on the tiles left beside the
        # straight, less the winning tile -- and when the winning tile was one
        # of the straight's, on the first four of those five tiles.
        for j in range(34):
            tmp_rest[j] = rest[j]
        tmp_rest[FROMREF[ctx.win]] -= 1
        memset(temp, 0, 34)
        n = 0
        for k in range(0x11, 0x48):
            t = FROMREF[k]
            if t == 0xFF:
                continue
            j = tmp_rest[t]
            while j > 0 and n < 4:
                temp[t] += 1
                n += 1
                j -= 1
        w = _shape_waits(temp)
        if w and _popcount64(w) == 1:
            _set_wait_fan(ft, _wait_position(packs + 3, 2, ctx.win))
    elif c[FROMREF[ctx.win]] > 1:
        ft[SINGLE_WAIT] = 1
    _apply_exclusions(ft)
    if packs[3].type != P_CHOW:
        _wind_pungs(&packs[3], 1, ctx.seat, ctx.round, ft)
    return True
