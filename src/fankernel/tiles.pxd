# Tile counts and tile codes: the primitives every part of the kernel uses.
#
# A .pxd of inline functions and C tables only: cimported, it compiles into the
# module that cimports it (mjfast._core, _fans, ...), so nothing here is a runtime module
# and every call inlines as if it were in one file.  Tables are C statics
# (defined in src/include/fankernel/*.h, one copy per cimporting module) and are
# filled by the _init_* function of their file, called once when each such module loads.

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy

cdef extern from "fankernel/tiles.h":
    uint64_t _eq34 "mjfast_eq34"(const uint8_t* c, uint8_t v) nogil
    uint64_t _present34 "mjfast_present34"(const uint8_t* c) nogil
    void _present84 "mjfast_present84"(const int16_t* ft, uint64_t* out) nogil
    int _sum34 "mjfast_sum34"(const uint8_t* c) nogil
    int _over4 "mjfast_over4"(const uint8_t* c) nogil
    void _copy_row "mjfast_copy_row"(uint8_t* dst, const uint8_t* src) nogil
    void _barrier "mjfast_barrier"() nogil



cdef extern from "bits.h":
    int _ctz64 "mjfast_ctz64"(uint64_t x) nogil
    int _popcount64 "mjfast_popcount64"(uint64_t x) nogil



# ---------------------------------------------------------------------------
# tiles
# ---------------------------------------------------------------------------
# The kernel speaks mjfast's tile index everywhere: 0-8 = 1m-9m, 9-17 =
# 1p-9p, 18-26 = 1s-9s, 27-33 = E S W N C F P; a chow is named by its lowest
# tile, as in a meld.  Unlike codes with a gap between suits, index + 1 may be
# the next suit's tile, so every "consecutive tiles" test below also tests the
# suit.
#
# One thing is taken from the reference calculator: the order in which it meets
# the readings of a hand, because "take the highest" keeps the first of equal
# readings and a few fans are counted "with the first set it matches".  It
# orders tiles characters, bamboo, dots, honors.  READING_ORDER is that order
# as a table of ours (the position of each tile), IN_READING_ORDER its inverse;
# they are used exactly where an order decides something, and nowhere else.

cdef extern from "fankernel/tiles.h":
    uint8_t READING_ORDER "mjfast_reading_order"[34]
    uint8_t IN_READING_ORDER "mjfast_in_reading_order"[34]


cdef inline void _init_tile_order() noexcept nogil:
    cdef int t
    for t in range(34):
        # characters stay first, bamboo (18-26) comes before dots (9-17)
        READING_ORDER[t] = t - 9 if 18 <= t < 27 else (t + 9 if 9 <= t < 18 else t)
        IN_READING_ORDER[READING_ORDER[t]] = t


cdef inline int _suit(int t) noexcept nogil:
    """0 characters, 1 dots, 2 bamboo, 3 honors."""
    return t // 9

cdef inline int _rank(int t) noexcept nogil:
    """1-9 for a suited tile."""
    return t % 9 + 1

cdef inline bint _numbered(int t) noexcept nogil:
    return t < 27

cdef inline bint _is_wind(int t) noexcept nogil:
    return 27 <= t <= 30

cdef inline bint _is_dragon(int t) noexcept nogil:
    return t >= 31

cdef inline bint _next_in_suit(int a, int b) noexcept nogil:
    """b is the suited tile just above a (same suit, rank + 1)."""
    return b == a + 1 and a < 27 and _suit(a) == _suit(b)


cdef inline void _sort_in_reading_order(int* a, int n) noexcept nogil:
    """Sort tiles in the reference's order (READING_ORDER): where the first of
    several matches counts, the matches are tried in the order it tries them."""
    cdef int i, j, t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and READING_ORDER[a[j]] > READING_ORDER[t]:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


cdef inline void _order2(int* a, int* b) noexcept nogil:
    """a, b = the lower and the higher of the two keys (cmov, no branch)"""
    cdef int x = a[0], y = b[0]
    a[0] = x if x < y else y
    b[0] = y if x < y else x


cdef inline void _sort3_in_reading_order(int* a) noexcept nogil:
    """_sort_in_reading_order(a, 3) as a sorting network on the tiles'
    positions (READING_ORDER is one-to-one: equal keys are equal tiles, so
    the result is the same)"""
    cdef int k0 = READING_ORDER[a[0]], k1 = READING_ORDER[a[1]], k2 = READING_ORDER[a[2]]
    _order2(&k0, &k1)
    _order2(&k1, &k2)
    _order2(&k0, &k1)
    a[0] = IN_READING_ORDER[k0]
    a[1] = IN_READING_ORDER[k1]
    a[2] = IN_READING_ORDER[k2]


cdef inline void _sort4_in_reading_order(int* a) noexcept nogil:
    """_sort_in_reading_order(a, 4) as a sorting network (see _sort3_...)"""
    cdef int k0 = READING_ORDER[a[0]], k1 = READING_ORDER[a[1]], k2 = READING_ORDER[a[2]], k3 = READING_ORDER[a[3]]
    _order2(&k0, &k1)
    _order2(&k2, &k3)
    _order2(&k0, &k2)
    _order2(&k1, &k3)
    _order2(&k1, &k2)
    a[0] = IN_READING_ORDER[k0]
    a[1] = IN_READING_ORDER[k1]
    a[2] = IN_READING_ORDER[k2]
    a[3] = IN_READING_ORDER[k3]


cdef inline void _sort_small(int* a, int n) noexcept nogil:
    cdef int i, j, t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t
