# Shanten over every MCR form, inline over the shanten records
# (handkernel/tables.pxd); compiled into each module that cimports it.
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
# _shanten_plain (src/_core.pyx) keeps the straightforward per-form
# definition on the full tables as the reference the differential tests
# compare with.  The exact shanten is the same kernel over records built
# from the exact tables (_shanten_rec; mjfast._tables builds them).

from libc.stdint cimport uint8_t, uint64_t
from fankernel.tiles cimport *
from fankernel.forms cimport *
from handkernel.tables cimport _dist, _hdist, _srec, _hrec, _xsrec, _xhrec, _lo_rank, _hi_off, BIG, SREC
from handkernel.win cimport _key7, _key9, _seven_pairs_dist, _orphans_dist, _honors_knitted_dist, _knitted_got

cdef extern from "shanten.h":
    int _reg "mjfast_reg"(const uint8_t* a, const uint8_t* b, const uint8_t* c, const uint8_t* d, int M) nogil
    int _honor_kinds "mjfast_honor_kinds"(const uint8_t* c) nogil
    int _rest1 "mjfast_rest1"(const int* P, const int* M, const int* B) nogil
    int _rest0 "mjfast_rest0"(const int* P) nogil


cdef inline int _sidx(const uint8_t* c) noexcept nogil:
    return (_hi_off[c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))]
            + _lo_rank[c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * c[4])))])



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
    or the exact ones (_xsrec, _xhrec, built by mjfast._tables), built the same way
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



cdef inline int _shanten_exact(const uint8_t* c, int melds, int form) noexcept nogil:
    """The exact replacement number - 1 (see _shanten_exact_plain in
    src/_core.pyx): the shanten kernel over the exact records (_need_exact
    first)."""
    return _shanten_rec(c, melds, form, _xsrec, _xhrec)
