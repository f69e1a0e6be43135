# Shanten: the fewest tiles to add (minus one) over every MCR form
# (included into _core.pyx; the analysis step, on the tables _core builds).
#
# The regular form is the min-plus product of the four parts' distance
# vectors (_dist, _hdist).  The other forms need little: seven pairs and
# thirteen orphans are closed forms over the counts, honors-and-knitted
# counts the held tiles of the best knitted arrangement, and a knitted
# straight is (tiles of its arrangement missing) + (distance of the rest to
# one meld and a pair, or a pair beside one meld).
#
# That last term would cost three more random loads into the 19.5 MB _dist
# table for each of up to six arrangements, if the rest were a new hand.  Here
# every suit pattern has a 16-byte record holding its distance vector *and*
# the rest distances of its three knitted triples (ranks j, j+3, j+6, one
# copy of each held tile of the triple set aside), so every form comes out
# of the four records the regular form loads anyway.  The records cover
# only the 405,350 patterns of at most 14 tiles (a hand never has more in a
# suit), ranked by two small tables (_sidx): 6.5 MB instead of the 19.5 MB
# of the full base-5 key space, so more of it stays in the caches.  A
# record keeps the entries without the pair in bytes 0-4 and those with it
# in bytes 8-12, so that a min-plus product is a few SSE2 byte operations
# (mjfast_mpc); the honors have records of the same layout (_hrec).
#
# Also: thirteen orphans without a branch per tile (unpredictable on random
# hands), the products' entries kept in registers (a store to the stack and
# a vector read back would stall store forwarding), and each knitted
# arrangement computed only when its bound can beat the best so far.
# Figures, and what was tried and dropped: benchmarks/README.md, "Shanten
# over every form".
#
# _shanten_plain keeps the straightforward per-form definition on the full
# tables as the reference the differential tests compare with.  The exact
# shanten (src/_exact.pxi) is the same kernel over records built from the
# exact tables (_shanten_rec).

cdef inline int _sidx(const uint8_t* c) noexcept nogil:
    return (_hi_off[c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))]
            + _lo_rank[c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * c[4])))])


cdef uint8_t* _build_srec(const uint8_t* dist, bint ranks) noexcept nogil:
    """The records of a suit distance table (plain: _dist, or exact: _xdist),
    and with `ranks` the ranking tables first (NULL when out of memory)."""
    cdef int upto[21]
    cdef int start[21]
    cdef int k, t, s, j, r, off, key, kk, kl, kh, cnt
    cdef int c[9]
    cdef uint8_t* rec
    cdef const uint8_t* nb
    cdef uint8_t* out
    if ranks:
        memset(upto, 0, sizeof(upto))
        for k in range(3125):
            upto[_digit_sum(k, 5)] += 1
        s = 0
        for t in range(21):
            start[t] = s
            s += upto[t]
            upto[t] = s                     # now: low keys of at most t tiles
        for k in range(3125):               # within one tile count, by key
            t = _digit_sum(k, 5)
            _lo_rank[k] = start[t]
            start[t] += 1
        off = 0
        for kh in range(625):
            _hi_off[kh] = off
            t = _digit_sum(kh, 4)
            if t <= 14:
                off += upto[14 - t]
        if off != NSREC:
            return NULL
    rec = <uint8_t*>malloc((NSREC + SREC_PAD) * SREC)
    if rec == NULL:
        return NULL
    memset(rec, 0, (NSREC + SREC_PAD) * SREC)
    for key in range(NKEY):
        kk = key
        s = 0
        for j in range(9):
            c[j] = kk % 5
            kk = kk // 5
            s += c[j]
        if s > 14:
            continue
        kl = key % 3125
        kh = key // 3125
        out = rec + (<size_t>(_hi_off[kh] + _lo_rank[kl])) * SREC
        for j in range(5):
            out[j] = dist[key * 10 + 2 * j]
            out[8 + j] = dist[key * 10 + 2 * j + 1]
        cnt = 0
        for j in range(3):
            kk = key
            for r in range(j, 9, 3):
                if c[r]:
                    kk -= P5[r]
                    cnt += 1 << (2 * j)
            nb = dist + kk * 10
            # entries m * 2 + p: 1 = a pair, 2 = a meld, 3 = both (<= 2, 3, 5)
            out[5 + j] = nb[1] | (nb[2] << 2) | (nb[3] << 4)
        out[13] = cnt
    return rec


cdef uint8_t* _build_hrec(const uint8_t* hdist) noexcept nogil:
    """The honors' distance vectors in the records' layout (NULL when out of memory)."""
    cdef uint8_t* rec = <uint8_t*>malloc(NHKEY * SREC)
    cdef int key, m
    if rec == NULL:
        return NULL
    memset(rec, 0, NHKEY * SREC)
    for key in range(NHKEY):
        for m in range(5):
            rec[key * SREC + m] = hdist[key * 10 + 2 * m]
            rec[key * SREC + 8 + m] = hdist[key * 10 + 2 * m + 1]
    return rec


cdef inline int _digit_sum(int k, int n) noexcept nogil:
    cdef int s = 0, i
    for i in range(n):
        s += k % 5
        k = k // 5
    return s


cdef extern from "shanten.h":
    int _reg "mjfast_reg"(const uint8_t* a, const uint8_t* b, const uint8_t* c, const uint8_t* d, int M) nogil
    int _honor_kinds "mjfast_honor_kinds"(const uint8_t* c) nogil
    int _orphans_c "mjfast_orphans_dist"(const uint8_t* c) nogil
    int _rest1 "mjfast_rest1"(const int* P, const int* M, const int* B) nogil
    int _rest0 "mjfast_rest0"(const int* P) nogil


cdef inline int _knitted_forms(const uint8_t* c, const uint8_t** r, const uint8_t* rh, int melds, int form,
                               int best) noexcept nogil:
    """best lowered by honors-and-knitted and the knitted straight, from the
    suits' records r[0..2] and the honors' vector rh.  An arrangement whose
    missing tiles alone reach best is not looked at further."""
    cdef int cnt[3][3]
    cdef int got[6]
    cdef int s, j, a, v, g, rd
    cdef int P[4]
    cdef int M[4]
    cdef int B[4]
    cdef int e
    for s in range(3):
        g = r[s][13]
        cnt[s][0] = g & 3
        cnt[s][1] = (g >> 2) & 3
        cnt[s][2] = (g >> 4) & 3
    g = 0
    for a in range(6):
        got[a] = cnt[KNIT_SUIT[a][0]][0] + cnt[KNIT_SUIT[a][1]][1] + cnt[KNIT_SUIT[a][2]][2]
        g = got[a] if got[a] > g else g
    if melds == 0 and (form < 0 or form == 3):
        v = 14 - _honor_kinds(c) - g
        best = v if v < best else best
    if not (form < 0 or form == 4):
        return best
    P[3] = rh[8]            # no meld, the pair
    M[3] = rh[1]            # one meld
    B[3] = rh[9]            # both
    for a in range(6):
        if 9 - got[a] >= best:
            continue
        for j in range(3):
            s = KNIT_SUIT[a][j]
            e = r[s][5 + j]
            P[s] = e & 3
            M[s] = (e >> 2) & 3
            B[s] = e >> 4
        rd = _rest1(P, M, B) if melds == 0 else _rest0(P)
        v = 9 - got[a] + rd
        best = v if v < best else best
    return best


cdef inline int _shanten_special(const uint8_t* c, int melds, int form) noexcept nogil:
    """Shanten in one special form alone (1-3): from the counts, no table
    record needed (small enough to be inlined where a batch dispatches)."""
    cdef int got[6]
    if melds != 0:
        return BIG - 1
    if form == 1:
        return _seven_pairs_dist(c) - 1
    if form == 2:
        return _orphans_dist(c) - 1
    _knitted_got(c, got)
    return _honors_knitted_dist(c, got) - 1


cdef inline int _shanten(const uint8_t* c, int melds, int form) noexcept nogil:
    """Shanten (-1 = complete) in one form, or the minimum over all (form < 0),
    of 13-3k or 14-3k concealed tiles beside `melds` melds.  A form that
    cannot apply (melds present) gives BIG."""
    return _shanten_rec(c, melds, form, _srec, _hrec)


cdef inline int _shanten_rec(const uint8_t* c, int melds, int form, const uint8_t* srec,
                             const uint8_t* hrec) noexcept nogil:
    """_shanten from the records srec / hrec: the plain ones (_srec, _hrec),
    or the exact ones (_xsrec, _xhrec, src/_exact.pxi), built the same way
    from the tables that never count on a fifth copy."""
    cdef const uint8_t* r[3]
    cdef const uint8_t* rh
    cdef int best = BIG, v
    if 1 <= form <= 3:
        return _shanten_special(c, melds, form)
    r[0] = srec + (<size_t>_sidx(c)) * SREC
    r[1] = srec + (<size_t>_sidx(c + 9)) * SREC
    r[2] = srec + (<size_t>_sidx(c + 18)) * SREC
    rh = hrec + _key7(c + 27) * SREC
    if form <= 0:
        best = _reg(r[0], r[1], r[2], rh, 4 - melds)
    if melds == 0 and form < 0:
        v = _seven_pairs_dist(c)
        best = v if v < best else best
        v = _orphans_dist(c)
        best = v if v < best else best
    if melds > 1 or form == 0:
        return best - 1
    return _knitted_forms(c, r, rh, melds, form, best) - 1


cdef inline int _shanten_mask(const uint8_t* c, int melds, int mask, const uint8_t* srec,
                              const uint8_t* hrec) noexcept nogil:
    """The least shanten over the forms of `mask` (bit f: form code f), as
    the minimum of _shanten_rec form by form (a rule set's forms in one
    pass); BIG - 1 when none applies beside the melds."""
    cdef const uint8_t* r[3]
    cdef const uint8_t* rh
    cdef int best = BIG, v
    r[0] = srec + (<size_t>_sidx(c)) * SREC
    r[1] = srec + (<size_t>_sidx(c + 9)) * SREC
    r[2] = srec + (<size_t>_sidx(c + 18)) * SREC
    rh = hrec + _key7(c + 27) * SREC
    if mask & 1:
        best = _reg(r[0], r[1], r[2], rh, 4 - melds)
    if melds == 0:
        if mask & 2:
            v = _seven_pairs_dist(c)
            best = v if v < best else best
        if mask & 4:
            v = _orphans_dist(c)
            best = v if v < best else best
    if melds > 1 or not (mask & 24):
        return best - 1
    return _knitted_forms(c, r, rh, melds, -1 if (mask & 24) == 24 else (3 if mask & 8 else 4), best) - 1


cdef inline void _half(int* o0, int* o1, const uint8_t* a, const uint8_t* b, int m) noexcept nogil:
    """o0[k], o1[k] (k <= m): min-plus product of two distance vectors, without
    and with the pair."""
    cdef int k, i, v0, v1, t
    for k in range(m + 1):
        v0 = BIG
        v1 = BIG
        for i in range(k + 1):
            t = a[i * 2] + b[(k - i) * 2]
            v0 = t if t < v0 else v0
            t = a[i * 2] + b[(k - i) * 2 + 1]
            v1 = t if t < v1 else v1
            t = a[i * 2 + 1] + b[(k - i) * 2]
            v1 = t if t < v1 else v1
        o0[k] = v0
        o1[k] = v1


cdef inline int _regular_dist(const uint8_t* c, int m) noexcept nogil:
    """Fewest tiles to add for m melds + 1 pair in the concealed tiles: the
    min-plus product of the four parts' vectors, (m + s) x (p + honors)."""
    cdef int ab0[5]
    cdef int ab1[5]
    cdef int sh0[5]
    cdef int sh1[5]
    cdef int k, v, best = BIG
    _half(ab0, ab1, _dist + _key9(c) * 10, _dist + _key9(c + 9) * 10, m)
    _half(sh0, sh1, _dist + _key9(c + 18) * 10, _hdist + _key7(c + 27) * 10, m)
    for k in range(m + 1):
        v = ab0[k] + sh1[m - k]
        best = v if v < best else best
        v = ab1[k] + sh0[m - k]
        best = v if v < best else best
    return best


cdef inline int _seven_pairs_dist(const uint8_t* c) noexcept nogil:
    # As the reference: four of a kind count as two pairs; no penalty for
    # having fewer than seven kinds.  Pairs = sum of count // 2, eight bytes
    # at a time (each byte <= 2, so a byte-sum fits in the top byte).
    cdef uint64_t w, acc = 0
    cdef int k
    for k in range(4):
        memcpy(&w, c + 8 * k, 8)
        acc += (w >> 1) & 0x7F7F7F7F7F7F7F7FULL
    return 7 - <int>((acc * 0x0101010101010101ULL) >> 56) - (c[32] >> 1) - (c[33] >> 1)


cdef inline int _orphans_dist(const uint8_t* c) noexcept nogil:
    # without a branch per tile: which of the 13 are held is unpredictable
    return _orphans_c(c)


cdef inline int _honors_knitted_dist(const uint8_t* c, const int* got) noexcept nogil:
    """Fewest tiles to add for honors-and-knitted; got = _knitted_got(c)."""
    cdef int a, best = BIG
    cdef int hon = _popcount9(<int>((_present34(c) >> 27) & 0x7F))
    for a in range(6):
        if 14 - hon - got[a] < best:
            best = 14 - hon - got[a]
    return best


cdef inline void _knitted_got(const uint8_t* c, int* got) noexcept nogil:
    """got[a] = how many of knitted arrangement a's nine tiles are held, from
    per-suit presence masks and nine popcounts."""
    cdef int s, j, a
    cdef uint64_t p = _present34(c)
    cdef int cnt[3][3]
    for s in range(3):
        for j in range(3):
            cnt[s][j] = _popcount9(<int>((p >> (9 * s)) & (0b001001001 << j)))
    for a in range(6):
        got[a] = cnt[KNIT_SUIT[a][0]][0] + cnt[KNIT_SUIT[a][1]][1] + cnt[KNIT_SUIT[a][2]][2]


cdef inline int _popcount9(int x) noexcept nogil:
    x = x - ((x >> 1) & 0x155)
    x = (x & 0x133) + ((x >> 2) & 0x133)
    return (x + (x >> 4) + (x >> 8)) & 0xF


cdef int _shanten_plain(const uint8_t* c, int melds, int form) noexcept nogil:
    """The definition _shanten computes, form by form on the 34 counts: the
    regular form over the four parts' vectors, and a knitted straight's rest
    as a hand of its own.  Kept as the reference of the differential tests
    (shanten_plain_batch); nothing else calls it."""
    cdef int best = BIG, v, a, j, hon, t
    cdef int got[6]
    cdef uint8_t rest[34]
    if form < 0 or form == 0:
        v = _regular_dist(c, 4 - melds)
        if v < best:
            best = v
    if melds == 0:
        if form < 0 or form == 1:
            v = _seven_pairs_dist(c)
            if v < best:
                best = v
        if form < 0 or form == 2:
            v = _orphans_dist(c)
            if v < best:
                best = v
    if melds > 1 or not (form < 0 or form == 3 or form == 4):
        return best - 1
    _knitted_got(c, got)
    if melds == 0 and (form < 0 or form == 3):
        v = _honors_knitted_dist(c, got)
        if v < best:
            best = v
    if form < 0 or form == 4:
        # knitted straight: 9 - held is a lower bound, so most arrangements
        # are skipped before their rest is looked up
        for a in range(6):
            if 9 - got[a] >= best:
                continue
            memcpy(rest, c, 34)
            for j in range(9):
                t = KNIT_TILES[a][j]
                if rest[t]:
                    rest[t] -= 1
            v = (9 - got[a]) + _regular_dist(rest, 1 - melds)
            if v < best:
                best = v
    return best - 1



def shanten_plain_batch(const uint8_t[:, ::1] hands, const uint8_t[::1] melds, int form, cnp.int8_t[::1] out,
                        bint exact=False):
    """out[i] = _shanten_plain of row i beside melds[i] melds, or with exact
    _shanten_exact_plain (the references of the differential tests; one
    thread).  Every row is copied and checked first: a bad row raises
    ValueError naming it."""
    _need_tables()
    if exact:
        _need_exact()
    _check_form(form)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    _check_len(melds.shape[0], n, "melds")
    _check_len(out.shape[0], n, "out")
    cdef uint8_t c[34]
    cdef int e
    for i in range(n):
        _copy_row(c, &hands[i, 0])
        e = _recheck(c, melds[i], 2)
        if e == 0 and ((form in (1, 2, 3) and melds[i] > 0) or (form == 4 and melds[i] > 1)):
            e = 4
        if e:
            raise ValueError(f"row {i}: not a hand of 13 or 14 tiles counting 3 per meld "
                             f"with every count <= 4 in a form its melds allow (code {e})")
        out[i] = _shanten_exact_plain(c, melds[i], form) if exact else _shanten_plain(c, melds[i], form)


cdef inline int _shanten_checked_row(const uint8_t* src, const int64_t* given, int form, cnp.int8_t* out,
                                     uint8_t* melds, const uint8_t* srec, const uint8_t* hrec,
                                     int mask) noexcept nogil:
    """One row of shanten_checked: copied, checked (the validating pass of
    validate_batch, mode 2), then computed from the same copy over the
    records srec / hrec (plain or exact)."""
    cdef uint8_t c[34]
    cdef int e, m
    _copy_row(c, src)
    e = _row_check(c, given, 2, &m)
    melds[0] = m
    if e:
        out[0] = -128
    elif 1 <= form <= 3:
        out[0] = _shanten_special(c, m, form)
    elif mask != 0x1F:
        out[0] = _shanten_mask(c, m, mask, srec, hrec)
    else:
        out[0] = _shanten_rec(c, m, form, srec, hrec)
    return e


def shanten_checked(const uint8_t[:, ::1] hands, const int64_t[::1] melds_given, int form, cnp.int8_t[::1] out, uint8_t[::1] err,
                    uint8_t[::1] melds_out, int nthreads, bint exact=False, int forms=0x1F):
    """Validation and shanten in one pass over the rows (as is_win_checked):
    err[i] as validate_batch (a bad row gets out -128), melds_out[i] its melds
    (given, or implied by the size), out[i] its shanten in `form` (-1: every
    form of the bit set `forms`, bit f = form code f; a row none of them
    applies to gets BIG - 1), with `exact` the exact shanten
    (_shanten_exact).  Returns the number of bad rows."""
    if not 0 < forms <= 0x1F:
        raise ValueError(f"forms must be a non-empty bit set of the 5 form codes (1..31), got {forms}")
    if form != -1:
        forms = 0x1F
    _need_tables()
    if exact:
        _need_exact()
    cdef const uint8_t* srec = _xsrec if exact else _srec
    cdef const uint8_t* hrec = _xhrec if exact else _hrec
    nthreads = _nthreads(nthreads)
    _check_form(form)
    cdef Py_ssize_t i, n = _check_rows(hands, "hands")
    cdef const int64_t* gp = _given_rows(melds_given, n)
    cdef int bad = 0
    _check_len(out.shape[0], n, "out")
    _check_len(err.shape[0], n, "err")
    _check_len(melds_out.shape[0], n, "melds_out")
    if nthreads <= 1:
        with nogil:
            for i in range(n):
                err[i] = _shanten_checked_row(&hands[i, 0], gp + i if gp != NULL else NULL, form, &out[i],
                                              &melds_out[i], srec, hrec, forms)
    else:
        for i in prange(n, nogil=True, num_threads=nthreads, schedule='dynamic', chunksize=4096):
            err[i] = _shanten_checked_row(&hands[i, 0], gp + i if gp != NULL else NULL, form, &out[i],
                                          &melds_out[i], srec, hrec, forms)
    for i in range(n):
        bad += err[i] != 0
    return bad
