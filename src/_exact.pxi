# Distance tables that respect the four copies of each tile (included into
# _core.pyx; the analysis step behind exact=True, built on first use, and the
# builder the fan targets of _targets.pxi reuse).
#
# The plain tables (_dist) count shapes: 1111m is "one tile from" a pung and
# a pair of 1m, a fifth copy.  Here a part's distance to m melds + p pairs is
# the fewest tiles to add so that a sub-multiset of the tiles forms them with
# no tile used more than four times, computed as
#
#     dist(H) = 3m + 2p - max{ |S| : S <= H, S <= W for some valid W }
#
# where the valid W are the complete patterns (m melds + p pairs, every count
# <= 4) built from the allowed shapes.  The sets S below some valid W are
# marked by walking down from every W; then dist(H) = 3m + 2p - |H| when H is
# such a set, else the minimum over H less one tile.  The same builder makes
# the tables restricted to some ranks and shapes that the fan targets use
# (docs/bots.md): a key then runs over the allowed ranks only.

from libc.stdlib cimport calloc

cdef struct Spec:
    int n               # key positions (allowed ranks), <= 9
    int rank[9]         # rank of key position j
    int pos[9]          # key position of rank r, -1 when not allowed
    uint16_t chow       # bit r: the chow starting at rank r is allowed
    uint16_t pung       # bit r: the pung of rank r
    uint16_t pair       # bit r: the pair of rank r


cdef void _spec_init(Spec* S, int nrank, uint16_t allowed, uint16_t chow, uint16_t pung, uint16_t pair) noexcept nogil:
    cdef int r
    S.n = 0
    for r in range(9):
        S.pos[r] = -1
    for r in range(nrank):
        if (allowed >> r) & 1:
            S.pos[r] = S.n
            S.rank[S.n] = r
            S.n += 1
    S.chow = chow
    S.pung = pung
    S.pair = pair


cdef inline int _spec_key(const Spec* S, const int* w) noexcept nogil:
    cdef int j, key = 0
    for j in range(S.n - 1, -1, -1):
        key = key * 5 + w[S.rank[j]]
    return key


cdef void _mark_patterns(const Spec* S, uint16_t* C, int* w, int start, int m) noexcept nogil:
    """Mark every valid pattern of m or more melds (shapes from index
    `start` on, pungs 0-8 then chows 9-15) with or without one pair."""
    cdef int r, s
    C[_spec_key(S, w)] |= 1 << (m * 2)
    for r in range(9):
        if (S.pair >> r) & 1 and w[r] + 2 <= 4:
            w[r] += 2
            C[_spec_key(S, w)] |= 1 << (m * 2 + 1)
            w[r] -= 2
    if m == 4:
        return
    for s in range(start, 16):
        if s < 9:
            if (S.pung >> s) & 1 and w[s] + 3 <= 4:
                w[s] += 3
                _mark_patterns(S, C, w, s, m + 1)
                w[s] -= 3
        else:
            r = s - 9
            if (S.chow >> r) & 1 and w[r] < 4 and w[r + 1] < 4 and w[r + 2] < 4:
                w[r] += 1; w[r + 1] += 1; w[r + 2] += 1
                _mark_patterns(S, C, w, s, m + 1)
                w[r] -= 1; w[r + 1] -= 1; w[r + 2] -= 1


cdef uint8_t* _build_exact(const Spec* S) noexcept nogil:
    """The distance table of a spec: 10 entries [m * 2 + p] per key over
    its allowed ranks; BIG where no pattern of that size exists.  NULL when
    out of memory."""
    cdef int nkey = P5[S.n], key, j, e, s, d, k
    cdef int w[9]
    cdef int digit[9]
    cdef uint16_t bits
    cdef uint16_t* C = <uint16_t*>calloc(nkey, sizeof(uint16_t))
    cdef uint8_t* out = <uint8_t*>_big_alloc(<size_t>nkey * 10)
    if C == NULL or out == NULL:
        free(C); free(out)
        return NULL
    memset(w, 0, sizeof(w))
    _mark_patterns(S, C, w, 0, 0)
    # every sub-multiset of a valid pattern is completable: walk down
    for key in range(nkey - 1, 0, -1):
        bits = C[key]
        if bits == 0:
            continue
        k = key
        for j in range(S.n):
            if k % 5:
                C[key - P5[j]] |= bits
            k //= 5
    for key in range(nkey):
        k = key
        s = 0
        for j in range(S.n):
            digit[j] = k % 5
            s += digit[j]
            k //= 5
        for e in range(10):
            if (C[key] >> e) & 1:
                d = 3 * (e >> 1) + 2 * (e & 1) - s
                out[key * 10 + e] = d if d > 0 else 0
            elif key == 0:
                out[e] = BIG          # no pattern of this size at all
            else:
                d = BIG
                for j in range(S.n):
                    if digit[j] and out[(key - P5[j]) * 10 + e] < d:
                        d = out[(key - P5[j]) * 10 + e]
                out[key * 10 + e] = d
    free(C)
    return out


# The exact tables: every rank, every shape, at most four copies; and their
# shanten records, built as the plain ones (_build_srec / _build_hrec, in
# src/_shanten.pxi) so that the exact shanten is the plain kernel
# (_shanten_rec) over other records.
cdef uint8_t* _xdist = NULL
cdef uint8_t* _xhdist = NULL
cdef uint8_t* _xsrec = NULL
cdef uint8_t* _xhrec = NULL


cdef void _exact_sections(_TableSet* t) noexcept nogil:
    """The exact tables as sections of the disk cache (src/_tablecache.pxi)."""
    cdef int i
    for i in range(NSECT):
        t.p[i] = NULL
        t.n[i] = 0
        t.big[i] = False
    t.count = 4
    t.big[0] = True         # both distance tables come from _big_alloc (_build_exact)
    t.big[1] = True
    t.n[0] = NKEY * 10
    t.n[1] = NHKEY * 10
    t.n[2] = (NSREC + SREC_PAD) * SREC
    t.n[3] = NHKEY * SREC


cdef int _need_exact() except -1:
    global _xdist, _xhdist, _xsrec, _xhrec
    cdef Spec S
    cdef uint8_t* a
    cdef uint8_t* b
    cdef uint8_t* ra = NULL
    cdef uint8_t* rb = NULL
    cdef _TableSet t
    if _xdist != NULL:
        return 0
    _need_tables()
    with _tables_lock:
        if _xdist != NULL:
            return 0
        _exact_sections(&t)
        if _cache_read("exact", &t):
            _xhdist = <uint8_t*>t.p[1]
            _xsrec = <uint8_t*>t.p[2]
            _xhrec = <uint8_t*>t.p[3]
            _xdist = <uint8_t*>t.p[0]       # published last: its test is the "built" flag
            _table_sources["exact"] = "cache"
            return 0
        with nogil:
            _spec_init(&S, 9, 0x1FF, 0x7F, 0x1FF, 0x1FF)
            a = _build_exact(&S)
            _spec_init(&S, 7, 0x7F, 0, 0x7F, 0x7F)
            b = _build_exact(&S)
            if a != NULL and b != NULL:
                ra = _build_srec(a, False)      # the ranking tables are _need_tables'
                rb = _build_hrec(b)
        if a == NULL or b == NULL or ra == NULL or rb == NULL:
            free(a); free(b); free(ra); free(rb)
            raise MemoryError("mjfast: cannot allocate the exact shanten tables")
        _xhdist = b
        _xsrec = ra
        _xhrec = rb
        _xdist = a          # published last: its test is the "built" flag
        _table_sources["exact"] = "built"
        t.p[0] = a
        t.p[1] = b
        t.p[2] = ra
        t.p[3] = rb
        _cache_store("exact", &t)
    return 0


cdef inline int _key_of(const uint8_t* c, int n) noexcept nogil:
    cdef int i, key = 0
    for i in range(n - 1, -1, -1):
        key = key * 5 + c[i]
    return key


cdef inline int _regular_dist_x(const uint8_t* c, int m) noexcept nogil:
    """_regular_dist over the exact tables."""
    cdef int ab0[5]
    cdef int ab1[5]
    cdef int sh0[5]
    cdef int sh1[5]
    cdef int k, v, best = BIG
    _half(ab0, ab1, _xdist + _key_of(c, 9) * 10, _xdist + _key_of(c + 9, 9) * 10, m)
    _half(sh0, sh1, _xdist + _key_of(c + 18, 9) * 10, _xhdist + _key_of(c + 27, 7) * 10, m)
    for k in range(m + 1):
        v = ab0[k] + sh1[m - k]
        best = v if v < best else best
        v = ab1[k] + sh0[m - k]
        best = v if v < best else best
    return best


cdef inline int _shanten_exact(const uint8_t* c, int melds, int form) noexcept nogil:
    """The exact replacement number - 1 (see _shanten_exact_plain): the
    shanten kernel over the exact records."""
    return _shanten_rec(c, melds, form, _xsrec, _xhrec)


cdef int _shanten_exact_plain(const uint8_t* c, int melds, int form) noexcept nogil:
    """The exact replacement number - 1: as _shanten, but the regular form
    and a knitted straight's rest never count on a fifth copy.  Seven pairs
    (four of a kind = two pairs), thirteen orphans and honors-and-knitted
    need only tiles the hand lacks, so their counts are exact already.  The
    definition _shanten_exact computes from its records, kept as the
    reference of the differential tests (shanten_plain_batch(exact=True))."""
    cdef int best = BIG, v, a, j, t
    cdef int got[6]
    cdef uint8_t rest[34]
    if form < 0 or form == 0:
        best = _regular_dist_x(c, 4 - melds)
    if melds == 0:
        if form < 0 or form == 1:
            v = _seven_pairs_dist(c)
            best = v if v < best else best
        if form < 0 or form == 2:
            v = _orphans_dist(c)
            best = v if v < best else best
    if melds > 1 or not (form < 0 or form == 3 or form == 4):
        return best - 1
    _knitted_got(c, got)
    if melds == 0 and (form < 0 or form == 3):
        v = _honors_knitted_dist(c, got)
        best = v if v < best else best
    if form < 0 or form == 4:
        for a in range(6):
            if 9 - got[a] >= best:
                continue
            memcpy(rest, c, 34)
            for j in range(9):
                t = KNIT_TILES[a][j]
                if rest[t]:
                    rest[t] -= 1
            v = (9 - got[a]) + _regular_dist_x(rest, 1 - melds)
            best = v if v < best else best
    return best - 1


def shanten_exact_one(const uint8_t[::1] c, int melds, int form):
    """shanten_one with exact=True (see _shanten_exact)."""
    cdef uint8_t h[34]
    _need_exact()
    _check_form(form)
    _take_hand(c, h, melds, 2)
    return _shanten_exact(h, melds, form)
