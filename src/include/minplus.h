/* minplus.h: the min-plus product of two (melds, pair) distance vectors in
   [p * 5 + m] layout, the step that combines the parts of a hand in the
   decision tables.  C because the meld bound M must be a compile-time
   constant in the common copy (M == 4) for the compiler to unroll the
   loops, which needs a forced inline (MJFAST_ALWAYS_INLINE, bits.h). */
#ifndef MJFAST_MINPLUS_H
#define MJFAST_MINPLUS_H

#include "bits.h"

static MJFAST_ALWAYS_INLINE void mjfast_mp2_n(int* o, const int* a, const int* b, const int M) {
    for (int k = 0; k <= M; ++k) {
        int v0 = 60, v1 = 60, t;
        for (int i = 0; i <= k; ++i) {
            t = a[i] + b[k - i];         v0 = t < v0 ? t : v0;
            t = a[i] + b[5 + k - i];     v1 = t < v1 ? t : v1;
            t = a[5 + i] + b[k - i];     v1 = t < v1 ? t : v1;
        }
        o[k] = v0;
        o[5 + k] = v1;
    }
}
/* four melds to find (no meld yet) is the common case: its loops are
   unrolled by the compiler with the bound known */
static inline void mjfast_mp2(int* o, const int* a, const int* b, int M) {
    if (M == 4) mjfast_mp2_n(o, a, b, 4);
    else mjfast_mp2_n(o, a, b, M);
}
#endif /* MJFAST_MINPLUS_H */
