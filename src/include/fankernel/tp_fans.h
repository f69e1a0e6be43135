/* fankernel/tp_fans.h: the two-player fan kernel's tables (points, the
   exclusion rows as one 64-bit word per fan, the order of the exclusion
   pass).  C statics for the same reason as the MCR tables (mcr_fans.h):
   plain arrays at fixed addresses for the nogil kernel, filled when mjfast._fans
   loads. */
#ifndef MJFAST_FK_TP_FANS_H
#define MJFAST_FK_TP_FANS_H

#include <stdint.h>

static int16_t mjfast_tp_points[64];
static uint64_t mjfast_tp_excl[64];
static int mjfast_tp_order[64];
static int mjfast_tp_n_order;

#endif /* MJFAST_FK_TP_FANS_H */
