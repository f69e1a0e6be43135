# The winning forms' shape tests that the fan kernel needs (and the win
# check of mjfast._core uses): seven pairs, thirteen orphans, the knitted
# arrangements.  Compiled by cimport into each module that uses it, like every fankernel file.

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy
from fankernel.tiles cimport _present34

cdef enum:
    FORM_REGULAR = 0
    FORM_SEVEN_PAIRS = 1
    FORM_THIRTEEN_ORPHANS = 2
    FORM_HONORS_KNITTED = 3
    FORM_KNITTED_STRAIGHT = 4

cdef extern from "fankernel/forms.h":
    int KNIT_SUIT "mjfast_knit_suit"[6][3]
    int KNIT_TILES "mjfast_knit_tiles"[6][9]
    uint64_t KNIT_MASK "mjfast_knit_mask"[6]
    int ORPHANS "mjfast_orphans"[13]
    const uint64_t ORPHANS_MASK "mjfast_orphans_mask"


cdef inline void _init_forms() noexcept nogil:
    # the six arrangements, in the order of the permutations of the suits
    # (0, 1, 2) (0, 2, 1) (1, 0, 2) (1, 2, 0) (2, 0, 1) (2, 1, 0)
    cdef int perms[6][3]
    cdef int orphans[13]
    cdef int a, j, r
    perms[0][0] = 0; perms[0][1] = 1; perms[0][2] = 2
    perms[1][0] = 0; perms[1][1] = 2; perms[1][2] = 1
    perms[2][0] = 1; perms[2][1] = 0; perms[2][2] = 2
    perms[3][0] = 1; perms[3][1] = 2; perms[3][2] = 0
    perms[4][0] = 2; perms[4][1] = 0; perms[4][2] = 1
    perms[5][0] = 2; perms[5][1] = 1; perms[5][2] = 0
    for a in range(6):
        KNIT_MASK[a] = 0
        for j in range(3):
            KNIT_SUIT[a][j] = perms[a][j]
            for r in range(3):
                KNIT_TILES[a][j * 3 + r] = perms[a][j] * 9 + j + 3 * r
        for j in range(9):
            KNIT_MASK[a] |= (<uint64_t>1) << KNIT_TILES[a][j]
    orphans[0] = 0; orphans[1] = 8; orphans[2] = 9; orphans[3] = 17; orphans[4] = 18; orphans[5] = 26
    for j in range(13):
        ORPHANS[j] = orphans[j] if j < 6 else 21 + j        # then the honors 27..33


cdef inline int _ntiles(const uint8_t* c) noexcept nogil:
    cdef int i, s = 0
    for i in range(34):
        s += c[i]
    return s


cdef inline bint _seven_pairs_win(const uint8_t* c) noexcept nogil:
    cdef int i
    for i in range(34):
        if c[i] & 1:
            return False
    return True


cdef inline bint _orphans_win(const uint8_t* c) noexcept nogil:
    cdef int i, t, pair = 0, n = 0
    for i in range(13):
        t = c[ORPHANS[i]]
        if t == 0 or t > 2:
            return False
        if t == 2:
            pair += 1
    return pair == 1


cdef inline int _knit_of(uint64_t p) noexcept nogil:
    """The knitted arrangement whose nine tiles are all in the tile mask p, or
    -1 (a hand of 14 tiles holds at most one)."""
    cdef int a
    for a in range(6):
        if (p & KNIT_MASK[a]) == KNIT_MASK[a]:
            return a
    return -1


cdef inline int _full_knit(const uint8_t* c) noexcept nogil:
    """The knitted arrangement whose nine tiles are all held, or -1."""
    return _knit_of(_present34(c))


cdef inline bint _honors_knitted_of(uint64_t p) noexcept nogil:
    """Honors and knitted tiles, for 14 tiles of one copy each whose mask is
    p (the caller knows both): the suited ones all from one knitted
    arrangement.  (The arrangement _honors_knitted_win settles on from the
    suits' lowest tiles is one of those holding them, and they all agree on
    the suits present.)"""
    cdef uint64_t suited = p & 0x7FFFFFF
    cdef int a
    for a in range(6):
        if not (suited & ~KNIT_MASK[a]):
            return True
    return False


cdef inline int _knit_arrangement(const uint8_t* c) noexcept nogil:
    """The arrangement that all the suited tiles could belong to, or -1.
    Uses the lowest present tile of each suit: its rank mod 3 fixes the triple."""
    cdef int s, r, a, k
    cdef int pos[3]
    for s in range(3):
        pos[s] = -1
        for r in range(9):
            if c[s * 9 + r]:
                pos[s] = r % 3
                break
    for a in range(6):
        k = 1
        for s in range(3):
            # KNIT_SUIT[a][j] = suit of triple j; we need triple of suit s
            if pos[s] >= 0 and KNIT_SUIT[a][pos[s]] != s:
                k = 0
                break
        if k:
            return a
    return -1


cdef inline bint _honors_knitted_win(const uint8_t* c) noexcept nogil:
    cdef int i, a, r, s
    for i in range(34):
        if c[i] > 1:
            return False
    a = _knit_arrangement(c)
    if a < 0:
        return False
    for s in range(3):
        for r in range(9):
            if c[s * 9 + r] and KNIT_SUIT[a][r % 3] != s:
                return False
    return _ntiles(c) == 14



cdef inline void _count_shape(const uint8_t* c, bint* odd, bint* many) noexcept nogil:
    """Word-wide tests on the 34 counts: any odd count (rules out seven
    pairs), any count of two or more (rules out honors-and-knitted)."""
    cdef uint64_t w0, w1, w2, w3, x
    memcpy(&w0, c, 8); memcpy(&w1, c + 8, 8); memcpy(&w2, c + 16, 8); memcpy(&w3, c + 24, 8)
    x = w0 | w1 | w2 | w3
    odd[0] = (x & 0x0101010101010101ULL) != 0 or ((c[32] | c[33]) & 1) != 0
    many[0] = (x & 0xFEFEFEFEFEFEFEFEULL) != 0 or ((c[32] | c[33]) & 0xFE) != 0
