/* fankernel/tiles.h: the fan kernel's reads of a whole row of counts (which
   tiles are present or equal a value, their sum, a fifth copy, the non-zero
   fan counts) and the copy of a caller's row, plus the reading-order
   tables.  C because each read is a few SSE2 instructions over 16 counts at
   a time where the target has SSE2 (a plain loop elsewhere), and because
   the copy needs a compiler barrier (an empty asm) that Cython cannot
   write.  The tables are statics: one copy per module that includes this
   (_tables, _core, _fans, _decide, _targets), filled when it loads. */
#ifndef MJFAST_FK_TILES_H
#define MJFAST_FK_TILES_H

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
static uint8_t mjfast_reading_order[34];     /* tile -> its position in the reference's order */
static uint8_t mjfast_in_reading_order[34];  /* position -> tile */

#endif /* MJFAST_FK_TILES_H */
