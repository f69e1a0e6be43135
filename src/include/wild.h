/* wild.h: the wildcard engine's word-at-a-time reads of a 34-count row
   (which kinds are present, how many counts are odd, whether any count is
   over a limit).  C because each reads eight counts as one 64-bit word
   (memcpy, then byte-parallel arithmetic), which Cython cannot spell
   without pointer casts that break strict aliasing.  Every count is 0..4,
   which the byte tricks below rely on. */
#ifndef MJFAST_WILD_H
#define MJFAST_WILD_H

#include <stdint.h>
#include <string.h>

/* bit t set when c[t] != 0, for 34 counts, eight at a time */
static inline uint64_t mjfast_w_present(const unsigned char* c) {
    unsigned long long p = 0, w, x;
    int i;
    for (i = 0; i < 4; ++i) {
        memcpy(&w, c + 8 * i, 8);
        /* each byte <= 4: bit 7 of (b + 0x7F) set iff b != 0 */
        x = ((w + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) >> 7;
        /* gather the eight low bits of the bytes */
        x = (x * 0x0102040810204080ULL) >> 56;
        p |= x << (8 * i);
    }
    p |= (unsigned long long)(c[32] != 0) << 32;
    p |= (unsigned long long)(c[33] != 0) << 33;
    return p;
}
/* number of odd counts and whether any count is above `lim` (lim 1 or 2) */
static inline int mjfast_w_odd(const unsigned char* c) {
    unsigned long long w, acc = 0;
    int i;
    for (i = 0; i < 4; ++i) { memcpy(&w, c + 8 * i, 8); acc += w & 0x0101010101010101ULL; }
    return (int)((acc * 0x0101010101010101ULL) >> 56) + (c[32] & 1) + (c[33] & 1);
}
static inline int mjfast_w_over(const unsigned char* c, unsigned char lim) {
    /* any count above lim (1 or 2); every count is <= 4 */
    unsigned long long w, m = 0, three = 0;
    int i;
    for (i = 0; i < 4; ++i) {
        memcpy(&w, c + 8 * i, 8);
        m |= w;
        three |= w & (w >> 1);          /* bits 0 and 1 both set: a 3 */
    }
    if (lim == 1)
        return (m & 0xFEFEFEFEFEFEFEFEULL) != 0 || c[32] > 1 || c[33] > 1;
    return (m & 0xFCFCFCFCFCFCFCFCULL) != 0 || (three & 0x0101010101010101ULL) != 0 || c[32] > 2 || c[33] > 2;
}

#endif /* MJFAST_WILD_H */
