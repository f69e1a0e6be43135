/* fankernel/readings.h: the state of the readings' split table (its hash
   slots and lists, allocated by mjfast._tables), the packed-set lookups and the prefetch
   of the split table before a batch.  C because the tables are statics the
   nogil kernel reads at fixed addresses, and the 8- and 16-byte stores and
   the prefetch loop are memcpy / compiler-builtin work. */
#ifndef MJFAST_FK_READINGS_H
#define MJFAST_FK_READINGS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "../bits.h"

static const uint32_t mjfast_pow5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
static uint64_t* mjfast_part_slot = NULL;    /* the hash of suit patterns (filled by _build_partitions) */
static uint32_t* mjfast_part_list = NULL;    /* the splits of the patterns with several */
/* two 5-bit set fields of a split word (rank * 2 + chow) -> their two packs
   as 8 bytes (type, tile at base 0, melded = 0; the last two bytes 0) */
static uint64_t mjfast_two_packs[1024];
/* the honors' pung mask (bit t: a pung of tile 27 + t) -> their packs, in
   16 bytes (the bytes past its pungs are scratch: P_PUNG of tile 27) */
static uint8_t mjfast_honor_packs[128][16];
static inline void mjfast_store8(void* p, uint64_t v) { memcpy(p, &v, 8); }
static inline void mjfast_store16(void* p, const void* src) { memcpy(p, src, 16); }
static void mjfast_prefetch_lines(const void* start, size_t nbytes) {
    const char* p = (const char*)start;
    size_t k;
    if (p == NULL)
        return;
    for (k = 0; k < nbytes; k += 64)
        mjfast_prefetch(p + k);
}

#endif /* MJFAST_FK_READINGS_H */
