# The win check of a hand with wildcards (the regular form by table lookup,
# the special forms in closed form), inline over the wild tables
# (wildkernel/tables.pxd); with the part keys and word reads that the
# shanten and the waits share.
#
# Default rule: per suit key, _emask[key] is the set of (melds m, pairs p)
# the part can be made into *exactly* by adding wildcards without passing
# four copies: bit m + 5 p.  A hand wins in the regular form when one (m, p)
# per part sums to (4 - melds, 1): a sum-set of four small bit masks.  The
# number of wildcards needs no lookup: the size of the hand fixes it.  With
# `fifth` the same masks come from the distance table directly: a part of n
# tiles is exactly completable into (m, p) when its distance (the fewest
# tiles to add, a fifth copy allowed) is 3m + 2p - n.
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy
from wildkernel.tables cimport (_dist, _hdist, _emask, _hemask, KNIT_TILES, KNIT_MASK, ORPHANS, ORPHAN_MASK,
                                SUITED_MASK, MPMASK)

cdef extern from "bits.h":
    int _ctz64 "mjfast_ctz64"(uint64_t x) nogil
    int _popc64 "mjfast_popcount64"(uint64_t x) nogil
cdef extern from "wild.h":
    uint64_t _present_c "mjfast_w_present"(const uint8_t* c) nogil
    int _nodd "mjfast_w_odd"(const uint8_t* c) nogil
    int _over "mjfast_w_over"(const uint8_t* c, uint8_t lim) nogil


cdef inline int _key9(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))))))))


cdef inline int _key7(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * c[6]))))))


cdef inline uint64_t _present(const uint8_t* c) noexcept nogil:
    return _present_c(c)


cdef inline int _ntiles(const uint8_t* c, int n) noexcept nogil:
    cdef int i, s = 0
    for i in range(n):
        s += c[i]
    return s


cdef inline uint64_t _spread(uint32_t e) noexcept nogil:
    """bit m + 5p -> bit m + 16p (room for sums: m <= 8, p <= 2)."""
    return (e & 0x1F) | ((<uint64_t>((e >> 5) & 0x1F)) << 16)


cdef inline uint64_t _sumset(uint64_t a, uint64_t b) noexcept nogil:
    """The (m, p) sums of a pair of elements of a and b (m <= 4, p <= 1)."""
    cdef uint64_t r = 0
    while b:
        r |= a << _ctz64(b)
        b &= b - 1
    return r & MPMASK


cdef inline uint64_t _fifth_mask(const uint8_t* d, int n) noexcept nogil:
    """Exact completions of a part of n tiles, fifth copies allowed, from its
    distance vector: (m, p) whose distance is exactly 3m + 2p - n."""
    cdef uint64_t r = 0
    cdef int m, p, t
    for m in range(5):
        for p in range(2):
            t = 3 * m + 2 * p - n
            if t >= 0 and d[2 * m + p] == t:
                r |= (<uint64_t>1) << (m + 16 * p)
    return r


cdef inline bint _wreg_win(const uint8_t* c, int M, bint fifth) noexcept nogil:
    """Concealed counts plus wildcards (the hand's size fixes how many) split
    into M melds + one pair."""
    cdef uint64_t a, b, x, h
    cdef int k0 = _key9(c), k1 = _key9(c + 9), k2 = _key9(c + 18), kh = _key7(c + 27)
    if fifth:
        a = _fifth_mask(_dist + k0 * 10, _ntiles(c, 9))
        b = _fifth_mask(_dist + k1 * 10, _ntiles(c + 9, 9))
        x = _fifth_mask(_dist + k2 * 10, _ntiles(c + 18, 9))
        h = _fifth_mask(_hdist + kh * 10, _ntiles(c + 27, 7))
    else:
        a = _spread(_emask[k0])
        b = _spread(_emask[k1])
        x = _spread(_emask[k2])
        h = _spread(_hemask[kh])
    if not (a and b and x and h):
        return False
    return (_sumset(_sumset(_sumset(a, b), x), h) >> (16 + M)) & 1


cdef inline void _knit_got(uint64_t p, int* got) noexcept nogil:
    cdef int a
    for a in range(6):
        got[a] = _popc64(p & KNIT_MASK[a])


cdef inline bint _wis_win(const uint8_t* c, int melds, int k, bint fifth) noexcept nogil:
    """c (real tiles) + k wildcards, 14 - 3 melds tiles in all, complete a hand
    in some MCR form."""
    cdef uint64_t p
    cdef int t, a, j, n2
    cdef int got[6]
    cdef uint8_t rest[34]
    if _wreg_win(c, 4 - melds, fifth):
        return True
    p = _present(c)
    if melds == 0:
        # seven pairs: a wildcard evens each odd count (1 -> 2, 3 -> 4); the
        # rest make pairs of their own (the size makes their number even)
        if _nodd(c) <= k:
            return True
        # thirteen orphans: orphans only, at most one pair; the wildcards
        # fill the missing kinds and, without a pair, make it
        if (p & ~ORPHAN_MASK) == 0 and not _over(c, 2):
            n2 = 0
            for t in range(13):
                n2 += c[ORPHANS[t]] == 2
            if n2 <= 1:
                return True
        # honors and knitted: 14 different tiles among the 16 of an
        # arrangement and the honors; wildcards take any missing ones
        if not _over(c, 1):
            for a in range(6):
                if (p & SUITED_MASK & ~KNIT_MASK[a]) == 0:
                    return True
    if melds <= 1:
        # knitted straight: wildcards complete an arrangement, the rest is a
        # (1 - melds) melds + pair hand with the wildcards left
        _knit_got(p, got)
        for a in range(6):
            if 9 - got[a] <= k:
                memcpy(rest, c, 34)
                for j in range(9):
                    if rest[KNIT_TILES[a][j]]:
                        rest[KNIT_TILES[a][j]] -= 1
                if _wreg_win(rest, 1 - melds, fifth):
                    return True
    return False
