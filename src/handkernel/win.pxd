# The win check and the waits of 34 counts, inline over the lookup tables
# (handkernel/tables.pxd): the analysis step's per-hand kernels, compiled into
# each module that cimports them (mjfast._core's entry points, the fan
# kernel's readings, the game engine's checks), so a batch loop inlines them.
# Also the special forms' distances from the counts alone, which the waits
# and shanten (handkernel/shanten.pxd) share.
#
# The tables: _flag2 (2 bits per suit key, 0.5 MB, so it stays in L2): bit 0
# = the part splits into melds only, bit 1 = into melds and exactly one
# pair; this is the whole regular win check.  _wf[key]: the tiles (9-bit
# masks) whose addition makes the part complete without / with a pair (never
# counting a fifth copy), and the flag, in one 32-bit word: waits then come
# out of one pass over the four parts instead of 34 win checks.
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy
from fankernel.tiles cimport *
from fankernel.forms cimport *
from handkernel.tables cimport _flag2, _hflag, _wf, _hwmask, BIG

cdef extern from "shanten.h":
    int _orphans_c "mjfast_orphans_dist"(const uint8_t* c) nogil


cdef inline int _key9(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * (c[6] + 5 * (c[7] + 5 * c[8]))))))))


cdef inline int _key7(const uint8_t* c) noexcept nogil:
    return (c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * c[6]))))))



cdef inline int _key_of(const uint8_t* c, int n) noexcept nogil:
    """The base-5 key of n counts (_key9 / _key7 for any n)."""
    cdef int i, key = 0
    for i in range(n - 1, -1, -1):
        key = key * 5 + c[i]
    return key


cdef inline bint _regular_win(const uint8_t* c) noexcept nogil:
    """Concealed tiles split into melds + exactly one pair."""
    cdef int k0 = _key9(c), k1 = _key9(c + 9), k2 = _key9(c + 18)
    cdef int f0 = (_flag2[k0 >> 2] >> ((k0 & 3) * 2)) & 3
    cdef int f1 = (_flag2[k1 >> 2] >> ((k1 & 3) * 2)) & 3
    cdef int f2 = (_flag2[k2 >> 2] >> ((k2 & 3) * 2)) & 3
    cdef int fh = _hflag[_key7(c + 27)]
    if not (f0 and f1 and f2 and fh):
        return False
    # exactly one part holds the pair: count parts that can only be "with pair"
    cdef int npair = (f0 == 2) + (f1 == 2) + (f2 == 2) + (fh == 2)
    return npair == 1


cdef inline bint _knitted_straight_win(const uint8_t* c) noexcept nogil:
    """A full knitted arrangement, and the rest splits into sets and a pair."""
    cdef uint8_t rest[34]
    cdef int j, a = _full_knit(c)
    if a < 0:
        return False
    memcpy(rest, c, 34)
    for j in range(9):
        rest[KNIT_TILES[a][j]] -= 1
    return _regular_win(rest)



cdef inline bint _is_win_m(const uint8_t* c, int melds) noexcept nogil:
    """14-3k concealed tiles (melds = k) complete a hand in any form."""
    cdef bint odd, many
    if _regular_win(c):
        return True
    if melds == 0:
        _count_shape(c, &odd, &many)
        if not odd and _seven_pairs_win(c):
            return True
        if _orphans_win(c):
            return True
        if not many and _honors_knitted_win(c):
            return True
    if melds <= 1:
        return _knitted_straight_win(c)
    return False


cdef inline bint _is_win(const uint8_t* c) noexcept nogil:
    cdef int n = _ntiles(c)
    return _is_win_m(c, (14 - n) // 3) if n % 3 == 2 else False


cdef inline uint64_t _regular_waits(const uint8_t* c) noexcept nogil:
    """Tiles completing the regular form, as a 34-bit mask (13-3k tiles).

    A tile added to part j completes the hand when the other three parts are
    all melds-only (part j then takes the pair) or all melds-only but one
    with the pair (part j then takes melds).  The flags come from the small
    2-bit table; only the parts that qualify load their wait masks."""
    cdef int f[4]
    cdef int k[4]
    cdef int j, nM, nP, allM, oneP
    cdef uint64_t out = 0
    cdef uint32_t e
    k[0] = _key9(c); k[1] = _key9(c + 9); k[2] = _key9(c + 18); k[3] = _key7(c + 27)
    for j in range(3):
        f[j] = (_flag2[k[j] >> 2] >> ((k[j] & 3) * 2)) & 3
    f[3] = _hflag[k[3]]
    allM = (f[0] & 1) + (f[1] & 1) + (f[2] & 1) + (f[3] & 1)
    oneP = ((f[0] >> 1) & 1) + ((f[1] >> 1) & 1) + ((f[2] >> 1) & 1) + ((f[3] >> 1) & 1)
    for j in range(4):
        nM = allM - (f[j] & 1)
        nP = oneP - ((f[j] >> 1) & 1)
        if nM == 3 or (nM == 2 and nP == 1):
            if j < 3:
                e = _wf[k[j]]
                out |= (<uint64_t>((e >> 9) & 0x1FF) if nM == 3 else <uint64_t>(e & 0x1FF)) << (9 * j)
            else:
                out |= (<uint64_t>_hwmask[k[3] * 2 + (1 if nM == 3 else 0)]) << 27
    return out


cdef inline uint64_t _waits(const uint8_t* c, int melds) noexcept nogil:
    cdef uint64_t out = _regular_waits(c)
    cdef uint8_t tmp[34]
    cdef int t, a, j, single, n
    cdef int got[6]
    _knitted_got(c, got)
    if melds == 0:
        # seven pairs: six pairs and one odd tile (four of a kind = two pairs)
        single = -1
        n = 0
        for t in range(34):
            if c[t] & 1:
                n += 1
                single = t
        if n == 1 and c[single] < 4:
            out |= (<uint64_t>1) << single
        # thirteen orphans
        if _orphans_dist(c) == 1:
            for j in range(13):
                t = ORPHANS[j]
                if c[t] < 2:
                    memcpy(tmp, c, 34)
                    tmp[t] += 1
                    if _orphans_win(tmp):
                        out |= (<uint64_t>1) << t
        # honors and knitted
        if _honors_knitted_dist(c, got) == 1:
            for t in range(34):
                if c[t] == 0:
                    memcpy(tmp, c, 34)
                    tmp[t] = 1
                    if _honors_knitted_win(tmp):
                        out |= (<uint64_t>1) << t
    if melds <= 1:
        for a in range(6):
            if got[a] >= 8:
                for t in range(34):
                    if c[t] < 4 and not ((out >> t) & 1):
                        memcpy(tmp, c, 34)
                        tmp[t] += 1
                        if _knitted_straight_win(tmp):
                            out |= (<uint64_t>1) << t
    return out


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
