/* tablecache.h: the checksum that the tables' disk cache stores beside
   each section and checks on load.  C because it runs over tens of
   megabytes at every cached start-up: four independent 64-bit lanes over
   words read with memcpy, which Cython would spell with aliasing casts. */
#ifndef MJFAST_TABLECACHE_H
#define MJFAST_TABLECACHE_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "bits.h"

/* A fast 64-bit checksum of n bytes (not cryptographic: it catches a
   truncated or damaged file, nobody forging one).  Four independent
   lanes of xor-multiply-rotate over 8-byte words, a small part of a
   load; the tail bytes and n folded in, then a final mix. */
static uint64_t mjfast_checksum(const void* data, size_t n, uint64_t seed) {
    const unsigned char* p = (const unsigned char*)data;
    const uint64_t K1 = 0x9E3779B97F4A7C15ull, K2 = 0xC2B2AE3D27D4EB4Full;
    uint64_t a = seed ^ K1, b = seed + K2, c = seed ^ 0x165667B19E3779F9ull, d = seed - K1;
    uint64_t w0, w1, w2, w3, h;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        memcpy(&w0, p + i, 8); memcpy(&w1, p + i + 8, 8);
        memcpy(&w2, p + i + 16, 8); memcpy(&w3, p + i + 24, 8);
        a = mjfast_rotl64((a ^ w0) * K1, 31);
        b = mjfast_rotl64((b ^ w1) * K1, 31);
        c = mjfast_rotl64((c ^ w2) * K1, 31);
        d = mjfast_rotl64((d ^ w3) * K1, 31);
    }
    h = a ^ mjfast_rotl64(b, 17) ^ mjfast_rotl64(c, 31) ^ mjfast_rotl64(d, 47) ^ ((uint64_t)n * K2);
    for (; i < n; i++)
        h = mjfast_rotl64((h ^ p[i]) * K1, 23);
    h ^= h >> 33; h *= 0xFF51AFD7ED558CCDull; h ^= h >> 33; h *= 0xC4CEB9FE1A85EC53ull; h ^= h >> 33;
    return h;
}
#endif /* MJFAST_TABLECACHE_H */
