# Tile counts and tile codes: the primitives every part of the kernel uses.
#
# A .pxd of inline functions and C tables only: cimported, it compiles into the
# module that cimports it (mjfast._core), so nothing here is a runtime module
# and every call inlines as if it were in one file.  Tables are C statics
# (defined in the verbatim C below, one copy per cimporting module) and are
# filled by the _init_* function of their file, called once when _core loads.

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memset, memcpy

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #ifdef __SSE2__
    #include <emmintrin.h>
    #endif
    /* Copy a caller's row into a private buffer that the kernels then read.
       The copy-then-check kernels rely on the copy being real: a data race is
       undefined behaviour in C, so without a barrier the compiler may read the
       caller's memory again instead of the copy (another thread may be
       changing it).  The empty asm with a memory clobber forbids that. */
    static inline void mjfast_barrier(void) {
    #if defined(__GNUC__) || defined(__clang__)
        __asm__ __volatile__("" ::: "memory");
    #endif
    }
    static inline void mjfast_copy_row(uint8_t* dst, const uint8_t* src) {
        memcpy(dst, src, 34);
        mjfast_barrier();
    }
    /* bit i set when c[i] == v (eq) or c[i] != 0 (present), over 34 counts */
    static inline uint64_t mjfast_eq34(const uint8_t* c, uint8_t v) {
        uint64_t m = 0;
    #ifdef __SSE2__
        __m128i t = _mm_set1_epi8((char)v);
        m = (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)c), t))
          | ((uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(c + 16)), t)) << 16);
    #else
        for (int i = 0; i < 32; ++i) m |= (uint64_t)(c[i] == v) << i;
    #endif
        m |= (uint64_t)(c[32] == v) << 32;
        m |= (uint64_t)(c[33] == v) << 33;
        return m;
    }
    /* number of tiles (sum of the 34 counts) and whether any count exceeds 4 */
    static inline int mjfast_sum34(const uint8_t* c) {
    #ifdef __SSE2__
        __m128i z = _mm_setzero_si128();
        __m128i a = _mm_sad_epu8(_mm_loadu_si128((const __m128i*)c), z);
        __m128i b = _mm_sad_epu8(_mm_loadu_si128((const __m128i*)(c + 16)), z);
        __m128i t = _mm_add_epi64(a, b);
        return (int)(_mm_cvtsi128_si32(t) + _mm_cvtsi128_si32(_mm_srli_si128(t, 8))) + c[32] + c[33];
    #else
        int s = 0; for (int i = 0; i < 34; ++i) s += c[i]; return s;
    #endif
    }
    static inline int mjfast_over4(const uint8_t* c) {
    #ifdef __SSE2__
        __m128i four = _mm_set1_epi8(4);
        __m128i a = _mm_subs_epu8(_mm_loadu_si128((const __m128i*)c), four);
        __m128i b = _mm_subs_epu8(_mm_loadu_si128((const __m128i*)(c + 16)), four);
        return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(a, b), _mm_setzero_si128())) != 0xFFFF
               || c[32] > 4 || c[33] > 4;
    #else
        for (int i = 0; i < 34; ++i) if (c[i] > 4) return 1; return 0;
    #endif
    }
    static inline uint64_t mjfast_present34(const uint8_t* c) {
        return ~mjfast_eq34(c, 0) & 0x3FFFFFFFFULL;
    }
    /* bit i set when ft[i] != 0, for 84 int16 counts (two words).  Sixteen
       counts at a time: two vectors packed to bytes (a signed saturation keeps
       a non-zero count non-zero), one byte compare, one movemask; the last
       four from an 8-byte load.  (Eight at a time with a branch on the word
       to fill was about 100 instructions a call.) */
    static inline void mjfast_present84(const int16_t* ft, uint64_t* out) {
    #ifdef __SSE2__
        const __m128i z = _mm_setzero_si128();
    #define MJFAST_NZ16(k) ((uint64_t)(uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_packs_epi16( \
            _mm_loadu_si128((const __m128i*)(ft + 16 * (k))), _mm_loadu_si128((const __m128i*)(ft + 16 * (k) + 8))), z)))
        uint64_t lo = MJFAST_NZ16(0) | (MJFAST_NZ16(1) << 16) | (MJFAST_NZ16(2) << 32) | (MJFAST_NZ16(3) << 48);
        uint64_t tail = (uint64_t)(~_mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_packs_epi16(_mm_loadl_epi64((const __m128i*)(ft + 80)), z), z)) & 0xF);
        out[0] = lo;
        out[1] = MJFAST_NZ16(4) | (tail << 16);
    #undef MJFAST_NZ16
    #else
        uint64_t lo = 0, hi = 0;
        for (int i = 0; i < 84; ++i) { if (ft[i]) { if (i < 64) lo |= 1ULL << i; else hi |= 1ULL << (i - 64); } }
        out[0] = lo; out[1] = hi;
    #endif
    }
    """
    uint64_t _eq34 "mjfast_eq34"(const uint8_t* c, uint8_t v) nogil
    uint64_t _present34 "mjfast_present34"(const uint8_t* c) nogil
    void _present84 "mjfast_present84"(const int16_t* ft, uint64_t* out) nogil
    int _sum34 "mjfast_sum34"(const uint8_t* c) nogil
    int _over4 "mjfast_over4"(const uint8_t* c) nogil
    void _copy_row "mjfast_copy_row"(uint8_t* dst, const uint8_t* src) nogil
    void _barrier "mjfast_barrier"() nogil



cdef extern from *:
    """
    static inline int _mjfast_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    /* SWAR popcount: without -mpopcnt, __builtin_popcountll is a library call */
    static inline int mjfast_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    """
    int _ctz64 "_mjfast_ctz64"(uint64_t x) nogil
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

cdef extern from *:
    """
    static uint8_t mjfast_reading_order[34];     /* tile -> its position in the reference's order */
    static uint8_t mjfast_in_reading_order[34];  /* position -> tile */
    """
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
