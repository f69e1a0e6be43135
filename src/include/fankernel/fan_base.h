/* fankernel/fan_base.h: the exclusion table's C layout (one row of 84 bits
   per fan) and the zeroing and copying of a row of 84 fan counts.  C
   because the struct is shared by every rule set's table, and because the
   168-byte copies are written out as SSE2 moves: as a loop the compiler
   turned them into `rep stos` / `rep movs`, which stall the reads that
   follow. */
#ifndef MJFAST_FK_FAN_BASE_H
#define MJFAST_FK_FAN_BASE_H

#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct {
    uint64_t excl[84][2];       /* bit j of row i: fan i excludes fan j */
    uint64_t excluder_bits[2];  /* the fans that exclude others, as a bit set of ids */
} mjfast_excl_table;
/* 84 int16 fan counts (168 bytes) zeroed / copied with ten 16-byte and one
   8-byte move, written out: as a loop, the compiler turned them into
   `rep stos` / `rep movs`, whose start-up stalls the reads of the vector
   that follow (figures: benchmarks/README.md, "The fan kernel:
   readings"). */
#ifdef __SSE2__
#define MJFAST_Z16(k) _mm_storeu_si128((__m128i*)(ft + 8 * (k)), z)
static inline void mjfast_fans_zero(int16_t* ft) {
    __m128i z = _mm_setzero_si128();
    MJFAST_Z16(0); MJFAST_Z16(1); MJFAST_Z16(2); MJFAST_Z16(3); MJFAST_Z16(4);
    MJFAST_Z16(5); MJFAST_Z16(6); MJFAST_Z16(7); MJFAST_Z16(8); MJFAST_Z16(9);
    _mm_storel_epi64((__m128i*)(ft + 80), z);
}
#define MJFAST_C16(k) _mm_storeu_si128((__m128i*)(dst + 8 * (k)), _mm_loadu_si128((const __m128i*)(src + 8 * (k))))
static inline void mjfast_fans_copy(int16_t* dst, const int16_t* src) {
    MJFAST_C16(0); MJFAST_C16(1); MJFAST_C16(2); MJFAST_C16(3); MJFAST_C16(4);
    MJFAST_C16(5); MJFAST_C16(6); MJFAST_C16(7); MJFAST_C16(8); MJFAST_C16(9);
    _mm_storel_epi64((__m128i*)(dst + 80), _mm_loadl_epi64((const __m128i*)(src + 80)));
}
#else
static inline void mjfast_fans_zero(int16_t* ft) { memset(ft, 0, 168); }
static inline void mjfast_fans_copy(int16_t* dst, const int16_t* src) { memcpy(dst, src, 168); }
#endif

#endif /* MJFAST_FK_FAN_BASE_H */
