/* tables.h: where a compiled module finds the lookup tables.

   mjfast._tables builds the tables once per process (or reads them from the
   disk cache) and publishes their addresses.  Every module whose inline
   kernels read them (src/handkernel/*.pxd: the win check, the waits, shanten)
   keeps its own copy of those addresses here -- static, so one copy per
   module -- filled once by bind (handkernel/tables.pxd) before its first
   kernel call.  A kernel then reads a static of its own module at a fixed
   address, as it did when every kernel was compiled into one module, instead
   of calling into another module per hand or loading the addresses through
   a pointer to the other module's state. */
#ifndef MJFAST_TABLES_H
#define MJFAST_TABLES_H

#include <stdint.h>

static const uint8_t* mjfast_dist = NULL;      /* suit key -> 10 distances [m * 2 + p] */
static const uint8_t* mjfast_hdist = NULL;     /* the honors' */
static const uint8_t* mjfast_flag2 = NULL;     /* suit key -> 2 win-flag bits */
static const uint8_t* mjfast_hflag = NULL;     /* honor key -> win flags */
static const uint32_t* mjfast_wf = NULL;       /* suit key -> wait masks and flags in one word */
static const uint8_t* mjfast_hwmask = NULL;    /* honor key -> 2 wait masks */
static const uint8_t* mjfast_srec = NULL;      /* ranked suit pattern -> 16-byte shanten record */
static const uint8_t* mjfast_hrec = NULL;      /* honor key -> record */
static const int32_t* mjfast_lo_rank = NULL;   /* the ranking of the suit patterns */
static const int32_t* mjfast_hi_off = NULL;
static int mjfast_tables_bound = 0;            /* set last, when all of the above are */

/* the exact tables (never a fifth copy): bound on their first use */
static const uint8_t* mjfast_xdist = NULL;
static const uint8_t* mjfast_xhdist = NULL;
static const uint8_t* mjfast_xsrec = NULL;
static const uint8_t* mjfast_xhrec = NULL;
static int mjfast_exact_bound = 0;

static const int mjfast_p5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};

#endif /* MJFAST_TABLES_H */
