# The readings of a hand, shared by every rule set: the division search (every
# split of the concealed tiles into sets and a pair), the order the readings
# are tried in, and where the winning tile sits in a reading (the waits).
# Compiled into _core by cimport.

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from fankernel.tiles cimport _ctz64, _popcount64, _eq34, _suit, _rank, _numbered, READING_ORDER
from fankernel.fan_base cimport *

# Two functions of _core that this file uses and that stay there (they are
# the shanten / waits section): _core installs them once, when it loads, with
# _install_core_hooks.  Only the rarer wait look-ups go through them.
ctypedef uint64_t (*waits13_fn)(const uint8_t*) noexcept nogil
ctypedef uint64_t (*waits_fn)(const uint8_t*, int) noexcept nogil
ctypedef int (*dist_fn)(const uint8_t*) noexcept nogil

cdef extern from *:
    """
    static uint64_t (*mjfast_core_regular_waits)(const uint8_t*);    /* _core._regular_waits */
    static uint64_t (*mjfast_core_waits)(const uint8_t*, int);       /* _core._waits */
    static int (*mjfast_core_seven_pairs_dist)(const uint8_t*);      /* _core._seven_pairs_dist */
    """
    waits13_fn _core_regular_waits "mjfast_core_regular_waits"
    waits_fn _core_waits "mjfast_core_waits"
    dist_fn _core_seven_pairs_dist "mjfast_core_seven_pairs_dist"


# ---------------------------------------------------------------------------
# waits (for Edge / Closed / Single Wait)
# ---------------------------------------------------------------------------

cdef inline bint _complete_dfs(int* c, int need_sets, bint need_pair) noexcept nogil:
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



cdef inline uint64_t _shape_waits(const uint8_t* st) noexcept nogil:
    """Regular-form waits of 13-3k standing tiles, by shape only: like the
    reference, a tile counts even when it would be a fifth copy."""
    cdef uint64_t m = _core_regular_waits(st)
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



cdef inline int _unique_wait(const uint8_t* standing, int n_fixed) noexcept nogil:
    """1 if the tiles before the win waited on exactly one tile: regular shape
    (fifth copies included, as the reference), plus seven pairs without melds."""
    cdef uint64_t w = _shape_waits(standing)
    cdef int i
    if not w:
        return 0
    if n_fixed == 0 and _core_seven_pairs_dist(standing) == 1:
        for i in range(34):
            if standing[i] & 1:
                w |= (<uint64_t>1) << i
    return _popcount64(w) == 1


cdef inline int _wait_position(const Pack* packs, int n, int win) noexcept nogil:
    """Where the winning tile sits among the concealed sets and pair: bit 1 at
    the end of a chow, 2 in a chow's middle, 4 in the pair; bit 8 when it ends
    a chow whose other end is open (45 + 3 or 6: the same reading then also
    completes on the far tile, so the hand had two waits at least)."""
    cdef int i, r, lo, flag = 0
    for i in range(n):
        if packs[i].type == P_CHOW:
            lo = packs[i].tile
            r = _rank(lo)
            if lo + 1 == win:
                flag |= 2
            elif lo == win:
                flag |= 1 | (8 if r + 3 <= 9 else 0)         # the chow above it is open
            elif lo + 2 == win:
                flag |= 1 | (8 if r >= 2 else 0)             # the chow below it is open
        elif packs[i].type == P_PAIR and packs[i].tile == win:
            flag |= 4
    return flag


cdef inline bint _pair_wait_shared(const Pack* sets, int n, int win, int f) noexcept nogil:
    """The winning tile w completes the pair, and a concealed set sits just
    beside it, so the hand had another wait: a chow w+1..w+3 (or w-3..w-1)
    makes w + chow wait on the far tile too."""
    cdef int i, t
    if not (f & 4) or not _numbered(win):
        return False
    for i in range(n):
        t = sets[i].tile
        if _suit(t) != _suit(win):
            continue
        if sets[i].type == P_CHOW and (t == win + 1 or t == win - 3):
            return True
        # a concealed pung next to it: w + (w+1)x3 is also (w, w+1, w+2) or
        # (w-1, w, w+1) beside a (w+1) pair, waiting on w+2 or w-1 too
        if sets[i].type == P_PUNG and (t == win + 1 or t == win - 1):
            return True
    return False


# ---------------------------------------------------------------------------
# readings (divisions) of the regular form
# ---------------------------------------------------------------------------

ctypedef struct Division:
    Pack packs[5]        # the 4 sets (melds first) and the pair at [4]
    uint32_t order       # the order the reference finds it in (ties go to the first)



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


cdef inline void _divide(uint8_t* c, int i, int min_kind, Pack* cur, int nused, int need, bint pair_done,
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
                    # (lowest tile in READING_ORDER, pung before chow)
                    keys[j - ctx.n_fixed] = READING_ORDER[cur[k].tile] * 2 + (cur[k].type == P_CHOW)
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
        _push(cur, nused, P_PAIR, i)
        _divide(c, i, 1, cur, nused + 1, need, True, out, nout, ctx, present if c[i] else present & ~bit)
        c[i] += 2
    if nsets == need:
        return
    if min_kind <= 1 and c[i] >= 3:
        c[i] -= 3
        _push(cur, nused, P_PUNG, i)
        _divide(c, i, 2, cur, nused + 1, need, pair_done, out, nout, ctx, present if c[i] else present & ~bit)
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        _push(cur, nused, P_CHOW, i)
        _divide(c, i, 2, cur, nused + 1, need, pair_done, out, nout, ctx,
                present & ~((bit if c[i] == 0 else 0) | (bit << 1 if c[i + 1] == 0 else 0)
                            | (bit << 2 if c[i + 2] == 0 else 0)))
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1


cdef inline void _sort_divisions(Division* d, int n) noexcept nogil:
    cdef int i, j
    cdef Division t
    for i in range(1, n):
        t = d[i]
        j = i - 1
        while j >= 0 and d[j].order > t.order:
            d[j + 1] = d[j]
            j -= 1
        d[j + 1] = t
