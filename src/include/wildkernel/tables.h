/* wildkernel/tables.h: where the wildcard kernels (src/wildkernel/) find
   their tables.

   mjfast._wild builds the win masks and the shanten steps from mjfast._tables'
   distance tables (each kind on first use, under its lock) and stores their
   addresses here, with those of the distance tables themselves.  Static, so
   one copy per module that includes this (only _wild): the inline kernels
   read statics of their own module at fixed addresses inside their nogil
   loops, as when they were written in _wild.pyx.  The knitted arrangements'
   tables are filled once when _wild loads (_init_knit, wildkernel/tables.pxd). */
#ifndef MJFAST_WK_TABLES_H
#define MJFAST_WK_TABLES_H

#include <stdint.h>

static const uint8_t* mjfast_wk_dist = NULL;    /* suit key -> 10 distances [m * 2 + p] (mjfast._tables) */
static const uint8_t* mjfast_wk_hdist = NULL;   /* the honors' */
static const uint16_t* mjfast_wk_emask = NULL;  /* suit key -> exact completions, bit m + 5p */
static const uint16_t* mjfast_wk_hemask = NULL; /* honor key -> the same */
static const uint8_t* mjfast_wk_wstep = NULL;   /* suit key * 10 + 2m + p -> bit j - 1: the j-th wildcard lowers it */
static const uint8_t* mjfast_wk_hwstep = NULL;  /* the honors' */

static const int mjfast_wk_p5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};

static int mjfast_wk_knit_tiles[6][9];          /* arrangement a: the tile index of its nine tiles */
static uint64_t mjfast_wk_knit_mask[6];         /* the same as a 34-bit mask */
static int mjfast_wk_knit_suit[6][3];           /* arrangement a: the suit of triple j (ranks j, j+3, j+6) */
/* the thirteen orphans' tiles (1 and 9 of each suit, the honors), and as a 34-bit mask */
static const int mjfast_wk_orphans[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static const uint64_t mjfast_wk_orphan_mask = 0x3FC060301ULL;
/* the 27 suited tiles as a 34-bit mask */
static const uint64_t mjfast_wk_suited_mask = 0x7FFFFFFULL;

#endif /* MJFAST_WK_TABLES_H */
