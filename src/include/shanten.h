/* shanten.h: the inner steps of the shanten tables' queries: the min-plus
   product of four suit parts' distance records (SSE2 byte vectors where the
   target has them, plain loops elsewhere), the honors' kind count, thirteen
   orphans and the knitted straight's rest.  C because the SSE2 path is
   intrinsics, and because the meld count M must be a compile-time constant
   in each inlined copy for the loops to unroll (Cython cannot force that). */
#ifndef MJFAST_SHANTEN_H
#define MJFAST_SHANTEN_H

#include <stdint.h>
#include <string.h>
#include "bits.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* The regular form: fewest tiles to add for M melds and a pair over four
   parts, from their records (lane m: m melds, lane 8 + m: m melds and
   the pair).  (a x b) and (c x d) in full, then only the entry M of
   their product.  M is a constant in each copy, so the loops unroll.

   With SSE2 a product is ten shifted byte-vector steps: B shifted by i
   lanes within each half meets a's entry i broadcast.  The vectors hold
   255 - distance, so the zeros a shift brings in read as "infinite",
   a saturating subtraction adds, and the max of complements is the min. */
#ifdef __SSE2__
/* entry i of a part's vector broadcast to every lane: from the vector
   with each byte doubled (lanes i and 8 + i as words i of lo / hi) */
#define MJ_BC0(W) _mm_shuffle_epi32(_mm_shufflelo_epi16(W, 0x00), 0x00)
#define MJ_BC1(W) _mm_shuffle_epi32(_mm_shufflelo_epi16(W, 0x55), 0x00)
#define MJ_BC2(W) _mm_shuffle_epi32(_mm_shufflelo_epi16(W, 0xAA), 0x00)
#define MJ_BC3(W) _mm_shuffle_epi32(_mm_shufflelo_epi16(W, 0xFF), 0x00)
#define MJ_BC4(W) _mm_shuffle_epi32(_mm_shufflehi_epi16(W, 0x00), 0xAA)
#define MJ_STEP(i) \
    acc = _mm_max_epu8(acc, _mm_subs_epu8(_mm_slli_epi64(Bc, 8 * (i)), MJ_BC##i(Al))); \
    acc = _mm_max_epu8(acc, _mm_subs_epu8(_mm_slli_epi64(Bh, 8 * (i)), MJ_BC##i(Ah)));
static MJFAST_ALWAYS_INLINE __m128i mjfast_mpc(const uint8_t* a, const __m128i Bc, const int M) {
    const __m128i A = _mm_loadu_si128((const __m128i*)a);
    const __m128i Al = _mm_unpacklo_epi8(A, A);     /* words: a[m] a[m], m = 0..7 */
    const __m128i Ah = _mm_unpackhi_epi8(A, A);     /* words: a[8 + m] a[8 + m] */
    const __m128i Bh = _mm_slli_si128(Bc, 8);       /* b without the pair, in the pair half */
    __m128i acc = _mm_setzero_si128();
    switch (M) {                                    /* falls through: entries M, ..., 0 */
        case 4: MJ_STEP(4) /* fall through */
        case 3: MJ_STEP(3) /* fall through */
        case 2: MJ_STEP(2) /* fall through */
        case 1: MJ_STEP(1) /* fall through */
        default: MJ_STEP(0)
    }
    return acc;
}
static MJFAST_ALWAYS_INLINE int mjfast_reg_n(const uint8_t* a, const uint8_t* b, const uint8_t* c,
                                         const uint8_t* d, const int M) {
    const __m128i ones = _mm_set1_epi8((char)0xFF);
    uint8_t x[16], y[16];
    _mm_storeu_si128((__m128i*)x, _mm_xor_si128(mjfast_mpc(a, _mm_xor_si128(_mm_loadu_si128((const __m128i*)b), ones), M), ones));
    _mm_storeu_si128((__m128i*)y, _mm_xor_si128(mjfast_mpc(c, _mm_xor_si128(_mm_loadu_si128((const __m128i*)d), ones), M), ones));
    int best = 60, t;
    for (int k = 0; k <= M; ++k) {
        t = x[k] + y[8 + M - k]; best = t < best ? t : best;
        t = x[8 + k] + y[M - k]; best = t < best ? t : best;
    }
    return best;
}
#else
static MJFAST_ALWAYS_INLINE int mjfast_reg_n(const uint8_t* a, const uint8_t* b, const uint8_t* c,
                                         const uint8_t* d, const int M) {
    int cd0[5], cd1[5], best = 60;
    for (int k = 0; k <= M; ++k) {
        int y0 = 60, y1 = 60, t;
        for (int i = 0; i <= k; ++i) {
            t = c[i] + d[k - i];         y0 = t < y0 ? t : y0;
            t = c[i] + d[8 + k - i];     y1 = t < y1 ? t : y1;
            t = c[8 + i] + d[k - i];     y1 = t < y1 ? t : y1;
        }
        cd0[k] = y0; cd1[k] = y1;
    }
    for (int k = 0; k <= M; ++k) {
        int x0 = 60, x1 = 60, t;
        for (int i = 0; i <= k; ++i) {
            t = a[i] + b[k - i];         x0 = t < x0 ? t : x0;
            t = a[i] + b[8 + k - i];     x1 = t < x1 ? t : x1;
            t = a[8 + i] + b[k - i];     x1 = t < x1 ? t : x1;
        }
        t = x0 + cd1[M - k]; best = t < best ? t : best;
        t = x1 + cd0[M - k]; best = t < best ? t : best;
    }
    return best;
}
#endif
static inline int mjfast_reg(const uint8_t* a, const uint8_t* b, const uint8_t* c, const uint8_t* d, int M) {
    switch (M) {
        case 4: return mjfast_reg_n(a, b, c, d, 4);
        case 3: return mjfast_reg_n(a, b, c, d, 3);
        case 2: return mjfast_reg_n(a, b, c, d, 2);
        case 1: return mjfast_reg_n(a, b, c, d, 1);
        default: return mjfast_reg_n(a, b, c, d, 0);
    }
}
/* number of nonzero bytes among the 7 honor counts (c[27..33], each <= 4) */
static inline int mjfast_honor_kinds(const uint8_t* c) {
    uint64_t w;
    memcpy(&w, c + 26, 8);
    w = (w | (w >> 1) | (w >> 2)) & 0x0101010101010100ULL;
    return (int)((w * 0x0101010101010101ULL) >> 56);
}
/* thirteen orphans: 14 - kinds held - (one of them held twice or more) */
static inline int mjfast_orphans_dist(const uint8_t* c) {
    static const uint8_t T[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
    int kinds = 0, any = 0;
    for (int i = 0; i < 13; ++i) {
        int v = c[T[i]];
        kinds += v != 0;
        any |= v;                   /* 2, 3, 4 set bit 1 or 2; 1 sets only bit 0 */
    }
    return 14 - kinds - ((any & 6) != 0);
}
#define MJFAST_MIN(a, b) ((a) < (b) ? (a) : (b))
/* a knitted straight's rest over four parts with (pair, meld, both)
   distances P, M, B: one meld and the pair, in one part or in two */
static inline int mjfast_rest1(const int* P, const int* M, const int* B) {
    int r = MJFAST_MIN(MJFAST_MIN(B[0], B[1]), MJFAST_MIN(B[2], B[3]));
    int p01 = MJFAST_MIN(P[0], P[1]), p23 = MJFAST_MIN(P[2], P[3]);
    /* the pair in a part other than the meld's */
    r = MJFAST_MIN(r, M[0] + MJFAST_MIN(P[1], p23));
    r = MJFAST_MIN(r, M[1] + MJFAST_MIN(P[0], p23));
    r = MJFAST_MIN(r, M[2] + MJFAST_MIN(P[3], p01));
    r = MJFAST_MIN(r, M[3] + MJFAST_MIN(P[2], p01));
    return r;
}
/* beside one meld: only the pair */
static inline int mjfast_rest0(const int* P) {
    return MJFAST_MIN(MJFAST_MIN(P[0], P[1]), MJFAST_MIN(P[2], P[3]));
}
#endif /* MJFAST_SHANTEN_H */
