/* bits.h: the bit helpers of every compiled module (count trailing zeros,
   population count, rotate, prefetch, forced inlining), each defined once.
   They are C rather than Cython because each is one compiler builtin or a
   few word operations that must inline into the kernels' inner loops, and
   the right spelling depends on the compiler: GCC and clang have builtins,
   MSVC has intrinsics, anything else gets the portable loop.  Every module
   that includes this header gets its own static inline copy, so the
   compiler sees the body in the same translation unit as the caller.
   (MJFAST_PORTABLE_BITS, defined before the include, selects the portable
   branches on any compiler: tests/test_c_headers.py checks them so.) */
#ifndef MJFAST_BITS_H
#define MJFAST_BITS_H

#include <stdint.h>
#if defined(_MSC_VER) && !defined(__clang__) && !defined(MJFAST_PORTABLE_BITS)
#include <intrin.h>
#endif

/* always inline (where the compiler takes the attribute): the kernels rely
   on their small loops being unrolled with the bound known at the call */
#if defined(__GNUC__)
#define MJFAST_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define MJFAST_ALWAYS_INLINE inline
#endif

/* index of the lowest set bit; x must not be 0 */
static inline int mjfast_ctz64(uint64_t x) {
#if !defined(MJFAST_PORTABLE_BITS) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_ctzll(x);
#elif !defined(MJFAST_PORTABLE_BITS) && defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
#else
    int n = 0;
    while (!(x & 1)) { x >>= 1; ++n; }
    return n;
#endif
}

/* SWAR bit count: without -mpopcnt, __builtin_popcountll is a library
   call, and the wheels are built for the baseline instruction set */
static inline int mjfast_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* rotate left by r (0 < r < 64) */
static inline uint64_t mjfast_rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* prefetch the cache line holding p, for reading, into every cache level */
#if !defined(MJFAST_PORTABLE_BITS) && (defined(__GNUC__) || defined(__clang__))
#define mjfast_prefetch(p) __builtin_prefetch((const void*)(p), 0, 3)
#else
#define mjfast_prefetch(p) ((void)0)
#endif

#endif /* MJFAST_BITS_H */
